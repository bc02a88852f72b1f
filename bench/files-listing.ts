// A folder of 10,000 files listed a page at a time, from one connection (issue #11). The
// library and its first file are made over HTTP; the next files are written through spemu's
// own store before the server starts (one small blob named by all of them, 1,000 files per
// transaction), since 10,000 uploads over HTTP take minutes on a 2-core machine; the last few
// hundred go over HTTP, concurrently, which also gives the small-file upload rate.

import { join } from 'node:path';
import { blobFolderOf, startServer } from '../src/index.ts';
import { openSqlite } from '../src/store/sql/connect.ts';
import { SqlStore } from '../src/store/sql/sql-store.ts';
import { pathArgument } from './file-transfer.ts';

export const LISTING_FILES = 10_000;
/** Of which this many are uploaded over HTTP, 8 in flight. */
const OVER_HTTP = 500;
export const LISTING_LIBRARY = 'Bench Files';
const ROOT = `/sites/dev/${LISTING_LIBRARY}`;
const nameOf = (i: number) => `file-${String(i).padStart(5, '0')}.txt`;
const JSON_NOMETADATA = 'application/json;odata=nometadata';

/** The workspace `data` with the demo tenant and a library holding LISTING_FILES - OVER_HTTP files. */
export async function prepareListingWorkspace(data: string, seed: string, user: string): Promise<{ storeSeconds: number }> {
  const server = await startServer({ data, seed, port: 0, logLevel: 'silent', anonymousUser: user });
  try {
    const site = `${server.url}/sites/dev/_api/web`;
    const made = await fetch(`${site}/lists`, {
      method: 'POST', headers: { Accept: JSON_NOMETADATA, 'Content-Type': JSON_NOMETADATA }, body: JSON.stringify({ Title: LISTING_LIBRARY, BaseTemplate: 101 }),
    });
    if (made.status !== 201) throw new Error(`creating the library → ${made.status}: ${await made.text()}`);
    const first = await fetch(`${site}/GetFolderByServerRelativePath(decodedurl='${pathArgument(ROOT)}')/Files/AddUsingPath(decodedurl='${nameOf(0)}',overwrite=true)`,
      { method: 'POST', headers: { Accept: JSON_NOMETADATA }, body: 'file 0\n' });
    if (first.status !== 200) throw new Error(`the first file → ${first.status}: ${await first.text()}`);
  } finally {
    await server.close();
  }
  const started = performance.now();
  const db = join(data, 'spemu.db');
  const connection = openSqlite({ file: db });
  const store = new SqlStore(connection.db, connection.flavour, { onSchemaChange: connection.clearStatementCache, blobFolder: blobFolderOf({ postgres: false, db, data }) });
  try {
    const web = (await store.sites.byUrl('/sites/dev'))!;
    const list = (await store.lists.byTitle(web.rootWebId, LISTING_LIBRARY))!;
    const fields = await store.fields.of(list);
    const model = (await store.documents.at(list, fields, '', nameOf(0)))!;
    const bytes = Buffer.from('a file of the listing benchmark\n');
    const blob = await store.blobs.put((async function* () { yield bytes; })(), { limit: bytes.length, tooLarge: () => new Error('too large') });
    for (let from = 1; from < LISTING_FILES - OVER_HTTP; from += 1000) {
      await store.transaction(async (tx) => {
        for (let i = from; i < Math.min(from + 1000, LISTING_FILES - OVER_HTTP); i++) {
          await tx.documents.putFile(list, fields, { dir: '', name: nameOf(i), actorId: model.authorId, now: model.created, blob, overwrite: false });
        }
      });
    }
  } finally {
    await store.close();
  }
  return { storeSeconds: (performance.now() - started) / 1000 };
}

/** The last OVER_HTTP files uploaded over HTTP, 8 in flight; files per second. */
export async function uploadTheRest(url: string): Promise<number> {
  const api = `${url}/sites/dev/_api/web/GetFolderByServerRelativePath(decodedurl='${pathArgument(ROOT)}')/Files`;
  let next = LISTING_FILES - OVER_HTTP;
  const started = performance.now();
  await Promise.all(Array.from({ length: 8 }, async () => {
    for (let i = next++; i < LISTING_FILES; i = next++) {
      const res = await fetch(`${api}/AddUsingPath(decodedurl='${nameOf(i)}',overwrite=true)`, { method: 'POST', headers: { Accept: JSON_NOMETADATA }, body: `file ${i}\n` });
      if (res.status !== 200) throw new Error(`uploading ${nameOf(i)} → ${res.status}: ${await res.text()}`);
      await res.arrayBuffer();
    }
  }));
  return OVER_HTTP / ((performance.now() - started) / 1000);
}

