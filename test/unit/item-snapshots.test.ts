// The stored format of past versions and recycled items: numbered, field by field, and
// still reading what spemu wrote before the format had a number.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Item } from '../../src/domain/model.ts';
import { decodeItemSnapshot, decodeRecycled, encodeItemSnapshot, encodeRecycled } from '../../src/store/sql/snapshots.ts';

const item = (uiVersion: number, title: string): Item => ({
  id: 7, guid: '0f8fad5b-d9cb-469f-a165-70867728950e', contentTypeId: '0x0100ABC', created: '2024-01-01T00:00:00Z',
  modified: `2024-01-0${uiVersion}T00:00:00Z`, authorId: 6, editorId: 11, version: uiVersion + 2, uiVersion, minorVersion: 0,
  values: { Title: title, Amount: 12.5, Due: null },
  place: { folder: false, name: null, dir: '' },
});

/** A document in a folder, with its content. */
const document = (uiVersion: number): Item => ({
  ...item(uiVersion, 'Doc'), place: { folder: false, name: 'report.docx', dir: 'Reports/2024' },
  file: { blobId: 'a'.repeat(64), size: 1234, checkedOutBy: null, checkInComment: 'fixed typos' },
});

/** A record as format 1 stored it (before places and files). */
const formatOne = (i: Item) => { const { place: _place, file: _file, ...rest } = i; return rest; };

describe('item snapshots', () => {
  it('write format 3 with every field named, and read it back equal', () => {
    const text = encodeItemSnapshot(item(2, 'Two'));
    const stored = JSON.parse(text);
    assert.equal(stored.format, 3);
    assert.deepEqual(Object.keys(stored).sort(),
      ['authorId', 'contentTypeId', 'created', 'editorId', 'format', 'guid', 'id', 'minorVersion', 'modified', 'place', 'uiVersion', 'values', 'version']);
    assert.deepEqual(decodeItemSnapshot(text), item(2, 'Two'));
    const draft = { ...item(2, 'Draft'), minorVersion: 3 };
    assert.deepEqual(decodeItemSnapshot(encodeItemSnapshot(draft)), draft, 'a minor version keeps its number');
  });

  it('read format 2 rows as major versions (minor 0)', () => {
    const { minorVersion: _minor, ...two } = { ...document(2), format: 2 };
    assert.deepEqual(decodeItemSnapshot(JSON.stringify(two)), document(2));
  });

  it('keep a document\'s place and content (not who holds it checked out)', () => {
    const stored = JSON.parse(encodeItemSnapshot({ ...document(3), file: { ...document(3).file!, checkedOutBy: 9 } }));
    assert.deepEqual(stored.file, { blobId: 'a'.repeat(64), size: 1234, checkInComment: 'fixed typos' });
    assert.deepEqual(decodeItemSnapshot(JSON.stringify(stored)), document(3));
  });

  it('read format 1 rows as items at the root of their list', () => {
    assert.deepEqual(decodeItemSnapshot(JSON.stringify({ format: 1, ...formatOne(item(4, 'Four')) })), item(4, 'Four'));
  });

  it('leave out whatever else an in-memory record carries', () => {
    const extra = { ...item(1, 'One'), transient: 'not stored' } as Item;
    assert.equal('transient' in JSON.parse(encodeItemSnapshot(extra)), false);
  });

  it('read rows written before the format had a number (the Item record as JSON)', () => {
    const legacy = JSON.stringify(formatOne(item(3, 'Legacy')));
    assert.deepEqual(decodeItemSnapshot(legacy), item(3, 'Legacy'));
  });

  it('refuse a format they do not know rather than guess', () => {
    assert.throws(() => decodeItemSnapshot(JSON.stringify({ ...item(1, 'x'), format: 4 })), /unknown item snapshot format 4/);
  });

  it('recycled items keep their past versions, newest first, in both the new and the legacy form', () => {
    const versions = [item(2, 'Two'), item(1, 'One')];
    assert.deepEqual(decodeRecycled(encodeRecycled(item(3, 'Three'), versions)), { item: item(3, 'Three'), versions });
    assert.deepEqual(decodeRecycled(JSON.stringify({ ...item(3, 'Three'), versions })), { item: item(3, 'Three'), versions });
    assert.deepEqual(decodeRecycled(JSON.stringify(item(3, 'Three'))), { item: item(3, 'Three'), versions: [] });
  });
});
