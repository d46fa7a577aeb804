import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import type { Clock } from '../market-data/clock.js';
import { MARKET_CLOCK } from '../market-data/market-data.constants.js';
import { LookerStreamClock } from './looker-stream.clock.js';
import { LookerStreamsService } from './looker-streams.service.js';
import { LookerEntity } from './looker.entity.js';
import { LOOKER_STREAM_CLOCK } from './lookers.constants.js';
import { LookersController } from './lookers.controller.js';
import { LookersService } from './lookers.service.js';

/**
 * Lookers: CRUD and the live per-looker stream. Reads quotes from the (global) market-data
 * module's QuoteBook; the stream clock runs on the market clock so staleness and the beat agree.
 */
@Module({
  imports: [TypeOrmModule.forFeature([LookerEntity])],
  controllers: [LookersController],
  providers: [
    {
      provide: LOOKER_STREAM_CLOCK,
      inject: [APP_CONFIG, MARKET_CLOCK],
      useFactory: (config: AppConfig, clock: Clock) =>
        new LookerStreamClock(config.lookers.streamIntervalMs, () => clock.now()),
    },
    LookerStreamsService,
    LookersService,
  ],
  exports: [LookerStreamsService],
})
export class LookersModule {}
