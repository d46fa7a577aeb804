import type { ExchangeName, Market } from '../../market-model/exchanges.js';
import type { VenuePerpetuals } from './funding-rest.js';
import type { VenueLots } from './lots.js';
import type { ExchangeProtocol } from './protocol.js';
import type { VenueLimits } from './venue-limits.js';
import type { VenueStatusFields } from './venue-status.js';

/** A venue's notice of a service upgrade on its open sockets, then their close. */
export interface UpgradeNotice {
  /** How long before the close the notice comes. */
  readonly noticeMs: number;
  /** The frame the venue sends (JSON-encoded by the hub). */
  readonly frame: unknown;
}

/** The venue's funding habits, beyond the REST calls its protocol answers. */
export interface VenueFundingHabits {
  /** How its funding calls name a perpetual (its shared helpers' view of the venue). */
  readonly perpetuals: VenuePerpetuals;
  /** It moves some volatile perpetuals to hourly funding (BTC and ETH stay on 8 h everywhere). */
  readonly someHourly: boolean;
  /** Every perpetual pays on this one interval, in hours (a venue that settles hourly), where set. */
  readonly everyHours?: number;
}

/**
 * Everything the simulator knows of one venue, from the venue's folder
 * (`src/simulator/venues/<name>/index.ts`, exported as `simulatorVenue`). The rest of the
 * simulator reads these capabilities through the registry (`venues/index.ts`) and never names a
 * venue; `src/venues/<name>` is the service's side of the same venue.
 */
export interface SimulatorVenue {
  /** The service's name of the venue, also its folder's name. */
  readonly name: ExchangeName;
  /** Its wire protocol: REST calls, websocket frames, pushes. */
  readonly protocol: ExchangeProtocol;
  /** Its published limits as strict mode enforces them. */
  readonly limits: VenueLimits;
  /** Its lot-named markets. */
  readonly lots: VenueLots;
  /** The fields its market rows carry for a halted or delisted market. */
  readonly status: VenueStatusFields;
  readonly funding: VenueFundingHabits;
  /** Its service-upgrade notice (null: it closes without one, or never announces). */
  readonly upgrade: UpgradeNotice | null;
  /** The market a websocket serves, from the host and path the client dialled (a shared socket counts as spot). */
  marketOfUrl(host: string, path: string): Market;
}
