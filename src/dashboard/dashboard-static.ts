import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';

/** `web/dist` beside `src/` and `dist/`: both sit one folder below the repository root. */
export const DASHBOARD_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

const ASSETS = '/assets/';
/** Built assets carry a content hash in their name, so a browser may keep them for good. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

function isDashboardPath(p: string): boolean {
  return p === '/' || p === '/index.html' || (p.startsWith(ASSETS) && !p.includes('..'));
}

/**
 * Serves the built dashboard (web/dist) at `/`: only GET and HEAD of `/`, `/index.html` and
 * `/assets/*`, so every API path keeps its handler and an unknown path still gets the API's 404.
 * Answers null when the dashboard is not built (the service then serves the API alone).
 */
export function dashboardStatic(dir: string = DASHBOARD_DIR): RequestHandler | null {
  if (!existsSync(path.join(dir, 'index.html'))) return null;
  const files = express.static(dir, {
    index: 'index.html',
    redirect: false,
    fallthrough: true,
    dotfiles: 'deny',
    setHeaders: (res, file) => {
      res.setHeader('Cache-Control', file.includes(`${path.sep}assets${path.sep}`) ? IMMUTABLE : 'no-cache');
    },
  });
  return (req: Request, res: Response, next: NextFunction): void => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || !isDashboardPath(req.path)) {
      next();
      return;
    }
    files(req, res, next);
  };
}
