/**
 * The raw process environment. src/config is the one place that reads it (STYLE habit 7); entry
 * points such as the simulator's pass it on to their own validators.
 */
export function readProcessEnv(): Readonly<Record<string, string | undefined>> {
  return process.env;
}
