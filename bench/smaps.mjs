// A process's resident memory by kind of mapping, read from /proc/<pid>/smaps: V8 heap pages
// (anonymous, 256 KB or less), the node binary, the main thread's malloc heap ([heap]), the
// embedded engine's WebAssembly memory (an anonymous mapping over 64 MB), other anonymous
// regions (thread malloc arenas, V8 large objects), files. Used by bench:rss-breakdown and
// bench:soak.
import { readFileSync } from 'node:fs';

export function mappings(pid) {
  const out = [];
  let current;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      current = { sizeMb: (parseInt(head[2], 16) - parseInt(head[1], 16)) / 1048576, perm: head[3], name: head[4] || '[anon]', rssMb: 0 };
      out.push(current);
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && current) current.rssMb = Number(rss[1]) / 1024;
  }
  return out;
}

export function kindOf(m) {
  if (m.name.startsWith('/')) return m.name === process.execPath || m.name.endsWith('/node') ? 'node binary' : 'files';
  if (m.name !== '[anon]') return m.name;
  if (m.sizeMb <= 0.25) return 'anonymous, <= 256 KB (V8 heap pages)';
  // The engine's WebAssembly memory is one anonymous read-write mapping of its current size
  // (128 MB and up); the threads' malloc arenas are at most 64 MB each.
  if (m.sizeMb > 64) return 'anonymous, > 64 MB (WebAssembly memory)';
  return 'anonymous, other (thread malloc arenas, V8 large objects)';
}

/** Resident MB by kind, each rounded to 0.1 MB. */
export function rssByKind(pid) {
  const byKind = {};
  for (const m of mappings(pid)) {
    const kind = kindOf(m);
    byKind[kind] = (byKind[kind] ?? 0) + m.rssMb;
  }
  for (const k of Object.keys(byKind)) byKind[k] = Number(byKind[k].toFixed(1));
  return byKind;
}
