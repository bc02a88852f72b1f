// Does a large file pass through spemu in constant memory? A fresh server (its own SQLite
// workspace on disk, a child process) takes a file of `size` random bytes in 10 MiB chunks,
// then in one request if the direct-upload limit allows, then sends it back; the server's
// resident memory is watched through each (bench/file-transfer.ts `watchRss`). The growth
// is the peak minus the resident memory just before, on a server warmed by one small
// upload and download (so that loading the upload code is not counted as the upload's).

import { mkdtemp, rm, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIRECT_UPLOAD_LIMIT } from '../src/services/documents.ts';
import { DEMO_TENANT } from './generate.ts';
import type { BenchSection, SectionContext } from './sections.ts';
import { openDatabases, type Databases } from './postgres.ts';
import {
  addUsingPathUrl, announceUpload, download, fileValueUrl, MiB, uploadChunked, uploadDirect, vm, watchRss, writeRandomFile, type Library,
} from './file-transfer.ts';

export const CHUNK_BYTES = 10 * MiB;
export const BENCH_USER = 'alice@contoso.onmicrosoft.com';

export interface Phase { seconds: number; beforeMiB: number; peakMiB: number; growthMiB: number; samples: number; kernelPeak: boolean }
export interface MemoryRun {
  size: number;
  /** The server's RSS once started and warmed. */
  startMiB: number;
  chunked: Phase;
  /** The upload in one request, or the status it was refused with (over the direct-upload limit). */
  direct: Phase | { refusedWith: number };
  download: Phase;
}

const toMiB = (bytes: number) => bytes / MiB;

/** Runs `work` with the server's RSS watched. */
async function watched(pid: number, work: () => Promise<void>): Promise<Phase> {
  const watch = watchRss(pid);
  const started = performance.now();
  await work();
  const seconds = (performance.now() - started) / 1000;
  const end = watch.stop();
  const peak = Math.max(end.peakSampled, end.peakKernel ?? 0);
  return { seconds, beforeMiB: toMiB(watch.before), peakMiB: toMiB(peak), growthMiB: toMiB(peak - watch.before), samples: end.samples, kernelPeak: end.peakKernel !== undefined };
}

/** Refuses to start without room for the source file, its chunks, the joined blob and the direct copy (and a margin). */
export async function requireDisk(dir: string, size: number): Promise<void> {
  const fs = await statfs(dir);
  const free = fs.bavail * fs.bsize;
  const need = 4 * size + 512 * MiB;
  if (free < need) throw new Error(`${dir} has ${(free / 2 ** 30).toFixed(1)} GiB free; a ${(size / 2 ** 30).toFixed(1)} GiB run needs ${(need / 2 ** 30).toFixed(1)} GiB`);
}

/** On a SQLite workspace under `scratch`, or on the PostgreSQL database `db` (bytes in it). */
export async function measureMemory(ctx: SectionContext, scratch: string, size: number, db?: string): Promise<MemoryRun> {
  await requireDisk(scratch, size);
  const source = join(scratch, `memory-${size}.bin`);
  ctx.log(`files: writing a ${(size / MiB).toFixed(0)} MiB source file`);
  const sha256 = await writeRandomFile(source, size);
  const data = join(scratch, `memory-ws-${size}`);
  const server = await ctx.startSpemu({ data, db: db ?? join(data, 'spemu.db'), seed: DEMO_TENANT, port: 0, logLevel: 'warn', anonymousUser: BENCH_USER });
  const pid = server.process.pid!;
  try {
    const lib: Library = { site: `${server.url}/sites/dev`, path: '/sites/dev/Shared Documents' };
    const check = async (name: string) => {
      const got = await download(fileValueUrl(lib, name), { hash: true });
      if (got.status !== 200 || got.bytes !== size || got.sha256 !== sha256) throw new Error(`${name} came back as ${got.status}, ${got.bytes} bytes, sha256 ${got.sha256}`);
    };
    // Warm-up: the upload and download code loaded and run once.
    await uploadChunked(lib, 'warm.bin', source, 3 * MiB, MiB);
    await download(fileValueUrl(lib, 'warm.bin'));
    const startMiB = toMiB(vm(pid));
    ctx.log(`files: ${(size / MiB).toFixed(0)} MiB in ${CHUNK_BYTES / MiB} MiB chunks (server RSS ${startMiB.toFixed(0)} MiB)`);
    const chunked = await watched(pid, () => uploadChunked(lib, 'big-chunked.bin', source, size, CHUNK_BYTES));
    ctx.log(`files: chunked upload ${chunked.seconds.toFixed(1)} s, RSS +${chunked.growthMiB.toFixed(1)} MiB`);
    let direct: MemoryRun['direct'];
    if (size <= DIRECT_UPLOAD_LIMIT) {
      direct = await watched(pid, () => uploadDirect(lib, 'big-direct.bin', source, size));
      ctx.log(`files: direct upload ${direct.seconds.toFixed(1)} s, RSS +${direct.growthMiB.toFixed(1)} MiB`);
      await check('big-direct.bin');
    } else {
      direct = { refusedWith: await announceUpload(addUsingPathUrl(lib, 'big-direct.bin'), size) };
      ctx.log(`files: direct upload of ${(size / MiB).toFixed(0)} MiB refused with ${direct.refusedWith} (over the ${DIRECT_UPLOAD_LIMIT / MiB} MiB direct-upload limit)`);
    }
    // The download is hashed by the client, so this also checks the bytes.
    const back = await watched(pid, () => check('big-chunked.bin'));
    ctx.log(`files: download ${back.seconds.toFixed(1)} s, RSS +${back.growthMiB.toFixed(1)} MiB`);
    return { size, startMiB, chunked, direct, download: back };
  } finally {
    await ctx.stopSpemu(server, 'files (memory)');
  }
}

