// Before and after on a shared machine: CPU time per answered request, two spemu builds side by
// side. Where other processes take the cores, req/s move by half between rounds; the CPU time a
// server process spends per request (utime + stime from /proc, ÷ wrk's request count) moves far
// less. Each build runs as `spemu --workers 1` on a fresh demo workspace; a node:http hello and
// the floor (floor-server.ts) run beside them. wrk -t1 -c32, every target once per round in
// alternating order; prints medians (docs/benchmarks.md, "Performance (#13), fourth step").
//
//   npx tsx bench/cpu-ab.ts <root of the other build> [rounds=3] [seconds=5] [--db postgres]
//   (--db postgres: both builds also on a database each of a throw-away PostgreSQL cluster,
//   endpoint 1 with Bearer; the ratio column then also holds PostgreSQL ÷ SQLite of each build)
//   (the other build: e.g. `git archive <commit> | tar -x -C /tmp/before`, node_modules linked in)

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runWrk } from './wrk.ts';
import { startServerChild, stopChild } from './processes.ts';
import { median } from './load.ts';
import { openDatabases, type Databases } from './postgres.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const USER = 'alice@contoso.onmicrosoft.com';
/** Seed endpoint 1, as bench/run.ts names it. */
const ITEM_PATH = "/sites/dev/_api/web/lists/getbytitle('Tasks')/items(1)"
  + '?$select=Title,Author/ID,Author/Title,Author/LastName,Editor/ID,Editor/Title,Editor/LastName&$expand=Author,Editor';
const BASIC = `Basic ${Buffer.from(`${USER}:alice-demo-pass`).toString('base64')}`;

/** CPU microseconds the process has used so far. */
function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

interface Spemu { url: string; child: ChildProcess; data: string; token: string }

async function startSpemu(root: string, db?: string): Promise<Spemu> {
  const data = mkdtempSync(join(tmpdir(), 'spemu-ab-'));
  const cli = join(root, 'src/cli/main.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', cli, '--workers', '1', '--port', '0', '--data', data, '--log-level', 'warn', ...(db ? ['--db', db] : [])],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const read = (d: Buffer) => { output += String(d); const m = /serving tenant '\S+' at (http:\/\/\S+)/.exec(output); if (m) resolve(m[1]!); };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => reject(new Error(`spemu exited (${code}):\n${output}`)));
  });
  const token = execFileSync(process.execPath, ['--import', 'tsx', cli, 'token', '--upn', USER, '--data', data], { cwd: root }).toString().trim();
  return { url, child, data, token };
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const dbFlag = args.indexOf('--db');
  const postgres = dbFlag >= 0 && args[dbFlag + 1] === 'postgres';
  if (dbFlag >= 0) args.splice(dbFlag, 2);
  const [other, roundsText = '3', secondsText = '5'] = args;
  if (!other) throw new Error('usage: npx tsx bench/cpu-ab.ts <root of the other build> [rounds] [seconds] [--db postgres]');
  const rounds = Number(roundsText);
  const seconds = Number(secondsText);
  const hello = await startServerChild(join(ROOT, 'bench/servers/hello-server.ts'), [], { timeoutMs: 30_000 });
  const builds = { this: await startSpemu(ROOT), other: await startSpemu(other) };
  const databases: Databases | undefined = postgres ? await openDatabases(undefined) : undefined;
  const onPostgres: Record<string, Spemu> = {};
  if (databases) for (const [build, root] of [['this', ROOT], ['other', other]] as const) onPostgres[build] = await startSpemu(root, await databases.createDatabase(`spemu_ab_${build}`));
  const floor = await startServerChild(join(ROOT, 'bench/servers/floor-server.ts'), [join(builds.this.data, 'spemu.db')], { timeoutMs: 30_000 });
  try {
    const targets = [
      { name: 'node:http hello', url: `${hello.url}/`, pid: hello.process.pid!, headers: {} },
      { name: 'floor', url: `${floor.url}/item/1`, pid: floor.process.pid!, headers: {} },
      ...Object.entries(builds).flatMap(([build, s]) => [
        { name: `${build}: endpoint 1, Basic`, url: `${s.url}${ITEM_PATH}`, pid: s.child.pid!, headers: { Authorization: BASIC } },
        { name: `${build}: endpoint 1, Bearer`, url: `${s.url}${ITEM_PATH}`, pid: s.child.pid!, headers: { Authorization: `Bearer ${s.token}` } },
        { name: `${build}: web?$select=Title, Bearer`, url: `${s.url}/sites/dev/_api/web?$select=Title`, pid: s.child.pid!, headers: { Authorization: `Bearer ${s.token}` } },
      ]),
      ...Object.entries(onPostgres).map(([build, s]) => (
        { name: `${build}: endpoint 1, Bearer, PostgreSQL`, url: `${s.url}${ITEM_PATH}`, pid: s.child.pid!, headers: { Authorization: `Bearer ${s.token}` } })),
    ];
    const pgRatios: Record<string, number[]> = { this: [], other: [] };
    const load = (t: (typeof targets)[number], durationSeconds: number) => runWrk({ url: t.url, connections: 32, durationSeconds, headers: { Accept: 'application/json', ...t.headers } });
    for (const t of targets) await load(t, 2);
    const figures = new Map<string, { micros: number[]; ratios: number[] }>(targets.map((t) => [t.name, { micros: [], ratios: [] }]));
    for (let round = 1; round <= rounds; round++) {
      const perSecond = new Map<string, number>();
      for (const t of round % 2 ? targets : [...targets].reverse()) {
        const before = cpuMicros(t.pid);
        const run = await load(t, seconds);
        figures.get(t.name)!.micros.push((cpuMicros(t.pid) - before) / run.requests);
        perSecond.set(t.name, run.requestsPerSecond);
      }
      for (const t of targets) figures.get(t.name)!.ratios.push(perSecond.get(t.name)! / perSecond.get('node:http hello')!);
      for (const build of Object.keys(onPostgres)) pgRatios[build]!.push(perSecond.get(`${build}: endpoint 1, Bearer, PostgreSQL`)! / perSecond.get(`${build}: endpoint 1, Bearer`)!);
      console.log(`round ${round}: ${[...perSecond].map(([n, v]) => `${n} ${Math.round(v)}`).join(', ')}`);
    }
    console.log('\n| target | µs CPU per request (median) | ÷ hello req/s (median) |\n|---|---|---|');
    for (const [name, f] of figures) console.log(`| ${name} | ${median(f.micros).toFixed(0)} | ${median(f.ratios).toFixed(2)} |`);
    for (const [build, ratios] of Object.entries(pgRatios)) if (ratios.length) console.log(`${build}: endpoint 1 Bearer, PostgreSQL ÷ SQLite (median of rounds) ${median(ratios).toFixed(2)} (${ratios.map((r) => r.toFixed(2)).join(', ')})`);
  } finally {
    for (const s of [...Object.values(builds), ...Object.values(onPostgres)]) { s.child.kill('SIGTERM'); await new Promise((r) => s.child.once('exit', r)); rmSync(s.data, { recursive: true, force: true }); }
    await stopChild(hello.process);
    await stopChild(floor.process);
    await databases?.close();
  }
}

main().then(() => process.exit(0), (e: unknown) => { console.error(e); process.exit(1); });
