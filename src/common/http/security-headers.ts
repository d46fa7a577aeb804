import type { RequestHandler } from 'express';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * helmet's headers, served as the request was reached (rules: exposure). Strict-Transport-Security
 * and the CSP's `upgrade-insecure-requests` tell a browser to fetch everything over https: sent
 * on an answer over plain http to a LAN or VPS address (which the browser does not treat as
 * secure), the dashboard's and Swagger UI's assets were asked over https and both pages stayed
 * blank. They go only when `req.secure` holds: https to the service, or a proxy that TRUST_PROXY
 * trusts forwarding `X-Forwarded-Proto: https` (express reads it only from a trusted hop).
 */
export function securityHeaders(): RequestHandler {
  const overHttps = helmet(helmetOptions(true));
  const overHttp = helmet(helmetOptions(false));
  return (req, res, next) => (req.secure ? overHttps : overHttp)(req, res, next);
}

function helmetOptions(secure: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: {
      directives: {
        // Swagger UI runs an inline initialiser and styles; the API itself serves JSON and SSE.
        scriptSrc: ["'self'", "'unsafe-inline'"],
        styleSrc: ["'self'", "'unsafe-inline'", 'https:'],
        imgSrc: ["'self'", 'data:', 'https:'],
        // Over https helmet's defaults stand; null drops that one directive.
        ...(secure ? {} : { upgradeInsecureRequests: null }),
      },
    },
    strictTransportSecurity: secure,
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  };
}
