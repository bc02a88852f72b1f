// `npm run bench -- --only schema [--db postgres]`: issue #14's measure. A tenant file with two
// 100k-item lists (Priority indexed, Category not) seeded on SQLite or PostgreSQL, then:
//   (a) the indexed query three ways — `$filter`, `getitems` with the same CAML, and
//       RenderListDataAsStream — under the same load, with the plans the database gives for the
//       statements each runs (they must use the same index);
//   (b) the same query on the unindexed field: all three answer SharePoint's threshold error;
//   (c) a member's item reads on a list that inherits and on its twin whose inheritance is broken
//       with 50 items given unique permissions: statements per request (no query per item).
// Plans and statement counts come from a server in this process (bench/statements.ts sees its
// driver calls); the load runs against a server in a child process on the same database. The
// doc part keeps one block per database, so a SQLite run and a PostgreSQL run sit side by side.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { median, type LoadFigures } from './load.ts';
import { hasWrk, runWrk } from './wrk.ts';
import { writeBigTenant } from './scale.ts';
import { openDatabases, type Databases } from './postgres.ts';
import { installStatementRecorder, statementsOf, type Statement } from './statements.ts';
import type { BenchSection, SectionContext } from './sections.ts';
import { bearerFor } from '../test/helpers/bearer.ts';
import { startServer } from '../src/index.ts';

const ITEMS = 100_000;
const SECRET = randomBytes(32).toString('base64url');
const ALICE = 'alice@contoso.onmicrosoft.com'; // the site's owner
const BOB = 'bob@contoso.onmicrosoft.com'; // a member
const WEB = '/sites/dev/_api/web';
const list = (title: string) => `${WEB}/lists/getbytitle('${title}')`;
/** Items of one priority: 100 of the 100k (Priority = (id - 1) % 1000). */
const PRIORITY = 42;
/** Given unique permissions on the twin list, so only the owner sees them: Priority 0, none on the measured page. */
const HIDDEN = Array.from({ length: 50 }, (_, k) => 1 + 2000 * k);

const view = (where: string) => `<View><ViewFields><FieldRef Name="Title"/><FieldRef Name="Priority"/></ViewFields><Query><Where>${where}</Where></Query><RowLimit>100</RowLimit></View>`;
const INDEXED_CAML = view(`<Eq><FieldRef Name="Priority"/><Value Type="Number">${PRIORITY}</Value></Eq>`);
const UNINDEXED_CAML = view('<Eq><FieldRef Name="Category"/><Value Type="Choice">Bug</Value></Eq>');
const filterPath = (title: string, filter: string) => `${list(title)}/items?$select=Title,Priority&$top=100&$filter=${encodeURIComponent(filter)}`;

interface Probe { name: string; method: 'GET' | 'POST'; path: string; body?: string }
const probes = (title: string, caml: string, filter: string): Probe[] => [
  { name: '`$filter`', method: 'GET', path: filterPath(title, filter) },
  { name: '`getitems` (CAML)', method: 'POST', path: `${list(title)}/getitems?$select=Title,Priority`, body: JSON.stringify({ query: { ViewXml: caml } }) },
  { name: 'RenderListDataAsStream (CAML)', method: 'POST', path: `${list(title)}/RenderListDataAsStream`, body: JSON.stringify({ parameters: { ViewXml: caml, RenderOptions: 2 } }) },
];
const INDEXED = probes('Seeded', INDEXED_CAML, `Priority eq ${PRIORITY}`);
const UNINDEXED = probes('Seeded', UNINDEXED_CAML, "Category eq 'Bug'");
/** (c): the same reads on the list that inherits and on its twin with broken inheritance. */
const READS = (['Seeded', 'Guarded'] as const).flatMap((title): Probe[] => [
  { name: `page of 100, ${title}`, method: 'GET', path: filterPath(title, `Priority eq ${PRIORITY}`) },
  { name: `one item, ${title}`, method: 'GET', path: `${list(title)}/items(${PRIORITY + 1})?$select=Title,Priority` },
]);

