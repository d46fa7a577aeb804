import type { Exchange, FundingRate, MarketInterface } from 'ccxt';
import type { ExchangeName } from '../../market-model/exchanges.js';
import type { FundingSnapshot } from '../market-data-source.js';
import { fromCcxtSymbol, multiplierOfCcxtSymbol } from '../../market-model/ticker.js';
import { marketKind } from './ccxt-markets.js';

/**
 * Funding of every USDT perpetual through ccxt 4.5.84 (rules: funding). Where each exchange states
 * the funding interval:
 * - binance: fetchFundingIntervals (/fapi/v1/fundingInfo) lists only contracts whose settings
 *   were adjusted; a contract absent from it pays on binance's standard 8 h schedule.
 * - bybit: `fundingInterval` (minutes) of the linear instrument, read fresh each time because
 *   bybit moves contracts to 4 h / 1 h when the rate hits its cap.
 * - okx: the rate response (next and following funding time); mark prices come from
 *   fetchMarkPrices, the rate response has none.
 * - gate: `funding_interval` of the contract, which is also its rate response.
 * - bitget: fetchFundingIntervals (current-fund-rate), which also gives the next funding time.
 * Any failed call rejects the whole exchange, so the collector keeps its previous values.
 */
interface Extra {
  intervalSeconds?: number | null;
  nextFundingTime?: number | null;
  markPrice?: number | null;
}

type ExtraReader = (client: Exchange) => Promise<Map<string, Extra>>;

const BINANCE_DEFAULT_INTERVAL_SECONDS = 8 * 3600;

const RATE_PARAMS: Readonly<Record<ExchangeName, Record<string, string>>> = {
  binance: { subType: 'linear' },
  bybit: { type: 'swap', subType: 'linear' },
  okx: { type: 'swap' },
  gate: { settle: 'usdt' },
  bitget: { productType: 'USDT-FUTURES' },
};

/** ccxt intervals are `8h`, or raw milliseconds when its table lacks the value (gate 2 h). */
export function intervalSecondsOf(interval: string | undefined): number | null {
  if (interval === undefined) return null;
  const hours = /^(\d+(?:\.\d+)?)h$/.exec(interval);
  const seconds = hours ? Number(hours[1]) * 3600 : /^\d+$/.test(interval) ? Number(interval) / 1000 : NaN;
  return Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds) : null;
}

const num = (value: number | undefined): number | null =>
  value !== undefined && Number.isFinite(value) ? value : null;
const time = (value: number | undefined): number | null => (value !== undefined && value > 0 ? value : null);

function byInterval(rates: Record<string, FundingRate | undefined>): Map<string, Extra> {
  const out = new Map<string, Extra>();
  for (const [symbol, r] of Object.entries(rates)) {
    if (r) out.set(symbol, { intervalSeconds: intervalSecondsOf(r.interval), nextFundingTime: time(r.fundingTimestamp) });
  }
  return out;
}

interface BybitMarkets {
  fetchFutureMarkets(params: Record<string, string>): Promise<MarketInterface[]>;
}

const hasFutureMarkets = (client: unknown): client is BybitMarkets =>
  typeof (client as Partial<BybitMarkets>).fetchFutureMarkets === 'function';

async function bybitIntervals(client: Exchange): Promise<Map<string, Extra>> {
  const out = new Map<string, Extra>();
  if (!hasFutureMarkets(client)) return out;
  for (const m of await client.fetchFutureMarkets({ category: 'linear' })) {
    const minutes = Number((m.info as Record<string, unknown> | undefined)?.fundingInterval);
    out.set(m.symbol, { intervalSeconds: Number.isFinite(minutes) && minutes > 0 ? minutes * 60 : null });
  }
  return out;
}

async function okxMarks(client: Exchange): Promise<Map<string, Extra>> {
  const out = new Map<string, Extra>();
  for (const [symbol, t] of Object.entries(await client.fetchMarkPrices(undefined, { type: 'swap' }))) {
    out.set(symbol, { markPrice: num(t.markPrice) });
  }
  return out;
}

const EXTRA: Readonly<Record<ExchangeName, ExtraReader>> = {
  binance: async (client) => {
    const listed = byInterval(await client.fetchFundingIntervals(undefined, { subType: 'linear' }));
    // Only the interval: the next time comes from premiumIndex.
    return new Map([...listed].map(([s, e]) => [s, { intervalSeconds: e.intervalSeconds ?? null }]));
  },
  bybit: bybitIntervals,
  okx: okxMarks,
  gate: () => Promise.resolve(new Map()),
  bitget: async (client) => byInterval(await client.fetchFundingIntervals(undefined, { productType: 'USDT-FUTURES' })),
};

function intervalOf(exchange: ExchangeName, rate: FundingRate, extra: Extra | undefined): number | null {
  if (extra?.intervalSeconds !== undefined) return extra.intervalSeconds;
  if (exchange === 'binance') return BINANCE_DEFAULT_INTERVAL_SECONDS;
  return intervalSecondsOf(rate.interval);
}

function toSnapshot(exchange: ExchangeName, market: MarketInterface, rate: FundingRate, extra: Extra | undefined): FundingSnapshot {
  const intervalSeconds = intervalOf(exchange, rate, extra);
  return {
    contract: market.id ?? market.symbol,
    ticker: fromCcxtSymbol(market.symbol),
    fundingRate: num(rate.fundingRate),
    intervalSeconds,
    intervalSource: intervalSeconds === null ? 'unavailable' : 'exchange',
    nextFundingTime: extra?.nextFundingTime ?? time(rate.fundingTimestamp),
    markPrice: perUnit(extra?.markPrice ?? num(rate.markPrice), multiplierOfCcxtSymbol(market.symbol)),
  };
}

/** A lot's price (`1000PEPE`) per unit of the asset, as every other price of the service. */
function perUnit(price: number | null, multiplier: number): number | null {
  return price === null ? null : price / multiplier;
}

/** One snapshot per USDT perpetual the exchange both lists and reports a funding entry for. */
export async function fetchFundingSnapshots(
  exchange: ExchangeName,
  client: Exchange,
  markets: Record<string, MarketInterface | undefined>,
): Promise<FundingSnapshot[]> {
  const [rates, extras] = await Promise.all([
    client.fetchFundingRates(undefined, RATE_PARAMS[exchange]),
    EXTRA[exchange](client),
  ]);
  const out: FundingSnapshot[] = [];
  for (const [symbol, rate] of Object.entries(rates) as [string, FundingRate | undefined][]) {
    const market = markets[symbol];
    if (!rate || !market || marketKind(market) !== 'FUTURES') continue;
    out.push(toSnapshot(exchange, market, rate, extras.get(symbol)));
  }
  return out;
}
