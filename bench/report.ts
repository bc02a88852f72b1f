// The figures as a console table and as docs/benchmarks.md. The doc's "Notes" section is
// written by people (why a target is missed, what to do) and survives every re-run.

import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { median, type LoadFigures } from './load.ts';
import { machineLine, type Machine } from './machine.ts';
import type { ColdStart } from './cold-start.ts';
import { BATCH_TARGET_MS, type BatchRun } from './batch.ts';

export interface Comparison {
  rounds: Array<{ baseline: LoadFigures; fastify: LoadFigures; spemu: LoadFigures; ratio: number; fastifyRatio: number }>;
  /** Median of the per-round spemu/baseline ratios. */
  ratio: number;
  /** Median of the per-round spemu/fastify-hello-world ratios (a reference, no target). */
  fastifyRatio: number;
}

export interface MillionRun {
  rounds: LoadFigures[];
  /** The same load from a single connection: the per-request floor, free of queueing. */
  oneConnection: LoadFigures;
  generatedSeconds: number;
  workspace: string;
  rssMb: number;
  peakMb: number;
}

export interface BenchReport {
  date: string;
  command: string;
  machine: Machine;
  settings: { durationSeconds: number; rounds: number; warmupSeconds: number; connections: number; bigConnections: number; coldRuns: number };
  comparison: Comparison;
  /** `$batch` of 100 item adds, on the baseline comparison's spemu (SQLite file workspace). */
  batch: BatchRun;
  million: MillionRun | undefined;
  coldStarts: Array<{ workspace: string; result: ColdStart }>;
}

export const TARGETS = { ratio: 0.6, millionP99Ms: 15, millionRssMb: 300, coldStartMs: 1000 };

interface Summary { requestsPerSecond: number; p50Ms: number; p99Ms: number; failures: number }

/** Medians over rounds of each figure; failures are summed (any is a problem). */
function summarise(rounds: LoadFigures[]): Summary {
  return {
    requestsPerSecond: median(rounds.map((r) => r.requestsPerSecond)), p50Ms: median(rounds.map((r) => r.p50Ms)),
    p99Ms: median(rounds.map((r) => r.p99Ms)), failures: rounds.reduce((s, r) => s + r.failures, 0),
  };
}

const n = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

interface TargetRow { target: string; goal: string; measured: string; met: boolean | undefined }

function targetRows(r: BenchReport): TargetRow[] {
  const rows: TargetRow[] = [{
    target: 'Item read, spemu/baseline req/s', goal: `≥ ${TARGETS.ratio}`, measured: n(r.comparison.ratio, 2), met: r.comparison.ratio >= TARGETS.ratio,
  }, {
    target: 'Item read, spemu/fastify hello world (reference)', goal: '–', measured: n(r.comparison.fastifyRatio, 2), met: undefined,
  }, {
    target: `$batch of ${r.batch.size} item adds, median per batch`, goal: `≤ ${BATCH_TARGET_MS} ms`, measured: `${n(r.batch.medianMs)} ms`, met: r.batch.medianMs <= BATCH_TARGET_MS,
  }];
  if (r.million) {
    const s = summarise(r.million.rounds);
    rows.push({ target: '1M items, indexed filter p99', goal: `≤ ${TARGETS.millionP99Ms} ms`, measured: `${n(s.p99Ms)} ms`, met: s.p99Ms <= TARGETS.millionP99Ms });
    rows.push({ target: '1M items, server RSS', goal: `≤ ${TARGETS.millionRssMb} MB`, measured: `${n(r.million.rssMb)} MB`, met: r.million.rssMb <= TARGETS.millionRssMb });
  } else {
    rows.push({ target: '1M items', goal: '', measured: 'skipped (--skip-1m)', met: undefined });
  }
  for (const c of r.coldStarts) {
    rows.push({ target: `Cold start (${c.workspace})`, goal: `≤ ${TARGETS.coldStartMs} ms`, measured: `${n(c.result.medianMs)} ms`, met: c.result.medianMs <= TARGETS.coldStartMs });
  }
  return rows;
}

