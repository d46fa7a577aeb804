import { Inject, Injectable, type PipeTransform } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '../../config/app-config.js';
import { type ExchangeName, oneOfExchanges, parseConfiguredExchange } from '../../market-model/exchanges.js';
import { AppError } from '../errors/app-error.js';

/**
 * Runs after the global validation: the `exchange` member the DTO found present must name one of the
 * configured venues (any case), the last check of the endpoint's documented order. A venue the
 * service does not watch has nothing to value, and the 400 lists the configured ones (rules: tickers).
 */
@Injectable()
export class ConfiguredExchangePipe implements PipeTransform<{ exchange: unknown }, { exchange: ExchangeName }> {
  private readonly exchanges: readonly ExchangeName[];

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.exchanges = config.marketData.exchanges;
  }

  transform<T extends { exchange: unknown }>(value: T): T & { exchange: ExchangeName } {
    const exchange = parseConfiguredExchange(value.exchange, this.exchanges);
    if (exchange === null) throw AppError.invalid(oneOfExchanges('exchange', this.exchanges));
    return Object.assign(value, { exchange });
  }
}
