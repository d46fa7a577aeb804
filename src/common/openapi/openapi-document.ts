import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, type OperationObject, type ResponseObject, SwaggerModule } from '@nestjs/swagger';
import { errorExamples, errorResponseObject, TRANSPORT_ERRORS } from '../http/api-errors.decorator.js';
import { ErrorResponseDto } from './error-response.dto.js';
import { authScopeOf, EMAIL_MISMATCH, isStreamPath, MISSING_OR_INVALID_TOKEN, TOO_MANY_FAILED_AUTHENTICATIONS } from '../http/auth-scope.js';

/**
 * Tags in the order Swagger UI shows them. A controller's `@ApiTags` must name one of these
 * (openapi-rules.ts checks it), so every feature has a description for web developers.
 */
export const API_TAGS: ReadonlyArray<{ name: string; description: string }> = [
  { name: 'calculators', description: 'Spot-long / futures-short positions per user and ticker, and their PNL, once or streamed' },
  { name: 'lookers', description: 'Named watchlists of up to 6 cryptos on one exchange and market, with a live price stream' },
  { name: 'favorite-cryptos', description: "A user's favorite tickers" },
  { name: 'realtime', description: 'Live streams: cross-exchange opportunities and the price snapshot' },
  { name: 'journal', description: 'Trading journal: operations, summary, CSV export and import' },
  { name: 'funding-rates', description: 'Funding-rate ranking of every USDT perpetual; arbitrage rate-limit group' },
  { name: 'crossing-counts', description: 'Daily spot/futures crossing counts; arbitrage rate-limit group' },
  { name: 'opportunity-history', description: 'Recorded opportunity history: import, statistics and backtest; arbitrage rate-limit group' },
  { name: 'alerts', description: 'Alert rules per user, pushed to a webhook, Telegram or Discord, and their deliveries' },
  { name: 'market', description: 'Order books held for open routes (both legs, 20 levels a side)' },
  { name: 'auth', description: 'Stream tickets for browsers when AUTH_MODE is token (bearer tokens come from `npm run token`)' },
  { name: 'health', description: 'Liveness and exchange feed state' },
];

const DESCRIPTION = [
  'Live cross-exchange arbitrage monitoring for a web app: REST and Server-Sent Events.',
  'Endpoints identify the user by the `email` field or parameter. With AUTH_MODE=none (the default) no request ' +
    'carries a credential. With AUTH_MODE=token the user-scoped operations need `Authorization: Bearer <token>` ' +
    '(401 `missing or invalid token` without one) and act only on the token\'s e-mail (403 `email does not match the ' +
    'token`); a browser opens a stream with `?ticket=` from `POST /v1/auth/stream-ticket`.',
  'Every error has the body `{ statusCode, message, error }` (`ErrorResponseDto`); `message` is one text, the first ' +
    'problem found, and every text an operation can answer is listed as an example of its error response.',
  'Times: Unix milliseconds where a field says `int64`, otherwise RFC 3339; calendar days (`YYYY-MM-DD`) are ' +
    'America/Sao_Paulo days. Tickers are accepted as `BASE-QUOTE` or `BASEQUOTE` in any case.',
].join('\n\n');

/**
 * The OpenAPI document of the app, the same for Swagger UI (/docs, /docs-json) and openapi.json:
 * explicit operation ids, one relative server (the origin serving the docs), the bearer scheme as
 * optional security per operation (AUTH_MODE=none asks for none), and keys in a stable order so the committed file only changes with the code.
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('arbitrage-monitor')
    .setDescription(DESCRIPTION)
    .setVersion('1')
    // package.json's licence: proprietary; the address explains the term.
    .setLicense('UNLICENSED', 'https://docs.npmjs.com/cli/v10/configuring-npm/package-json#license')
    .addServer('/', 'The service that serves this document')
    // bearerFormat named: Nest would otherwise say JWT, and the token is an opaque `amt_` string.
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', bearerFormat: 'amt_ token', description: 'A token from `npm run token -- create` (AUTH_MODE=token)' },
      BEARER_SCHEME,
    );
  for (const tag of API_TAGS) builder.addTag(tag.name, tag.description);
  const document = SwaggerModule.createDocument(app, builder.build(), { extraModels: [ErrorResponseDto] });
  document.security = [];
  addAuthentication(document);
  addTransportErrors(document);
  return stableDocument(document);
}

/**
 * Every operation can answer the statuses of the shared body parsers and the input guard
 * (TRANSPORT_ERRORS): added where an operation does not document them, and their texts joined
 * to its own where it does, so the document lists every status the service answers.
 */
