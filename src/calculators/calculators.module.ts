import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { MarketDataModule } from '../market-data/market-data.module.js';
import { MarketSampleRepository } from '../market-data/market-sample.repository.js';
import { CalculatorEntity } from './calculator.entity.js';
import { CalculatorMarketData } from './calculator-market-data.service.js';
import { CalculatorStreamsService } from './calculator-streams.service.js';
import { LATEST_SAMPLE_READER } from './calculators.constants.js';
import { CalculatorsController } from './calculators.controller.js';
import { CalculatorsService } from './calculators.service.js';

/**
 * Calculator: saved positions, the one-off PNL reading and the PNL stream. Market data comes
 * from the sample recorder's repository (rules: quotes, recorders) through the narrow LatestSampleReader.
 */
@Module({
  // MarketDataModule is global; importing it here as well only makes the dependency explicit.
  imports: [TypeOrmModule.forFeature([CalculatorEntity]), MarketDataModule],
  controllers: [CalculatorsController],
  providers: [
    { provide: LATEST_SAMPLE_READER, useExisting: MarketSampleRepository },
    CalculatorMarketData,
    CalculatorsService,
    CalculatorStreamsService,
  ],
})
export class CalculatorsModule {}
