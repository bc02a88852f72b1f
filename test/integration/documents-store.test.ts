// Files and folders in the store, on the leg's database: folders nest and list their
// children, names are unique in a folder whatever their case (checked under the list's lock,
// and by the database), a file's content is a blob whose references follow the file: a new
// file takes one, overwriting moves the old content to a past version (versioned library) or
// releases it, deleting releases the file's and its versions', recycling keeps them.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openStoreBackend, rows, type StoreBackend } from '../helpers/store-backend.ts';
import { createListWithFields } from '../../src/services/lists.ts';
import { DomainError } from '../../src/domain/errors.ts';
import type { Field, List } from '../../src/domain/model.ts';
import { houseKeep } from '../../src/store/housekeeping.ts';

const NOW = '2024-06-01T12:00:00Z';
const tooLarge = () => new Error('too large');
async function* text(value: string): AsyncGenerator<Uint8Array> { yield Buffer.from(value); }

const refsOf = async (b: StoreBackend, id: string) =>
  Number((await rows<{ refs: number }>(b.db, sql`select refs from blobs where id = ${id}`))[0]?.refs ?? -1);

const failsWith = (reason: string) => (e: unknown) => e instanceof DomainError && e.reason === reason;

describe('files and folders', () => {
  let b: StoreBackend;
  let library: List;
  let fields: Field[];
  const put = (name: string, content: string, options: { dir?: string; overwrite?: boolean; list?: List } = {}) => (async () => {
    const blob = await b.store.blobs.put(text(content), { limit: 1e6, tooLarge });
    return b.store.documents.putFile(options.list ?? library, fields, { dir: options.dir ?? '', name, actorId: 1, now: NOW, blob, overwrite: options.overwrite ?? false });
  })();

  before(async () => {
    b = await openStoreBackend();
    const { web } = await b.store.sites.create({ url: '/sites/docs', title: 'Docs', description: '', now: NOW });
    library = await createListWithFields(b.store, web, { title: 'Documents', description: '', baseTemplate: 101, relativeUrl: 'Shared Documents' }, NOW);
    fields = await b.store.fields.of(library);
  });
  after(async () => { await b.close(); });

  test('folders nest; a folder lists its children; names are unique in a folder whatever their case', async () => {
    const reports = await b.store.documents.createFolder(library, fields, { dir: '', name: 'Reports', actorId: 1, now: NOW });
    assert.deepEqual(reports.place, { folder: true, name: 'Reports', dir: '' });
    assert.match(reports.contentTypeId, /^0x0120/);
    await b.store.documents.createFolder(library, fields, { dir: 'Reports', name: '2024', actorId: 1, now: NOW });
    await assert.rejects(b.store.documents.createFolder(library, fields, { dir: '', name: 'REPORTS', actorId: 1, now: NOW }), failsWith('fileExists'));
    await assert.rejects(b.store.documents.createFolder(library, fields, { dir: 'Missing', name: 'x', actorId: 1, now: NOW }), failsWith('folderNotFound'));
    const { item: doc } = await put('Q1.txt', 'first quarter', { dir: 'reports/2024' });
    assert.deepEqual(doc.place, { folder: false, name: 'Q1.txt', dir: 'Reports/2024' }, 'the folder path as its folders are named');
    assert.match(doc.contentTypeId, /^0x0101/);
    assert.equal((await b.store.documents.at(library, fields, 'Reports/2024', 'q1.TXT'))?.id, doc.id);
    assert.equal(await b.store.documents.at(library, fields, 'Reports', 'q1.txt'), undefined);
    const inReports = await b.store.documents.children(library, fields, 'REPORTS', { top: 10 });
    assert.deepEqual(inReports.items.map((i) => i.place.name), ['2024']);
    assert.deepEqual((await b.store.documents.children(library, fields, 'Reports/2024', { top: 10, kind: 'file' })).items.map((i) => i.place.name), ['Q1.txt']);
    assert.deepEqual((await b.store.documents.children(library, fields, 'Reports/2024', { top: 10, kind: 'folder' })).items, []);
    await assert.rejects(put('q1.txt', 'again', { dir: 'Reports/2024' }), failsWith('fileExists'));
    await assert.rejects(put('2024', 'a file named as a folder', { dir: 'Reports', overwrite: true }), failsWith('fileExists'));
    await assert.rejects(put('x.txt', 'nowhere', { dir: 'Reports/2025' }), failsWith('folderNotFound'));
    // The database itself refuses a second row of the same place.
    await assert.rejects(sql`insert into ${sql.table(library.tableName)} (id, guid, content_type_id, created, modified, author_id, editor_id, version, ui_version, leaf_name, dir_path)
      values (9999, 'g', '0x0101', ${NOW}, ${NOW}, 1, 1, 1, 1, 'REPORTS', '')`.execute(b.db));
    assert.equal((await b.store.lists.byRowId(library.rowId))!.itemCount, 3, 'folders count as items, as SharePoint counts them');
  });

  test('pages of a folder by id', async () => {
    await b.store.documents.createFolder(library, fields, { dir: '', name: 'Many', actorId: 1, now: NOW });
    for (let i = 0; i < 5; i++) await put(`f${i}.txt`, `file ${i}`, { dir: 'Many' });
    const first = await b.store.documents.children(library, fields, 'Many', { top: 2 });
    assert.equal(first.hasMore, true);
    const second = await b.store.documents.children(library, fields, 'Many', { top: 10, afterId: first.items.at(-1)!.id });
    assert.deepEqual([...first.items, ...second.items].map((i) => i.place.name), ['f0.txt', 'f1.txt', 'f2.txt', 'f3.txt', 'f4.txt']);
    assert.equal(second.hasMore, false);
  });

  test('content references follow the file: overwrite keeps the old content as a version (versioned) or releases it; delete releases; recycle keeps', async () => {
    // Documents libraries keep versions by default in SharePoint Online; this one was made with versioning off.
    const { item: v1 } = await put('notes.txt', 'version one');
    const one = v1.file!.blobId;
    assert.equal(await refsOf(b, one), 1);
    const { item: v2, created } = await put('notes.txt', 'version two', { overwrite: true });
    assert.equal(created, false);
    assert.equal(v2.id, v1.id);
    assert.equal(v2.version, v1.version + 1);
    assert.equal(await refsOf(b, one), library.enableVersioning ? 1 : 0);
    const two = v2.file!.blobId;
    const chunks: Buffer[] = [];
    for await (const chunk of (await b.store.blobs.open(two))!) chunks.push(chunk as Buffer);
    assert.equal(Buffer.concat(chunks).toString(), 'version two');

    const { web } = await b.store.sites.create({ url: '/sites/versioned', title: 'V', description: '', now: NOW });
    const versioned = await createListWithFields(b.store, web, { title: 'Versioned', description: '', baseTemplate: 101, enableVersioning: true }, NOW);
    const vf = await b.store.fields.of(versioned);
    const first = await put('a.txt', 'alpha', { list: versioned });
    const second = await put('a.txt', 'beta', { list: versioned, overwrite: true });
    const [alpha, beta] = [first.item.file!.blobId, second.item.file!.blobId];
    assert.equal(await refsOf(b, alpha), 1, 'the past version names the old content');
    const past = await b.store.versions.of(versioned, first.item.id);
    assert.equal(past[0]!.file!.blobId, alpha);
    assert.ok(await b.store.items.recycle(versioned, vf, first.item.id, 1, NOW));
    assert.deepEqual([await refsOf(b, alpha), await refsOf(b, beta)], [1, 1], 'the recycle bin names both');

    const third = await put('b.txt', 'gamma', { list: versioned });
    await put('b.txt', 'delta', { list: versioned, overwrite: true });
    const delta = (await b.store.documents.at(versioned, vf, '', 'b.txt'))!.file!.blobId;
    assert.equal(await b.store.items.delete(versioned, vf, third.item.id, null, NOW), 'deleted');
    assert.deepEqual([await refsOf(b, third.item.file!.blobId), await refsOf(b, delta)], [0, 0], 'deleting releases the file and its versions');
  });

  test('deleting a list releases everything its rows held: files, past versions, attachments', async () => {
    const { web } = await b.store.sites.create({ url: '/sites/dropped', title: 'Dropped', description: '', now: NOW });
    const doomed = await createListWithFields(b.store, web, { title: 'Doomed', description: '', baseTemplate: 101, enableVersioning: true }, NOW);
    const first = await put('kept.txt', 'old content of a doomed file', { list: doomed });
    const second = await put('kept.txt', 'new content of a doomed file', { list: doomed, overwrite: true });
    const tasks = await createListWithFields(b.store, web, { title: 'Doomed tasks', description: '', baseTemplate: 100 }, NOW);
    const task = await b.store.items.create(tasks, await b.store.fields.of(tasks), { values: { Title: 't' }, actorId: 1, now: NOW });
    const attached = await b.store.blobs.put(text('an attachment of a doomed item'), { limit: 1e6, tooLarge });
    assert.ok(typeof await b.store.attachments.put(tasks, task.id, 'a.txt', attached, { replace: false, now: NOW }) === 'object');
    const held = [first.item.file!.blobId, second.item.file!.blobId, attached.id];
    assert.deepEqual(await Promise.all(held.map((id) => refsOf(b, id))), [1, 1, 1]);
    await b.store.lists.delete(doomed);
    await b.store.lists.delete(tasks);
    assert.deepEqual(await Promise.all(held.map((id) => refsOf(b, id))), [0, 0, 0], 'nothing names them any more: collectable');
  });

  test('housekeeping ends an abandoned chunked upload after 30 minutes and removes its bytes; bytes no upload recorded go after the grace period', async () => {
    const { item } = await put('upload.bin', '');
    const bytes = await b.store.blobs.append(undefined, 0, text('a chunk nobody finished'), { limit: 1e6, tooLarge });
    const unrecorded = await b.store.blobs.append(undefined, 0, text('a chunk whose upload was never recorded (a crash)'), { limit: 1e6, tooLarge });
    // Real time: the upload's last chunk, and the bytes' own write time, decide.
    const started = new Date(Math.floor(Date.now() / 1000) * 1000);
    const now = started.toISOString().replace(/\.\d{3}Z$/, 'Z');
    assert.equal(await b.store.uploads.start({ id: 'u-1', listRowId: library.rowId, itemId: item.id, userId: 1, storageKey: bytes.key, size: bytes.size, now }), true);
    assert.equal(await b.store.uploads.start({ id: 'u-1', listRowId: library.rowId, itemId: item.id, userId: 1, storageKey: unrecorded.key, size: 1, now }), false, 'one upload per id');
    assert.equal((await houseKeep(b.store, new Date(started.getTime() + 29 * 60_000))).uploads, 0, 'not yet abandoned');
    assert.ok(await b.store.uploads.get('u-1'));
    const ended = await houseKeep(b.store, new Date(started.getTime() + 31 * 60_000));
    assert.equal(ended.uploads, 1);
    assert.equal(await b.store.uploads.get('u-1'), undefined);
    await assert.rejects(b.store.blobs.digest(bytes.key, bytes.size), 'its bytes are removed with it');
    assert.ok(await b.store.blobs.digest(unrecorded.key, unrecorded.size), 'unrecorded bytes stay within the grace period');
    assert.ok((await houseKeep(b.store, new Date(Date.now() + 2 * 3_600_000))).leftovers >= 1);
    await assert.rejects(b.store.blobs.digest(unrecorded.key, unrecorded.size), 'and go after it');
  });
});
