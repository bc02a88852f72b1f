// `npm run bench -- --db postgres [--pg-url postgres://…]`: the core benchmark again with
// spemu on PostgreSQL, beside spemu on SQLite in the same rounds; two instances against one
// on one database under a read-heavy mix; and the 1M-item workspace moved onto PostgreSQL
// with `spemu export` / `spemu import` (timed) and served from there. Without --pg-url, a
// throw-away PostgreSQL cluster is started on this machine (as the tests do, but with
// fsync and synchronous commit on, so writes are as durable as SQLite's synchronous=FULL).

import { randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { RequestParams } from 'autocannon';
import { startCluster } from '../test/helpers/postgres.ts';
import { median, type LoadFigures } from './load.ts';
import { measureBatchAdds, type BatchRun } from './batch.ts';
import { BIG_LIST, PRIORITY_RANGE } from './generate.ts';
import type { ServerChild } from './processes.ts';
import type { BenchSection, SectionContext } from './sections.ts';
import { measureCost, type Cost } from './cost.ts';

const SECRET = randomBytes(32).toString('base64url');
const n = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export interface Databases { createDatabase(prefix: string): Promise<string>; dropDatabase(url: string): Promise<void>; close(): Promise<void>; describe: string }

/** Where the benchmark's databases live: the given server (it must allow CREATE DATABASE), or a cluster of its own. */
export async function openDatabases(url: string | undefined): Promise<Databases> {
  const version = async (admin: string) => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try { return String((await client.query('show server_version')).rows[0].server_version); } finally { await client.end(); }
  };
  if (!url) {
    const cluster = await startCluster({ durable: true });
    return {
      createDatabase: (prefix) => cluster.createDatabase(prefix), dropDatabase: (u) => cluster.dropDatabase(u), close: () => cluster.destroy(),
      describe: `PostgreSQL ${await version(cluster.adminUrl)}, a throw-away cluster on this machine (initdb defaults, fsync and synchronous_commit on)`,
    };
  }
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try { await client.query(statement); } finally { await client.end(); }
  };
  return {
    async createDatabase(prefix) {
      const name = `${prefix}_${process.pid}_${randomBytes(3).toString('hex')}`;
      await admin(`create database "${name}" encoding 'UTF8' lc_ctype 'C.UTF-8' lc_collate 'C.UTF-8' template template0`);
      const u = new URL(url);
      u.pathname = `/${name}`;
      return u.toString();
    },
    dropDatabase: (u) => admin(`drop database if exists "${decodeURIComponent(new URL(u).pathname.slice(1))}" with (force)`),
    close: async () => {},
    describe: `PostgreSQL ${await version(url)} at the given --pg-url`,
  };
}

// ---- the read-heavy mix

export const MIX_LIST = 'Mix';

/** 9 reads (item with expansions, a sorted page, lists, site users) to 1 item add, in a fixed cycle. */
export function mixRequests(itemPath: string): () => RequestParams {
  const json = { Accept: 'application/json', 'Content-Type': 'application/json' };
  const reads = [
    itemPath, itemPath, itemPath, itemPath,
    "/sites/dev/_api/web/lists/getbytitle('Tasks')/items?$top=10&$select=Title,Status,Modified&$orderby=Modified desc",
    "/sites/dev/_api/web/lists/getbytitle('Tasks')/items?$top=10&$select=Title,Status&$filter=Status eq 'Done'",
    '/sites/dev/_api/web/lists?$select=Title,ItemCount',
    '/sites/dev/_api/web/siteusers?$select=Title,Email',
    "/sites/dev/_api/web/lists/getbytitle('Projects')/items?$top=10",
  ].map((path) => encodeURI(path)); // autocannon sends paths as given: spaces would break the request line
  let count = 0;
  return () => {
    const i = count++ % 10;
    if (i === 9) return { method: 'POST', path: `/sites/dev/_api/web/lists/getbytitle('${MIX_LIST}')/items`, headers: json, body: JSON.stringify({ Title: `mix ${count}` }) };
    // No body and no Content-Type: autocannon would otherwise carry the last POST's over.
    return { method: 'GET', path: reads[i]!, headers: { Accept: 'application/json' }, body: undefined };
  };
}

// ---- spemu export / import, as an operator runs them

interface Transfer { seconds: number; rows: number; rowsPerSecond: number }

