import type { Schemas } from '../api/client';
import type { StreamState } from '../lib/stream-watch';

export type Price = Schemas['PriceSnapshotEntryDto'];

/** The page tells the worker what it shows: the search and the rows in view. */
export interface PricesView {
  query: string;
  first: number;
  count: number;
  /** The page's bearer token (a worker has no sessionStorage); read from the first message. */
  token?: string | null;
}

/** A row as shown: its cells already formatted, so the page only places text. */
export interface PriceRow {
  cells: string[];
  stale: boolean;
}

export type FromPricesWorker =
  | { type: 'rows'; total: number; matched: number; first: number; rows: PriceRow[]; frames: number }
  | { type: 'state'; state: StreamState };
