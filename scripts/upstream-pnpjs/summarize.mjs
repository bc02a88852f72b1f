// Per-file results of a mocha JSON report, against the list of every test (a --dry-run
// report): a test that did not pass and is not pending counts as failed, so tests behind a
// failed `before` hook (which mocha never runs or reports) are failures, as they should be.
// Usage: node summarize.mjs <all-tests.json> <run.json> [title]

import fs from 'node:fs';
import path from 'node:path';

const [allPath, runPath, title = 'run'] = process.argv.slice(2);
const read = (p) => { const t = fs.readFileSync(p, 'utf8'); return JSON.parse(t.slice(t.indexOf('{\n'))); };
const all = read(allPath), run = read(runPath);
const rows = new Map();
const row = (file) => {
  const name = path.basename(file ?? '(unknown)').replace(/\.js$/, '.ts');
  if (!rows.has(name)) rows.set(name, { total: 0, passed: 0, pending: 0 });
  return rows.get(name);
};
for (const t of all.tests) row(t.file).total++;
for (const t of run.passes) row(t.file).passed++;
for (const t of run.pending) row(t.file).pending++;
let total = 0, passed = 0, pending = 0;
const lines = [...rows].sort(([a], [b]) => a.localeCompare(b)).map(([file, r]) => {
  const failed = Math.max(0, r.total - r.passed - r.pending);
  total += r.total; passed += r.passed; pending += r.pending;
  return `| ${file} | ${r.total} | ${r.passed} | ${failed} | ${r.pending} |`;
});
console.log(`### ${title}\n\n| file | tests | passed | failed | pending |\n|---|---|---|---|---|`);
console.log(lines.join('\n'));
console.log(`| **total** | **${total}** | **${passed}** | **${total - passed - pending}** | **${pending}** |`);
