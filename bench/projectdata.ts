// The ProjectData benchmark (issue #4): a PWA holding 1,000,000 tasks (10 projects of 100k),
// read the way reports read the feed: `Tasks?$select=<10 fields>` pages (300 rows, Project
// Online's page size), pages from a random place in a project (keyset skip tokens), a
// filtered page, and one client paging a whole 100k-task project to its end.
// The workspace is built once through spemu's own loader and store, then cached.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../src/index.ts';
import { openSqlite } from '../src/store/sql/connect.ts';
import { SqlStore } from '../src/store/sql/sql-store.ts';
import type { PdRow } from '../src/domain/projectdata/model.ts';
import { DATA_DIR, DEMO_TENANT } from './generate.ts';
import { median, type LoadFigures } from './load.ts';
import type { BenchSection, SectionContext } from './sections.ts';

const PROJECTS = 10;
const SELECT = 'ProjectId,TaskId,TaskName,TaskIndex,TaskStartDate,TaskFinishDate,TaskBaselineFinishDate,TaskWork,TaskCost,TaskPercentCompleted';
const PAGE = 300;
const n = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const projectId = (p: number) => `b0000000-0000-4000-8000-${String(p).padStart(12, '0')}`;
const taskId = (p: number, t: number) => `${String(p).padStart(8, '0')}-0000-4000-8000-${t.toString(16).padStart(12, '0')}`;

/** Files whose change may change the stored form: a change rebuilds the cache. */
const SOURCES = ['src/store/sql/migrations', 'src/store/sql/projectdata-store.ts', 'src/projectdata/catalogue.ts', 'demo/tenant.json', 'bench/projectdata.ts'];

function fingerprint(tasks: number): string {
  const root = join(DATA_DIR, '..', '..');
  const hash = createHash('sha256').update(`tasks=${tasks}\n`);
  for (const source of SOURCES) {
    const full = join(root, source);
    if (!existsSync(full)) continue;
    const files = source.endsWith('.ts') || source.endsWith('.json') ? [source] : readdirSync(full).sort().map((f) => `${source}/${f}`);
    for (const file of files) hash.update(file).update(readFileSync(join(root, file)));
  }
  return hash.digest('hex');
}

