// Files (issue #11): a 100 MiB file uploaded in one request and in 10 MiB chunks and
// downloaded, each against copying the same file on the same disk in the same round, and
// against the floor of a bare node:http server doing the same (bench/servers/
// file-floor-server.ts); the server's memory through a 1 GiB chunked upload
// (bench/files-memory.ts); a folder of 10,000 files listed a page at a time
// (bench/files-listing.ts). spemu runs as a child process over a SQLite workspace in the
// temporary folder, where the source files and copies are too; with `--db postgres` the
// transfers and the memory run again with the bytes in PostgreSQL, beside PostgreSQL's own
// floor for the same bytes (bench/files-pg-floor.ts).

import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './load.ts';
import { startServerChild, stopChild } from './processes.ts';
import type { BenchSection, SectionContext } from './sections.ts';
import { copyDurably, download, postFileRange, syncFile, fileValueUrl, MiB, uploadChunked, uploadDirect, writeRandomFile, type Library } from './file-transfer.ts';
import { BENCH_USER, CHUNK_BYTES, measureMemory, memoryRows, type MemoryRun } from './files-memory.ts';
import { LISTING_FILES, LISTING_LIBRARY, measureListing, percentile, prepareListingWorkspace, uploadTheRest, type ListingFigures, type Timings } from './files-listing.ts';
import { DEMO_TENANT } from './generate.ts';
import { openDatabases } from './postgres.ts';
import { openPgFloor, type PgFloor } from './files-pg-floor.ts';

const SIZE = 100 * MiB;
const MEMORY_SIZE = 1024 * MiB;
const GOALS = { ratio: 0.5, growthMiB: 64, listingP99Ms: 20 };

/** MiB/s of each transfer in one round. */
interface Round {
  copy: number; copyFile: number; floorUp: number; direct: number; chunked: number; floorDown: number; downDirect: number; downChunked: number;
  /** On PostgreSQL: the same file written and read back by node-postgres alone (bench/files-pg-floor.ts). */
  pgUp?: number; pgDown?: number;
}
type Transfer = keyof Round;

interface Figures {
  rounds: Round[];
  memory: MemoryRun;
  listing: ListingFigures;
  /** With `--db postgres`: the transfers and the memory again, the bytes in the database. */
  postgres?: { describe: string; rounds: Round[]; memory: MemoryRun } | undefined;
}

async function rate(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return SIZE / MiB / ((performance.now() - started) / 1000);
}

/** Rounds of: two fresh 100 MiB files; copies, uploads and downloads in an order that alternates round by round. */
async function measureThroughput(ctx: SectionContext, lib: Library, floor: string, scratch: string, rounds: number, pgFloor?: PgFloor): Promise<Round[]> {
  const direct = join(scratch, 'direct.bin');
  const chunked = join(scratch, 'chunked.bin');
  await writeRandomFile(direct, 10 * MiB);
  await uploadDirect(lib, 'warm.bin', direct, 10 * MiB);
  await uploadChunked(lib, 'warm.bin', direct, 10 * MiB, MiB);
  await download(fileValueUrl(lib, 'warm.bin'));
  const out: Round[] = [];
  for (let round = 1; round <= rounds; round++) {
    await writeRandomFile(direct, SIZE);
    const chunkedSha = await writeRandomFile(chunked, SIZE);
    const steps: Array<[Transfer, () => Promise<unknown>]> = [
      ['copy', () => copyDurably(direct, join(scratch, 'copy.bin'))],
      ['copyFile', () => copyFile(direct, join(scratch, 'copyfile.bin'))],
      ['floorUp', async () => { if ((await postFileRange(`${floor}/direct.bin`, direct, 0, SIZE)).status !== 200) throw new Error('the floor server failed'); }],
      ['direct', () => uploadDirect(lib, 'direct.bin', direct, SIZE)],
      ['chunked', () => uploadChunked(lib, 'chunked.bin', chunked, SIZE, CHUNK_BYTES)],
      ...(pgFloor ? [['pgUp', () => pgFloor.write(direct, SIZE)] as [Transfer, () => Promise<unknown>]] : []),
    ];
    const downloads: Array<[Transfer, () => Promise<unknown>]> = [
      ['floorDown', () => expectBytes(`${floor}/direct.bin`)],
      ['downDirect', () => expectBytes(fileValueUrl(lib, 'direct.bin'))],
      ['downChunked', () => expectBytes(fileValueUrl(lib, 'chunked.bin'))],
      ...(pgFloor ? [['pgDown', () => pgFloor.read()] as [Transfer, () => Promise<unknown>]] : []),
    ];
    const figures = {} as Round;
    for (const [name, work] of round % 2 ? steps : [...steps].reverse()) {
      figures[name] = await rate(work);
      // Untimed: copyFile's bytes are written back now, not during the next step.
      if (name === 'copyFile') await syncFile(join(scratch, 'copyfile.bin'));
    }
    for (const [name, work] of round % 2 ? downloads : [...downloads].reverse()) figures[name] = await rate(work);
    if (round === 1) {
      // Untimed: the chunks came together as the file that was sent.
      const back = await download(fileValueUrl(lib, 'chunked.bin'), { hash: true });
      if (back.sha256 !== chunkedSha) throw new Error('the chunked upload came back with other bytes');
    }
    out.push(figures);
    ctx.log(`files round ${round}: ${Object.entries(figures).map(([k, v]) => `${k} ${n(v)}`).join(', ')} MiB/s`);
    await rm(join(scratch, 'copy.bin'), { force: true });
    await rm(join(scratch, 'copyfile.bin'), { force: true });
  }
  return out;
}

