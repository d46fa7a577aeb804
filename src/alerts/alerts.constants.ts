export const ALERT_RULE_NOT_FOUND = 'alert rule not found';
export const tooManyRulesMessage = (max: number): string => `at most ${max} alert rules per email`;
/** Deliveries listed per request, newest first. */
export const DELIVERIES_LIMIT = 100;
/** Time source of the alert engine and sender, injected so tests can move time. */
export const ALERTS_CLOCK = Symbol('ALERTS_CLOCK');
/** Sends one HTTP request for a channel; tests may substitute it. */
export const ALERT_HTTP = Symbol('ALERT_HTTP');
/** How alert targets are judged and resolved (rules: outbound-targets); from config, so tests can give a resolver. */
export const ALERT_TARGET_POLICY = Symbol('ALERT_TARGET_POLICY');
