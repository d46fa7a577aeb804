import { dec, roundAmount } from '../common/money/money.js';
import type { CurrencyNetwork, MarketDataSource, TradingFee } from './market-data-source.js';
import type { ExchangeName } from '../market-model/exchanges.js';
import type { VenueCoin } from './contract-identity.engine.js';
import type { ContractSource } from './name-collisions.js';
import {
  DEFAULT_TAKER_FEE_PERCENT,
  DEFAULT_WITHDRAWAL_FEE_USD,
  type RouteCosts,
  type RouteCostsProvider,
  type SpotRoute,
} from './route-costs.js';

/** The part of the market-data source the costs come from. */
export type CostsSource = Pick<MarketDataSource, 'fetchTradingFees' | 'fetchNetworks'>;

/** Which of the two figures a refresh reads; each has its own timer. */
export type CostsKind = 'fees' | 'networks';

interface ExchangeCosts {
  /** Taker % by ticker; absent: not known. */
  fees: Map<string, number>;
  /** Networks by asset; absent: not known. */
  networks: Map<string, CurrencyNetwork[]>;
}

/** How the base asset of a route moves from the buy exchange to the sell exchange. */
export interface RouteTransfer {
  /** The cheapest network open for withdrawal on the buy side and deposit on the sell side; null: none known. */
  network: string | null;
  /** True only when such a network is KNOWN to be open (unknown states are not transferable). */
  transferable: boolean;
  /**
   * The `recorders` rule's executable: like `transferable`, but unknown networks on either side count as open, so the
   * recorder never holds a route back for lack of information.
   */
  executable: boolean;
  /** Withdrawal fee in base units; null: unknown, the `cost-defaults` rule default (1 USD) applies and the figure is estimated. */
  withdrawalFee: number | null;
}

/**
 * Route costs from the exchanges' own fees and networks (rules: recorders): market data, kept beside the quote
 * book and read by the history recorder and the live opportunity stream. What is not known (the
 * source offers no such call, the call failed before any success, the market or asset is missing)
 * falls back to the `cost-defaults` rule defaults and is marked estimated. A failed refresh keeps the previous
 * figures: fees and network states change rarely, and stale beats estimated.
 */
export class MarketCostsBook implements RouteCostsProvider, ContractSource {
  private readonly byExchange = new Map<string, ExchangeCosts>();
  /** Bumped on every successful networks refresh: contract addresses may have changed. */
  contractsVersion = 0;

  constructor(private readonly source: CostsSource) {}

  /** Refreshes both figures of one exchange; returns the calls that failed, for the caller to log. */
  async refresh(exchange: ExchangeName): Promise<string[]> {
    const failed = await Promise.all([this.refreshKind(exchange, 'fees'), this.refreshKind(exchange, 'networks')]);
    return failed.filter((f): f is string => f !== null);
  }

  /** Refreshes one figure of one exchange; returns the failure to log, or null. */
  async refreshKind(exchange: ExchangeName, kind: CostsKind): Promise<string | null> {
    const costs = this.costsOfExchange(exchange);
    try {
      if (kind === 'fees') {
        const fees = await this.source.fetchTradingFees?.(exchange);
        if (fees) costs.fees = feesByTicker(fees);
      } else {
        const networks = await this.source.fetchNetworks?.(exchange);
        if (networks) {
          costs.networks = networksByAsset(networks);
          this.contractsVersion++;
        }
      }
      return null;
    } catch (error) {
      return `${kind}: ${String(error)}`;
    }
  }

  /** The exchange's spot taker fee for the ticker, in percent; undefined while unknown. */
  takerFeeOf(exchange: string, ticker: string): number | undefined {
    return this.byExchange.get(exchange)?.fees.get(ticker);
  }

