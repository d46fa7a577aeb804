import { setFlagsFromString } from 'node:v8';

/**
 * Whether V8 gave the objects one hidden class (map). Objects built as `{ ...a, more }` each get
 * a class of their own on Node 20's V8; on a path run thousands of times a second that churns
 * classes and deoptimises the code reading them (the soak). Uses V8's own %HaveSameMap.
 */
export function shareOneHiddenClass(objects: readonly object[]): boolean {
  setFlagsFromString('--allow-natives-syntax');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- natives syntax parses only in code compiled after the flag
  const same = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (a: object, b: object) => boolean;
  const [first] = objects;
  return first === undefined || objects.every((o) => same(o, first));
}
