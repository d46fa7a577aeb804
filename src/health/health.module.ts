import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { DatabaseProbe } from './database-probe.js';
import { HealthController } from './health.controller.js';

@Module({ imports: [TerminusModule.forRoot({ logger: false })], controllers: [HealthController], providers: [DatabaseProbe] })
export class HealthModule {}