export interface Timings { ms: number[]; rows: number; requests: number; nextLinks: boolean }

export interface ListingFigures {
  httpFilesPerSecond: number;
  storeSeconds: number;
  /** `items?$top=100` of the library (all its files are in its root folder), following odata.nextLink. */
  itemsWalk: Timings & { walks: number };
  /** What `items?$filter=FileDirRef eq '<folder>'&$top=100` answered: a walk if it pages, else its refusal. */
  fileDirRef: { status: number; message: string; walk?: Timings & { walks: number } };
  /** `GetFolderByServerRelativePath(…)/Files?$top=100`, the same request again and again. */
  filesTop: Timings;
  /** `…/Files` without $top. */
  filesAll: Timings;
}

async function timedGet(url: string): Promise<{ ms: number; status: number; json: Record<string, unknown> }> {
  const started = performance.now();
  const res = await fetch(url, { headers: { Accept: 'application/json' } });
  const text = await res.text();
  const ms = performance.now() - started;
  return { ms, status: res.status, json: JSON.parse(text) as Record<string, unknown> };
}

/** Follows next links from `first` to the end, `walks` times; every page timed. */
async function walk(first: string, walks: number): Promise<Timings> {
  const out: Timings = { ms: [], rows: 0, requests: 0, nextLinks: false };
  for (let w = 0; w < walks; w++) {
    let url: string | undefined = first;
    while (url) {
      const page = await timedGet(url);
      if (page.status !== 200) throw new Error(`GET ${url} → ${page.status}: ${JSON.stringify(page.json).slice(0, 300)}`);
      out.ms.push(page.ms);
      out.rows += (page.json.value as unknown[]).length;
      out.requests++;
      url = (page.json['odata.nextLink'] ?? page.json.__next) as string | undefined;
      if (url) out.nextLinks = true;
    }
  }
  return out;
}

/** One connection (fetch's pool, one request at a time), after one unmeasured walk. */
export async function measureListing(url: string, walks: number): Promise<Omit<ListingFigures, 'httpFilesPerSecond' | 'storeSeconds'>> {
  const web = `${url}/sites/dev/_api/web`;
  const items = `${web}/lists/getbytitle('${LISTING_LIBRARY}')/items?$top=100&$select=FileLeafRef,FileRef,File_x0020_Size,Modified`;
  await walk(items, 1);
  const itemsWalk = { ...(await walk(items, walks)), walks };
  const filtered = `${items}&$filter=${encodeURIComponent(`FileDirRef eq '${ROOT}'`)}`;
  const probe = await timedGet(filtered);
  const fileDirRef: ListingFigures['fileDirRef'] = probe.status === 200
    ? { status: 200, message: '', walk: await walk(filtered, 1).then(async () => ({ ...(await walk(filtered, walks)), walks })) }
    : { status: probe.status, message: String((probe.json['odata.error'] as { message?: { value?: string } } | undefined)?.message?.value ?? '') };
  const files = `${web}/GetFolderByServerRelativePath(decodedurl='${pathArgument(ROOT)}')/Files`;
  await walk(`${files}?$top=100`, 1);
  return { itemsWalk, fileDirRef, filesTop: await walkOrRepeat(`${files}?$top=100`, walks, 100), filesAll: await walkOrRepeat(files, 1, 5) };
}

/** `walks` walks if the answer pages; if it does not, the one request `times` times instead. */
async function walkOrRepeat(url: string, walks: number, times: number): Promise<Timings> {
  const first = await walk(url, 1);
  if (first.nextLinks) return walk(url, walks);
  const all = [first];
  for (let i = 1; i < times; i++) all.push(await walk(url, 1));
  return { ms: all.flatMap((t) => t.ms), rows: all.reduce((n, t) => n + t.rows, 0), requests: all.length, nextLinks: false };
}

/** The nearest-rank percentile of `values`. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