function cli(ctx: SectionContext, args: string[]): Promise<Transfer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['--import', 'tsx', join(ctx.root, 'src/cli/main.ts'), ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('close', (code) => {
      const m = /(?:exported|imported) [\d,]+ tables, ([\d,]+) rows in/.exec(stderr);
      if (code !== 0 || !m) { reject(new Error(`spemu ${args[0]} failed (${code}): ${stderr.slice(-500)}`)); return; }
      const seconds = (performance.now() - started) / 1000;
      const rows = Number(m[1]!.replaceAll(',', ''));
      resolve({ seconds, rows, rowsPerSecond: rows / seconds });
    });
  });
}

// ---- the section

interface Figures {
  databases: string;
  item: Array<{ sqlite: LoadFigures; postgres: LoadFigures }>;
  /** Of one more PostgreSQL item-read load. */
  cost: Cost;
  batch: { sqlite: BatchRun; postgres: BatchRun };
  instances: Array<{ one: LoadFigures; two: LoadFigures }>;
  million?: { export: Transfer; fileMb: number; import: Transfer; rounds: LoadFigures[]; oneConnection: LoadFigures; dbMb: number } | undefined;
}

async function measure(ctx: SectionContext, databases: Databases): Promise<Figures> {
  const { settings, core } = ctx;
  const common = { port: 0, logLevel: 'warn', anonymousUser: core.benchUser, tokenSecret: SECRET };
  const workspace = mkdtempSync(join(tmpdir(), 'spemu-bench-pg-'));
  const demoDb = await databases.createDatabase('spemu_bench');
  const children: Array<[ServerChild, string]> = [];
  const start = async (name: string, options: object) => {
    const child = await ctx.startSpemu({ ...common, ...options });
    children.push([child, name]);
    return child;
  };
  try {
    const sqlite = await start('SQLite', { data: workspace, db: join(workspace, 'spemu.db'), seed: core.demoTenant });
    const postgres = await start('PostgreSQL', { db: demoDb, seed: core.demoTenant });
    for (const child of [sqlite, postgres]) await ctx.checkOk(`${child.url}${core.itemPath}`, (body) => body.includes('Write spec'));

    ctx.log(`PostgreSQL: item read, SQLite and PostgreSQL alternately (${settings.rounds} rounds × ${settings.durationSeconds} s)`);
    const item: Figures['item'] = [];
    const read = (child: ServerChild, durationSeconds: number) => ctx.load(child, { path: core.itemPath, connections: settings.connections, durationSeconds });
    await read(sqlite, settings.warmupSeconds);
    await read(postgres, settings.warmupSeconds);
    for (let round = 1; round <= settings.rounds; round++) {
      const first = round % 2 ? sqlite : postgres;
      const a = await read(first, settings.durationSeconds);
      const b = await read(first === sqlite ? postgres : sqlite, settings.durationSeconds);
      const figures = first === sqlite ? { sqlite: a, postgres: b } : { sqlite: b, postgres: a };
      item.push(figures);
      ctx.log(`round ${round}: SQLite ${n(figures.sqlite.requestsPerSecond)} req/s, PostgreSQL ${n(figures.postgres.requestsPerSecond)} req/s`);
    }
    const { cost } = await measureCost(demoDb, postgres.process.pid!, () => read(postgres, settings.durationSeconds));
    ctx.log(`PostgreSQL item read costs ${n(cost.statementsPerRequest, 1)} statements per request`);

    const batch = {
      sqlite: await measureBatchAdds(`${sqlite.url}/sites/dev`, { batches: settings.batchCount, size: 100 }),
      postgres: await measureBatchAdds(`${postgres.url}/sites/dev`, { batches: settings.batchCount, size: 100 }),
    };
    ctx.log(`$batch of 100 adds: SQLite ${n(batch.sqlite.medianMs)} ms, PostgreSQL ${n(batch.postgres.medianMs)} ms`);

    // Two instances on the demo database: the second one joins the first.
    const list = await fetch(`${postgres.url}/sites/dev/_api/web/lists`, {
      method: 'POST', headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, body: JSON.stringify({ Title: MIX_LIST, BaseTemplate: 100 }),
    });
    if (list.status !== 201) throw new Error(`creating the ${MIX_LIST} list: ${list.status} ${await list.text()}`);
    const second = await start('PostgreSQL #2', { db: demoDb });
    await ctx.checkOk(`${second.url}${core.itemPath}`);
    ctx.log(`PostgreSQL: one instance vs two on one database, read-heavy mix (${settings.connections} connections in all)`);
    const instances: Figures['instances'] = [];
    const mix = (targets: ServerChild[], durationSeconds: number) =>
      ctx.load(targets, { connections: settings.connections, durationSeconds, nextRequest: mixRequests(core.itemPath) });
    await mix([postgres, second], settings.warmupSeconds);
    for (let round = 1; round <= settings.rounds; round++) {
      // Alternate who goes first, so a slow patch of the machine does not favour one side.
      const order = round % 2 ? [[postgres], [postgres, second]] : [[postgres, second], [postgres]];
      const [a, b] = [await mix(order[0]!, settings.durationSeconds), await mix(order[1]!, settings.durationSeconds)];
      const figures = round % 2 ? { one: a, two: b } : { one: b, two: a };
      instances.push(figures);
      ctx.log(`round ${round}: one instance ${n(figures.one.requestsPerSecond)} req/s, two ${n(figures.two.requestsPerSecond)} req/s`);
    }
    for (const [child, name] of children.splice(0)) await ctx.stopSpemu(child, name);

    return { databases: databases.describe, item, cost, batch, instances, million: await million(ctx, databases) };
  } finally {
    for (const [child, name] of children) await ctx.stopSpemu(child, name);
    await databases.dropDatabase(demoDb).catch(() => {});
    rmSync(workspace, { recursive: true, force: true });
  }
}

