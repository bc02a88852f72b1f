// The blob store on the leg's database: bytes in files beside a SQLite database, in chunks
// in PostgreSQL. Content in and out (whole and in ranges across chunk boundaries), identical
// content stored once, the size limit leaving nothing behind, reference counts moving with
// their transaction (a rollback moves nothing), and collection: never a referenced blob, never
// one put within the grace period, and the leftovers of a write that was never recorded.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Readable } from 'node:stream';
import { openStoreBackend, rows, type StoreBackend } from '../helpers/store-backend.ts';
import { DiskBytes } from '../../src/store/blob-disk.ts';
import { ChunkBytes } from '../../src/store/sql/blob-chunks.ts';

const MiB = 1024 * 1024;
const tooLarge = () => new Error('too large');

/** `bytes` as a stream of uneven pieces, as a socket delivers them. */
async function* pieces(bytes: Buffer, size = 65_537): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function drain(stream: Readable | undefined): Promise<Buffer> {
  assert.ok(stream, 'the blob is there');
  const parts: Buffer[] = [];
  for await (const part of stream) parts.push(part as Buffer);
  return Buffer.concat(parts);
}

/** Files holding bytes (SQLite) or distinct chunk keys (PostgreSQL). */
async function storedCopies(b: StoreBackend): Promise<number> {
  if (b.blobFolder) {
    const root = join(b.blobFolder, 'sha256');
    if (!existsSync(root)) return 0;
    return readdirSync(root).reduce((n, prefix) => n + readdirSync(join(root, prefix)).length, 0);
  }
  return Number((await rows<{ n: number }>(b.db, sql`select count(distinct storage_key) as n from blob_chunks`))[0]!.n);
}

const refsOf = async (b: StoreBackend, id: string) =>
  (await rows<{ refs: number }>(b.db, sql`select refs from blobs where id = ${id}`)).map((r) => Number(r.refs))[0];

