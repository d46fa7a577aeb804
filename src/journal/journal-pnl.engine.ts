/**
 * D10's computed results of one operation. Pure: no I/O, no clock.
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

export function computePnl(op: PnlInput): PnlResult {
  if (op.status === 'open') return OPEN;
  const { grossPnl, netPnl, capital } = rawPnl(op);
  return {
    grossPnl: roundAmount(grossPnl),
    netPnl: roundAmount(netPnl),
    netPnlPct: capital > 0 ? roundAmount((netPnl / capital) * 100) : null,
  };
}

/** Unrounded figures, so sums over many operations round once, at the end. */
export function rawPnl(op: Omit<PnlInput, 'status'>): { grossPnl: number; netPnl: number; capital: number } {
  const grossPnl =
    leg(op.quantity, op.exitSellPrice, op.entryBuyPrice) + leg(op.shortQuantity, op.entrySellPrice, op.exitBuyPrice);
  const netPnl = grossPnl - op.tradingFees - op.withdrawalFees + op.funding;
  const capital = leg(op.quantity, op.entryBuyPrice, 0) + leg(op.shortQuantity, op.entrySellPrice, 0);
  return { grossPnl, netPnl, capital };
}

/** (sell − buy) × quantity; a leg with quantity 0 adds 0 whatever its (possibly null) prices. */
function leg(quantity: number, sell: number | null, buy: number | null): number {
  if (quantity === 0) return 0;
  return ((sell ?? 0) - (buy ?? 0)) * quantity;
}

/**
 * Eight decimals: below a satoshi of any quote currency, and enough to drop binary floating
 * noise (1.0999999999999943 → 1.1) that a trader would read as an error. Never -0.
 */
export function roundAmount(value: number): number {
  const rounded = Number(value.toFixed(8));
  return rounded === 0 ? 0 : rounded;
}
