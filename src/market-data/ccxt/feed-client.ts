/**
 * The slice of a ccxt pro client a feed connection uses. Keeping it this small lets the watch
 * loop be tested with a fake, and keeps ccxt's loose typings out of the loop.
 */
export interface CcxtBidAsk {
  symbol?: string;
  bid?: number | null;
  ask?: number | null;
  bidVolume?: number | null;
  askVolume?: number | null;
  timestamp?: number | null;
}

export interface FeedClient {
  /** ccxt's bid/ask cache, symbol → latest parsed update (a new object per update). */
  readonly bidsasks: Record<string, CcxtBidAsk | undefined>;
  watchBidsAsks(symbols: string[]): Promise<unknown>;
  close(): Promise<void>;
}