/** The demo tenant plus two identical 100k-item lists. */
function writeTenant(demoTenant: string, dir: string): string {
  const file = writeBigTenant(demoTenant, dir, ITEMS);
  const tenant = JSON.parse(readFileSync(file, 'utf8')) as { sites: Array<{ lists: Array<{ title: string }> }> };
  const lists = tenant.sites[0]!.lists;
  lists.push({ ...lists.at(-1)!, title: 'Guarded' });
  writeFileSync(file, JSON.stringify(tenant));
  return file;
}

const fmt = (v: number, digits = 0) => v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function send(base: string, probe: Probe, auth: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${base}${probe.path}`, {
    method: probe.method, headers: { Accept: 'application/json;odata=nometadata', Authorization: auth, ...(probe.body ? { 'Content-Type': 'application/json' } : {}) },
    ...(probe.body ? { body: probe.body } : {}),
  });
  return { status: response.status, text: await response.text() };
}

async function sendOk(base: string, probe: Probe, auth: string): Promise<string> {
  const { status, text } = await send(base, probe, auth);
  if (status !== 200) throw new Error(`${probe.method} ${probe.path} → ${status}: ${text.slice(0, 300)}`);
  return text;
}

/** The rows a probe's answer carries, whatever its shape. */
function rowCount(text: string): number {
  const body = JSON.parse(text) as { value?: unknown[]; Row?: unknown[]; ListData?: { Row: unknown[] } };
  return (body.value ?? body.Row ?? body.ListData?.Row ?? [body]).length;
}

interface Explainer { plan(statement: Statement): Promise<string>; close(): Promise<void> }

/** Asks the database for the plan of a statement as spemu sent it (its parameters bound). */
async function explainer(db: string, postgres: boolean): Promise<Explainer> {
  if (postgres) {
    const client = new pg.Client({ connectionString: db });
    await client.connect();
    const lines = (rows: Array<Record<string, string>>) => rows.map((r) => r['QUERY PLAN']!.trim()).join(' · ');
    const literal = (v: unknown) => (v === null || v === undefined ? 'NULL' : typeof v === 'number' || typeof v === 'boolean' ? String(v) : client.escapeLiteral(String(v)));
    return {
      async plan(s) {
        const custom = lines((await client.query({ text: `explain (costs off) ${s.text}`, values: s.params })).rows);
        // spemu runs hot reads as named statements, which PostgreSQL may plan once for any
        // parameters after five runs (a generic plan): show that one too when it differs.
        await client.query(`prepare spemu_explain as ${s.text}`);
        try {
          await client.query('set plan_cache_mode = force_generic_plan');
          const generic = lines((await client.query(`explain (costs off) execute spemu_explain(${s.params.map(literal).join(', ')})`)).rows);
          return generic === custom ? custom : `${custom} ‖ generic plan: ${generic}`;
        } finally {
          await client.query('deallocate spemu_explain');
          await client.query('reset plan_cache_mode');
        }
      },
      close: () => client.end(),
    };
  }
  const database = new SqliteDatabase(db, { readonly: true });
  return {
    async plan(s) {
      const rows = database.prepare(`explain query plan ${s.text}`).all(...s.params) as Array<{ detail: string }>;
      return rows.map((r) => r.detail).join(' · ');
    },
    close: async () => { database.close(); },
  };
}

/** The item table behind a list (plans are shown for statements reading it). */
async function itemTable(db: string, postgres: boolean, title: string): Promise<string> {
  if (postgres) {
    const client = new pg.Client({ connectionString: db });
    await client.connect();
    try { return String((await client.query('select table_name from lists where title = $1', [title])).rows[0].table_name); } finally { await client.end(); }
  }
  const database = new SqliteDatabase(db, { readonly: true });
  try { return String((database.prepare('select table_name from lists where title = ?').get(title) as { table_name: string }).table_name); } finally { database.close(); }
}

interface Measured {
  db: string;
  seedSeconds: number;
  plans: Array<{ name: string; statements: number; plans: string[] }>;
  threshold: Array<{ name: string; status: number; code: string }>;
  reads: Array<{ name: string; rows: number; statements: number }>;
  hiddenCheck: { seeded: number; guarded: number; hiddenItemStatus: number };
  load: Map<string, LoadFigures[]>;
}

/** Statements per request of a probe: 20 requests one at a time after 2 unmeasured ones. */
async function statementsPerRequest(base: string, probe: Probe, auth: string): Promise<number> {
  for (let i = 0; i < 2; i++) await sendOk(base, probe, auth);
  const runs = 20;
  const seen = await statementsOf(async () => { for (let i = 0; i < runs; i++) await sendOk(base, probe, auth); });
  return seen.length / runs;
}

/** Seeding, plans, threshold errors and statement counts, on a server in this process. */
async function inProcess(ctx: SectionContext, tenantFile: string, db: string, data: string, postgres: boolean): Promise<Omit<Measured, 'load'>> {
  installStatementRecorder();
  const started = performance.now();
  const server = await startServer({ port: 0, db, data, seed: tenantFile, logLevel: 'warn', tokenSecret: SECRET });
  const seedSeconds = (performance.now() - started) / 1000;
  const alice = await bearerFor(SECRET, ALICE);
  const bob = await bearerFor(SECRET, BOB);
  const explain = await explainer(db, postgres);
  try {
    const base = server.url;
    // The twin stops inheriting (copying the site's assignments: members still read it), then 50 of its items keep only the owner.
    const post = (path: string) => sendOk(base, { name: 'setup', method: 'POST', path }, alice);
    await post(`${list('Guarded')}/breakroleinheritance(copyRoleAssignments=true,clearSubscopes=false)`);
    for (const id of HIDDEN) await post(`${list('Guarded')}/items(${id})/breakroleinheritance(copyRoleAssignments=false,clearSubscopes=false)`);
    const zero = (title: string): Probe => ({ name: 'priority 0', method: 'GET', path: filterPath(title, 'Priority eq 0') });
    const hiddenCheck = {
      seeded: rowCount(await sendOk(base, zero('Seeded'), bob)),
      guarded: rowCount(await sendOk(base, zero('Guarded'), bob)),
      hiddenItemStatus: (await send(base, { name: 'hidden', method: 'GET', path: `${list('Guarded')}/items(${HIDDEN[0]})` }, bob)).status,
    };
    ctx.log(`schema: a member sees ${hiddenCheck.seeded} items of priority 0 on Seeded, ${hiddenCheck.guarded} on Guarded; a hidden item answers ${hiddenCheck.hiddenItemStatus}`);

    const table = await itemTable(db, postgres, 'Seeded');
    const plans: Measured['plans'] = [];
    for (const probe of INDEXED) {
      const text = await sendOk(base, probe, alice);
      if (rowCount(text) !== 100) throw new Error(`${probe.name}: ${rowCount(text)} rows, not 100`);
      const seen = await statementsOf(async () => { await sendOk(base, probe, alice); });
      const reading = seen.filter((s) => s.text.includes(table));
      const shown = [...new Set(await Promise.all(reading.map((s) => explain.plan(s))))];
      plans.push({ name: probe.name, statements: seen.length, plans: shown });
      ctx.log(`schema: ${probe.name}: ${seen.length} statements; plan: ${shown.join(' | ')}`);
    }
    const threshold: Measured['threshold'] = [];
    for (const probe of UNINDEXED) {
      const { status, text } = await send(base, probe, alice);
      const body = JSON.parse(text) as { 'odata.error'?: { code: string }; error?: { code: string } };
      const code = body['odata.error']?.code ?? body.error?.code ?? text.slice(0, 80);
      threshold.push({ name: probe.name, status, code });
      ctx.log(`schema: unindexed ${probe.name}: ${status} ${code}`);
    }
    const reads: Measured['reads'] = [];
    for (const probe of READS) {
      const rows = rowCount(await sendOk(base, probe, bob));
      reads.push({ name: probe.name, rows, statements: await statementsPerRequest(base, probe, bob) });
      ctx.log(`schema: ${probe.name} as a member: ${rows} rows, ${fmt(reads.at(-1)!.statements, 2)} statements per request`);
    }
    return { db: postgres ? 'PostgreSQL' : 'SQLite', seedSeconds, plans, threshold, reads, hiddenCheck };
  } finally {
    await explain.close();
    await server.close();
  }
}

export const schemaSection: BenchSection = {
  id: 'schema',
  // Only on request (`--only schema`): it seeds 200k items of its own.
  enabled: () => false,
  async run(ctx: SectionContext): Promise<string> {
    if (!hasWrk()) throw new Error('the schema section loads POSTs with wrk (apt install wrk)');
    const postgres = ctx.flags.db === 'postgres';
    const scratch = mkdtempSync(join(tmpdir(), 'spemu-schema-'));
    let databases: Databases | undefined;
    let db = join(scratch, 'spemu.db');
    try {
      if (postgres) {
        databases = await openDatabases(ctx.flags['pg-url'] as string | undefined);
        db = await databases.createDatabase('spemu_schema');
      }
      const tenantFile = writeTenant(ctx.core.demoTenant, scratch);
      ctx.log(`schema: seeding 2 × ${fmt(ITEMS)} items on ${postgres ? 'PostgreSQL' : 'SQLite'}`);
      const found = await inProcess(ctx, tenantFile, db, scratch, postgres);

      // The load, on a server of its own in a child process (the database as the first one left it).
      const child = await ctx.startSpemu({ port: 0, db, data: scratch, seed: tenantFile, logLevel: 'warn', tokenSecret: SECRET });
      const load = new Map<string, LoadFigures[]>();
      try {
        const alice = await bearerFor(SECRET, ALICE);
        const bob = await bearerFor(SECRET, BOB);
        const targets = [...INDEXED.map((p) => ({ p, auth: alice })), ...READS.map((p) => ({ p, auth: bob }))];
        const { settings } = ctx;
        const run = (t: typeof targets[number], seconds: number) => runWrk({
          url: `${child.url}${t.p.path}`, connections: settings.connections, durationSeconds: seconds,
          headers: { Accept: 'application/json;odata=nometadata', Authorization: t.auth }, ...(t.p.body ? { postJson: t.p.body } : {}),
        });
        ctx.log(`schema: load, wrk ${settings.connections} connections, ${settings.rounds} rounds of ${settings.durationSeconds} s`);
        for (const t of targets) await run(t, settings.warmupSeconds);
        for (let round = 1; round <= settings.rounds; round++) {
          // Alternate the order, so a slow patch of the shared machine does not favour one target.
          for (const t of round % 2 ? targets : [...targets].reverse()) {
            const figures = await run(t, settings.durationSeconds);
            load.set(t.p.name, [...(load.get(t.p.name) ?? []), figures]);
          }
          ctx.log(`schema: round ${round}: ${[...load].map(([name, f]) => `${name} ${fmt(f.at(-1)!.requestsPerSecond)}`).join(', ')}`);
        }
      } finally {
        await ctx.stopSpemu(child, 'schema');
      }
      return render(ctx, { ...found, load });
    } finally {
      if (databases) { await databases.dropDatabase(db).catch(() => {}); await databases.close(); }
      rmSync(scratch, { recursive: true, force: true });
    }
  },
};

/** This run's block, beside the other database's block from the doc as it stands. */
function render(ctx: SectionContext, m: Measured): string {
  const loads = m.load;
  const rps = (name: string) => median(loads.get(name)!.map((f) => f.requestsPerSecond));
  const p99 = (name: string) => median(loads.get(name)!.map((f) => f.p99Ms));
  // Ratios within a round, then the median.
  const ratio = (a: string, b: string) => median(loads.get(a)!.map((f, i) => f.requestsPerSecond / loads.get(b)![i]!.requestsPerSecond));
  const base = INDEXED[0]!.name;
  const planRows = m.plans.map((p) => `| ${p.name} | ${fmt(rps(p.name))} | ${fmt(ratio(p.name, base), 2)} | ${fmt(p99(p.name), 1)} | ${p.statements} | ${p.plans.map((t) => `\`${t.replaceAll('|', '\\|')}\``).join('<br>')} |`);
  const thresholdRows = m.threshold.map((t) => `| ${t.name} | ${t.status} | \`${t.code}\` |`);
  const readRows = m.reads.map((r) => `| ${r.name} | ${r.rows} | ${fmt(r.statements, 2)} | ${fmt(rps(r.name))} | ${fmt(p99(r.name), 1)} |`);
  const sameStatus = new Set(m.threshold.map((t) => `${t.status} ${t.code}`)).size === 1;
  const pageRatio = ratio('page of 100, Guarded', 'page of 100, Seeded');
  const itemRatio = ratio('one item, Guarded', 'one item, Seeded');
  const statementsOf = (name: string) => m.reads.find((r) => r.name === name)!.statements;
  const block = `### ${m.db}

${ctx.runLine}. wrk, ${ctx.settings.connections} connections, ${ctx.settings.rounds} rounds of ${ctx.settings.durationSeconds} s after ${ctx.settings.warmupSeconds} s of warm-up, targets in alternating order; ratios taken within a round, then the median. Two 100k-item lists seeded in ${fmt(m.seedSeconds, 1)} s (open, migrate, load, then planner statistics).

(a) Items of one Priority (indexed), 100 of 100,000, as the owner. Statements: all the request sent; plans: the database's own (\`${m.db === 'SQLite' ? 'explain query plan' : 'explain (costs off)'}\`) for those reading the list's item table.

| query | req/s | ÷ \`$filter\` | p99 ms | statements | plan |
|---|---|---|---|---|---|
${planRows.join('\n')}

(b) The same on Category (not indexed): ${sameStatus ? 'the same answer from all three' : '**the answers differ**'}.

| query | status | code |
|---|---|---|
${thresholdRows.join('\n')}

(c) A member's reads; Guarded is Seeded's twin with broken inheritance and ${HIDDEN.length} items only the owner may see (the member sees ${m.hiddenCheck.guarded} of its 100 items of priority 0, ${m.hiddenCheck.seeded} on Seeded; a hidden item answers ${m.hiddenCheck.hiddenItemStatus}).

| read | rows | statements per request | req/s | p99 ms |
|---|---|---|---|---|
${readRows.join('\n')}

Broken inheritance ÷ inheriting: page ${fmt(pageRatio, 2)}, item ${fmt(itemRatio, 2)} (req/s); statements per page ${fmt(statementsOf('page of 100, Guarded'), 2)} vs ${fmt(statementsOf('page of 100, Seeded'), 2)}: ${statementsOf('page of 100, Guarded') <= statementsOf('page of 100, Seeded') + 0.05 ? 'no query per item' : '**more statements with unique permissions**'}.`;
  console.log(`\n${block}\n`);
  const others = otherBlocks(ctx.root, m.db);
  const blocks = [...others, [m.db, block] as const].sort(([a], [b]) => a.localeCompare(b, 'en', { sensitivity: 'base' }) * -1);
  return `## Sites and schema (issue #14): CAML beside \`$filter\`, unique permissions

\`npm run bench -- --only schema\` and \`npm run bench -- --only schema --db postgres\` (bench/schema.ts); each run rewrites its own database's block.

${blocks.map(([db, text]) => `<!-- schema:${db} -->\n${text.trim()}\n<!-- /schema:${db} -->`).join('\n\n')}`;
}

/** The other database's block as the doc holds it. */
function otherBlocks(root: string, db: string): Array<readonly [string, string]> {
  let doc = '';
  try { doc = readFileSync(join(root, 'docs/benchmarks.md'), 'utf8'); } catch { return []; }
  const out: Array<readonly [string, string]> = [];
  for (const m of doc.matchAll(/<!-- schema:(\w+) -->\n([\s\S]*?)\n<!-- \/schema:\1 -->/g)) if (m[1] !== db) out.push([m[1]!, m[2]!] as const);
  return out;
}
