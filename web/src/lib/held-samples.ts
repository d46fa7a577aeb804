/**
 * A route's recorded samples as a stepped line (rules: windows): each sample holds its spread from
 * its time until the next sample, and at most `holdMs`; past that the line breaks (null), because
 * a route silent for longer than the heartbeat was gone. x values in Unix seconds.
 */
export function heldSteps(samples: readonly { time: string; spread: number }[], holdMs: number): [number[], (number | null)[]] {
  const xs: number[] = [];
  const ys: (number | null)[] = [];
  samples.forEach((sample, i) => {
    const at = Date.parse(sample.time);
    const following = samples[i + 1];
    const next = following ? Date.parse(following.time) : Number.POSITIVE_INFINITY;
    xs.push(at / 1000);
    ys.push(sample.spread);
    if (next - at > holdMs) {
      // Held to its limit, then a break one millisecond later.
      xs.push((at + holdMs) / 1000, (at + holdMs + 1) / 1000);
      ys.push(sample.spread, null);
    }
  });
  return [xs, ys];
}
