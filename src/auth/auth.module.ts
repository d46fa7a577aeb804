import { Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { RedisLink } from '../redis/redis-link.js';
import { ApiTokenEntity } from './api-token.entity.js';
import { ApiTokensService } from './api-tokens.service.js';
import { AuthController } from './auth.controller.js';
import { AuthGuard } from './auth.guard.js';
import { FailedAttempts } from './failed-attempts.js';
import { CLOCK, type Clock, MemoryTicketStore, RedisTicketStore, StreamTickets, TICKET_STORE } from './stream-tickets.js';

/** Optional bearer tokens (AUTH_MODE): the global guard, the tokens and the stream tickets. */
@Module({
  imports: [TypeOrmModule.forFeature([ApiTokenEntity])],
  controllers: [AuthController],
  providers: [
    { provide: CLOCK, useValue: (() => Date.now()) satisfies Clock },
    {
      // Scale-out: a ticket issued by one instance must open a stream on another.
      provide: TICKET_STORE,
      inject: [RedisLink, CLOCK],
      useFactory: (redis: RedisLink, now: Clock) => (redis.enabled ? new RedisTicketStore(redis) : new MemoryTicketStore(now)),
    },
    {
      provide: FailedAttempts,
      inject: [APP_CONFIG, CLOCK],
      useFactory: (config: AppConfig, now: Clock) => new FailedAttempts(config.auth.failedPerMinute, now),
    },
    ApiTokensService,
    StreamTickets,
    { provide: APP_GUARD, useClass: AuthGuard },
  ],
})
export class AuthModule {}
