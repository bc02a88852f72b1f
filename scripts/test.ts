// `npm test`: the test suite on both backends, a matrix rather than a copy.
//
//   leg 1, SQLite:      every test file (unit and integration) but the PostgreSQL-only ones;
//   leg 2, PostgreSQL:  the integration files again, each test server on a fresh database of
//                       one throw-away cluster (test/helpers/postgres.ts), plus the
//                       PostgreSQL-only files (postgres.test.ts, the storage twins).
//
// The unit tests that need no database run once. Without PostgreSQL's server binaries the
// second leg is skipped, saying why. `npm test -- <files…>` runs only those files (on the legs
// they belong to); SPEMU_TEST_LEGS=sqlite or =postgres runs one leg.
//
// The two legs run at once: node's runner takes one file at a time per leg on a 2-core machine
// (its default concurrency is the cores less one), so one after the other they left a core idle
// and the suite neared CI's 30 minutes. The SQLite leg prints as it goes, the PostgreSQL leg's
// output follows it; SPEMU_TEST_SERIAL=1 runs them one after the other, as before.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { postgresBinaries, startCluster } from '../test/helpers/postgres.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

function testFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...testFiles(rel));
    else if (entry.name.endsWith('.test.ts')) out.push(rel);
  }
  return out.sort();
}

/** Files that exist only to test PostgreSQL (they need a cluster whatever SPEMU_TEST_DB says). */
const postgresOnly = (file: string) => /postgres/.test(path.basename(file));
/** SQLite-specific storage tests, which have a PostgreSQL twin of their own. */
const sqliteOnly = (file: string) => /sqlite/.test(path.basename(file));
const isIntegration = (file: string) => file.split(path.sep).includes('integration');

interface LegResult { name: string; code: number; counts: Record<string, number>; ms: number }

/**
 * One leg in a child process. `hold`: its output (stdout and stderr) is kept, in order, until
 * `release` is called, then written and written through; otherwise it is written as it comes.
 */
function runLeg(name: string, files: string[], env: Record<string, string>, hold = false): { result: Promise<LegResult>; release(): void } {
  const started = Date.now();
  const held: Array<{ to: NodeJS.WriteStream; chunk: Buffer | string }> = [];
  let holding = hold;
  const write = (to: NodeJS.WriteStream, chunk: Buffer | string) => { if (holding) held.push({ to, chunk }); else to.write(chunk); };
  write(process.stdout, `\n=== ${name}: ${files.length} files ===\n\n`);
  const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {
    cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let tail = '';
  child.stdout.on('data', (chunk: Buffer) => {
    write(process.stdout, chunk);
    tail = (tail + chunk.toString('utf8')).slice(-4000);
  });
  child.stderr.on('data', (chunk: Buffer) => write(process.stderr, chunk));
  const result = new Promise<number>((resolve) => child.on('close', (c, signal) => resolve(c ?? (signal ? 1 : 0)))).then((code) => {
    const counts: Record<string, number> = {};
    for (const m of tail.matchAll(/ℹ (tests|pass|fail|skipped|cancelled|todo) (\d+)/g)) counts[m[1]!] = Number(m[2]);
    return { name, code, counts, ms: Date.now() - started };
  });
  return {
    result,
    release() {
      holding = false;
      for (const { to, chunk } of held.splice(0)) to.write(chunk);
    },
  };
}

async function main(): Promise<number> {
  const started = Date.now();
  const requested = process.argv.slice(2).map((f) => path.normalize(f));
  const all = requested.length ? requested : testFiles('test');
  const legs = new Set((process.env.SPEMU_TEST_LEGS ?? 'sqlite,postgres').split(',').map((s) => s.trim()));
  const results: LegResult[] = [];
  const skipped: string[] = [];

  const serial = process.env.SPEMU_TEST_SERIAL === '1';
  const sqliteFiles = all.filter((f) => !postgresOnly(f));
  const runSqlite = legs.has('sqlite') && sqliteFiles.length > 0;
  const sqlite = runSqlite && !serial ? runLeg('SQLite', sqliteFiles, { SPEMU_TEST_DB: 'sqlite' }) : undefined;
  if (runSqlite && serial) results.push(await runLeg('SQLite', sqliteFiles, { SPEMU_TEST_DB: 'sqlite' }).result);

  const postgresFiles = all.filter((f) => postgresOnly(f) || (isIntegration(f) && !sqliteOnly(f)));
  if (legs.has('postgres') && postgresFiles.length) {
    const binaries = postgresBinaries();
    if ('missing' in binaries) {
      skipped.push(`PostgreSQL leg SKIPPED: ${binaries.missing}.`);
    } else {
      const cluster = await startCluster();
      try {
        // Beside a running SQLite leg, this leg's output waits for that leg's to end.
        const postgres = runLeg('PostgreSQL', postgresFiles, { SPEMU_TEST_DB: 'postgres', SPEMU_TEST_PG_URL: cluster.adminUrl }, sqlite !== undefined);
        if (sqlite) {
          results.push(await sqlite.result);
          postgres.release();
        }
        results.push(await postgres.result);
      } finally {
        await cluster.destroy();
      }
    }
  }
  if (sqlite && !results.some((r) => r.name === 'SQLite')) results.push(await sqlite.result);

  console.log('\n=== summary ===');
  for (const r of results) {
    const c = r.counts;
    console.log(`${r.name.padEnd(10)} tests ${c.tests ?? '?'}  pass ${c.pass ?? '?'}  fail ${c.fail ?? '?'}  skipped ${c.skipped ?? 0}  (${(r.ms / 1000).toFixed(1)} s)${r.code ? `  exit ${r.code}` : ''}`);
  }
  for (const s of skipped) console.log(s);
  console.log(`duration: ${((Date.now() - started) / 1000).toFixed(1)} s (cluster start-up included)`);
  // One closing line over both legs, in the plain form CI reads.
  const sum = (key: string) => results.reduce((n, r) => n + (r.counts[key] ?? 0), 0);
  console.log(`total: ${sum('pass')} passed, ${sum('fail')} failed, ${sum('skipped')} skipped`);
  return results.some((r) => r.code !== 0) ? 1 : 0;
}

main().then((code) => { process.exitCode = code; }, (e: unknown) => {
  console.error('test runner:', e);
  process.exitCode = 1;
});