const verdict = (met: boolean | undefined) => (met === undefined ? '–' : met ? 'met' : 'MISSED');

/** Markdown-style table, readable both in a terminal and in the doc. */
function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n');
}

function loadTable(r: BenchReport): string {
  const row = (name: string, s: Summary) => [name, n(s.requestsPerSecond), n(s.p50Ms, 1), n(s.p99Ms, 1), n(s.failures)];
  const rows = [
    row(`node:http hello world (${r.settings.connections} connections)`, summarise(r.comparison.rounds.map((x) => x.baseline))),
    row(`fastify hello world (${r.settings.connections} connections)`, summarise(r.comparison.rounds.map((x) => x.fastify))),
    row(`spemu item(1) + $expand Author,Editor (${r.settings.connections} connections)`, summarise(r.comparison.rounds.map((x) => x.spemu))),
  ];
  if (r.million) {
    rows.push(row(`spemu 1M items, Priority eq N (random 1..1000), $top=100 (${r.settings.bigConnections} connections)`, summarise(r.million.rounds)));
    rows.push(row('spemu 1M items, same query (1 connection, one run)', summarise([r.million.oneConnection])));
  }
  return table(['Load', 'req/s (median)', 'p50 ms', 'p99 ms', 'non-2xx/errors'], rows);
}

function roundsTable(r: BenchReport): string {
  const rows = r.comparison.rounds.map((x, i) => [String(i + 1), n(x.baseline.requestsPerSecond), n(x.fastify.requestsPerSecond), n(x.spemu.requestsPerSecond), n(x.ratio, 2),
    r.million?.rounds[i] ? `${n(r.million.rounds[i]!.requestsPerSecond)} req/s, p99 ${n(r.million.rounds[i]!.p99Ms)} ms` : '–']);
  return table(['Round', 'node:http req/s', 'fastify req/s', 'spemu req/s', 'ratio', '1M items'], rows);
}

function batchLine(r: BenchReport): string {
  return `$batch of ${r.batch.size} item adds (one changeset, PnPjs's body, one batch at a time): median ${n(r.batch.medianMs)} ms per batch over ${r.batch.samplesMs.length} batches (samples ${r.batch.samplesMs.map((x) => n(x)).join(', ')} ms).`;
}

function coldTable(r: BenchReport): string {
  return table(['Workspace', 'Entry point', 'median ms', 'samples ms'],
    r.coldStarts.map((c) => [c.workspace, c.result.entry, n(c.result.medianMs), c.result.samplesMs.map((s) => n(s)).join(', ')]));
}

function targetsTable(r: BenchReport): string {
  return table(['Target', 'Goal', 'Measured', 'Result'], targetRows(r).map((t) => [t.target, t.goal, t.measured, verdict(t.met)]));
}

export function printReport(r: BenchReport): void {
  const skipped = r.coldStarts.flatMap((c) => c.result.skipped);
  console.log(`\n${machineLine(r.machine)}\n\n${loadTable(r)}\n\n${roundsTable(r)}\n\n${batchLine(r)}\n\n${coldTable(r)}\n`);
  if (r.million) console.log(`1M items: server RSS ${n(r.million.rssMb)} MB at the end (peak ${n(r.million.peakMb)} MB); generation ${r.million.generatedSeconds ? `${n(r.million.generatedSeconds, 1)} s` : 'cached'}\n`);
  if (skipped.length) console.log(`Cold start fell back past:\n  ${skipped.join('\n  ')}\n`);
  console.log(`${targetsTable(r)}\n`);
}

const NOTES_START = '<!-- notes:start -->';
const NOTES_END = '<!-- notes:end -->';
const DEFAULT_NOTES = 'Why a target is missed, and what would fix it, goes here (kept across runs).';

