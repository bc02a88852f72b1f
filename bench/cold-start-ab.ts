// Cold start of two checkouts in one run, alternating, on one existing demo workspace: the
// same-machine A/B that `bench/cold-start.ts` (one build, a fresh process per start) cannot give.
// Each start runs `node <root>/bin/spemu.js` (so the compiled dist/ when the root has one: run
// `npm run build` in both first) and is timed from spawn to the first 200 on /_spemu/health.
//
//   npx tsx bench/cold-start-ab.ts <root A> <root B> [starts per build] [-- spemu flags, e.g. --workers 1]

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { timeOneStart } from './cold-start.ts';
import { median } from './load.ts';

const [a, b, count = '5', ...rest] = process.argv.slice(2);
if (!a || !b) throw new Error('usage: cold-start-ab.ts <root A> <root B> [starts] [-- flags]');
const extra = rest[0] === '--' ? rest.slice(1) : rest;
const workspace = mkdtempSync(join(tmpdir(), 'spemu-cold-ab-'));
const startOf = (root: string) => ({
  label: root,
  command: (w: string, port: number) => [join(root, 'bin/spemu.js'), '--data', w, '--db', join(w, 'spemu.db'), '--port', String(port), '--log-level', 'warn', ...extra],
});
try {
  // The first start seeds the demo tenant: not counted, so every start measured opens an existing workspace.
  await timeOneStart(startOf(a), workspace);
  const samples = new Map<string, number[]>([[a, []], [b, []]]);
  for (let i = 0; i < Number(count); i++) {
    for (const root of i % 2 ? [b, a] : [a, b]) samples.get(root)!.push(Math.round(await timeOneStart(startOf(root), workspace)));
  }
  for (const [root, ms] of samples) console.log(`${root}: ${ms.join(' ')} ms; median ${median(ms)} ms`);
} finally {
  rmSync(workspace, { recursive: true, force: true });
}
