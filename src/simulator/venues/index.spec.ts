import { describe, expect, it } from 'vitest';
import { EXCHANGE_NAMES } from '../../market-model/exchanges.js';
import { EXCHANGE_PROTOCOLS, SIM_VENUES, simVenueOf } from './index.js';

describe('simulator venue registry', () => {
  it('loads one venue folder per name of the service registry, in its order', () => {
    expect(SIM_VENUES.map((v) => v.name)).toEqual(EXCHANGE_NAMES);
    expect(EXCHANGE_PROTOCOLS.map((p) => p.name)).toEqual(EXCHANGE_NAMES);
    for (const name of EXCHANGE_NAMES) expect(simVenueOf(name).protocol.name).toBe(name);
  });
});
