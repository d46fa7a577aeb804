import { Global, Module } from '@nestjs/common';
import { SseHub } from './sse-hub.service.js';

@Global()
@Module({ providers: [SseHub], exports: [SseHub] })
export class SseModule {}