async function million(ctx: SectionContext, databases: Databases): Promise<Figures['million']> {
  const source = await ctx.millionWorkspace();
  if (!source) return undefined;
  const { settings } = ctx;
  const dir = mkdtempSync(join(tmpdir(), 'spemu-bench-1m-'));
  const db = await databases.createDatabase('spemu_bench_1m');
  try {
    const file = join(dir, 'items.ndjson.gz');
    ctx.log('PostgreSQL: 1M items, spemu export (SQLite → file) …');
    // The workspace's folder too: its files' bytes are in its blobs/ (config.ts blobFolderOf).
    const exported = await cli(ctx, ['export', file, '--db', source.db, '--data', source.dir]);
    ctx.log(`exported ${n(exported.rows)} rows in ${n(exported.seconds, 1)} s; spemu import (file → PostgreSQL) …`);
    const imported = await cli(ctx, ['import', file, '--db', db]);
    ctx.log(`imported in ${n(imported.seconds, 1)} s`);
    const fileMb = statSync(file).size / 2 ** 20;
    const client = new pg.Client({ connectionString: db });
    await client.connect();
    const dbMb = Number((await client.query('select pg_database_size(current_database()) as b')).rows[0].b) / 2 ** 20;
    await client.end();

    const spemu = await ctx.startSpemu({ db, port: 0, logLevel: 'warn', anonymousUser: ctx.core.benchUser, tokenSecret: SECRET });
    try {
      const path = (p: number) => `/sites/dev/_api/web/lists/getbytitle('${BIG_LIST}')/items?$filter=Priority%20eq%20${p}&$top=100&$select=Title,Priority`;
      await ctx.checkOk(`${spemu.url}${path(42)}`, (body) => (JSON.parse(body) as { value: unknown[] }).value.length === 100);
      const nextPath = () => path(1 + Math.floor(Math.random() * PRIORITY_RANGE));
      await ctx.load(spemu, { connections: settings.bigConnections, nextPath, durationSeconds: settings.warmupSeconds });
      const rounds: LoadFigures[] = [];
      for (let round = 1; round <= settings.rounds; round++) {
        rounds.push(await ctx.load(spemu, { connections: settings.bigConnections, nextPath, durationSeconds: settings.durationSeconds }));
        ctx.log(`1M round ${round}: ${n(rounds.at(-1)!.requestsPerSecond)} req/s, p99 ${rounds.at(-1)!.p99Ms} ms`);
      }
      const oneConnection = await ctx.load(spemu, { connections: 1, nextPath, durationSeconds: settings.durationSeconds });
      return { export: exported, fileMb, import: imported, rounds, oneConnection, dbMb };
    } finally {
      await ctx.stopSpemu(spemu, 'PostgreSQL 1M');
    }
  } finally {
    await databases.dropDatabase(db).catch(() => {});
    rmSync(dir, { recursive: true, force: true });
  }
}

// ---- the doc

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

const med = (xs: LoadFigures[], key: keyof LoadFigures) => median(xs.map((x) => x[key]));

