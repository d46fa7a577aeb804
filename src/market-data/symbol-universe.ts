import type { ExchangeName } from '../market-model/exchanges.js';
import { venueOf } from '../venues/registry.js';
import type { MarketListing, VolumeEntry } from './market-data-source.js';

export interface ExchangeUniverseInput {
  exchange: ExchangeName;
  markets: readonly MarketListing[];
  volumes: readonly VolumeEntry[];
}

/**
 * The `auto` symbol universe: USDT pairs listed on the spot market of at least two exchanges
 * (cross-exchange arbitrage) or with spot and perpetual on one (basis trades), ranked by the
 * sum of their 24 h quote volume over every exchange and market, capped at `max`.
 * Ties fall back to the ticker so the choice is deterministic.
 */
export function selectUniverse(inputs: readonly ExchangeUniverseInput[], max: number): string[] {
  const spotOn = new Map<string, number>();
  const basisOn = new Set<string>();
  const volume = new Map<string, number>();
  for (const { markets, volumes } of inputs) {
    const spot = new Set<string>();
    const futures = new Set<string>();
    for (const m of markets) {
      if (!m.ticker.endsWith('-USDT') || m.leftOut !== undefined) continue;
      (m.market === 'SPOT' ? spot : futures).add(m.ticker);
    }
    for (const ticker of spot) {
      spotOn.set(ticker, (spotOn.get(ticker) ?? 0) + 1);
      if (futures.has(ticker)) basisOn.add(ticker);
    }
    for (const v of volumes) {
      if (Number.isFinite(v.quoteVolume)) volume.set(v.ticker, (volume.get(v.ticker) ?? 0) + v.quoteVolume);
    }
  }
  const eligible = [...spotOn.keys()].filter((t) => (spotOn.get(t) ?? 0) >= 2 || basisOn.has(t));
  eligible.sort((a, b) => (volume.get(b) ?? 0) - (volume.get(a) ?? 0) || a.localeCompare(b));
  return eligible.slice(0, max);
}

/** Which of the chosen tickers each market of an exchange actually lists. */
export function tickersListed(markets: readonly MarketListing[], market: MarketListing['market'], universe: readonly string[]): string[] {
  const listed = new Set(markets.filter((m) => m.market === market && m.leftOut === undefined).map((m) => m.ticker));
  return universe.filter((t) => listed.has(t));
}

/** The spot ticker whose mid converts a USDC venue's prices (realtime/quote-currency.engine.ts). */
const RATE_TICKER = 'USDC-USDT';

/**
 * The tickers a venue is asked for, per market: the universe's `BASE-USDT` as the venue names it.
 * A USDC venue (its folder's `quoteCurrency`) lists `BASE-USDC`; while one is watched, the USDT
 * venues' spot also watch `USDC-USDT`, whose mid is the rate its prices are compared through.
 */
export function watchedTickers(
  exchange: ExchangeName, universe: readonly string[], exchanges: readonly ExchangeName[],
): { spot: string[]; futures: string[] } {
  if (venueOf(exchange).quoteCurrency === 'USDC') {
    const usdc = universe.filter((t) => t.endsWith('-USDT') && t !== RATE_TICKER).map((t) => `${t.slice(0, -'-USDT'.length)}-USDC`);
    return { spot: usdc, futures: usdc };
  }
  const needsRate = exchanges.some((e) => venueOf(e).quoteCurrency === 'USDC') && !universe.includes(RATE_TICKER);
  return { spot: needsRate ? [...universe, RATE_TICKER] : [...universe], futures: [...universe] };
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
