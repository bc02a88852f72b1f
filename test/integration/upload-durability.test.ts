// Uploads survive `kill -9` (issue #11): the `spemu` command, over the leg's database (a
// SQLite workspace on disk, or PostgreSQL with the bytes in it), takes a stream of uploads —
// small and ~1 MiB files in one request, ~1.5 MiB ones in chunks, three in flight — while one
// upload is half sent and two chunked uploads wait between chunks; then it is killed with
// SIGKILL and started again on the same workspace. Every acknowledged file must be there with
// exactly its bytes; a file whose upload was cut off is absent or whole (a chunked one: still
// as acknowledged, empty, or whole), never partial; nothing else exists; an acknowledged chunk
// survives (its upload goes on after the restart). Then housekeeping, run as if two hours had
// passed, reclaims what the kill left: the half-written bytes, the abandoned upload's chunks.

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openPostgres, openSqlite } from '../../src/store/sql/connect.ts';
import { SqlStore } from '../../src/store/sql/sql-store.ts';
import { houseKeep } from '../../src/store/housekeeping.ts';
import { testBackend } from '../helpers/postgres.ts';
import { bearerFor } from '../helpers/bearer.ts';
import { newWorkspace, startSpemu as startProcess, type Workspace } from '../helpers/spemu-process.ts';

const SECRET = 'upload-durability-secret-0123456789abcdef';
const OWNER = 'alice@contoso.onmicrosoft.com';
const FOLDER = '/sites/dev/Shared Documents/Durable';
const KiB = 1024;
const MiB = 1024 * KiB;
const backend = testBackend();

const cleanups: Array<() => Promise<void> | void> = [];
after(async () => { for (const cleanup of cleanups.reverse()) await cleanup(); });

