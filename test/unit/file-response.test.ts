// A file's bytes as browsers get them (pipeline/file-response.ts, pipeline/media-types.ts):
// Content-Disposition for any name, types from extensions, active content never inline, and
// a range opened as only that range.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { contentDisposition, fileResponse, type FileToSend } from '../../src/pipeline/file-response.ts';
import { isActiveContent, mediaTypeOf } from '../../src/pipeline/media-types.ts';
import type { ByteRange } from '../../src/pipeline/range.ts';

describe('file responses', () => {
  it('Content-Disposition: an ASCII fallback (quotes, backslashes, non-ASCII as _) and the exact name in filename*', () => {
    assert.equal(contentDisposition('inline', 'a.txt'), `inline; filename="a.txt"; filename*=UTF-8''a.txt`);
    assert.equal(contentDisposition('attachment', 'Ré "x"\\y (1).txt'),
      `attachment; filename="R_ _x__y (1).txt"; filename*=UTF-8''R%C3%A9%20%22x%22%5Cy%20%281%29.txt`);
  });

  it('types from the extension in any case; unknown ones are octet-stream; HTML, SVG, XML are active', () => {
    assert.equal(mediaTypeOf('Report.DOCX'), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    assert.equal(mediaTypeOf('a.JPG'), 'image/jpeg');
    assert.equal(mediaTypeOf('noext'), 'application/octet-stream');
    assert.equal(mediaTypeOf('.txt'), 'application/octet-stream', 'a leading dot is no extension, as File_x0020_Type has it');
    for (const name of ['a.html', 'a.htm', 'a.svg', 'a.xml', 'a.xhtml']) assert.ok(isActiveContent(mediaTypeOf(name)), name);
    for (const name of ['a.txt', 'a.pdf', 'a.png', 'a.js']) assert.ok(!isActiveContent(mediaTypeOf(name)), name);
  });

  it('a range is opened as that range; HEAD opens nothing', async () => {
    const opened: Array<ByteRange | undefined> = [];
    const file: FileToSend = {
      name: 'a.bin', size: 100, etag: '"{A},1"', modified: '2024-01-02T03:04:05Z',
      open: async (range) => { opened.push(range); return Readable.from([Buffer.alloc(range ? range.end - range.start + 1 : 100)]); },
      missing: () => new Error('missing'),
    };
    const request = (method: string, headers: Record<string, string | undefined>) => ({ method, headers, conditions: {} });
    const part = await fileResponse(request('GET', { range: 'bytes=10-19' }), file, 'inline', 'id');
    assert.equal(part.status, 206);
    assert.equal(part.headers['Content-Length'], '10');
    assert.deepEqual(opened, [{ start: 10, end: 19 }]);
    const head = await fileResponse(request('HEAD', {}), file, 'inline', 'id');
    assert.equal(head.status, 200);
    assert.equal(head.headers['Content-Length'], '100');
    assert.equal(head.headers['Last-Modified'], 'Tue, 02 Jan 2024 03:04:05 GMT');
    assert.equal(opened.length, 1);
  });
});
