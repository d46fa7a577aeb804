import type { CurrencyNetwork, MarketDataSource, TradingFee } from '../market-data/market-data-source.js';
import type { ExchangeName } from '../market-data/exchanges.js';
import {
  DEFAULT_TAKER_FEE_PERCENT,
  DEFAULT_WITHDRAWAL_FEE_USD,
  type RouteCosts,
  type RouteCostsProvider,
  type SpotRoute,
} from './route-costs.js';

/** The part of the market-data source the costs come from. */
export type CostsSource = Pick<MarketDataSource, 'fetchTradingFees' | 'fetchNetworks'>;

interface ExchangeCosts {
  /** Taker % by ticker; absent: not known. */
  fees: Map<string, number>;
  /** Networks by asset; absent: not known. */
  networks: Map<string, CurrencyNetwork[]>;
}

interface Withdrawal {
  executable: boolean;
  /** Base units; null: unknown, the D8 default applies. */
  fee: number | null;
}

/**
 * Route costs from the exchanges' own fees and networks (D8), refreshed by a job. What is not
 * known (the source offers no such call, the call failed before any success, the market or asset
 * is missing) falls back to the D8 defaults and marks the sample estimated. A failed refresh keeps
 * the previous figures: fees and network states change rarely, and stale beats estimated.
 */
export class MarketCostsBook implements RouteCostsProvider {
  private readonly byExchange = new Map<string, ExchangeCosts>();

  constructor(private readonly source: CostsSource) {}

  /** Refreshes one exchange; returns the calls that failed, for the caller to log. */
  async refresh(exchange: ExchangeName): Promise<string[]> {
    const costs = this.byExchange.get(exchange) ?? { fees: new Map<string, number>(), networks: new Map<string, CurrencyNetwork[]>() };
    this.byExchange.set(exchange, costs);
    const [fees, networks] = await Promise.allSettled([
      this.source.fetchTradingFees?.(exchange) ?? Promise.resolve(null),
      this.source.fetchNetworks?.(exchange) ?? Promise.resolve(null),
    ]);
    const failed: string[] = [];
    if (fees.status === 'rejected') failed.push(`fees: ${String(fees.reason)}`);
    else if (fees.value) costs.fees = feesByTicker(fees.value);
    if (networks.status === 'rejected') failed.push(`networks: ${String(networks.reason)}`);
    else if (networks.value) costs.networks = networksByAsset(networks.value);
    return failed;
  }

  costsOf(route: SpotRoute, buyAsk: number): RouteCosts {
    const buyFee = this.byExchange.get(route.buyExchange)?.fees.get(route.ticker);
    const sellFee = this.byExchange.get(route.sellExchange)?.fees.get(route.ticker);
    const withdrawal = this.withdrawal(route);
    const withdrawalFee = withdrawal.fee ?? DEFAULT_WITHDRAWAL_FEE_USD / buyAsk;
    return {
      buyFeePercent: buyFee ?? DEFAULT_TAKER_FEE_PERCENT,
      sellFeePercent: sellFee ?? DEFAULT_TAKER_FEE_PERCENT,
      withdrawalFee,
      withdrawalFeeUsd: withdrawalFee * buyAsk,
      feesEstimated: buyFee === undefined || sellFee === undefined || withdrawal.fee === null,
      executable: withdrawal.executable,
    };
  }

  /**
   * D8: executable when withdrawal on the buy exchange and deposit on the sell exchange are open
   * on one common network; the fee is the cheapest such network's. Unknown networks on either
   * side cannot hold a route back, so it counts as executable at the default fee.
   */
  private withdrawal(route: SpotRoute): Withdrawal {
    const asset = route.ticker.split('-')[0] ?? route.ticker;
    const out = this.byExchange.get(route.buyExchange)?.networks.get(asset);
    const into = this.byExchange.get(route.sellExchange)?.networks.get(asset);
    if (!out || !into) return { executable: true, fee: null };
    const depositable = new Set(into.filter((n) => n.depositEnabled).map((n) => n.network));
    const open = out.filter((n) => n.withdrawEnabled && depositable.has(n.network));
    const fees = (open.length > 0 ? open : out).map((n) => n.withdrawFee).filter((f): f is number => f !== null);
    return { executable: open.length > 0, fee: fees.length > 0 ? Math.min(...fees) : null };
  }
}

function feesByTicker(fees: readonly TradingFee[]): Map<string, number> {
  return new Map(fees.map((f) => [f.ticker, f.takerPercent]));
}

function networksByAsset(networks: readonly CurrencyNetwork[]): Map<string, CurrencyNetwork[]> {
  const byAsset = new Map<string, CurrencyNetwork[]>();
  for (const n of networks) byAsset.set(n.asset, [...(byAsset.get(n.asset) ?? []), n]);
  return byAsset;
}
