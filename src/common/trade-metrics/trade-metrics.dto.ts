import { ApiProperty } from '@nestjs/swagger';
import { ApiField } from '../openapi/api-field.decorator.js';
import type { TradeMetrics } from './metrics.engine.js';

const NULLABLE = { type: Number, nullable: true } as const;
/** The extrapolated figures' rule (journal-metrics.engine.ts: MIN_EXTRAPOLATED_PERIOD_MS). */
const SHORT = '; in a journal summary, also null when its period is under 7 days';

/** The trade metrics (README "Trade metrics" states each formula); null where a figure has no value. */
export class TradeMetricsDto {
  @ApiProperty({ example: 14.7, description: 'Σ profit of the trades' })
  totalProfitUsd: number;

  @ApiProperty({ example: 1.47, description: 'totalProfitUsd ÷ capital × 100' })
  totalProfitPercent: number;

  @ApiProperty({ ...NULLABLE, example: 6.12, description: `Compound annual growth, percent; null when the final equity is 0 or below${SHORT}` })
  cagr: number | null;

  @ApiProperty({ ...NULLABLE, example: 3.2, description: `Trades ÷ days of the period${SHORT}` })
  tradesPerDay: number | null;

  @ApiProperty({ example: 72.7, description: 'Percent of trades with profit > 0; 0 without trades' })
  winRate: number;

  @ApiProperty({ ...NULLABLE, example: 2.1, description: 'Mean profit of the winning trades; null without wins' })
  avgWinUsd: number | null;

  @ApiProperty({ ...NULLABLE, example: -1.4, description: 'Mean profit of the losing trades (negative); null without losses' })
  avgLossUsd: number | null;

  @ApiProperty({ ...NULLABLE, example: 1.8, description: 'Σ wins ÷ |Σ losses|; null without losses' })
  profitFactor: number | null;

  @ApiProperty({ ...NULLABLE, example: 0.45, description: 'Mean profit per trade; null without trades' })
  expectancyUsd: number | null;

  @ApiProperty({ ...NULLABLE, example: 0.3, description: '(1 + avgWin ÷ |avgLoss|) × win share − 1; null without losses' })
  expectancyRatio: number | null;

  @ApiProperty({ ...NULLABLE, example: 2.4, description: `Mean ÷ sample std of daily returns × √365; null with < 2 days or zero deviation${SHORT}` })
  sharpe: number | null;

  @ApiProperty({ ...NULLABLE, example: 3.1, description: `Mean ÷ downside deviation of daily returns × √365; null without a losing day${SHORT}` })
  sortino: number | null;

  @ApiProperty({ ...NULLABLE, example: 1.2, description: `cagr ÷ maxDrawdownPercent; null without drawdown or cagr${SHORT}` })
  calmar: number | null;

  @ApiProperty({ ...NULLABLE, example: 1.9, description: '√N × mean ÷ sample std of trade profits; null with < 2 trades or zero deviation' })
  sqn: number | null;

  @ApiProperty({ example: 8.4, description: 'Deepest fall of the equity below its running peak, USD' })
  maxDrawdownUsd: number;

  @ApiProperty({ example: 0.83, description: 'That fall ÷ its peak × 100' })
  maxDrawdownPercent: number;

  @ApiField.dateTime({ nullable: true, description: 'When that peak was set (the period start for the capital); null without drawdown' })
  maxDrawdownStart: string | null;

  @ApiField.dateTime({ nullable: true, description: 'When the trough closed; null without drawdown' })
  maxDrawdownEnd: string | null;

  @ApiProperty({ example: 2.5, description: 'Longest time below a peak, days (to the period end if never recovered)' })
  longestDrawdownDays: number;

  @ApiField.integer({ minimum: 0, example: 5 })
  maxConsecutiveWins: number;

  @ApiField.integer({ minimum: 0, example: 2 })
  maxConsecutiveLosses: number;

  @ApiProperty({ ...NULLABLE, example: 4.2 })
  bestTradeUsd: number | null;

  @ApiProperty({ ...NULLABLE, example: -2.6 })
  worstTradeUsd: number | null;

  @ApiField.date({ nullable: true, description: 'São Paulo day with the highest Σ profit (earliest on ties); null without trades' })
  bestDay: string | null;

  @ApiProperty({ ...NULLABLE, example: 12.5, description: 'Σ profit of the trades closed on bestDay' })
  bestDayUsd: number | null;

  @ApiField.date({ nullable: true, description: 'São Paulo day with the lowest Σ profit (earliest on ties); null without trades' })
  worstDay: string | null;

  @ApiProperty({ ...NULLABLE, example: -3.1, description: 'Σ profit of the trades closed on worstDay' })
  worstDayUsd: number | null;

  static from(m: TradeMetrics): TradeMetricsDto {
    const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
    return { ...m, maxDrawdownStart: iso(m.maxDrawdownStart), maxDrawdownEnd: iso(m.maxDrawdownEnd) };
  }
}
