// `npm run bench`: spemu against a bare node:http baseline, a 1M-item list, and cold
// start — all in one run on one machine, because only ratios taken together mean much on a
// shared, noisy box. Usage and the latest figures: docs/benchmarks.md.

import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { runLoad, median, type LoadFigures, type LoadOptions } from './load.ts';
import { memoryOf, startServerChild, stopChild, type ServerChild } from './processes.ts';
import { ensureMillionWorkspace, DATA_DIR, DEMO_TENANT, millionFilterPath, PRIORITY_RANGE } from './generate.ts';
import { measureColdStart, type ColdStart } from './cold-start.ts';
import { describeMachine, machineLine } from './machine.ts';
import { topCosts } from './profile-top.ts';
import { measureBatchAdds, type BatchRun } from './batch.ts';
import { printReport, writeDocs, writeSections, type BenchReport, type Comparison, type MillionRun } from './report.ts';
import type { BenchSection, SectionContext } from './sections.ts';
import { postgresSection } from './postgres.ts';
import { projectDataSection } from './projectdata.ts';
import { hotPathSection } from './hot-path.ts';
import { filesSection } from './files.ts';
import { files2gbSection } from './files-memory.ts';
import { schemaSection } from './schema.ts';

/**
 * Sections measured after the core run, each writing its own part of docs/benchmarks.md
 * (bench/sections.ts says how). A new benchmark (e.g. ProjectData) is one more entry here.
 */
const SECTIONS: BenchSection[] = [
  hotPathSection, // unless --skip-hot-path: Basic, Bearer, web, --workers 2 ÷ 1, item adds (wrk where present)
  postgresSection, // --db postgres
  projectDataSection, // unless --skip-projectdata; --pd-tasks N (default 1,000,000)
  filesSection, // unless --skip-files: 100 MiB up and down, RSS through 1 GiB, a 10,000-file folder listed
  files2gbSection, // --files-2gb: RSS through a 2 GiB file
  schemaSection, // --only schema [--db postgres]: CAML beside $filter and unique permissions on 100k-item lists (issue #14)
];

/** Requests carry no credentials: they act as the demo's owner (the full authentication and role path still runs). */
const BENCH_USER = 'alice@contoso.onmicrosoft.com';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SPEMU_SERVER = join(ROOT, 'bench/servers/spemu-server.ts');
const HELLO_SERVER = join(ROOT, 'bench/servers/hello-server.ts');
const FASTIFY_SERVER = join(ROOT, 'bench/servers/fastify-hello-server.ts');
const ACCEPT_JSON = { Accept: 'application/json' };
export const ITEM_PATH = "/sites/dev/_api/web/lists/getbytitle('Tasks')/items(1)"
  + '?$select=Title,Author/ID,Author/Title,Author/LastName,Editor/ID,Editor/Title,Editor/LastName&$expand=Author,Editor';
const filterPath = millionFilterPath;

const { values: flags } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    'skip-1m': { type: 'boolean', default: false },
    duration: { type: 'string' },
    rounds: { type: 'string' },
    connections: { type: 'string', default: '10' },
    'big-connections': { type: 'string', default: '50' },
    'cold-runs': { type: 'string' },
    profile: { type: 'boolean', default: false },
    docs: { type: 'boolean' },
    db: { type: 'string', default: 'sqlite' },
    'pg-url': { type: 'string' },
    'skip-projectdata': { type: 'boolean', default: false },
    'skip-hot-path': { type: 'boolean', default: false },
    'pd-tasks': { type: 'string' },
    'skip-files': { type: 'boolean', default: false },
    'files-2gb': { type: 'boolean', default: false },
    // Only these sections (ids, comma-separated), without the core run; their parts of the doc are rewritten, the rest kept.
    only: { type: 'string' },
  },
});
if (flags.db !== 'sqlite' && flags.db !== 'postgres') throw new Error(`--db must be sqlite or postgres, not '${flags.db}'`);
const quick = flags.quick!;
const settings = {
  durationSeconds: Number(flags.duration ?? (quick ? 2 : 10)),
  rounds: Number(flags.rounds ?? (quick ? 2 : 3)),
  warmupSeconds: quick ? 1 : 3,
  connections: Number(flags.connections),
  bigConnections: Number(flags['big-connections']),
  coldRuns: Number(flags['cold-runs'] ?? (quick ? 3 : 5)),
  batchCount: quick ? 3 : 10,
};
// Smoke runs print only, so they never overwrite the recorded figures.
const writeDocsFile = flags.docs ?? !quick;
const profileDir = join(DATA_DIR, 'profiles');
const spemuNodeArgs = flags.profile ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [];
if (flags.profile) rmSync(profileDir, { recursive: true, force: true });

const workspaces: string[] = [];
process.on('exit', () => { for (const dir of workspaces) rmSync(dir, { recursive: true, force: true }); });

const log = (text: string) => console.log(`[bench] ${text}`);

