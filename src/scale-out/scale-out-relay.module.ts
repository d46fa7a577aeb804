import { Module } from '@nestjs/common';
import { RealtimeModule } from '../realtime/realtime.module.js';
import { FundingRatesModule } from '../funding-rates/funding-rates.module.js';
import { FundingRelay } from './funding-relay.js';
import { MarketRelay } from './market-relay.js';
import { OpportunityRelay } from './opportunity-relay.js';

/**
 * The relays between an ingest process and its API instances. Both do nothing with
 * ROLE=all, so a single process runs exactly as before.
 */
@Module({
  imports: [RealtimeModule, FundingRatesModule],
  providers: [MarketRelay, OpportunityRelay, FundingRelay],
  exports: [MarketRelay],
})
export class ScaleOutRelayModule {}