const USAGE = `# Benchmarks

Performance is measured by a benchmark, not by timed tests: a shared 2-core machine is too
noisy for pass/fail timings. One run measures everything on one machine, compares spemu with
a baseline taken in the same run, and quotes medians of several rounds.

## Usage

\`\`\`sh
npm run bench                      # full run, ~3 minutes (+10 s the first time: 1M generation); rewrites this file's figures
npm run bench -- --quick           # smoke run: 2 rounds × 2 s; prints only (add --docs to write)
npm run bench -- --skip-1m         # without the 1M-item list
npm run bench -- --duration 20 --rounds 5 --connections 10 --big-connections 50 --cold-runs 5
npm run bench -- --profile         # also CPU-profile the spemu servers (node --cpu-prof) and print the top costs
npm run bench -- --db postgres     # also the PostgreSQL section (a throw-away cluster; --pg-url postgres://… to use a server), ~5 more minutes
npm run bench -- --skip-files      # without the Files section (~1 minute; ~2 with --db postgres, which runs it on PostgreSQL too)
npm run bench -- --files-2gb       # also a 2 GiB file through one server's memory (~8.5 GiB free in the temporary folder)
npm run bench -- --only files,files-2gb   # only these sections, no core run: rewrites only their parts below
npm run bench -- --only hot-path          # the issue #13 goals alone (~15 min; cold start and the $batch of adds then not measured)
npx tsx bench/cpu-ab.ts <other build> [rounds] [s] [--db postgres]  # CPU per request of this build and another, side by side (and on PostgreSQL)
npx tsx bench/cold-start-ab.ts <build A> <build B> [starts] [-- flags]  # cold starts of two builds, alternating, on one workspace
npx tsx bench/generate.ts [--items N] [--force]   # build the 1M workspace alone
npx tsx bench/profile-top.ts <file.cpuprofile>    # summarise a CPU profile
\`\`\`

What runs (every server is a child process, so it has a core of its own and never shares an
event loop with autocannon, which runs in the benchmark's process; loopback only):

1. **Baseline comparison.** A bare \`node:http\` server answering a small JSON body, and spemu
   (demo tenant, temporary SQLite file workspace, \`logLevel: 'warn'\`) answering
   \`GET /sites/dev/_api/web/lists/getbytitle('Tasks')/items(1)?$select=Title,Author/ID,Author/Title,Author/LastName,Editor/ID,Editor/Title,Editor/LastName&$expand=Author,Editor\`
   with \`Accept: application/json\`. After a warm-up, the two are loaded alternately, round by round;
   the ratio is the median of the per-round spemu/baseline ratios.
2. **1M items.** \`bench/generate.ts\` builds a workspace from the demo tenant plus a list
   \`${'BenchItems'}\` of 1,000,000 items (Title, Priority Number indexed, Category Choice, Score Number,
   Due DateTime, Owner User): tenant, list, fields and item 1 through spemu itself, the rest
   bulk-inserted into the list's item table. It is cached under \`bench/.data/\` and rebuilt when
   the schema sources change. spemu serves
   \`…/items?$filter=Priority eq <1..1000, random per request>&$top=100&$select=Title,Priority\`;
   RSS is the server's VmRSS after the last round.
3. **\`$batch\` of 100 item adds.** On the baseline comparison's spemu after its rounds
   (\`bench/batch.ts\`): a new list, then batches as PnPjs writes them (bare LF, one changeset of
   100 \`POST …/items\`), sent one after another after one unmeasured batch; the median wall
   time per batch. \`npx tsx bench/batch.ts\` runs it alone against an in-memory server.
4. **Cold start.** From spawning the server to its first 200 on \`/_spemu/health\`, on an existing
   workspace; median of several starts after one unmeasured start (warm OS and tsx caches).
5. **PostgreSQL** (\`--db postgres\`, \`bench/postgres.ts\`): the item read and \`$batch\` on spemu over
   PostgreSQL beside a fresh SQLite spemu in alternating rounds; the 1M-item workspace moved to
   PostgreSQL with \`spemu export\` / \`spemu import\` (timed) and the same filter load on it; two
   instances against one on one database under a read-heavy mix. Its part below keeps its own
   date: a run without \`--db postgres\` leaves it as it was.
6. **Files** (\`bench/files.ts\`, issue #11): a 100 MiB file uploaded in one request and in 10 MiB
   chunks and downloaded, each against a copy on the same disk in the same round; the server's
   RSS through a 1 GiB chunked upload (2 GiB with \`--files-2gb\`); a folder of 10,000 files
   listed a page at a time from one connection.
7. **Sites and schema** (\`bench/schema.ts\`, issue #14; only with \`--only schema [--db postgres]\`):
   two 100k-item lists; an indexed query as \`$filter\`, CAML \`getitems\` and RenderListDataAsStream
   (req/s, p99, statements and the database's plans), the unindexed one's threshold error from all
   three, and a member's reads with broken inheritance against an inheriting twin (statements per
   request). Each database keeps its own block.
`;