/** One request first: a broken endpoint should fail the run, not be measured at 100k errors/s. */
async function checkOk(url: string, expect?: (body: string) => boolean): Promise<void> {
  const response = await fetch(url, { headers: ACCEPT_JSON, signal: AbortSignal.timeout(10_000) });
  const body = await response.text();
  if (response.status !== 200 || (expect && !expect(body))) throw new Error(`GET ${url} → ${response.status}: ${body.slice(0, 300)}`);
}

function load(child: ServerChild, options: Omit<LoadOptions, 'url' | 'headers'>): Promise<LoadFigures> {
  return runLoad({ url: child.url, headers: ACCEPT_JSON, ...options });
}

async function stopSpemu(child: ServerChild, name: string): Promise<void> {
  await stopChild(child.process, 15_000);
  if (flags.profile) log(`${name}: CPU profile written under ${profileDir} (summarise with bench/profile-top.ts)`);
}

async function compareWithBaseline(): Promise<{ comparison: Comparison; batch: BatchRun; demoWorkspace: string }> {
  const workspace = mkdtempSync(join(tmpdir(), 'spemu-bench-'));
  workspaces.push(workspace);
  const hello = await startServerChild(HELLO_SERVER, [], { timeoutMs: 15_000 });
  const framework = await startServerChild(FASTIFY_SERVER, [], { timeoutMs: 15_000 });
  const spemu = await startServerChild(SPEMU_SERVER, [JSON.stringify({
    data: workspace, db: join(workspace, 'spemu.db'), seed: DEMO_TENANT, port: 0, logLevel: 'warn', anonymousUser: BENCH_USER,
  })], { nodeArgs: spemuNodeArgs, timeoutMs: 60_000 });
  try {
    await checkOk(`${spemu.url}${ITEM_PATH}`, (body) => body.includes('Write spec'));
    const spemuLoad = { path: ITEM_PATH, connections: settings.connections };
    const run = (child: ServerChild, durationSeconds: number) =>
      load(child, child === spemu ? { ...spemuLoad, durationSeconds } : { connections: settings.connections, durationSeconds });
    log(`warm-up ${settings.warmupSeconds} s each`);
    await run(hello, settings.warmupSeconds);
    await run(framework, settings.warmupSeconds);
    await run(spemu, settings.warmupSeconds);
    const rounds: Comparison['rounds'] = [];
    for (let round = 1; round <= settings.rounds; round++) {
      // Alternate who goes first, so a slow patch of the machine does not favour one side.
      const order = round % 2 ? [hello, framework, spemu] : [spemu, framework, hello];
      const figures = new Map<ServerChild, LoadFigures>();
      for (const child of order) figures.set(child, await run(child, settings.durationSeconds));
      const baseline = figures.get(hello)!;
      const measured = figures.get(spemu)!;
      const fastify = figures.get(framework)!;
      rounds.push({
        baseline, fastify, spemu: measured,
        ratio: measured.requestsPerSecond / baseline.requestsPerSecond, fastifyRatio: measured.requestsPerSecond / fastify.requestsPerSecond,
      });
      log(`round ${round}: baseline ${baseline.requestsPerSecond.toFixed(0)} req/s, fastify ${fastify.requestsPerSecond.toFixed(0)} req/s, spemu ${measured.requestsPerSecond.toFixed(0)} req/s`);
    }
    const batch = await measureBatchAdds(`${spemu.url}/sites/dev`, { batches: settings.batchCount, size: 100 });
    log(`$batch of 100 item adds: median ${batch.medianMs.toFixed(1)} ms per batch`);
    return {
      comparison: { rounds, ratio: median(rounds.map((r) => r.ratio)), fastifyRatio: median(rounds.map((r) => r.fastifyRatio)) },
      batch,
      demoWorkspace: workspace,
    };
  } finally {
    await stopChild(hello.process);
    await stopChild(framework.process);
    await stopSpemu(spemu, 'baseline comparison');
  }
}

async function millionItems(): Promise<MillionRun> {
  log('1M items: preparing the workspace (cached under bench/.data/)');
  const workspace = await ensureMillionWorkspace();
  log(workspace.generatedSeconds ? `generated in ${workspace.generatedSeconds.toFixed(1)} s` : 'reused the cached workspace');
  const spemu = await startServerChild(SPEMU_SERVER, [JSON.stringify({ data: workspace.dir, db: workspace.db, port: 0, logLevel: 'warn', anonymousUser: BENCH_USER })],
    { nodeArgs: spemuNodeArgs, timeoutMs: 60_000 });
  try {
    await checkOk(`${spemu.url}${filterPath(42)}`, (body) => (JSON.parse(body) as { value: unknown[] }).value.length === 100);
    // A different priority per request, so every request reads different rows.
    const nextPath = () => filterPath(1 + Math.floor(Math.random() * PRIORITY_RANGE));
    const options = { connections: settings.bigConnections, nextPath };
    await load(spemu, { ...options, durationSeconds: settings.warmupSeconds });
    const rounds: LoadFigures[] = [];
    for (let round = 1; round <= settings.rounds; round++) {
      rounds.push(await load(spemu, { ...options, durationSeconds: settings.durationSeconds }));
      log(`round ${round}: ${rounds.at(-1)!.requestsPerSecond.toFixed(0)} req/s, p99 ${rounds.at(-1)!.p99Ms} ms`);
    }
    const memory = memoryOf(spemu.process.pid!);
    // One connection shows the latency of the request itself, without queueing behind 49 others.
    const oneConnection = await load(spemu, { connections: 1, nextPath, durationSeconds: settings.durationSeconds });
    log(`1 connection: p50 ${oneConnection.p50Ms} ms, p99 ${oneConnection.p99Ms} ms`);
    return { rounds, oneConnection, generatedSeconds: workspace.generatedSeconds, workspace: workspace.dir, ...memory };
  } finally {
    await stopSpemu(spemu, '1M items');
  }
}

