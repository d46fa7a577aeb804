import type { MarketCostsBook } from '../market-data/market-costs.book.js';
import type { QuoteBook } from '../market-data/quote-book.js';
import type { RouteEpisode } from '../opportunity-history/route-episodes.js';
import { type ClosedEpisode, type Opportunity, profitPercentOf } from './arbitrage-detector.engine.js';
import type { OpportunityEventDto } from './dto/opportunity-event.dto.js';
import { grossSpread, netSpread } from './net-spread.engine.js';
import { type SizeInputs, sizeOf } from './opportunity-sizing.js';
import type { DepthService } from '../market-data/depth/depth.service.js';
import { type UsdcQuotes, transferNoteOf } from './usdc-quotes.js';

/** The order books an opportunity is sized from (DepthService), and the route events that decide which are held. */
export type OpportunityDepth = Pick<DepthService, 'routeOpened' | 'routeTouched' | 'routeEnded' | 'knownBook'>;

type Route = { ticker: string; buyExchange: string; sellExchange: string };

const routeKey = (r: Route): string => `${r.ticker}|${r.buyExchange}|${r.sellExchange}`;

/**
 * Prices what the detector finds, once per debounced event (never per tick): an event's net
 * spread, transfer network and state, cost estimate flag, episode age and `size` from the two
 * books; a closed episode's net spread at its gross peak and the size at that peak.
 */
export class OpportunityPricer {
  /** Per open route, its most profitable sized event so far: the episode's maxSizeUsdt at its peak. */
  private readonly peakSizes = new Map<string, { profit: number; maxSizeUsdt: number }>();

  constructor(
    private readonly costs: MarketCostsBook,
    private readonly book: QuoteBook,
    private readonly depth: OpportunityDepth | null,
    private readonly netReferenceUsdt: number,
    private readonly usdc: UsdcQuotes | null = null,
  ) {}

  /** The event of an opportunity at `now`, its route opened at `openedAt`, and the inputs its `size` came from. */
  eventOf(opportunity: Opportunity, now: number, openedAt: number): { event: OpportunityEventDto; sizing: SizeInputs | undefined } {
    const { ticker, buyExchange, sellExchange, buyPrice, sellPrice } = opportunity;
    const route = { ticker, buyExchange, sellExchange };
    const transfer = this.costs.transferOf(route);
    const buyFeePercent = this.costs.takerFeeOf(buyExchange, ticker);
    const sellFeePercent = this.costs.takerFeeOf(sellExchange, ticker);
    const net = netSpread({ buyPrice, sellPrice, buyFeePercent, sellFeePercent, withdrawalFee: transfer.withdrawalFee, referenceUsdt: this.netReferenceUsdt });
    const sizing = this.sizeInputsOf(opportunity, buyFeePercent, sellFeePercent, transfer.withdrawalFee, now);
    this.depth?.routeTouched(route, opportunity.profitPercentAskBid);
    // Field by field, not `{ ...opportunity, … }`: see bookQuote in quote-book.ts (one hidden
    // class for every event instead of one per event).
    const event: OpportunityEventDto = {
      ticker,
      buyExchange,
      sellExchange,
      buyPrice,
      sellPrice,
      profitPercentAskBid: profitPercentOf(buyPrice, sellPrice),
      volume: this.pairVolume(opportunity),
      timestamp: new Date(now).toISOString(),
      netProfitPercent: net.netPercent,
      network: transfer.network,
      transferable: transfer.transferable,
      costsEstimated: net.estimated,
      openedAt: new Date(openedAt).toISOString(),
      ageMs: now - openedAt,
      size: sizing ? sizeOf(sizing, this.netReferenceUsdt, 0) : null,
      quoteConversions: this.usdc?.conversionsOf(ticker, buyExchange, sellExchange) ?? [],
      transferNote: transferNoteOf(buyExchange, sellExchange),
    };
    if (event.size) this.notePeakSize(route, event.profitPercentAskBid, event.size.maxSizeUsdt);
    return { event, sizing };
  }

  /** A closed episode for the recorder: the net spread at the gross peak, with the costs known now. */
  episodeOf(e: ClosedEpisode): RouteEpisode {
    const route = { ticker: e.ticker, buyExchange: e.buyExchange, sellExchange: e.sellExchange };
    const transfer = this.costs.transferOf(route);
    const net = netSpread({
      buyPrice: e.peakBuyPrice,
      sellPrice: e.peakSellPrice,
      buyFeePercent: this.costs.takerFeeOf(e.buyExchange, e.ticker),
      sellFeePercent: this.costs.takerFeeOf(e.sellExchange, e.ticker),
      withdrawalFee: transfer.withdrawalFee,
      referenceUsdt: this.netReferenceUsdt,
    });
    return {
      ticker: e.ticker,
      buyExchange: e.buyExchange,
      sellExchange: e.sellExchange,
      openedAt: new Date(e.openedAt),
      closedAt: new Date(e.closedAt),
      peakGrossPercent: grossSpread(e.peakBuyPrice, e.peakSellPrice),
      peakNetPercent: net.netPercent,
      peakMaxSizeUsdt: this.peakSizes.get(routeKey(e))?.maxSizeUsdt ?? null,
      transferable: transfer.transferable,
      costsEstimated: net.estimated,
    };
  }

  /** Forgets a closed episode's peak size (recorded or not). */
  episodeEnded(route: Route): void {
    this.peakSizes.delete(routeKey(route));
  }

  /** The two books and costs `size` is priced from; undefined while either book is unknown. */
  private sizeInputsOf(o: Opportunity, buyFeePercent: number | undefined, sellFeePercent: number | undefined, withdrawalFee: number | null, now: number): SizeInputs | undefined {
    const buy = this.depth?.knownBook(o.buyExchange, 'SPOT', o.ticker, now);
    const sell = buy && this.depth?.knownBook(o.sellExchange, 'SPOT', o.ticker, now);
    if (!buy || !sell) return undefined;
    const depthAgeMs = Math.max(0, now - Math.min(buy.receivedAt, sell.receivedAt));
    return { asks: buy.asks, bids: sell.bids, buyFeePercent, sellFeePercent, withdrawalFee, depthAgeMs };
  }

  private notePeakSize(route: Route, profit: number, maxSizeUsdt: number): void {
    const key = routeKey(route);
    const peak = this.peakSizes.get(key);
    if (!peak || profit >= peak.profit) this.peakSizes.set(key, { profit, maxSizeUsdt });
  }

  /** The `opportunities` rule: the smaller of the two exchanges' 24 h quote volumes; null while either is unknown. */
  private pairVolume(o: Opportunity): number | null {
    const buy = this.book.volume(o.buyExchange, 'SPOT', o.ticker);
    const sell = this.book.volume(o.sellExchange, 'SPOT', o.ticker);
    return buy === null || sell === null ? null : Math.min(buy, sell);
  }
}