const n = (value: number, digits = 0) => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Rows for a markdown table: what was done, time and rate, RSS before → peak, growth. */
export function memoryRows(run: MemoryRun): string[][] {
  const mib = run.size / MiB;
  const row = (what: string, p: Phase) => [what, `${n(p.seconds, 1)} s (${n(mib / p.seconds)} MiB/s)`, `${n(p.beforeMiB)} → ${n(p.peakMiB)} MiB`, `${n(p.growthMiB, 1)} MiB`];
  return [
    row(`${n(mib)} MiB upload, ${CHUNK_BYTES / MiB} MiB chunks`, run.chunked),
    'refusedWith' in run.direct
      ? [`${n(mib)} MiB upload in one request`, `refused with ${run.direct.refusedWith} (over ${DIRECT_UPLOAD_LIMIT / MiB} MiB)`, '–', '–']
      : row(`${n(mib)} MiB upload in one request`, run.direct),
    row(`${n(mib)} MiB download (\`$value\`)`, run.download),
  ];
}

/**
 * `--files-2gb` (or `--only files-2gb`): the same with a 2 GiB file, chunked only (a single
 * request over the direct-upload limit is refused, and that is recorded); with `--db postgres`
 * on PostgreSQL too. Needs ~8.5 GiB free in the temporary folder for the moment; everything
 * is removed after.
 */
export const files2gbSection: BenchSection = {
  id: 'files-2gb',
  enabled: (flags) => flags['files-2gb'] === true,
  async run(ctx) {
    const size = 2048 * MiB;
    const scratch = await mkdtemp(join(tmpdir(), 'spemu-files-2gb-'));
    const runs: Array<{ name: string; run: MemoryRun }> = [];
    let databases: Databases | undefined;
    try {
      runs.push({ name: 'SQLite (bytes in the workspace\'s `blobs/`)', run: await measureMemory(ctx, scratch, size) });
      if (ctx.flags.db === 'postgres') {
        databases = await openDatabases(ctx.flags['pg-url'] as string | undefined);
        const db = await databases.createDatabase('spemu_files_2gb');
        try {
          runs.push({ name: `PostgreSQL (1 MiB \`bytea\` chunks; ${databases.describe})`, run: await measureMemory(ctx, scratch, size, db) });
        } finally {
          await databases.dropDatabase(db);
        }
      }
    } finally {
      await databases?.close();
      await rm(scratch, { recursive: true, force: true });
    }
    return [
      '## Files: 2 GiB in flat memory (issue #11)',
      '',
      `${ctx.runLine}. As the 1 GiB step of the Files section: a fresh server (a child process) warmed by a 3 MiB upload and download; VmRSS sampled every 50 ms and the kernel's peak (VmHWM) reset before each step; the download is hashed by the client and matches the file sent; spemu's RSS only.`,
      ...runs.flatMap(({ name, run }) => {
        const growth = Math.max(run.chunked.growthMiB, run.download.growthMiB);
        return [
          '',
          `**${name}**: RSS ${n(run.startMiB)} MiB once started and warmed.`,
          '',
          '| step | time | server RSS before → peak | growth |',
          '|---|---|---|---|',
          ...memoryRows(run).map((r) => `| ${r.join(' | ')} |`),
          '',
          `Largest growth of any step: ${n(growth, 1)} MiB (goal ≤ 64 MiB: ${growth <= 64 ? 'met' : '**missed**'}).`,
        ];
      }),
    ].join('\n');
  },
};
