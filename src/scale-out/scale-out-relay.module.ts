import { Module } from '@nestjs/common';
import { RealtimeModule } from '../realtime/realtime.module.js';
import { MarketRelay } from './market-relay.js';
import { OpportunityRelay } from './opportunity-relay.js';

/**
 * Issue 20: the relays between an ingest process and its API instances. Both do nothing with
 * ROLE=all, so a single process runs exactly as before.
 */
@Module({
  imports: [RealtimeModule],
  providers: [MarketRelay, OpportunityRelay],
  exports: [MarketRelay],
})
export class ScaleOutRelayModule {}