const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const EMPTY = sha(Buffer.alloc(0));
const enc = (path: string) => encodeURIComponent(path.replace(/'/g, "''"));

/** `spemu` on the workspace, in its own process (the one killed). */
const startSpemu = (ws: Workspace) => startProcess(ws, ['--token-secret', SECRET], cleanups);

/** The REST calls the test makes, as the owner with a bearer token (no digest needed). */
function client(url: string, token: string) {
  const web = `${url}/sites/dev/_api/web`;
  const headers = { Authorization: token, Accept: 'application/json;odata=nometadata' };
  const post = async (path: string, body?: Buffer) => {
    const res = await fetch(`${web}/${path}`, { method: 'POST', headers, ...(body ? { body } : {}) });
    const text = await res.text();
    if (res.status !== 200) throw new Error(`POST ${path} → ${res.status}: ${text.slice(0, 300)}`);
    return JSON.parse(text) as { value?: string; Length?: string };
  };
  const file = (name: string) => `GetFileByServerRelativePath(decodedurl='${enc(`${FOLDER}/${name}`)}')`;
  return {
    web, headers, post,
    add: (name: string, body: Buffer) => post(`GetFolderByServerRelativePath(decodedurl='${enc(FOLDER)}')/Files/AddUsingPath(decodedurl='${enc(name)}',overwrite=true)`, body),
    start: (name: string, id: string, chunk: Buffer) => post(`${file(name)}/StartUpload(uploadId=guid'${id}')`, chunk),
    next: (name: string, id: string, offset: number, chunk: Buffer) => post(`${file(name)}/ContinueUpload(uploadId=guid'${id}',fileOffset=${offset})`, chunk),
    finish: (name: string, id: string, offset: number, chunk: Buffer) => post(`${file(name)}/FinishUpload(uploadId=guid'${id}',fileOffset=${offset})`, chunk),
    /** The file's bytes' SHA-256, or undefined if there is no such file. */
    async content(name: string): Promise<string | undefined> {
      const res = await fetch(`${web}/${file(name)}/$value`, { headers });
      if (res.status === 404) { await res.arrayBuffer(); return undefined; }
      assert.equal(res.status, 200, `GET ${name}/$value`);
      return sha(Buffer.from(await res.arrayBuffer()));
    },
    async names(): Promise<string[]> {
      const res = await fetch(`${web}/GetFolderByServerRelativePath(decodedurl='${enc(FOLDER)}')/Files?$select=Name`, { headers });
      assert.equal(res.status, 200);
      return ((await res.json()) as { value: Array<{ Name: string }> }).value.map((f) => f.Name);
    },
  };
}
type Client = ReturnType<typeof client>;

/**
 * What the client knows of a file: its content as last acknowledged (undefined: no file), the
 * content the request in flight would leave (the same, for a chunk), the content it was sent.
 */
interface Known { acked: string | undefined; inFlight: string | undefined; final: string; done: boolean }

/** Sends one request of an upload: while it is in flight the file may be as before or `leaves`; once answered, it is `leaves`. */
async function step(state: Known, leaves: string | undefined, send: () => Promise<unknown>): Promise<void> {
  state.inFlight = leaves;
  await send();
  state.acked = leaves;
}

/** The n-th upload of the stream: small, ~1 MiB in one request, small, ~1.5 MiB in 512 KiB chunks. */
async function upload(api: Client, n: number, known: Map<string, Known>): Promise<void> {
  const kind = n % 4;
  const name = `f${String(n).padStart(4, '0')}-${['small', 'medium', 'small', 'chunked'][kind]}.bin`;
  const size = kind === 1 ? MiB + (n * 977) % (64 * KiB) : kind === 3 ? 1536 * KiB + (n * 131) % KiB : KiB + (n * 37) % (7 * KiB);
  const bytes = randomBytes(size);
  const state: Known = { acked: undefined, inFlight: undefined, final: sha(bytes), done: false };
  known.set(name, state);
  if (kind !== 3) {
    await step(state, state.final, () => api.add(name, bytes));
  } else {
    // As PnPjs's addChunked: an empty file first, then the chunks; the content changes only when the last one is in.
    await step(state, EMPTY, () => api.add(name, Buffer.alloc(0)));
    const id = globalThis.crypto.randomUUID();
    await step(state, EMPTY, () => api.start(name, id, bytes.subarray(0, 512 * KiB)));
    await step(state, EMPTY, () => api.next(name, id, 512 * KiB, bytes.subarray(512 * KiB, 1024 * KiB)));
    await step(state, state.final, () => api.finish(name, id, 1024 * KiB, bytes.subarray(1024 * KiB)));
  }
  state.done = true;
}

/** A POST announcing `total` bytes that sends `sent` of them and then waits: the server is killed mid-body. */
function halfUpload(url: string, token: string, name: string, total: number, sent: number): void {
  const req = request(`${url}/sites/dev/_api/web/GetFolderByServerRelativePath(decodedurl='${enc(FOLDER)}')/Files/AddUsingPath(decodedurl='${enc(name)}',overwrite=true)`,
    { method: 'POST', headers: { Authorization: token, Accept: 'application/json', 'Content-Length': String(total) } });
  req.on('error', () => { /* the server is killed: expected */ });
  req.on('response', (res) => { res.resume(); });
  req.write(randomBytes(sent));
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The store on the workspace, in this process (the server stopped), with a probe of where bytes are. */
async function openStore(ws: Workspace) {
  const blobFolder = join(ws.data, 'blobs');
  const connection = ws.db ? await openPostgres({ url: ws.db, statementTimeoutMs: 0 }) : openSqlite({ file: join(ws.data, 'spemu.db') });
  const store = new SqlStore(connection.db, ws.db ? 'postgres' : 'sqlite', {
    onSchemaChange: 'clearStatementCache' in connection ? connection.clearStatementCache : undefined, blobFolder: ws.db ? undefined : blobFolder,
  });
  const count = async (query: ReturnType<typeof sql>) => Number(((await query.execute(connection.db)).rows[0] as { n: number | string }).n);
  return {
    store,
    /** Blobs recorded, those that have bytes stored (on PostgreSQL an empty one has no chunk), those unreferenced; upload sessions. */
    rows: async () => ({
      blobs: await count(sql`select count(*) as n from blobs`),
      stored: await count(ws.db ? sql`select count(*) as n from blobs where size > 0` : sql`select count(*) as n from blobs`),
      unreferenced: await count(sql`select count(*) as n from blobs where refs = 0`),
      sessions: await count(sql`select count(*) as n from upload_sessions`),
    }),
    /** Stored copies of bytes (files under blobs/sha256 and blobs/uploads, or keys of blob_chunks), and of them those no blob row names, plus temporary files. */
    async bytes(): Promise<{ copies: number; unnamed: number; temporary: number }> {
      if (ws.db) {
        return {
          copies: await count(sql`select count(distinct storage_key) as n from blob_chunks`),
          unnamed: await count(sql`select count(distinct storage_key) as n from blob_chunks where storage_key not in (select storage_key from blobs)`),
          temporary: 0,
        };
      }
      const keys = new Set(((await sql`select storage_key from blobs`.execute(connection.db)).rows as Array<{ storage_key: string }>).map((r) => r.storage_key));
      // Blobs written whole are under sha256/, a chunked upload's bytes (and the blob they become) under uploads/.
      const files = [
        ...(existsSync(join(blobFolder, 'sha256'))
          ? readdirSync(join(blobFolder, 'sha256')).flatMap((prefix) => readdirSync(join(blobFolder, 'sha256', prefix)).map((f) => `sha256/${prefix}/${f}`)) : []),
        ...(existsSync(join(blobFolder, 'uploads')) ? readdirSync(join(blobFolder, 'uploads')).map((f) => `uploads/${f}`) : []),
      ];
      const temporary = existsSync(join(blobFolder, 'tmp')) ? readdirSync(join(blobFolder, 'tmp')).length : 0;
      return { copies: files.length, unnamed: files.filter((f) => !keys.has(f)).length, temporary };
    },
    close: () => store.close(),
  };
}

/**
 * Whether a write in progress has stored `mib` MiB or more (no other upload of the test is
 * that large): a temporary file (SQLite), or chunks under one key no blob names (PostgreSQL).
 */
async function writeInProgress(ws: Workspace): Promise<{ reached(mib: number): Promise<boolean>; close(): Promise<void> }> {
  if (!ws.db) {
    const tmp = join(ws.data, 'blobs', 'tmp');
    const size = (f: string) => { try { return statSync(join(tmp, f)).size; } catch { return 0; } };
    return { reached: async (mib) => existsSync(tmp) && readdirSync(tmp).some((f) => size(f) >= mib * MiB), close: async () => {} };
  }
  const connection = await openPostgres({ url: ws.db, statementTimeoutMs: 0 });
  return {
    async reached(mib) {
      const { rows } = await sql`select count(*) as n from blob_chunks where storage_key not in (select storage_key from blobs)
        group by storage_key having count(*) >= ${mib}`.execute(connection.db);
      return rows.length > 0;
    },
    close: () => connection.db.destroy(),
  };
}

describe('uploads and kill -9', () => {
  it('every acknowledged upload survives, nothing partial is visible, and housekeeping reclaims what the kill left', { timeout: 180_000 }, async (t) => {
    const ws = await newWorkspace('spemu-upload-durability', 'spemu_uploads', cleanups);
    const token = await bearerFor(SECRET, OWNER);
    let server = await startSpemu(ws);
    let api = client(server.url, token);
    await api.post(`GetFolderByServerRelativePath(decodedurl='${enc('/sites/dev/Shared Documents')}')/Folders/AddUsingPath(decodedurl='Durable')`);

    // Two chunked uploads that stop between chunks, two chunks acknowledged each.
    const paused = new Map<string, { id: string; bytes: Buffer }>();
    for (const name of ['paused-resumed.bin', 'paused-abandoned.bin']) {
      const bytes = randomBytes(1536 * KiB);
      const id = globalThis.crypto.randomUUID();
      await api.add(name, Buffer.alloc(0));
      assert.equal((await api.start(name, id, bytes.subarray(0, 512 * KiB))).value, String(512 * KiB));
      assert.equal((await api.next(name, id, 512 * KiB, bytes.subarray(512 * KiB, 1024 * KiB))).value, String(1024 * KiB));
      paused.set(name, { id, bytes });
    }

    // The stream: three uploads in flight until the kill.
    const known = new Map<string, Known>();
    let next = 0;
    let stop = false;
    const streams = Array.from({ length: 3 }, async () => {
      while (!stop && next < 2000) {
        try { await upload(api, next++, known); } catch { return; } // the kill
      }
    });
    halfUpload(server.url, token, 'half.bin', 4 * MiB, 3.5 * MiB);
    const progress = await writeInProgress(ws);
    try {
      await until('20 acknowledged uploads and 3 MiB of the half upload on the server',
        async () => [...known.values()].filter((k) => k.done).length >= 20 && await progress.reached(3));
    } finally {
      await progress.close();
    }
    server.child.kill('SIGKILL');
    await server.exited;
    stop = true;
    await Promise.all(streams);
    const acked = [...known].filter(([, k]) => k.done).map(([name]) => name);
    const cut = [...known].filter(([, k]) => !k.done).map(([name]) => name);
    assert.ok(acked.length >= 20 && cut.length >= 1, `${acked.length} acknowledged, ${cut.length} cut off`);
    t.diagnostic(`${backend}: ${acked.length} uploads acknowledged before the kill; cut off: ${cut.join(', ')}, half.bin (3.5 of 4 MiB sent), two chunked uploads between chunks`);

    server = await startSpemu(ws);
    api = client(server.url, token);
    for (const name of acked) assert.equal(await api.content(name), known.get(name)!.final, `acknowledged ${name}`);
    for (const name of cut) {
      const { acked: before, inFlight } = known.get(name)!;
      const now = await api.content(name);
      assert.ok(now === before || now === inFlight, `${name}, cut off, is ${now === undefined ? 'absent' : `sha256 ${now}`}: neither as acknowledged nor as its request in flight would leave it`);
    }
    assert.equal(await api.content('half.bin'), undefined, 'the half-sent upload left no file');
    assert.equal(await api.content('paused-abandoned.bin'), EMPTY, 'an unfinished chunked upload shows none of its chunks');
    const expected = new Set([...known.keys(), ...paused.keys()]);
    const unexpected = (await api.names()).filter((name) => !expected.has(name));
    assert.deepEqual(unexpected, [], 'no file that was never uploaded');

    // The acknowledged chunks survived: the upload goes on where it was.
    const resumed = paused.get('paused-resumed.bin')!;
    const finished = await api.finish('paused-resumed.bin', resumed.id, 1024 * KiB, resumed.bytes.subarray(1024 * KiB));
    assert.equal(finished.Length, String(resumed.bytes.length));
    assert.equal(await api.content('paused-resumed.bin'), sha(resumed.bytes));
    server.child.kill('SIGTERM');
    await server.exited;

    // Housekeeping, as if two hours had passed: past the idle time of an upload and the grace of a blob.
    const opened = await openStore(ws);
    try {
      const before = { ...(await opened.rows()), ...(await opened.bytes()) };
      assert.ok(before.sessions >= 1, 'the abandoned upload is still open');
      assert.ok(before.temporary + before.unnamed >= 1, `the cut-off write left bytes behind: ${JSON.stringify(before)}`);
      const swept = await houseKeep(opened.store, new Date(Date.now() + 2 * 3600_000));
      const afterwards = { ...(await opened.rows()), ...(await opened.bytes()) };
      t.diagnostic(`housekeeping ${JSON.stringify(swept)}; before ${JSON.stringify(before)}; after ${JSON.stringify(afterwards)}`);
      assert.ok(swept.uploads >= 1 && swept.leftovers >= 1, `housekeeping ${JSON.stringify(swept)}, before ${JSON.stringify(before)}`);
      assert.deepEqual(
        { sessions: afterwards.sessions, unreferenced: afterwards.unreferenced, unnamed: afterwards.unnamed, temporary: afterwards.temporary },
        { sessions: 0, unreferenced: 0, unnamed: 0, temporary: 0 }, `after housekeeping: ${JSON.stringify(afterwards)}`);
      assert.equal(afterwards.copies, afterwards.stored, 'every copy of bytes left is a blob\'s, and every blob\'s bytes are there');
    } finally {
      await opened.close();
    }
    // And nothing acknowledged went with them.
    server = await startSpemu(ws);
    api = client(server.url, token);
    for (const name of acked) assert.equal(await api.content(name), known.get(name)!.final, `${name} after housekeeping`);
    assert.equal(await api.content('paused-resumed.bin'), sha(resumed.bytes));
    server.child.kill('SIGTERM');
    await server.exited;
  });
});
