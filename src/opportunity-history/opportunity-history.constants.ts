/** Injection tokens of the opportunity-history feature. */
export const ROUTE_COSTS_PROVIDER = Symbol('ROUTE_COSTS_PROVIDER');
