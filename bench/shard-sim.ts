// How spemu's SQL would distribute if tenants' data were sharded by site collection
// (Citus, CockroachDB): a simulation for docs/deployment.md. It runs a real workload — the
// PnPjs, $batch, user and profile integration tests, on PostgreSQL — with
// pg_stat_statements on, then sorts every statement executed by what a sharded database
// would have to do with it.
//
//   npx tsx bench/shard-sim.ts [test files…]      (SHARD_SIM_SHOW='<class>' lists that class's statements)
//
// Classes (per execution, from the statement's tables and predicates):
//   reference read / write  only replicated tables (directory, settings, sites, photos): a read is local to
//                           any node; a write goes to every node (two-phase commit)
//   metadata counter …      the one-row metadata_version: read once per request, bumped by metadata writes
//   one site, by key        a site's own tables (webs, lists, fields, items_<n>, …) with a predicate on a
//                           key that names one site (site_id, web_id, list_row_id, a list's row_id) or a
//                           per-list item table: routable to the site's shard
//   one site, other key     a site's tables by a key that does not name the site (a GUID, url_key): one
//                           shard only if the caller already knows the site (schema-based sharding: yes)
//   run-time DDL            create/alter/drop of per-list tables, columns and indexes
//   all shards              a site's tables with no key at all: a fan-out to every shard

import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startCluster } from '../test/helpers/postgres.ts';
import { startServer } from '../src/index.ts';
import { MIX_LIST, mixRequests } from './postgres.ts';

const DEMO = fileURLToPath(new URL('../demo/tenant.json', import.meta.url));
const USER = 'alice@contoso.onmicrosoft.com';
/** The core benchmark's item read (bench/run.ts, which cannot be imported: it runs). */
const ITEM_PATH = "/sites/dev/_api/web/lists/getbytitle('Tasks')/items(1)"
  + '?$select=Title,Author/ID,Author/Title,Author/LastName,Editor/ID,Editor/Title,Editor/LastName&$expand=Author,Editor';
const JSON_HEADERS = { Accept: 'application/json', 'Content-Type': 'application/json' };
const MIX_REQUESTS = 2000;

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const WORKLOAD = ['test/integration/pnp-items.test.ts', 'test/integration/pnp-lists.test.ts', 'test/integration/pnp-fields.test.ts',
  'test/integration/pnp-users.test.ts', 'test/integration/batch.test.ts', 'test/integration/seed-flow.test.ts', 'test/integration/profiles.test.ts'];

const REFERENCE = new Set(['directory_users', 'directory_groups', 'directory_members', 'user_photos', 'settings', 'sites']);
const BOOKKEEPING = /kysely_migration|pg_catalog|information_schema|pg_stat|pg_advisory/;
const SITE_KEY = /"?(site_id|web_id|list_row_id)"?\s*(=|in)\s*[($]/;

function tablesOf(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/\b(?:from|join|into|update|table(?: if (?:not )?exists)?|on)\s+"?([a-z_][a-z0-9_]*)"?/gi)) out.add(m[1]!.toLowerCase());
  return [...out].filter((t) => !['select', 'lateral', 'conflict', 'only'].includes(t));
}

