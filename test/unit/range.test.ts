// Byte ranges: what a download's Range asks (pipeline/range.ts), and a part of the content as
// the REST front sends it (206, Content-Range, the part's length).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { contentRange, parseRange } from '../../src/pipeline/range.ts';
import { outcomeResponse } from '../../src/fronts/rest/pipeline.ts';

describe('Range: bytes=…', () => {
  it('a first-last range, clamped to the content; an open end runs to the last byte', () => {
    assert.deepEqual(parseRange('bytes=0-99', 1000), { start: 0, end: 99 });
    assert.deepEqual(parseRange('bytes=900-2000', 1000), { start: 900, end: 999 });
    assert.deepEqual(parseRange('bytes=10-', 1000), { start: 10, end: 999 });
    assert.deepEqual(parseRange(' BYTES = 5 - 5 ', 1000), { start: 5, end: 5 });
  });

  it('a suffix range: the last N bytes (all of them when N is larger)', () => {
    assert.deepEqual(parseRange('bytes=-100', 1000), { start: 900, end: 999 });
    assert.deepEqual(parseRange('bytes=-5000', 1000), { start: 0, end: 999 });
  });

  it('past the end, or nothing to give, is unsatisfiable (416)', () => {
    assert.equal(parseRange('bytes=1000-', 1000), 'unsatisfiable');
    assert.equal(parseRange('bytes=-0', 1000), 'unsatisfiable');
    assert.equal(parseRange('bytes=0-', 0), 'unsatisfiable');
  });

  it('what a server may ignore is answered whole: no header, other units, several ranges, last before first', () => {
    for (const h of [undefined, 'items=0-1', 'bytes=0-1,5-6', 'bytes=9-3', 'bytes=-', 'bytes=abc']) assert.equal(parseRange(h, 1000), undefined, String(h));
  });

  it('Content-Range for a part and for a 416', () => {
    assert.equal(contentRange({ start: 0, end: 99 }, 1234), 'bytes 0-99/1234');
    assert.equal(contentRange(undefined, 1234), 'bytes */1234');
  });
});

it('a byte outcome with a range is a 206 with Content-Range and the part\'s length', () => {
  const part = Buffer.from('lo wo');
  const r = outcomeResponse({ kind: 'bytes', status: 200, body: part, contentType: 'text/plain', etag: '"{A},1"', range: { start: 3, end: 7, size: 11 } },
    'rid', 'minimal', { apiUrl: 'http://h/_api/' });
  assert.equal(r.status, 206);
  assert.equal(r.headers['Content-Range'], 'bytes 3-7/11');
  assert.equal(r.headers['Content-Length'], '5');
  assert.equal(r.headers.ETag, '"{A},1"');
  assert.equal(r.body, part);
});
