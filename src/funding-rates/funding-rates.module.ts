import { Module } from '@nestjs/common';
import { FundingRatesController } from './funding-rates.controller.js';
import { FundingRatesJob } from './funding-rates.job.js';
import { FundingRatesService } from './funding-rates.service.js';
import { FundingSettlementRepository } from './funding-settlement.repository.js';
import { FundingSettlementsService } from './funding-settlements.service.js';

/**
 * Funding-rate ranking. Market data (source, quote book, clock) comes from the global
 * MarketDataModule; the rate limit guard from the global RateLimitModule.
 */
@Module({
  controllers: [FundingRatesController],
  providers: [FundingRatesService, FundingRatesJob, FundingSettlementsService, FundingSettlementRepository],
  exports: [FundingRatesService, FundingSettlementsService],
})
export class FundingRatesModule {}
