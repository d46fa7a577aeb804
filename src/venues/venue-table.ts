import { VENUES } from './registry.js';
import type { FundingIntervalSource, VenueDescriptor } from './venue.js';

/**
 * The table of docs/venues.md "The venues at a glance", written from the registry so the page
 * cannot drift from the code: `npm run openapi` fills it and its `--check` (CI) fails on a
 * difference.
 */
export function renderVenueTable(venues: readonly VenueDescriptor[] = VENUES): string {
  const header = [
    '| venue | ccxt class | quote sockets (EXCHANGE_URLS keys) spot / perpetual | symbols per connection / per subscribe | new connections | books: ccxt depth, requests a second / an hour | funding interval from | funding history: paging, calls | REST ban | currency networks |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  return [...header, ...venues.map(row)].join('\n');
}

/** The README's line of venues: the default ones, then the others EXCHANGES can add. */
export function renderVenueList(venues: readonly VenueDescriptor[] = VENUES): string {
  const names = (list: readonly VenueDescriptor[]): string => list.map((v) => v.name).join(', ');
  const others = venues.filter((v) => !v.watchedByDefault);
  const more = others.length === 0 ? '' : `; also ${names(others)} with \`EXCHANGES=all\` or by name`;
  return `Venues: ${names(venues.filter((v) => v.watchedByDefault))} by default${more} ([docs/venues.md](docs/venues.md)).`;
}

function row(v: VenueDescriptor): string {
  const cells = [
    `**${v.name}**`,
    `\`${v.ccxt.id}\``,
    `\`${v.endpoints.quotes.SPOT}\` / \`${v.endpoints.quotes.FUTURES}\``,
    `${v.feeds.perConnection} / ${v.feeds.perSubscribe}`,
    v.feeds.dials === null ? 'no stated cap' : `${v.feeds.dials.dials} per ${duration(v.feeds.dials.windowMs)}`,
    `${v.depth.limit}, ${v.depth.perSecond} / ${v.depth.perHour ?? '–'}`,
    intervalSource(v.funding.interval),
    `${v.funding.history.kind} (${v.funding.history.size}), ${v.funding.historyCalls.calls} per ${duration(v.funding.historyCalls.windowMs)}`,
    restBan(v),
    networksCell(v),
  ];
  return `| ${cells.join(' | ')} |`;
}

function networksCell(v: VenueDescriptor): string {
  switch (v.networks.access) {
    case 'public':
      return 'public';
    case 'signed':
      return 'signed call (read-only keys)';
    case 'none':
      return 'none (on-chain venue)';
  }
}

function intervalSource(source: FundingIntervalSource): string {
  switch (source.kind) {
    case 'intervals-call':
      return `fetchFundingIntervals${source.defaultHours === undefined ? '' : `, else ${source.defaultHours} h`}`;
    case 'instrument-minutes':
      return 'instrument row (minutes)';
    case 'rate':
      return 'the rate answer';
  }
}

function restBan(v: VenueDescriptor): string {
  const parts = [v.restBan.readsRetryAfter ? 'Retry-After' : 'no Retry-After', `at least ${duration(v.restBan.minPauseMs)}`];
  if (v.restBan.banMinMs !== undefined) parts.push(`418 ≥ ${duration(v.restBan.banMinMs)}`);
  return parts.join(', ');
}

function duration(ms: number): string {
  if (ms === 0) return '0 s';
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${ms / 1000} s`;
}
