import type { Exchange, FundingRate, MarketInterface } from 'ccxt';
import { dec, roundPrice } from '../../common/money/money.js';
import type { ExchangeName } from '../../market-model/exchanges.js';
import type { FundingSnapshot } from '../market-data-source.js';
import { fromCcxtSymbol, multiplierOfCcxtSymbol } from '../../market-model/ticker.js';
import { marketKind } from './ccxt-markets.js';
import { venueOf } from '../../venues/registry.js';
import type { FundingIntervalSource, VenueFunding } from '../../venues/venue.js';

/**
 * Funding of every perpetual through ccxt 4.5.84 (rules: funding). Where a venue states the
 * funding interval, and whether mark prices need a call of their own, is its folder's `funding`
 * (src/venues/<name>): ccxt's fetchFundingIntervals (a contract absent from it pays on the
 * venue's default schedule where it has one), the perpetual's instrument row (minutes, read fresh
 * each time because a venue may move a contract to a shorter interval when the rate hits its cap),
 * or the rate answer itself. Any failed call rejects the whole exchange, so the collector keeps
 * its previous values.
 */
interface Extra {
  intervalSeconds?: number | null;
  nextFundingTime?: number | null;
  markPrice?: number | null;
}


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

interface InstrumentMarkets {
  fetchFutureMarkets(params: Record<string, string>): Promise<MarketInterface[]>;
}

const hasFutureMarkets = (client: unknown): client is InstrumentMarkets =>
  typeof (client as Partial<InstrumentMarkets>).fetchFutureMarkets === 'function';

async function instrumentIntervals(client: Exchange, params: Record<string, string>): Promise<Map<string, Extra>> {
  const out = new Map<string, Extra>();
  if (!hasFutureMarkets(client)) return out;
  for (const m of await client.fetchFutureMarkets(params)) {
    const minutes = Number((m.info as Record<string, unknown> | undefined)?.fundingInterval);
    out.set(m.symbol, { intervalSeconds: Number.isFinite(minutes) && minutes > 0 ? minutes * 60 : null });
  }
  return out;
}

async function intervalExtras(client: Exchange, source: FundingIntervalSource): Promise<Map<string, Extra>> {
  switch (source.kind) {
    case 'intervals-call': {
      const listed = byInterval(await client.fetchFundingIntervals(undefined, source.params));
      if (source.nextTime) return listed;
      // Only the interval: the next time comes from the rate answer.
      return new Map([...listed].map(([s, e]) => [s, { intervalSeconds: e.intervalSeconds ?? null }]));
    }
    case 'instrument-minutes':
      return instrumentIntervals(client, source.params);
    case 'rate':
      return new Map();
  }
}

async function markExtras(client: Exchange, funding: VenueFunding): Promise<Map<string, Extra>> {
  const out = new Map<string, Extra>();
  if (!funding.markPrices) return out;
  for (const [symbol, t] of Object.entries(await client.fetchMarkPrices(undefined, funding.markPrices.params))) {
    out.set(symbol, { markPrice: num(t.markPrice) });
  }
  return out;
}

async function extrasOf(client: Exchange, funding: VenueFunding): Promise<Map<string, Extra>> {
  const [intervals, marks] = await Promise.all([intervalExtras(client, funding.interval), markExtras(client, funding)]);
  for (const [symbol, mark] of marks) intervals.set(symbol, { ...intervals.get(symbol), ...mark });
  return intervals;
}

function intervalOf(funding: VenueFunding, rate: FundingRate, extra: Extra | undefined): number | null {
  if (extra?.intervalSeconds !== undefined) return extra.intervalSeconds;
  if (funding.interval.kind === 'intervals-call' && funding.interval.defaultHours !== undefined) return funding.interval.defaultHours * 3600;
  return intervalSecondsOf(rate.interval);
}

function toSnapshot(funding: VenueFunding, market: MarketInterface, rate: FundingRate, extra: Extra | undefined): FundingSnapshot {
  const intervalSeconds = intervalOf(funding, rate, extra);
  return {
    contract: market.id ?? market.symbol,
    ticker: fromCcxtSymbol(market.symbol),
    fundingRate: num(rate.fundingRate),
    intervalSeconds,
    intervalSource: intervalSeconds === null ? 'unavailable' : 'exchange',
    nextFundingTime: extra?.nextFundingTime ?? time(rate[funding.nextTimeField ?? 'fundingTimestamp']),
    markPrice: perUnit(extra?.markPrice ?? num(rate.markPrice), multiplierOfCcxtSymbol(market.symbol)),
  };
}

/**
 * A lot's price (`1000PEPE`, `kPEPE`) per unit of the asset, as every other price of the service:
 * in decimal, so 0.0182 ÷ 1,000 is 0.0000182, not the double 0.000018200000000000002.
 */
function perUnit(price: number | null, multiplier: number): number | null {
  if (price === null || multiplier === 1) return price;
  return roundPrice(dec(price).div(multiplier));
}

/** One snapshot per perpetual the exchange both lists and reports a funding entry for. */
export async function fetchFundingSnapshots(
  exchange: ExchangeName,
  client: Exchange,
  markets: Record<string, MarketInterface | undefined>,
): Promise<FundingSnapshot[]> {
  const { funding } = venueOf(exchange);
  const [rates, extras] = await Promise.all([client.fetchFundingRates(undefined, funding.rateParams), extrasOf(client, funding)]);
  const out: FundingSnapshot[] = [];
  for (const [symbol, rate] of Object.entries(rates) as [string, FundingRate | undefined][]) {
    const market = markets[symbol];
    if (!rate || !market || marketKind(market, venueOf(exchange).quoteCurrency) !== 'FUTURES') continue;
    out.push(toSnapshot(funding, market, rate, extras.get(symbol)));
  }
  return out;
}
