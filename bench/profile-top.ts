// Summarises a V8 .cpuprofile (from `node --cpu-prof`): the functions with the most self
// time, and the same rolled up by package/source file, to see where a request's time goes.
//
//   npx tsx bench/profile-top.ts <file.cpuprofile> [count]

import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

export interface Cost {
  name: string;
  percent: number;
}

/** Where a frame lives: `fastify`, `kysely`, `src/api/resolve.ts`, `(native)`. */
function owner(url: string): string {
  if (!url) return '(native/V8)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return url;
  const local = /\/(src|bench)\/(.+)$/.exec(url);
  return local ? `${local[1]}/${local[2]}` : url;
}

export function topCosts(file: string, count = 15): { functions: Cost[]; owners: Cost[] } {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as { nodes: ProfileNode[] };
  const total = profile.nodes.reduce((sum, n) => sum + (n.hitCount ?? 0), 0);
  const idle = profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').reduce((s, n) => s + (n.hitCount ?? 0), 0);
  const busy = Math.max(1, total - idle);
  const byFunction = new Map<string, number>();
  const byOwner = new Map<string, number>();
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (!hits || node.callFrame.functionName === '(idle)') continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = owner(url);
    const key = `${functionName || '(anonymous)'} ${where}${url ? `:${lineNumber + 1}` : ''}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
    byOwner.set(where, (byOwner.get(where) ?? 0) + hits);
  }
  const rank = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]).slice(0, count)
    .map(([name, hits]) => ({ name, percent: (100 * hits) / busy }));
  return { functions: rank(byFunction), owners: rank(byOwner) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [file, count] = process.argv.slice(2);
  if (!file) throw new Error('usage: tsx bench/profile-top.ts <file.cpuprofile> [count]');
  const { functions, owners } = topCosts(file, Number(count ?? 15));
  console.log('Self time by package/file (% of non-idle samples):');
  for (const c of owners) console.log(`  ${c.percent.toFixed(1).padStart(5)}%  ${c.name}`);
  console.log('Self time by function:');
  for (const c of functions) console.log(`  ${c.percent.toFixed(1).padStart(5)}%  ${c.name}`);
}
