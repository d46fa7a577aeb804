import type { Schemas } from '../api/client';
import { NONE, num, pct, price } from './format';

export type OpportunitySize = Schemas['OpportunitySizeDto'];

export interface SizeCell {
  text: string;
  /** Why a cell is empty, or what stands behind its figure. */
  title?: string;
  negative?: boolean;
}

export const SIZE_COLUMNS = [
  { key: 'buy-avg', label: 'buy avg', title: 'Average price filling the size on the buy exchange’s asks' },
  { key: 'sell-avg', label: 'sell avg', title: 'Average price filling the size on the sell exchange’s bids' },
  { key: 'net-at-size', label: 'net', title: 'Net spread at the fill, after fees, in percent' },
  { key: 'max-size', label: 'max USDT', title: 'Largest size whose net spread is at least your min net % (0 % without one)' },
  { key: 'depth-age', label: 'book age', title: 'Age of the older of the two order books' },
] as const;

export type SizeColumn = (typeof SIZE_COLUMNS)[number]['key'];
export type SizeCells = Record<SizeColumn, SizeCell>;

const NO_BOOKS = 'No order books for this route yet: not held yet, older than 5 s, or depth is off on the service';
const NO_FILL = 'Nothing fills: the book is empty on this side';

/** `443 ms`, `1.2 s`: a book's age stays under the 5 s after which the service drops the size. */
export function depthAge(ms: number): string {
  const whole = Math.round(ms);
  return whole < 1000 ? `${whole} ms` : `${num(whole / 1000, 1)} s`;
}

function filled(size: OpportunitySize): string | undefined {
  return size.filledUsdt < size.notionalUsdt
    ? `Only ${num(size.filledUsdt, 2)} of ${num(size.notionalUsdt, 0)} USDT fill: the books run out`
    : undefined;
}

/** An event's `size` as the cells of the "at size" columns; null members become a dash that says why. */
export function sizeCells(size: OpportunitySize | null | undefined): SizeCells {
  if (!size) {
    const none: SizeCell = { text: NONE, title: NO_BOOKS };
    return { 'buy-avg': none, 'sell-avg': none, 'net-at-size': none, 'max-size': none, 'depth-age': none };
  }
  const net = size.netProfitPercent;
  const partly = filled(size);
  return {
    'buy-avg': size.buyAvgPrice === null ? { text: NONE, title: NO_FILL } : { text: price(size.buyAvgPrice), title: partly },
    'sell-avg': size.sellAvgPrice === null ? { text: NONE, title: NO_FILL } : { text: price(size.sellAvgPrice), title: partly },
    'net-at-size': net === null
      ? { text: NONE, title: NO_FILL }
      : { text: `${pct(net, 3)}${partly ? ' *' : ''}`, title: partly, negative: net < 0 },
    'max-size': size.maxSizeUsdt === 0
      ? { text: '0', title: 'No size reaches your min net % (0 % without one)' }
      : { text: num(size.maxSizeUsdt, size.maxSizeUsdt < 100 ? 2 : 0) },
    'depth-age': { text: depthAge(size.depthAgeMs) },
  };
}

/** The size every event of the stream was priced at (the client's `size`, else the service's reference). */
export function pricedAt(sizes: (OpportunitySize | null | undefined)[]): number | null {
  for (const s of sizes) if (s) return s.notionalUsdt;
  return null;
}
