/** One closed trade as the reports read it; times are Unix milliseconds. */
export interface ClosedTrade {
  openedAt: number;
  closedAt: number;
  /** The trade's result as shown (already rounded by the money rule). */
  profitUsd: number;
}

/** The span a report covers: [start, end) in Unix milliseconds, end after start. */
export interface MetricsPeriod {
  start: number;
  end: number;
}