function addTransportErrors(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths)) {
    for (const op of Object.values(item as Record<string, OperationObject>)) {
      if (typeof op !== 'object' || op === null || !('responses' in op)) continue;
      for (const [status, messages] of Object.entries(TRANSPORT_ERRORS)) {
        const own = (op.responses[status] as ResponseObject | undefined)?.content?.['application/json'];
        if (!op.responses[status]) op.responses[status] = errorResponseObject(Number(status), messages);
        else if (own) own.examples = { ...own.examples, ...errorExamples(Number(status), messages.filter((m) => !(m in (own.examples ?? {})))) };
      }
    }
  }
}

const BEARER_SCHEME = 'bearer';
const TICKET_PARAMETER = {
  name: 'ticket',
  in: 'query' as const,
  required: false,
  description: 'AUTH_MODE=token, browsers: a single-use ticket from `POST /v1/auth/stream-ticket`, in place of the bearer header',
  schema: { type: 'string' as const, pattern: '^amk_[A-Za-z0-9_-]{43}$' },
};

/**
 * What each operation asks for when AUTH_MODE is token, from the same table the guard reads
 * (auth-scope.ts): the bearer scheme as optional security (AUTH_MODE=none needs nothing), 401
 * wherever a token can be asked, 403 where the token's e-mail must match, the brute-force 429.
 */
function addAuthentication(document: OpenAPIObject): void {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item as Record<string, OperationObject>)) {
      if (typeof op !== 'object' || op === null || !('responses' in op)) continue;
      const scope = authScopeOf(method, path.replace(/\{[^}]+\}/g, 'x'));
      if (scope === 'open') continue;
      op.security = [{}, { [BEARER_SCHEME]: [] }];
      const when = scope === 'market' ? 'Only when AUTH_MODE is token and AUTH_PUBLIC_MARKET is 0' : 'Only when AUTH_MODE is token';
      op.responses['401'] = errorResponseObject(401, [MISSING_OR_INVALID_TOKEN], `${when}; the answer carries \`WWW-Authenticate: Bearer\``);
      if (scope === 'user') op.responses['403'] = errorResponseObject(403, [EMAIL_MISMATCH], `${when}: the request names another e-mail than the token's`);
      mergeError(op, 429, TOO_MANY_FAILED_AUTHENTICATIONS, 'AUTH_FAILED_PER_MINUTE failed authentications from one client IP in a minute');
      if (isStreamPath(path)) op.parameters = [...(op.parameters ?? []), TICKET_PARAMETER];
    }
  }
}

function mergeError(op: OperationObject, status: number, message: string, description: string): void {
  const own = (op.responses[status] as ResponseObject | undefined)?.content?.['application/json'];
  if (!own) op.responses[status] = errorResponseObject(status, [message], description);
  else own.examples = { ...own.examples, ...errorExamples(status, [message]) };
}

const METHOD_ORDER = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Sorts paths, methods, responses and components so that the output depends on the code only. */
export function stableDocument(document: OpenAPIObject): OpenAPIObject {
  const paths: OpenAPIObject['paths'] = {};
  for (const path of Object.keys(document.paths).sort()) {
    const item = document.paths[path] as Record<string, unknown>;
    const sorted: Record<string, unknown> = {};
    const keys = Object.keys(item).sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
    for (const key of keys) sorted[key] = sortResponses(item[key]);
    paths[path] = sorted;
  }
  const components = document.components ?? {};
  const sortedComponents = Object.fromEntries(
    Object.keys(components)
      .sort()
      .map((kind) => [kind, sortKeys((components as Record<string, Record<string, unknown>>)[kind])]),
  );
  return {
    openapi: document.openapi,
    info: document.info,
    servers: document.servers,
    security: document.security,
    tags: document.tags,
    paths,
    components: sortedComponents,
  };
}

function rank(method: string): number {
  const i = METHOD_ORDER.indexOf(method);
  return i < 0 ? METHOD_ORDER.length : i;
}

function sortResponses(operation: unknown): unknown {
  if (typeof operation !== 'object' || operation === null || !('responses' in operation)) return operation;
  const op = operation as { responses: Record<string, unknown> };
  return { ...op, responses: sortKeys(op.responses) };
}

function sortKeys<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.keys(record).sort().map((k) => [k, record[k]]));
}

/** The file form: two-space JSON and a final newline. */
export function serialiseDocument(document: OpenAPIObject): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