async function expectBytes(url: string): Promise<void> {
  const got = await download(url);
  if (got.status !== 200 || got.bytes !== SIZE) throw new Error(`GET ${url} → ${got.status}, ${got.bytes} bytes`);
}

const documents = (url: string): Library => ({ site: `${url}/sites/dev`, path: '/sites/dev/Shared Documents' });

async function measure(ctx: SectionContext): Promise<Figures> {
  const scratch = await mkdtemp(join(tmpdir(), 'spemu-files-'));
  await mkdir(join(scratch, 'floor'));
  const floor = await startServerChild(join(ctx.root, 'bench/servers/file-floor-server.ts'), [join(scratch, 'floor')], { timeoutMs: 30_000 });
  try {
    const data = join(scratch, 'ws');
    ctx.log(`files: seeding ${n(LISTING_FILES)} files`);
    const { storeSeconds } = await prepareListingWorkspace(data, DEMO_TENANT, BENCH_USER);
    const server = await ctx.startSpemu({ data, db: join(data, 'spemu.db'), port: 0, logLevel: 'warn', anonymousUser: BENCH_USER });
    let listing: ListingFigures;
    let rounds: Round[];
    try {
      const httpFilesPerSecond = await uploadTheRest(server.url);
      listing = { httpFilesPerSecond, storeSeconds, ...(await measureListing(server.url, 5)) };
      ctx.log(`files: listing, items p99 ${n(percentile(listing.itemsWalk.ms, 99), 1)} ms; Files?$top=100 p99 ${n(percentile(listing.filesTop.ms, 99), 1)} ms`);
      rounds = await measureThroughput(ctx, documents(server.url), floor.url, scratch, Math.max(5, ctx.settings.rounds));
    } finally {
      await ctx.stopSpemu(server, 'files');
    }
    await rm(data, { recursive: true, force: true });
    const memory = await measureMemory(ctx, scratch, MEMORY_SIZE);
    const postgres = ctx.flags.db === 'postgres' ? await measurePostgres(ctx, scratch, floor.url) : undefined;
    return { rounds, memory, listing, postgres };
  } finally {
    await stopChild(floor.process);
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The transfers (3 rounds, the copy and the floor in the same rounds) and the memory run, on PostgreSQL. */
async function measurePostgres(ctx: SectionContext, scratch: string, floor: string): Promise<NonNullable<Figures['postgres']>> {
  const databases = await openDatabases(ctx.flags['pg-url'] as string | undefined);
  try {
    const db = await databases.createDatabase('spemu_files');
    const server = await ctx.startSpemu({ db, data: join(scratch, 'pg-ws'), seed: DEMO_TENANT, port: 0, logLevel: 'warn', anonymousUser: BENCH_USER });
    let rounds: Round[];
    const pgFloor = await openPgFloor(db);
    try {
      rounds = await measureThroughput(ctx, documents(server.url), floor, scratch, 3, pgFloor);
    } finally {
      await pgFloor.close();
      await ctx.stopSpemu(server, 'files (PostgreSQL)');
      await databases.dropDatabase(db);
    }
    const memoryDb = await databases.createDatabase('spemu_files_memory');
    try {
      return { describe: databases.describe, rounds, memory: await measureMemory(ctx, scratch, MEMORY_SIZE, memoryDb) };
    } finally {
      await databases.dropDatabase(memoryDb);
    }
  } finally {
    await databases.close();
  }
}

const n = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const verdict = (met: boolean) => (met ? 'met' : '**missed**');

function table(header: string[], rows: string[][]): string {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

const rateOf = (rounds: Round[], key: Transfer) => median(rounds.map((r) => r[key] ?? Number.NaN));

/**
 * Ratios are of the medians, not the median of each round's ratio: the disk's own speed
 * swings within a run (copies of 300 to 1,400 MiB/s in one run here), and a round whose copy
 * happened to be slow would otherwise count as a fast upload.
 */
function throughputTable(rounds: Round[]): string {
  const row = (what: string, key: Transfer, goal: boolean) => {
    const ratio = rateOf(rounds, key) / rateOf(rounds, 'copy');
    return [what, n(rateOf(rounds, key)), n(ratio, 2), goal ? `≥ ${GOALS.ratio}` : '–', goal ? verdict(ratio >= GOALS.ratio) : '–'];
  };
  return table(['100 MiB file', 'MiB/s (median)', '÷ copy (the medians\')', 'goal', 'result'], [
    row('copy on the same disk: stream pipeline, then fsync (the baseline)', 'copy', false),
    row('`fs.copyFile` (the kernel copies, no fsync; for reference)', 'copyFile', false),
    row('the floor: a bare node:http server hashing the body into a file, fsync (`bench/servers/file-floor-server.ts`)', 'floorUp', false),
    row('upload in one request: `Files/AddUsingPath`, streamed body', 'direct', true),
    row(`upload in ${CHUNK_BYTES / MiB} MiB chunks: \`StartUpload\`, 8 × \`ContinueUpload\`, \`FinishUpload\``, 'chunked', true),
    row('download (`$value`) of the first, counted and discarded', 'downDirect', true),
    row('download of the second', 'downChunked', true),
    row('download from the floor server (the file piped to the response)', 'floorDown', false),
    ...(rounds[0]?.pgUp !== undefined ? [
      row('PostgreSQL\'s floor, writing: node-postgres alone stores the file as spemu does, 1 MiB `bytea` rows, an INSERT (and commit) each (`bench/files-pg-floor.ts`)', 'pgUp', false),
      row('PostgreSQL\'s floor, reading: those rows back one at a time', 'pgDown', false),
    ] : []),
  ]);
}

function listingRows(l: ListingFigures): string[][] {
  const ms = (t: Timings) => [n(percentile(t.ms, 50), 1), n(percentile(t.ms, 99), 1)];
  const items = l.itemsWalk;
  const rows = [[
    `\`lists/getbytitle('${LISTING_LIBRARY}')/items?$top=100&$select=FileLeafRef,FileRef,File_x0020_Size,Modified\`, following \`odata.nextLink\` (the library's 10,000 files are all in its root folder)`,
    `${n(items.requests)} pages in ${items.walks} walks, ${n(items.rows / items.walks)} rows a walk`, ...ms(items), `≤ ${GOALS.listingP99Ms}`, verdict(percentile(items.ms, 99) <= GOALS.listingP99Ms),
  ]];
  const f = l.fileDirRef;
  rows.push(f.walk
    ? ['`…/items?$filter=FileDirRef eq \'<folder>\'&$top=100` (the same folder, as clients list one folder through its items), following `odata.nextLink`', `${n(f.walk.requests)} pages in ${f.walk.walks} walks, ${n(f.walk.rows / f.walk.walks)} rows a walk`, ...ms(f.walk), `≤ ${GOALS.listingP99Ms}`, verdict(percentile(f.walk.ms, 99) <= GOALS.listingP99Ms)]
    : ['`…/items?$filter=FileDirRef eq \'<folder>\'&$top=100`', `refused: ${f.status} "${f.message}"`, '–', '–', '–', 'not served']);
  const files = (what: string, t: Timings) => [what, `${n(t.requests)} requests, ${n(t.rows / t.requests)} entries each${t.nextLinks ? ', paged' : ', no next link'}`, ...ms(t), '–', '–'];
  rows.push(files('`GetFolderByServerRelativePath(…)/Files?$top=100`', l.filesTop));
  rows.push(files('`GetFolderByServerRelativePath(…)/Files` (no `$top`)', l.filesAll));
  return rows;
}

function postgresPart(pg: NonNullable<Figures['postgres']>): string[] {
  const m = pg.memory;
  return [
    '',
    '### PostgreSQL (`--db postgres`): the bytes in the database',
    '',
    `${pg.describe}; 1 MiB \`bytea\` chunks. The same transfers, ${pg.rounds.length} rounds (the copy and the floor measured again in them), and the same memory run; spemu's RSS only (PostgreSQL's own processes are not counted).`,
    '',
    throughputTable(pg.rounds),
    '',
    `spemu ÷ PostgreSQL's floor (of the medians): upload in one request ${n(rateOf(pg.rounds, 'direct') / rateOf(pg.rounds, 'pgUp'), 2)}, in chunks ${n(rateOf(pg.rounds, 'chunked') / rateOf(pg.rounds, 'pgUp'), 2)}; downloads ${n(rateOf(pg.rounds, 'downDirect') / rateOf(pg.rounds, 'pgDown'), 2)} and ${n(rateOf(pg.rounds, 'downChunked') / rateOf(pg.rounds, 'pgDown'), 2)}. The floor itself is ${n(rateOf(pg.rounds, 'pgUp') / rateOf(pg.rounds, 'copy'), 2)} (writing) and ${n(rateOf(pg.rounds, 'pgDown') / rateOf(pg.rounds, 'copy'), 2)} (reading) of the disk copy.`,
    '',
    table(['step', 'time', 'server RSS before → peak', 'growth'], memoryRows(m)),
    '',
    `Growth through the 1 GiB upload: ${n(m.chunked.growthMiB, 1)} MiB (goal ≤ ${GOALS.growthMiB} MiB: ${verdict(m.chunked.growthMiB <= GOALS.growthMiB)}).`,
  ];
}

function report(ctx: SectionContext, f: Figures): string {
  const perRound = f.rounds.map((r, i) => `${i + 1}: copy ${n(r.copy)}, floor ${n(r.floorUp)} / ${n(r.floorDown)}, spemu up ${n(r.direct)} / ${n(r.chunked)}, down ${n(r.downDirect)} / ${n(r.downChunked)}`).join('; ');
  const m = f.memory;
  const growth = Math.max(m.chunked.growthMiB, m.download.growthMiB);
  return [
    '## Files (issue #11)',
    '',
    `${ctx.runLine}. spemu is a child process (\`bench/servers/spemu-server.ts\`) over a SQLite workspace in the temporary folder (bytes in its \`blobs/\`, fsync'd), requests without credentials act as the demo's owner; one client connection, bodies streamed from files on the same disk (node:http piping \`fs.createReadStream\`), downloads counted and discarded.`,
    '',
    `### Throughput: a 100 MiB file, ${f.rounds.length} rounds`,
    '',
    'Each round writes two new random files (one per upload, so no blob is shared), then copies, uploads and downloads them in an order that alternates round by round. A download reads a file just written, so from the page cache: it measures spemu and HTTP, not the disk.',
    '',
    throughputTable(f.rounds),
    '',
    `MiB/s per round (copy; floor up / down; spemu up in one request / in chunks, down): ${perRound}. spemu's upload in one request ÷ the floor's: ${n(rateOf(f.rounds, 'direct') / rateOf(f.rounds, 'floorUp'), 2)}; its download ÷ the floor's: ${n(rateOf(f.rounds, 'downDirect') / rateOf(f.rounds, 'floorDown'), 2)} (of the medians).`,
    '',
    `### Memory: a 1 GiB chunked upload`,
    '',
    `A fresh server, warmed by a 3 MiB upload and download, RSS ${n(m.startMiB)} MiB; VmRSS sampled every 50 ms and the kernel's peak (VmHWM, reset through \`/proc/<pid>/clear_refs\` before each step${m.chunked.kernelPeak ? '' : ' — not allowed here, so samples only'}).`,
    '',
    table(['step', 'time', 'server RSS before → peak', 'growth'], memoryRows(m)),
    '',
    `Growth through the upload: ${n(m.chunked.growthMiB, 1)} MiB (goal ≤ ${GOALS.growthMiB} MiB: ${verdict(m.chunked.growthMiB <= GOALS.growthMiB)}); the largest of any step ${n(growth, 1)} MiB.`,
    '',
    `### Listing a folder of ${n(LISTING_FILES)} files, one connection`,
    '',
    `Seeding: the library and its first file over HTTP; ${n(LISTING_FILES - 501)} files through spemu's store before the server started (${n(f.listing.storeSeconds, 1)} s; one small blob named by all, 1,000 files per transaction); the last 500 over HTTP, 8 in flight: ${n(f.listing.httpFilesPerSecond)} files/s. Every page timed until its body is read, after one unmeasured walk.`,
    '',
    table(['request', 'requests', 'p50 ms', 'p99 ms', 'goal', 'result'], listingRows(f.listing)),
    ...(f.postgres ? postgresPart(f.postgres) : []),
  ].join('\n');
}

export const filesSection: BenchSection = {
  id: 'files',
  enabled: (flags) => !flags['skip-files'],
  async run(ctx) {
    return report(ctx, await measure(ctx));
  },
};
