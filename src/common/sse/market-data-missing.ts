import { type SseFrame, dataFrame } from './sse-frame.js';

/** The event a stream sends instead of data while its market data is missing. */
export const MARKET_DATA_MISSING_EVENT = 'market-data-missing';
export const MARKET_DATA_NOT_FOUND = 'market data not found';

/** The one missing-data frame every stream sends: built once, written as the same string to every client. */
export const MARKET_DATA_MISSING_FRAME: SseFrame = dataFrame({ message: MARKET_DATA_NOT_FOUND }, { event: MARKET_DATA_MISSING_EVENT });
