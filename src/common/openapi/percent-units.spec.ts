import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Every number member that is a rate, share, spread or percentage says its unit in its schema
 * description, so a client never has to guess whether 0.75 means 75 % or 0.75 %: percent members
 * are 0-100 (`× 100` or the word percent), a share kept as a fraction says 0-1, a funding rate says
 * it is a fraction per interval, and a spread in prices says its currency. Read from the committed
 * openapi.json (the contract test holds it equal to the running service's document).
 */
type Schema = { type?: string; description?: string; properties?: Record<string, Schema> };
const document = JSON.parse(readFileSync(new URL('../../../openapi.json', import.meta.url), 'utf8')) as {
  components: { schemas: Record<string, Schema> };
};

const RATIO_NAME = /percent|percentage|spread|winrate|share|apr|rate|basis/i;
const UNIT_STATED = /percent|× ?100|0-100|0-1\b|fraction|USDT|quote currency/i;

function unstated(): string[] {
  const out: string[] = [];
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    for (const [member, prop] of Object.entries(schema.properties ?? {})) {
      if (prop.type !== 'number' || !RATIO_NAME.test(member)) continue;
      if (!UNIT_STATED.test(prop.description ?? '')) out.push(`${name}.${member}: ${prop.description ?? '(no description)'}`);
    }
  }
  return out;
}

describe('percent units in the API document', () => {
  it('every rate, share, spread and percentage member states its unit', () => {
    expect(unstated()).toEqual([]);
  });

  it('a share kept as a fraction has its percent twin', () => {
    const lifetimes = Object.values(document.components.schemas).find((s) => s.properties?.transferableShare);
    expect(lifetimes?.properties?.transferableShare?.description).toMatch(/0-1/);
    expect(lifetimes?.properties?.transferablePercent?.description).toMatch(/0-100/);
  });
});