function render(ctx: SectionContext, f: Figures): string {
  const s = ctx.settings;
  const sq = f.item.map((r) => r.sqlite);
  const pq = f.item.map((r) => r.postgres);
  const rows = [
    [`item(1) + $expand Author,Editor, ${s.connections} connections: req/s (median of ${f.item.length} rounds)`, n(med(sq, 'requestsPerSecond')), n(med(pq, 'requestsPerSecond')), n(median(f.item.map((r) => r.postgres.requestsPerSecond / r.sqlite.requestsPerSecond)), 2)],
    ['item(1) + $expand: p50 / p99 ms', `${n(med(sq, 'p50Ms'), 1)} / ${n(med(sq, 'p99Ms'), 1)}`, `${n(med(pq, 'p50Ms'), 1)} / ${n(med(pq, 'p99Ms'), 1)}`, '–'],
    ['$batch of 100 item adds: median ms per batch', n(f.batch.sqlite.medianMs), n(f.batch.postgres.medianMs), n(f.batch.postgres.medianMs / f.batch.sqlite.medianMs, 2)],
  ];
  const m = f.million;
  const core = ctx.core.million;
  if (m) {
    const coreRps = core ? median(core.rounds.map((r) => r.requestsPerSecond)) : NaN;
    const coreP99 = core ? median(core.rounds.map((r) => r.p99Ms)) : NaN;
    rows.push([`1M items, Priority eq N, $top=100, ${s.bigConnections} connections: req/s`, core ? n(coreRps) : '–', n(med(m.rounds, 'requestsPerSecond')), core ? n(med(m.rounds, 'requestsPerSecond') / coreRps, 2) : '–']);
    rows.push(['1M items: p99 ms', core ? n(coreP99) : '–', n(med(m.rounds, 'p99Ms')), '–']);
    rows.push(['1M items, 1 connection: p50 / p99 ms', core ? `${n(core.oneConnection.p50Ms)} / ${n(core.oneConnection.p99Ms)}` : '–', `${n(m.oneConnection.p50Ms)} / ${n(m.oneConnection.p99Ms)}`, '–']);
  }
  const inst = f.instances;
  const instRows = inst.map((r, i) => [String(i + 1), n(r.one.requestsPerSecond), n(r.two.requestsPerSecond), n(r.two.requestsPerSecond / r.one.requestsPerSecond, 2), `${n(r.one.p99Ms)} / ${n(r.two.p99Ms)}`]);
  instRows.push(['median', n(med(inst.map((r) => r.one), 'requestsPerSecond')), n(med(inst.map((r) => r.two), 'requestsPerSecond')),
    n(median(inst.map((r) => r.two.requestsPerSecond / r.one.requestsPerSecond)), 2), `${n(med(inst.map((r) => r.one), 'p99Ms'))} / ${n(med(inst.map((r) => r.two), 'p99Ms'))}`]);
  return `## PostgreSQL

- **Run:** ${ctx.runLine}
- **Database:** ${f.databases}; spemu, PostgreSQL and the load generator share the machine's cores.
- **The SQLite column** of the item read and \`$batch\` rows is measured in this section's own rounds (a fresh demo workspace); of the 1M rows, it is the core run above.

${table(['Load', 'SQLite', 'PostgreSQL', 'PostgreSQL/SQLite'], rows)}

Per item read on PostgreSQL (one more ${s.durationSeconds} s load): ${n(f.cost.statementsPerRequest, 1)} statements${f.cost.postgresCpuMs === undefined ? '' : `, ${n(f.cost.postgresCpuMs, 2)} ms of PostgreSQL CPU`}${f.cost.spemuCpuMs === undefined ? '' : ` and ${n(f.cost.spemuCpuMs, 2)} ms of spemu CPU`} (pg_stat_database; /proc).
${m ? `
**Moving the 1M-item workspace onto PostgreSQL** with the commands an operator runs: \`spemu export\` (SQLite → ${n(m.fileMb)} MB gzip file) ${n(m.export.rows)} rows in ${n(m.export.seconds, 1)} s (${n(m.export.rowsPerSecond)} rows/s); \`spemu import\` (file → PostgreSQL, indexes built after the rows, then \`analyze\`) in ${n(m.import.seconds, 1)} s (${n(m.import.rowsPerSecond)} rows/s), each including process start. The database is then ${n(m.dbMb)} MB.
` : ''}
**Two instances against one, on one PostgreSQL database** — a read-heavy mix in a fixed cycle of 10 requests: 4 × the item read above, a page of Tasks by Modified desc, a filtered page, the lists, the site users, a page of Projects, and 1 item add. ${s.connections} connections in all, shared by the instances (as a load balancer would); ${s.durationSeconds} s per load, alternating.

${table(['Round', 'one instance req/s', 'two instances req/s', 'two/one', 'p99 ms one / two'], instRows)}
`;
}

export const postgresSection: BenchSection = {
  id: 'postgres',
  enabled: (flags) => flags.db === 'postgres',
  needsCore: true,
  async run(ctx) {
    const databases = await openDatabases(ctx.flags['pg-url'] as string | undefined);
    try {
      const figures = await measure(ctx, databases);
      const markdown = render(ctx, figures);
      console.log(`\n${markdown}`);
      return markdown;
    } finally {
      await databases.close();
    }
  },
};
