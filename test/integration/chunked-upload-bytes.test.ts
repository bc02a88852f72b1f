// A chunked upload's bytes, through DocumentService on the leg's database: each byte is
// written once (the chunks grow one store of bytes, which becomes the file's blob as it is, no
// copy at FinishUpload), the same content uploaded twice is stored once, an upload goes on
// after a restart (a new store over the same database: its running hash is rebuilt from the
// bytes), and a cancelled upload leaves no bytes behind.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { openStoreBackend, rows, type StoreBackend } from '../helpers/store-backend.ts';
import { createListWithFields } from '../../src/services/lists.ts';
import { DocumentService } from '../../src/services/documents.ts';
import type { List } from '../../src/domain/model.ts';
import type { Store } from '../../src/store/store.ts';
import { DomainError } from '../../src/domain/errors.ts';

const NOW = '2024-06-01T12:00:00Z';
const KiB = 1024;

async function* body(bytes: Buffer): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += 64 * KiB) yield bytes.subarray(at, at + 64 * KiB);
}

/** Blob rows, and stored copies of bytes of any kind (files under blobs/, or storage keys of blob_chunks). */
async function census(b: StoreBackend): Promise<{ blobs: number; stored: number }> {
  const count = async (query: ReturnType<typeof sql>) => Number((await rows<{ n: number }>(b.db, query))[0]!.n);
  const stored = b.blobFolder
    ? await (async () => {
      const { readdirSync, existsSync } = await import('node:fs');
      const { join } = await import('node:path');
      const inside = (dir: string): number => (existsSync(dir) ? readdirSync(dir, { withFileTypes: true })
        .reduce((n, e) => n + (e.isDirectory() ? inside(join(dir, e.name)) : 1), 0) : 0);
      return inside(join(b.blobFolder!, 'sha256')) + inside(join(b.blobFolder!, 'uploads')) + inside(join(b.blobFolder!, 'tmp'));
    })()
    : await count(sql`select count(distinct storage_key) as n from blob_chunks`);
  return { blobs: await count(sql`select count(*) as n from blobs`), stored };
}

describe('chunked uploads write each byte once', () => {
  let b: StoreBackend;
  let library: List;
  const service = (store: Store) => new DocumentService(store, { userId: 1, now: () => NOW });

  before(async () => {
    b = await openStoreBackend();
    const { web } = await b.store.sites.create({ url: '/sites/up', title: 'Up', description: '', now: NOW });
    library = await createListWithFields(b.store, web, { title: 'Documents', description: '', baseTemplate: 101, relativeUrl: 'Shared Documents' }, NOW);
  });
  after(async () => { await b.close(); });

  const emptyFile = async (store: Store, name: string) => (await service(store).putFile(library, name, body(Buffer.alloc(0)), { overwrite: true })).item;

  test('the chunks become the file\'s blob where they are; the same content again is stored once', async () => {
    const content = randomBytes(700 * KiB + 3);
    const item = await emptyFile(b.store, 'once.bin');
    const before = await census(b);
    const docs = service(b.store);
    assert.equal(await docs.startUpload(library, item, 'up-1', body(content.subarray(0, 300 * KiB))), 300 * KiB);
    const key = (await b.store.uploads.get('up-1'))!.storageKey;
    assert.equal(await docs.continueUpload(library, item, 'up-1', 300 * KiB, body(content.subarray(300 * KiB, 600 * KiB))), 600 * KiB);
    await assert.rejects(docs.continueUpload(library, item, 'up-1', 300 * KiB, body(Buffer.from('late'))), (e) => e instanceof DomainError && e.reason === 'uploadOffsetMismatch');
    const done = await docs.finishUpload(library, item, 'up-1', 600 * KiB, body(content.subarray(600 * KiB)));
    const sha = createHash('sha256').update(content).digest('hex');
    assert.equal(done.file?.blobId, sha);
    assert.equal(done.file?.size, content.length);
    const [row] = await rows<{ storage_key: string }>(b.db, sql`select storage_key from blobs where id = ${sha}`);
    assert.equal(row?.storage_key, key, 'the blob is the upload\'s own bytes, not a copy');
    assert.deepEqual(await census(b), { blobs: before.blobs + 1, stored: before.stored + 1 }, 'one blob, one copy of its bytes: no blob per chunk, no joined copy');
    const parts: Buffer[] = [];
    for await (const part of (await b.store.blobs.open(sha))!) parts.push(part as Buffer);
    assert.deepEqual(Buffer.concat(parts), content);
    assert.equal(await b.store.uploads.get('up-1'), undefined, 'the upload is over');

    const twin = await emptyFile(b.store, 'twin.bin');
    await docs.startUpload(library, twin, 'up-2', body(content.subarray(0, 100 * KiB)));
    const again = await docs.finishUpload(library, twin, 'up-2', 100 * KiB, body(content.subarray(100 * KiB)));
    assert.equal(again.file?.blobId, sha);
    assert.deepEqual(await census(b), { blobs: before.blobs + 1, stored: before.stored + 1 }, 'the same content is stored once; the second upload\'s bytes are gone');
  });

  test('an upload goes on after a restart; a cancelled one leaves no bytes', async () => {
    const content = randomBytes(2 * 1024 * KiB + 11);
    const item = await emptyFile(b.store, 'resumed.bin');
    await service(b.store).startUpload(library, item, 'up-3', body(content.subarray(0, 1100 * KiB)));
    // Another process (or this one restarted): it did not see the first chunk go by.
    const restarted = await b.reopen();
    try {
      const docs = service(restarted.store);
      assert.equal(await docs.continueUpload(library, item, 'up-3', 1100 * KiB, body(content.subarray(1100 * KiB, 1500 * KiB))), 1500 * KiB);
      const done = await docs.finishUpload(library, item, 'up-3', 1500 * KiB, body(content.subarray(1500 * KiB)));
      assert.equal(done.file?.blobId, createHash('sha256').update(content).digest('hex'));

      const before = await census(b);
      const other = await emptyFile(restarted.store, 'cancelled.bin');
      await docs.startUpload(library, other, 'up-4', body(randomBytes(5000)));
      await docs.continueUpload(library, other, 'up-4', 5000, body(randomBytes(5000)));
      assert.equal((await census(b)).stored, before.stored + 1, 'the upload\'s bytes, while it lasts');
      await docs.cancelUpload('up-4');
      assert.deepEqual(await census(b), before, 'cancelled: its bytes are gone');
      await assert.rejects(docs.cancelUpload('up-4'), (e) => e instanceof DomainError && e.reason === 'uploadNotFound');
    } finally {
      await restarted.close();
    }
  });
});