/** A section's part of the doc (bench/sections.ts), kept between runs that do not measure it. */
const sectionMarkers = (id: string) => [`<!-- section:${id}:start -->`, `<!-- section:${id}:end -->`] as const;

function readSections(old: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of old.matchAll(/<!-- section:([\w-]+):start -->\n([\s\S]*?)\n<!-- section:\1:end -->/g)) out.set(m[1]!, m[2]!);
  return out;
}

export function renderDocs(r: BenchReport, notes: string, sections: Map<string, string> = new Map()): string {
  const m = r.million;
  return `${USAGE}
## Latest results

- **Run:** ${r.date}, \`${r.command}\`
- **Machine:** ${machineLine(r.machine)}
- **Settings:** ${r.settings.rounds} rounds × ${r.settings.durationSeconds} s per load (after a ${r.settings.warmupSeconds} s warm-up); ${r.settings.connections} connections for the item read, ${r.settings.bigConnections} for the 1M list; ${r.settings.coldRuns} cold starts per workspace

### Targets

${targetsTable(r)}

### Load

${loadTable(r)}

Per round:

${roundsTable(r)}

${batchLine(r)}
${m ? `\n1M items: server RSS ${n(m.rssMb)} MB after the last round (peak ${n(m.peakMb)} MB). Workspace generation: ${m.generatedSeconds ? `${n(m.generatedSeconds, 1)} s` : 'reused from the cache'}.\n` : ''}
### Cold start

${coldTable(r)}
${[...sections].map(([id, markdown]) => `\n${sectionMarkers(id)[0]}\n${markdown.trim()}\n${sectionMarkers(id)[1]}\n`).join('')}
## Notes

${NOTES_START}
${notes}
${NOTES_END}
`;
}

/**
 * Rewrites only the parts of `measured` sections (a new one goes before the notes) and the
 * usage text, keeping everything else as it was: `--only` measures no core figures to write.
 */
export function writeSections(path: string, measured: Map<string, string>): string {
  if (!existsSync(path)) throw new Error(`${path} does not exist: run the whole benchmark once first`);
  let doc = readFileSync(path, 'utf8');
  const results = doc.indexOf('## Latest results');
  if (results >= 0) doc = `${USAGE}\n${doc.slice(results)}`;
  for (const [id, markdown] of measured) {
    const [start, end] = sectionMarkers(id);
    const part = `${start}\n${markdown.trim()}\n${end}`;
    const at = doc.indexOf(start);
    const until = doc.indexOf(end);
    if (at >= 0 && until > at) doc = doc.slice(0, at) + part + doc.slice(until + end.length);
    else {
      const notes = doc.indexOf('\n## Notes');
      doc = notes >= 0 ? `${doc.slice(0, notes)}\n${part}\n${doc.slice(notes)}` : `${doc}\n${part}\n`;
    }
  }
  writeFileSync(path, doc);
  return path;
}

/**
 * Writes the doc, keeping the hand-written notes of the previous version and the parts of
 * sections this run did not measure. Returns the path.
 */
export function writeDocs(path: string, r: BenchReport, measured: Map<string, string> = new Map()): string {
  let notes = DEFAULT_NOTES;
  let sections = new Map<string, string>();
  if (existsSync(path)) {
    const old = readFileSync(path, 'utf8');
    sections = readSections(old);
    const start = old.indexOf(NOTES_START);
    const end = old.indexOf(NOTES_END);
    if (start >= 0 && end > start) notes = old.slice(start + NOTES_START.length, end).trim();
  }
  for (const [id, markdown] of measured) sections.set(id, markdown);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, renderDocs(r, notes, sections));
  return path;
}
