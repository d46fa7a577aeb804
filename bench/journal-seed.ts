/** A DataSource or a pg client: anything that runs one SQL statement. */
export interface SqlRunner {
  query(sql: string, params?: unknown[]): Promise<unknown>;
}

/**
 * Inserts `count` operations of one user in SQL (the API would take minutes for a million).
 * Mixed strategies, assets, routes, sources and ~2 years of close times, 5 % left open.
 */
export async function seedOperations(dataSource: SqlRunner, email: string, count: number): Promise<void> {
  const chunk = 100_000;
  for (let start = 0; start < count; start += chunk) {
    const end = Math.min(count, start + chunk) - 1;
    await dataSource.query(
      `INSERT INTO journal_operations (email, status, strategy, asset, buy_exchange, sell_exchange, quantity, short_quantity,
         entry_buy_price, entry_sell_price, exit_buy_price, exit_sell_price, trading_fees, withdrawal_fees, funding,
         fees_estimated, opened_at, closed_at, source, external_id, notes)
       SELECT $1,
              CASE WHEN i % 20 = 0 THEN 'open' ELSE 'closed' END,
              (ARRAY['spot_futures','cross_exchange','funding','other'])[1 + i % 4],
              (ARRAY['BTC','ETH','SOL','XRP','DOGE'])[1 + i % 5],
              (ARRAY['binance','bybit','okx','gate','bitget'])[1 + i % 5],
              (ARRAY['okx','gate','bitget','binance','bybit'])[1 + (i / 5) % 5],
              1 + (i % 7) * 0.5, CASE WHEN i % 4 = 0 THEN 1 + (i % 7) * 0.5 ELSE 0 END,
              100 + (i % 97), CASE WHEN i % 4 = 0 THEN 101 + (i % 97) ELSE NULL END,
              CASE WHEN i % 20 = 0 OR i % 4 <> 0 THEN NULL ELSE 100.5 + (i % 89) END,
              CASE WHEN i % 20 = 0 THEN NULL ELSE 99 + (i % 101) END,
              0.1 * (i % 5), 0.05 * (i % 3), (i % 11) * 0.01 - 0.05,
              i % 10 = 0,
              timestamptz '2024-11-01T00:00:00Z' + (i * interval '10 minutes') / ${Math.max(1, Math.round(count / 100_000))},
              CASE WHEN i % 20 = 0 THEN NULL
                   ELSE timestamptz '2024-11-01T00:00:00Z' + (i * interval '10 minutes') / ${Math.max(1, Math.round(count / 100_000))} + interval '3 hours' END,
              CASE WHEN i % 3 = 0 THEN 'import' ELSE 'manual' END,
              'ext-' || i,
              CASE WHEN i % 50 = 0 THEN '=note ' || i ELSE NULL END
         FROM generate_series($2::int, $3::int) AS i`,
      [email, start, end],
    );
  }
  // Bench-only copy of the `journal-pnl` rule formula (the service writes these from the PnL engine).
  await dataSource.query(
    `UPDATE journal_operations SET
       gross_pnl = round(g::numeric, 8)::float8,
       net_pnl = round((g - trading_fees - withdrawal_fees + funding)::numeric, 8)::float8
     FROM (SELECT id AS gid,
                  CASE WHEN quantity > 0 THEN (exit_sell_price - entry_buy_price) * quantity ELSE 0 END +
                  CASE WHEN short_quantity > 0 THEN (entry_sell_price - exit_buy_price) * short_quantity ELSE 0 END AS g
             FROM journal_operations WHERE email = $1 AND status = 'closed') AS results
     WHERE id = gid`,
    [email],
  );
  await dataSource.query('VACUUM ANALYZE journal_operations');
}

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}