/** When and how this run was started, as the doc heads its figures. */
function runStamp(): { date: string; command: string } {
  return {
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
  };
}

/** `--only a,b`: those sections alone, in the order given; sections that set their figures beside the core run's cannot. */
async function runOnly(ids: string[]): Promise<void> {
  const sections = ids.map((id) => {
    const section = SECTIONS.find((s) => s.id === id);
    if (!section) throw new Error(`--only: no section '${id}' (there are ${SECTIONS.map((s) => s.id).join(', ')})`);
    if (section.needsCore) throw new Error(`--only: section '${id}' sets its figures beside the core run's; run it without --only`);
    return section;
  });
  const machine = describeMachine();
  log(machineLine(machine));
  const { date, command } = runStamp();
  const context = sectionContext(`${date}, \`${command}\`, ${machineLine(machine)}`, undefined);
  const measured = new Map<string, string>();
  for (const section of sections) {
    measured.set(section.id, await section.run(context));
    console.log(`\n${measured.get(section.id)}\n`);
  }
  if (writeDocsFile) log(`wrote ${writeSections(join(ROOT, 'docs/benchmarks.md'), measured)} (only ${ids.join(', ')})`);
  else log('docs/benchmarks.md not written (--quick; pass --docs to write it anyway)');
}

async function main(): Promise<void> {
  if (flags.only) return runOnly(flags.only.split(',').map((id) => id.trim()).filter(Boolean));
  const machine = describeMachine();
  log(machineLine(machine));
  log(`settings: ${JSON.stringify(settings)}`);
  const { comparison, batch, demoWorkspace } = await compareWithBaseline();
  const million = flags['skip-1m'] ? undefined : await millionItems();
  log(`cold start: ${settings.coldRuns} starts per workspace`);
  const coldStarts: Array<{ workspace: string; result: ColdStart }> = [
    { workspace: 'demo tenant', result: await measureColdStart(ROOT, demoWorkspace, settings.coldRuns) },
  ];
  if (million) coldStarts.push({ workspace: '1M-item list', result: await measureColdStart(ROOT, million.workspace, settings.coldRuns) });

  const report: BenchReport = { ...runStamp(), machine, settings, comparison, batch, million, coldStarts };
  printReport(report);
  const measured = new Map<string, string>();
  const context = sectionContext(`${report.date}, \`${report.command}\`, ${machineLine(report.machine)}`, report);
  for (const section of SECTIONS.filter((s) => s.enabled(flags))) measured.set(section.id, await section.run(context));
  if (flags.profile) printProfiles();
  if (writeDocsFile) log(`wrote ${writeDocs(join(ROOT, 'docs/benchmarks.md'), report, measured)}`);
  else log('docs/benchmarks.md not written (--quick; pass --docs to write it anyway)');
}

/** What sections get; without `report` (--only), the core run's figures are not there to read. */
function sectionContext(runLine: string, report: BenchReport | undefined): SectionContext {
  const missing = (what: string): never => { throw new Error(`${what} comes from the core run, which --only leaves out`); };
  return {
    root: ROOT, settings, flags, log, checkOk, runLine,
    startSpemu: (options) => startServerChild(SPEMU_SERVER, [JSON.stringify(options)], { nodeArgs: spemuNodeArgs, timeoutMs: 120_000 }),
    stopSpemu,
    load: (target, options) => runLoad({ ...options, url: Array.isArray(target) ? target.map((c) => c.url) : target.url, headers: { ...ACCEPT_JSON, ...options.headers } }),
    core: {
      itemPath: ITEM_PATH, benchUser: BENCH_USER, demoTenant: DEMO_TENANT,
      get batch() { return report?.batch ?? missing('The $batch figure'); },
      get million() { return report ? report.million : missing('The 1M-item run'); },
      get coldStartMs() { return report?.coldStarts[0]!.result.medianMs ?? missing('The cold start'); },
    },
    millionWorkspace: async () => (flags['skip-1m'] ? undefined : ensureMillionWorkspace()),
  };
}

function printProfiles(): void {
  for (const name of readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile')).sort()) {
    const { owners, functions } = topCosts(join(profileDir, name), 12);
    console.log(`\nProfile ${name}\n  by package/file: ${owners.map((c) => `${c.name} ${c.percent.toFixed(1)}%`).join(', ')}`);
    for (const c of functions) console.log(`  ${c.percent.toFixed(1).padStart(5)}%  ${c.name}`);
  }
}

main().then(() => process.exit(0), (e: unknown) => {
  console.error('[bench] failed:', e);
  process.exit(1);
});