  costsOf(route: SpotRoute, buyAsk: number): RouteCosts {
    const buyFee = this.takerFeeOf(route.buyExchange, route.ticker);
    const sellFee = this.takerFeeOf(route.sellExchange, route.ticker);
    const transfer = this.transferOf(route);
    // The fee in USD at the buy ask, or the default USD fee in base units: the money rule, decimal, rounded once.
    const known = transfer.withdrawalFee;
    return {
      buyFeePercent: buyFee ?? DEFAULT_TAKER_FEE_PERCENT,
      sellFeePercent: sellFee ?? DEFAULT_TAKER_FEE_PERCENT,
      withdrawalFee: known ?? roundAmount(dec(DEFAULT_WITHDRAWAL_FEE_USD).div(buyAsk)),
      withdrawalFeeUsd: known === null ? DEFAULT_WITHDRAWAL_FEE_USD : roundAmount(dec(known).times(buyAsk)),
      feesEstimated: buyFee === undefined || sellFee === undefined || transfer.withdrawalFee === null,
      executable: transfer.executable,
    };
  }

  /**
   * The network of a route: among the networks open for withdrawal on the buy exchange and for
   * deposit on the sell exchange, the one with the lowest known withdrawal fee (ties and unknown
   * fees by name, so the answer does not depend on the exchange's listing order). With no such
   * network the fee is still the cheapest of the buy side's networks, as the recorder has always
   * charged it; with none known, the `recorders` rule default.
   */
  transferOf(route: SpotRoute): RouteTransfer {
    const asset = baseOf(route.ticker);
    const out = this.byExchange.get(route.buyExchange)?.networks.get(asset);
    const into = this.byExchange.get(route.sellExchange)?.networks.get(asset);
    if (!out || !into) return { network: null, transferable: false, executable: true, withdrawalFee: null };
    let best: CurrencyNetwork | null = null;
    for (const n of out) {
      if (!n.withdrawEnabled || !into.some((i) => i.network === n.network && i.depositEnabled)) continue;
      if (best === null || cheaper(n, best)) best = n;
    }
    if (best) return { network: best.network, transferable: true, executable: true, withdrawalFee: best.withdrawFee };
    const fees = out.map((n) => n.withdrawFee).filter((f): f is number => f !== null);
    return { network: null, transferable: false, executable: false, withdrawalFee: fees.length > 0 ? Math.min(...fees) : null };
  }

  /** Every exchange's assets that have at least one contract address, for the coin-identity rule. */
  venueCoins(): VenueCoin[] {
    const out: VenueCoin[] = [];
    for (const [exchange, costs] of this.byExchange) {
      for (const [asset, networks] of costs.networks) {
        const contracts = networks.flatMap((n) => (n.contract ? [{ network: n.network, address: n.contract }] : []));
        if (contracts.length > 0) out.push({ exchange: exchange as ExchangeName, asset, contracts });
      }
    }
    return out;
  }

  private costsOfExchange(exchange: ExchangeName): ExchangeCosts {
    let costs = this.byExchange.get(exchange);
    if (!costs) {
      costs = { fees: new Map<string, number>(), networks: new Map<string, CurrencyNetwork[]>() };
      this.byExchange.set(exchange, costs);
    }
    return costs;
  }
}

function baseOf(ticker: string): string {
  const dash = ticker.indexOf('-');
  return dash < 0 ? ticker : ticker.slice(0, dash);
}

/** A known fee beats an unknown one; then the lower fee; then the name. */
function cheaper(a: CurrencyNetwork, b: CurrencyNetwork): boolean {
  if (a.withdrawFee !== null && b.withdrawFee === null) return true;
  if (a.withdrawFee === null && b.withdrawFee !== null) return false;
  if (a.withdrawFee !== null && b.withdrawFee !== null && a.withdrawFee !== b.withdrawFee) return a.withdrawFee < b.withdrawFee;
  return a.network < b.network;
}

function feesByTicker(fees: readonly TradingFee[]): Map<string, number> {
  return new Map(fees.map((f) => [f.ticker, f.takerPercent]));
}

function networksByAsset(networks: readonly CurrencyNetwork[]): Map<string, CurrencyNetwork[]> {
  const byAsset = new Map<string, CurrencyNetwork[]>();
  for (const n of networks) byAsset.set(n.asset, [...(byAsset.get(n.asset) ?? []), n]);
  return byAsset;
}