describe('blob store', () => {
  let b: StoreBackend;
  before(async () => { b = await openStoreBackend(); });
  after(async () => { await b.close(); });

  test('bytes in and out, whole and in ranges across chunk boundaries; identical content is stored once', async () => {
    const content = randomBytes(3 * MiB + 12_345);
    const copiesBefore = await storedCopies(b);
    const blob = await b.store.blobs.put(pieces(content), { limit: 10 * MiB, tooLarge });
    assert.equal(blob.size, content.length);
    assert.match(blob.id, /^[0-9a-f]{64}$/);
    assert.deepEqual(await drain(await b.store.blobs.open(blob.id)), content);
    assert.equal(await b.store.blobs.size(blob.id), content.length);
    for (const [start, end] of [[0, 0], [MiB - 10, MiB + 10], [MiB, 2 * MiB - 1], [2 * MiB + 5, content.length - 1], [123, 2 * MiB + 77]] as const) {
      assert.deepEqual(await drain(await b.store.blobs.open(blob.id, { start, end })), content.subarray(start, end + 1), `range ${start}-${end}`);
    }
    const again = await b.store.blobs.put(pieces(content, 1000), { limit: 10 * MiB, tooLarge });
    assert.equal(again.id, blob.id);
    assert.equal(await storedCopies(b), copiesBefore + 1, 'the second put kept no copy');
    const empty = await b.store.blobs.put(pieces(Buffer.alloc(0)), { limit: 10, tooLarge });
    assert.equal(empty.size, 0);
    assert.equal((await drain(await b.store.blobs.open(empty.id))).length, 0);
    assert.equal(await b.store.blobs.open('0'.repeat(64)), undefined);
    assert.equal(await b.store.blobs.open('../../etc/passwd'), undefined);
  });

  test('a put past the limit fails with the given error and leaves nothing', async () => {
    const copiesBefore = await storedCopies(b);
    const content = randomBytes(2 * MiB + 1);
    await assert.rejects(b.store.blobs.put(pieces(content), { limit: 2 * MiB, tooLarge }), /too large/);
    assert.equal(await storedCopies(b), copiesBefore);
    if (b.blobFolder) assert.deepEqual(readdirSync(join(b.blobFolder, 'tmp')), [], 'no temporary file is left');
    else assert.equal(Number((await rows<{ n: number }>(b.db, sql`select count(*) as n from blobs where size = ${content.length}`))[0]!.n), 0);
  });

  test('references move with their transaction; collection spares referenced and recent blobs', async () => {
    const blob = await b.store.blobs.put(pieces(randomBytes(1000)), { limit: MiB, tooLarge });
    await assert.rejects(b.store.transaction(async (tx) => {
      assert.equal(await tx.blobs.addRef(blob.id), true);
      throw new Error('roll back');
    }), /roll back/);
    assert.equal(await refsOf(b, blob.id), 0, 'a rolled-back reference is not counted');
    await b.store.transaction(async (tx) => { assert.equal(await tx.blobs.addRef(blob.id), true); });
    assert.equal(await refsOf(b, blob.id), 1);

    const future = new Date(Date.now() + 3_600_000);
    await b.store.blobs.collect(future);
    assert.ok(await b.store.blobs.open(blob.id), 'a referenced blob is never collected');

    const loose = await b.store.blobs.put(pieces(randomBytes(500)), { limit: MiB, tooLarge });
    await b.store.blobs.collect(new Date(Date.now() - 3_600_000));
    assert.ok(await b.store.blobs.open(loose.id), 'an unreferenced blob put within the grace period stays');

    await b.store.transaction((tx) => tx.blobs.release(blob.id));
    const copiesBefore = await storedCopies(b);
    const collected = await b.store.blobs.collect(future);
    assert.ok(collected.blobs >= 2);
    assert.equal(await b.store.blobs.open(blob.id), undefined);
    assert.equal(await b.store.blobs.open(loose.id), undefined);
    assert.equal(await storedCopies(b), copiesBefore - collected.blobs);
    assert.equal(await b.store.transaction((tx) => tx.blobs.addRef(blob.id)), false, 'a collected blob takes no reference: put it again');
    const back = await b.store.blobs.put(pieces(Buffer.alloc(1000, 1)), { limit: MiB, tooLarge });
    assert.ok(await b.store.blobs.open(back.id));
  });

  test('bytes written but never recorded (a crash in between) are swept after the grace period only', async () => {
    const bytes = b.blobFolder ? new DiskBytes(b.blobFolder) : new ChunkBytes(b.db);
    const orphan = await bytes.write(pieces(randomBytes(2 * MiB + 3)), 10 * MiB, tooLarge);
    if (b.blobFolder) { mkdirSync(join(b.blobFolder, 'tmp'), { recursive: true }); writeFileSync(join(b.blobFolder, 'tmp', 'half-written'), 'x'); }
    const kept = await b.store.blobs.put(pieces(randomBytes(100)), { limit: MiB, tooLarge });
    await b.store.transaction(async (tx) => { await tx.blobs.addRef(kept.id); });
    assert.equal((await b.store.blobs.collect(new Date(Date.now() - 3_600_000))).leftovers, 0);
    assert.ok(await bytes.read(orphan.key, orphan.size));
    const swept = await b.store.blobs.collect(new Date(Date.now() + 3_600_000));
    assert.equal(swept.leftovers, b.blobFolder ? 2 : 1);
    assert.equal(await bytes.read(orphan.key, orphan.size), undefined);
    assert.ok(await b.store.blobs.open(kept.id), 'a recorded blob is not a leftover');
  });

  test('an upload\'s bytes grow by appends (rows stay whole across uneven chunks), and a broken append leaves what was recorded', async () => {
    const content = randomBytes(3 * MiB + 777);
    const cuts = [0, 700_001, MiB, 2 * MiB + 3, content.length];
    let key: string | undefined;
    for (let i = 0; i + 1 < cuts.length; i++) {
      const appended = await b.store.blobs.append(key, cuts[i]!, pieces(content.subarray(cuts[i], cuts[i + 1])), { limit: 10 * MiB, tooLarge });
      assert.equal(appended.size, cuts[i + 1]);
      key = appended.key;
      if (i === 1) {
        // A chunk that breaks off half-way (the client went away): its bytes must not count.
        async function* broken(): AsyncGenerator<Uint8Array> { yield randomBytes(MiB + 5); throw new Error('connection reset'); }
        await assert.rejects(b.store.blobs.append(key, appended.size, broken(), { limit: 10 * MiB, tooLarge }), /connection reset/);
      }
    }
    const bytes = b.blobFolder ? new DiskBytes(b.blobFolder) : new ChunkBytes(b.db);
    assert.deepEqual(await drain(await bytes.read(key!, content.length)), content);
    for (const [start, end] of [[MiB - 3, MiB + 3], [700_000, 700_001], [2 * MiB, content.length - 1]] as const) {
      assert.deepEqual(await drain(await bytes.read(key!, content.length, { start, end })), content.subarray(start, end + 1), `range ${start}-${end}`);
    }
    const sha = createHash('sha256').update(content).digest('hex');
    assert.equal(await b.store.blobs.digest(key!, content.length), sha, 'the running digest');
    assert.equal(await bytes.digest(key!, content.length), sha, 'the digest read back (another process, or after a restart)');
    await assert.rejects(b.store.blobs.append(key, 0, pieces(randomBytes(11 * MiB)), { limit: 10 * MiB, tooLarge }), /too large/);
    // A first chunk that fails leaves nothing behind (no upload names it).
    const uploadCopies = async () => (b.blobFolder
      ? (existsSync(join(b.blobFolder, 'uploads')) ? readdirSync(join(b.blobFolder, 'uploads')).length : 0)
      : Number((await rows<{ n: number }>(b.db, sql`select count(distinct storage_key) as n from blob_chunks`))[0]!.n));
    const before = await uploadCopies();
    await assert.rejects(b.store.blobs.append(undefined, 0, pieces(randomBytes(3 * MiB)), { limit: 2 * MiB, tooLarge }), /too large/);
    assert.equal(await uploadCopies(), before);
  });

  test('a finished upload\'s bytes become its blob where they are (no copy); the same content again is redundant', async () => {
    const content = randomBytes(MiB + 99);
    const first = await b.store.blobs.append(undefined, 0, pieces(content.subarray(0, 5000)), { limit: 10 * MiB, tooLarge });
    const whole = await b.store.blobs.append(first.key, 5000, pieces(content.subarray(5000)), { limit: 10 * MiB, tooLarge });
    const sha256 = await b.store.blobs.digest(whole.key, whole.size);
    const adopted = await b.store.transaction((tx) => tx.blobs.adopt(whole.key, { sha256, size: whole.size }));
    assert.deepEqual(adopted, { blob: { id: sha256, size: content.length }, redundant: false });
    const [row] = await rows<{ storage_key: string }>(b.db, sql`select storage_key from blobs where id = ${sha256}`);
    assert.equal(row?.storage_key, whole.key, 'the blob names the upload\'s own bytes');
    assert.deepEqual(await drain(await b.store.blobs.open(sha256)), content);
    await b.store.blobs.discard(whole.key);
    assert.ok(await b.store.blobs.open(sha256), 'bytes a blob names are never discarded');

    const again = await b.store.blobs.append(undefined, 0, pieces(content), { limit: 10 * MiB, tooLarge });
    const second = await b.store.transaction((tx) => tx.blobs.adopt(again.key, { sha256, size: again.size }));
    assert.equal(second.redundant, true);
    await b.store.blobs.discard(again.key);
    const bytes = b.blobFolder ? new DiskBytes(b.blobFolder) : new ChunkBytes(b.db);
    assert.equal(await bytes.read(again.key, again.size), undefined, 'the redundant copy is gone');
    assert.deepEqual(await drain(await b.store.blobs.open(sha256)), content);
  });

  test('a blob is put before the unit of work that names it, never inside one', async () => {
    await assert.rejects(b.store.transaction((tx) => tx.blobs.put(pieces(Buffer.from('x')), { limit: 10, tooLarge })), /before the unit of work/);
  });
});
