// The client side of the file benchmarks (bench/files.ts): uploads whose body is a file read
// as a stream (node:http piping fs.createReadStream, so the client never holds the file),
// chunked uploads as PnPjs's addChunked sends them, downloads counted and thrown away, a
// same-disk copy to compare with, and the server's resident memory sampled while it works.

import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { pipeline } from 'node:stream/promises';

export const MiB = 1024 * 1024;
/** One connection, kept alive, as a single client uploads. */
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const JSON_NOMETADATA = 'application/json;odata=nometadata';

/** The server-relative path in a `…Path(decodedurl='…')` argument: quotes doubled, then percent-encoded for the URL. */
export const pathArgument = (path: string) => encodeURIComponent(path.replace(/'/g, "''"));

/** `size` random bytes into `path`, a MiB at a time (random, so no two uploads share a blob); their SHA-256. */
export async function writeRandomFile(path: string, size: number): Promise<string> {
  const out = createWriteStream(path);
  const hash = createHash('sha256');
  for (let at = 0; at < size; at += MiB) {
    const bytes = randomBytes(Math.min(MiB, size - at));
    hash.update(bytes);
    if (!out.write(bytes)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
  // On disk before anything is timed: its write-back would otherwise compete with what is.
  await syncFile(path);
  return hash.digest('hex');
}

export async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try { await handle.sync(); } finally { await handle.close(); }
}

/** Bytes `start` to `end` (exclusive) of `file` POSTed to `url` as they are read; the status and the answer's text. */
export function postFileRange(url: string, file: string, start: number, end: number): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST', agent,
      headers: { Accept: JSON_NOMETADATA, 'Content-Type': 'application/octet-stream', 'Content-Length': String(end - start) },
    }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => { text += d; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (end > start) createReadStream(file, { start, end: end - 1, highWaterMark: 256 * 1024 }).on('error', reject).pipe(req);
    else req.end();
  });
}

/** A POST announcing `length` bytes and sending none: the status the server refuses it with before reading. */
export function announceUpload(url: string, length: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { Accept: JSON_NOMETADATA, 'Content-Length': String(length) } }, (res) => {
      res.resume();
      req.destroy(); // the bytes it announced will never come
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.flushHeaders();
  });
}

/** GET `url`, counting the bytes and hashing them if asked, keeping none. */
export function download(url: string, options: { hash?: boolean } = {}): Promise<{ status: number; bytes: number; sha256?: string }> {
  return new Promise((resolve, reject) => {
    request(url, { agent, headers: { Accept: '*/*' } }, (res) => {
      let bytes = 0;
      const hash = options.hash ? createHash('sha256') : undefined;
      res.on('data', (d: Buffer) => { bytes += d.length; hash?.update(d); });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, ...(hash ? { sha256: hash.digest('hex') } : {}) }));
      res.on('error', reject);
    }).on('error', reject).end();
  });
}

/** Where a library's files are addressed: `<site>/_api/web/…`. */
export interface Library { site: string; path: string }

const folderApi = (lib: Library) => `${lib.site}/_api/web/GetFolderByServerRelativePath(decodedurl='${pathArgument(lib.path)}')`;
const fileApi = (lib: Library, name: string) => `${lib.site}/_api/web/GetFileByServerRelativePath(decodedurl='${pathArgument(`${lib.path}/${name}`)}')`;
export const addUsingPathUrl = (lib: Library, name: string) => `${folderApi(lib)}/Files/AddUsingPath(decodedurl='${pathArgument(name)}',overwrite=true)`;
export const fileValueUrl = (lib: Library, name: string) => `${fileApi(lib, name)}/$value`;

function expectStatus(what: string, got: { status: number; text: string }, status = 200): string {
  if (got.status !== status) throw new Error(`${what} → ${got.status}: ${got.text.slice(0, 300)}`);
  return got.text;
}

/** `Files/AddUsingPath(decodedurl='name',overwrite=true)` with the whole file as the body. */
export async function uploadDirect(lib: Library, name: string, file: string, size: number): Promise<void> {
  expectStatus(`AddUsingPath ${name}`, await postFileRange(addUsingPathUrl(lib, name), file, 0, size));
}

/**
 * The file in chunks, as PnPjs's addChunked sends it: an empty file added, then StartUpload
 * with the first chunk, ContinueUpload while more than a chunk is left, FinishUpload with the
 * rest (no bytes if the file fits one chunk); each answer's offset is checked.
 */
export async function uploadChunked(lib: Library, name: string, file: string, size: number, chunkBytes: number): Promise<void> {
  expectStatus(`AddUsingPath ${name} (empty)`, await postFileRange(addUsingPathUrl(lib, name), file, 0, 0));
  const id = randomUuid();
  const api = fileApi(lib, name);
  const step = async (method: string, start: number, end: number) => {
    const next = Number((JSON.parse(expectStatus(`${method} ${name}`, await postFileRange(`${api}/${method}`, file, start, end))) as { value: string }).value);
    if (next !== end) throw new Error(`${method} ${name}: next offset ${next}, expected ${end}`);
    return next;
  };
  let offset = await step(`StartUpload(uploadId=guid'${id}')`, 0, Math.min(size, chunkBytes));
  while (size - offset > chunkBytes) offset = await step(`ContinueUpload(uploadId=guid'${id}',fileOffset=${offset})`, offset, offset + chunkBytes);
  const finish = `FinishUpload(uploadId=guid'${id}',fileOffset=${offset})`;
  const length = (JSON.parse(expectStatus(`${finish} ${name}`, await postFileRange(`${api}/${finish}`, file, offset, size))) as { Length?: string }).Length;
  if (length !== String(size)) throw new Error(`FinishUpload ${name}: Length ${length}, sent ${size}`);
}

const randomUuid = () => globalThis.crypto.randomUUID();

/** A same-disk copy through a stream pipeline, then fsync (the blob store syncs too): the baseline. */
export async function copyDurably(from: string, to: string): Promise<void> {
  await pipeline(createReadStream(from, { highWaterMark: 256 * 1024 }), createWriteStream(to, { highWaterMark: 256 * 1024 }));
  await syncFile(to);
}

// ---- the server's memory

/** VmRSS (or another `Vm*` line) of a live process, in bytes. */
export function vm(pid: number, key = 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
}

export interface RssWatch {
  /** VmRSS when the watch began. */
  before: number;
  /** The highest VmRSS sampled, and the kernel's own peak (VmHWM, reset when the watch began, if it could be). */
  stop(): { peakSampled: number; peakKernel: number | undefined; samples: number };
}

/**
 * Samples the process's VmRSS every `everyMs`. Where Linux allows it, its peak (VmHWM) is
 * reset first (`5` into /proc/<pid>/clear_refs), so the kernel's peak covers exactly this
 * span and catches what falls between two samples.
 */
export function watchRss(pid: number, everyMs = 50): RssWatch {
  let kernelPeak = true;
  try { writeFileSync(`/proc/${pid}/clear_refs`, '5'); } catch { kernelPeak = false; }
  const before = vm(pid);
  let peak = before;
  let samples = 1;
  const timer = setInterval(() => {
    try { peak = Math.max(peak, vm(pid)); samples++; } catch { /* the process is gone; the caller will see why */ }
  }, everyMs);
  return {
    before,
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, vm(pid));
      return { peakSampled: peak, peakKernel: kernelPeak ? vm(pid, 'VmHWM') : undefined, samples: samples + 1 };
    },
  };
}