function classify(text: string): string | undefined {
  const q = text.trim().toLowerCase();
  if (BOOKKEEPING.test(q) || /^(begin|commit|rollback|set |reset |show |select 1\b|select lower\(|select current_setting|select \$1$|create database|drop database|create extension|select pg_)/.test(q)) return undefined;
  if (/^(create|alter|drop)\b/.test(q)) return 'run-time DDL';
  const tables = tablesOf(q);
  if (!tables.length) return undefined;
  const siteTables = tables.filter((t) => !REFERENCE.has(t) && t !== 'metadata_version');
  if (!siteTables.length) {
    if (tables.includes('metadata_version')) return /^update/.test(q) ? 'metadata counter bump' : 'metadata counter read';
    return /^(insert|update|delete)/.test(q) ? 'reference write' : 'reference read';
  }
  const perList = siteTables.every((t) => /^items_\d+$/.test(t) || /^pd_\d+$/.test(t));
  if (perList || SITE_KEY.test(q) || /"?lists"?.*"row_id"\s*=\s*\$/.test(q)) return 'one site, by key';
  // An insert is routed by the row it carries.
  if (/^insert/.test(q)) return /\((?:[^)]*")?(site_id|web_id|list_row_id)"/.test(q) ? 'one site, by key' : 'one site, other key';
  if (/\bwhere\b/.test(q)) return 'one site, other key';
  return 'all shards';
}

async function report(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ query: string; calls: string }>('select query, calls from pg_stat_statements');
  const dealloc = Number((await client.query('select dealloc from pg_stat_statements_info')).rows[0].dealloc);
  if (dealloc) console.error(`warning: pg_stat_statements evicted statement shapes ${dealloc} times; counts are low`);
  const classes = new Map<string, { calls: number; shapes: number; example: string }>();
  let total = 0;
  for (const r of rows) {
    const c = classify(r.query);
    if (!c) continue;
    const calls = Number(r.calls);
    total += calls;
    const entry = classes.get(c) ?? { calls: 0, shapes: 0, example: '' };
    entry.calls += calls;
    entry.shapes++;
    if (!entry.example || r.query.length < entry.example.length) entry.example = r.query.replace(/\s+/g, ' ');
    classes.set(c, entry);
  }
  console.log(`\n| class | executions | share | statement shapes | shortest example |\n|---|---|---|---|---|`);
  for (const [name, e] of [...classes].sort((a, b) => b[1].calls - a[1].calls)) {
    console.log(`| ${name} | ${e.calls.toLocaleString('en-US')} | ${((100 * e.calls) / total).toFixed(1)} % | ${e.shapes} | \`${e.example.slice(0, 90)}\` |`);
  }
  console.log(`\n${total.toLocaleString('en-US')} statement executions in all (migrations, catalog and transaction control left out).`);
  if (process.env.SHARD_SIM_SHOW) {
    for (const r of rows.filter((x) => classify(x.query) === process.env.SHARD_SIM_SHOW).sort((a, b) => Number(b.calls) - Number(a.calls)).slice(0, 15)) {
      console.log(`${r.calls}\t${r.query.replace(/\s+/g, ' ').slice(0, 200)}`);
    }
  }
}

async function runWorkload(adminUrl: string, files: string[]): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=dot', ...files], {
      cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, SPEMU_TEST_DB: 'postgres', SPEMU_TEST_PG_URL: adminUrl },
    });
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`workload tests failed (${code})`))));
  });
}

async function main(): Promise<void> {
  const files = process.argv.slice(2).length ? process.argv.slice(2) : WORKLOAD;
  const cluster = await startCluster();
  try {
    const admin = new pg.Client({ connectionString: cluster.adminUrl });
    await admin.connect();
    await admin.query("alter system set shared_preload_libraries = 'pg_stat_statements'");
    await admin.end();
    cluster.stop();
    cluster.start();
    // Room for every statement shape (each list's item table makes its own): known once loaded.
    const setup = new pg.Client({ connectionString: cluster.adminUrl });
    await setup.connect();
    await setup.query('alter system set pg_stat_statements.max = 50000');
    await setup.end();
    cluster.stop();
    cluster.start();
    const client = new pg.Client({ connectionString: cluster.adminUrl });
    await client.connect();
    await client.query('create extension pg_stat_statements');
    await client.query('select pg_stat_statements_reset()');
    console.error(`workload: ${files.join(', ')}`);
    await runWorkload(cluster.adminUrl, files);
    console.log(`\n### Workload 1: the integration tests above (each starts servers and seeds tenants: setup-heavy)`);
    await report(client);
    // Workload 2: serving. One spemu on a seeded database; statistics from after the seeding.
    const db = await cluster.createDatabase('spemu_mix');
    const server = await startServer({ db, port: 0, logLevel: 'silent', seed: DEMO, anonymousUser: USER, tokenSecret: 'shard-sim-'.repeat(4) });
    try {
      const made = await fetch(`${server.url}/sites/dev/_api/web/lists`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ Title: MIX_LIST, BaseTemplate: 100 }) });
      if (made.status !== 201) throw new Error(`creating ${MIX_LIST}: ${made.status}`);
      await client.query('select pg_stat_statements_reset()');
      const next = mixRequests(ITEM_PATH);
      for (let i = 0; i < MIX_REQUESTS; i++) {
        const r = next();
        const response = await fetch(`${server.url}${r.path}`, { method: r.method, headers: r.headers, body: r.body ?? null });
        await response.arrayBuffer();
        if (response.status >= 300) throw new Error(`${r.method} ${r.path} → ${response.status}`);
      }
    } finally {
      await server.close();
    }
    console.log(`\n### Workload 2: serving, ${MIX_REQUESTS} requests of the benchmark's read-heavy mix (9 reads : 1 item add)`);
    await report(client);
    await client.end();
  } finally {
    await cluster.destroy();
  }
}

main().then(() => process.exit(0), (e: unknown) => { console.error(e); process.exit(1); });
