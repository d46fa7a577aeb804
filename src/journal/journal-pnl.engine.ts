import { AMOUNT_DECIMALS, PERCENT_DECIMALS, amount, dec, percent, roundFast, type Dec } from '../common/money/money.js';

/**
 * The `journal` rule's computed results of one operation. Pure: no I/O, no clock.
 * The long leg buys at entryBuyPrice and sells at exitSellPrice (`quantity`); the short leg
 * sells at entrySellPrice and buys back at exitBuyPrice (`shortQuantity`).
 */
export interface PnlInput {
  status: 'open' | 'closed';
  quantity: number;
  shortQuantity: number;
  entryBuyPrice: number | null;
  entrySellPrice: number | null;
  exitBuyPrice: number | null;
  exitSellPrice: number | null;
  tradingFees: number;
  withdrawalFees: number;
  funding: number;
}

export interface PnlResult {
  grossPnl: number | null;
  netPnl: number | null;
  netPnlPct: number | null;
}

const OPEN: PnlResult = { grossPnl: null, netPnl: null, netPnlPct: null };

/**
 * In decimal, rounded once (README "Money and percent figures"); netPnlPct from the unrounded
 * netPnl. Throws FigureOutOfRangeError (a 400) when a figure is out of range.
 */
export function computePnl(op: PnlInput): PnlResult {
  if (op.status === 'open') return OPEN;
  return fastPnl(op) ?? decimalPnl(op);
}

/**
 * The same figures from doubles, for lists and the export (a million rows): roundFast gives
 * exactly the decimal result or abstains (a figure within the doubles' error of a rounding tie,
 * or near the range limit), and then the row is computed in decimal.
 */
function fastPnl(op: PnlInput): PnlResult | undefined {
  const q = op.quantity;
  const sq = op.shortQuantity;
  const long = q === 0 ? 0 : ((op.exitSellPrice ?? 0) - (op.entryBuyPrice ?? 0)) * q;
  const short = sq === 0 ? 0 : ((op.entrySellPrice ?? 0) - (op.exitBuyPrice ?? 0)) * sq;
  const grossScale =
    (q === 0 ? 0 : (Math.abs(op.exitSellPrice ?? 0) + Math.abs(op.entryBuyPrice ?? 0)) * q) +
    (sq === 0 ? 0 : (Math.abs(op.entrySellPrice ?? 0) + Math.abs(op.exitBuyPrice ?? 0)) * sq);
  const gross = long + short;
  const net = gross - op.tradingFees - op.withdrawalFees + op.funding;
  const netScale = grossScale + Math.abs(op.tradingFees) + Math.abs(op.withdrawalFees) + Math.abs(op.funding);
  const capital = (q === 0 ? 0 : (op.entryBuyPrice ?? 0) * q) + (sq === 0 ? 0 : (op.entrySellPrice ?? 0) * sq);
  const grossPnl = roundFast(gross, grossScale, AMOUNT_DECIMALS);
  const netPnl = roundFast(net, netScale, AMOUNT_DECIMALS);
  if (grossPnl === undefined || netPnl === undefined) return undefined;
  if (!(capital > 0)) return { grossPnl, netPnl, netPnlPct: null };
  const netPnlPct = roundFast((net / capital) * 100, (netScale / capital) * 100, PERCENT_DECIMALS);
  return netPnlPct === undefined ? undefined : { grossPnl, netPnl, netPnlPct };
}

/** The definition: in decimal, rounded once; throws FigureOutOfRangeError when out of range. */
function decimalPnl(op: PnlInput): PnlResult {
  const { grossPnl, netPnl, capital } = exactPnl(op);
  return {
    grossPnl: amount(grossPnl, 'grossPnl'),
    netPnl: amount(netPnl, 'netPnl'),
    netPnlPct: capital.gt(0) ? percent(netPnl.div(capital).times(100), 'netPnlPct') : null,
  };
}

function exactPnl(op: Omit<PnlInput, 'status'>): { grossPnl: Dec; netPnl: Dec; capital: Dec } {
  const grossPnl = leg(op.quantity, op.exitSellPrice, op.entryBuyPrice).plus(leg(op.shortQuantity, op.entrySellPrice, op.exitBuyPrice));
  const netPnl = grossPnl.minus(op.tradingFees).minus(op.withdrawalFees).plus(op.funding);
  const capital = leg(op.quantity, op.entryBuyPrice, 0).plus(leg(op.shortQuantity, op.entrySellPrice, 0));
  return { grossPnl, netPnl, capital };
}

/** (sell − buy) × quantity; a leg with quantity 0 adds 0 whatever its (possibly null) prices. */
function leg(quantity: number, sell: number | null, buy: number | null): Dec {
  if (quantity === 0) return dec(0);
  return dec(sell ?? 0).minus(buy ?? 0).times(quantity);
}