/** The demo tenant (its /sites/pwa is a PWA) plus `tasks` tasks in PROJECTS projects, built beside the cache and swapped in. */
export async function ensureProjectDataWorkspace(tasks: number, log: (text: string) => void): Promise<{ db: string; generatedSeconds: number }> {
  const dir = join(DATA_DIR, `projectdata-${tasks}`);
  const db = join(dir, 'spemu.db');
  const stamp = join(dir, 'fingerprint');
  const expected = fingerprint(tasks);
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === expected) return { db, generatedSeconds: 0 };
  const started = performance.now();
  const building = `${dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  const buildingDb = join(building, 'spemu.db');
  await (await startServer({ data: building, db: buildingDb, seed: DEMO_TENANT, port: 0, logLevel: 'silent' })).close();
  const connection = openSqlite({ file: buildingDb });
  const store = new SqlStore(connection.db, connection.flavour, { onSchemaChange: connection.clearStatementCache });
  try {
    const site = (await store.sites.byUrl('/sites/pwa'))!;
    const schema = await store.projectData.schema(site.id);
    const projects = schema.find((s) => s.name === 'Projects')!;
    const taskSet = schema.find((s) => s.name === 'Tasks')!;
    await store.projectData.upsertRows(site.id, projects, Array.from({ length: PROJECTS }, (_, p) => ({
      ProjectId: projectId(p), ProjectName: `Bench ${p}`, ProjectStartDate: Date.UTC(2020, 0, 1), ProjectFinishDate: Date.UTC(2024, 11, 31),
    })));
    const perProject = Math.ceil(tasks / PROJECTS);
    const day = 86_400_000;
    for (let p = 0; p < PROJECTS; p++) {
      for (let from = 0; from < perProject; from += 5000) {
        const rows: PdRow[] = [];
        for (let t = from; t < Math.min(from + 5000, perProject); t++) {
          const start = Date.UTC(2020, 0, 1) + (t % 1500) * day;
          rows.push({
            ProjectId: projectId(p), TaskId: taskId(p, t), ProjectName: `Bench ${p}`, TaskName: `Task ${p}.${t}`, TaskIndex: t + 1,
            TaskStartDate: start, TaskFinishDate: t % 10 === 0 ? null : start + 5 * day, TaskBaselineFinishDate: start + 4 * day,
            TaskWork: 40, TaskCost: 40 * (50 + (t % 50)), TaskPercentCompleted: t % 101, TaskIsMilestone: t % 50 === 0,
          });
        }
        await store.projectData.upsertRows(site.id, taskSet, rows);
      }
      log(`ProjectData workspace: project ${p + 1}/${PROJECTS} (${n((p + 1) * perProject)} tasks)`);
    }
  } finally {
    await store.close();
  }
  writeFileSync(join(building, 'fingerprint'), expected);
  rmSync(dir, { recursive: true, force: true });
  renameSync(building, dir);
  return { db, generatedSeconds: (performance.now() - started) / 1000 };
}

interface Figures {
  tasks: number;
  generatedSeconds: number;
  firstPage: LoadFigures[];
  deepPage: LoadFigures[];
  filtered: LoadFigures[];
  walk: { rows: number; pages: number; seconds: number };
}

async function measure(ctx: SectionContext): Promise<Figures> {
  const tasks = Number(ctx.flags['pd-tasks'] ?? 1_000_000);
  const { db, generatedSeconds } = await ensureProjectDataWorkspace(tasks, ctx.log);
  const child = await ctx.startSpemu({ db, data: join(db, '..'), port: 0, logLevel: 'warn', anonymousUser: ctx.core.benchUser });
  try {
    const base = '/sites/pwa/_api/ProjectData';
    const first = `${base}/Tasks?$select=${SELECT}`;
    await ctx.checkOk(`${child.url}${first}`, (body) => (JSON.parse(body).value as unknown[]).length === PAGE);
    const perProject = Math.ceil(tasks / PROJECTS);
    // A page from a random place in a random project: what the next link of a client deep in its walk asks for.
    const deep = () => {
      const p = Math.floor(Math.random() * PROJECTS);
      const t = Math.floor(Math.random() * (perProject - PAGE));
      return `${base}/Projects(guid'${projectId(p)}')/Tasks?$select=${SELECT}&$skiptoken=guid'${projectId(p)}',guid'${taskId(p, t)}'`;
    };
    const filtered = () => {
      const p = Math.floor(Math.random() * PROJECTS);
      const from = new Date(Date.UTC(2020, 0, 1) + Math.floor(Math.random() * 1400) * 86_400_000).toISOString().slice(0, 19);
      return encodeURI(`${base}/Tasks?$select=${SELECT}&$filter=ProjectId eq guid'${projectId(p)}' and TaskFinishDate ge datetime'${from}'&$top=100`);
    };
    const { settings } = ctx;
    await ctx.load(child, { path: first, connections: settings.connections, durationSeconds: settings.warmupSeconds });
    const figures: Figures = { tasks, generatedSeconds, firstPage: [], deepPage: [], filtered: [], walk: { rows: 0, pages: 0, seconds: 0 } };
    for (let round = 1; round <= settings.rounds; round++) {
      figures.firstPage.push(await ctx.load(child, { path: first, connections: settings.connections, durationSeconds: settings.durationSeconds }));
      figures.deepPage.push(await ctx.load(child, { nextPath: deep, connections: settings.connections, durationSeconds: settings.durationSeconds }));
      figures.filtered.push(await ctx.load(child, { nextPath: filtered, connections: settings.connections, durationSeconds: settings.durationSeconds }));
      ctx.log(`ProjectData round ${round}: first page ${n(figures.firstPage.at(-1)!.requestsPerSecond)} req/s, deep page ${n(figures.deepPage.at(-1)!.requestsPerSecond)} req/s, filtered ${n(figures.filtered.at(-1)!.requestsPerSecond)} req/s`);
    }
    // One client following next links through a whole project, as Power Query refreshes a report.
    const started = performance.now();
    let next: string | undefined = `${child.url}${base}/Projects(guid'${projectId(3)}')/Tasks?$select=${SELECT}`;
    while (next) {
      const res = await fetch(next, { headers: { Accept: 'application/json' } });
      const json = await res.json() as { value: unknown[]; 'odata.nextLink'?: string };
      figures.walk.rows += json.value.length;
      figures.walk.pages++;
      next = json['odata.nextLink'];
    }
    figures.walk.seconds = (performance.now() - started) / 1000;
    ctx.log(`ProjectData walk: ${n(figures.walk.rows)} rows in ${n(figures.walk.pages)} pages, ${n(figures.walk.seconds, 1)} s`);
    return figures;
  } finally {
    await ctx.stopSpemu(child, 'ProjectData');
  }
}

function report(ctx: SectionContext, f: Figures): string {
  const row = (name: string, runs: LoadFigures[], rowsPerRequest: number) => {
    const rps = median(runs.map((r) => r.requestsPerSecond));
    return `| ${name} | ${n(rps)} | ${n(rps * rowsPerRequest)} | ${n(median(runs.map((r) => r.p50Ms)))} | ${n(median(runs.map((r) => r.p99Ms)))} |`;
  };
  return [
    '## ProjectData: 1M tasks',
    '',
    `${ctx.runLine}. A PWA of ${n(f.tasks)} tasks in ${PROJECTS} projects (SQLite; built in ${f.generatedSeconds ? `${n(f.generatedSeconds)} s` : 'an earlier run, cached'}), `
      + `JSON light, \`$select\` of 10 fields, ${ctx.settings.connections} connections, medians of ${ctx.settings.rounds} rounds × ${ctx.settings.durationSeconds} s.`,
    '',
    '| request | req/s | rows/s | p50 ms | p99 ms |',
    '|---|---|---|---|---|',
    row('`Tasks?$select=…` (first page, 300 rows)', f.firstPage, PAGE),
    row('`Projects(…)/Tasks?$skiptoken=…` (a random page deep in a 100k-task project)', f.deepPage, PAGE),
    row("`Tasks?$filter=ProjectId eq guid'…' and TaskFinishDate ge datetime'…'&$top=100`", f.filtered, 100),
    '',
    `One client paging a whole project with \`odata.nextLink\`: ${n(f.walk.rows)} rows in ${n(f.walk.pages)} pages, `
      + `${n(f.walk.seconds, 1)} s (${n(f.walk.rows / f.walk.seconds)} rows/s).`,
  ].join('\n');
}

export const projectDataSection: BenchSection = {
  id: 'projectdata',
  enabled: (flags) => !flags['skip-projectdata'],
  async run(ctx) {
    return report(ctx, await measure(ctx));
  },
};
