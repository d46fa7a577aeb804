import type { NextFunction, Request, Response } from 'express';
import type { MetricsService } from '../common/metrics/metrics.service.js';

/** Counts and times every request by its route pattern (not its raw URL, to bound label values). */
export function httpMetricsMiddleware(metrics: MetricsService) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const started = process.hrtime.bigint();
    const observe = (): void => {
      const route = req.route ? `${req.baseUrl}${String((req.route as { path: string }).path)}` : 'unmatched';
      const labels = { method: req.method, route, status: String(res.statusCode) };
      metrics.httpRequests.inc(labels);
      metrics.httpDuration.observe(labels, Number(process.hrtime.bigint() - started) / 1e9);
    };
    res.once('finish', observe);
    next();
  };
}
