// The `$batch` body reader (src/server/batch/parse.ts): what PnPjs, Microsoft's examples and the
// CLI send, and hostile bodies, which must end in our BatchParseError and nothing else, fast.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BatchParseError, MAX_BATCH_REQUESTS, multipartBoundary, parseBatch, type BatchPart, type BatchRequest } from '../../src/fronts/rest/batch/parse.ts';

const SITE = 'https://contoso.sharepoint.com/sites/s';
const CT = (b: string, quoted = false) => `multipart/mixed; boundary=${quoted ? `"${b}"` : b}`;
const buf = (lines: string[], eol: string) => Buffer.from(lines.join(eol), 'utf8');

/** PnPjs's body for a GET, a changeset of a POST and a MERGE, then a GET (reference §9.1). */
function pnpStyle(b: string, c: string): string[] {
  return [
    `--${b}`, `Content-Type: multipart/mixed; boundary="${c}"`, '',
    `--${c}`, 'Content-Type: application/http', 'Content-Transfer-Encoding: binary', '',
    `POST ${SITE}/_api/web/lists/getByTitle('T')/items HTTP/1.1`, 'accept: application/json', 'content-type: application/json;charset=utf-8', '',
    '{"Title":"x"}', '',
    `--${c}`, 'Content-Type: application/http', 'Content-Transfer-Encoding: binary', '',
    `MERGE ${SITE}/_api/web/lists/getByTitle('T')/items(1) HTTP/1.1`, 'accept: application/json', 'content-type: application/json;charset=utf-8', 'IF-Match: *', '',
    '{"Title":"y"}', '',
    `--${c}--`, '',
    `--${b}`, 'Content-Type: application/http', 'Content-Transfer-Encoding: binary', '',
    `GET ${SITE}/_api/web/lists/getByTitle('T')/items HTTP/1.1`, 'Accept: application/json', 'Content-Type: application/json;charset=utf-8', '',
    `--${b}--`, '',
  ];
}

const requests = (parts: BatchPart[]) => parts.map((p) => { assert.equal(p.kind, 'request'); return p as BatchRequest; });

/** Runs `fn`, which must throw a BatchParseError, within `ms`. */
function refuses(fn: () => unknown, pattern: RegExp, ms = 1000): void {
  const started = performance.now();
  assert.throws(fn, (e: unknown) => e instanceof BatchParseError && pattern.test(e.message));
  assert.ok(performance.now() - started < ms, `took ${performance.now() - started} ms`);
}

describe('parseBatch: what clients send', () => {
  for (const [name, eol] of [['bare LF (PnPjs)', '\n'], ['CRLF (Microsoft, CLI)', '\r\n']] as const) {
    it(`reads GETs and changesets with ${name} line endings`, () => {
      const parts = requests(parseBatch(buf(pnpStyle('batch_1', 'changeset_2'), eol), CT('batch_1')));
      assert.deepEqual(parts.map((p) => [p.method, p.changeset]), [['POST', 'changeset_2'], ['MERGE', 'changeset_2'], ['GET', undefined]]);
      assert.equal(parts[0]!.target, `${SITE}/_api/web/lists/getByTitle('T')/items`);
      assert.equal(parts[0]!.body!.toString().trim(), '{"Title":"x"}');
      assert.deepEqual(parts[1]!.headers, { accept: 'application/json', 'content-type': 'application/json;charset=utf-8', 'if-match': '*' });
      assert.equal(parts[2]!.body, undefined);
    });
  }

  it('takes quoted and unquoted boundaries, and boundary parameters in any case', () => {
    assert.equal(multipartBoundary('multipart/mixed; boundary=batch_1'), 'batch_1');
    assert.equal(multipartBoundary('multipart/mixed;boundary="batch_1"'), 'batch_1');
    assert.equal(multipartBoundary('Multipart/Mixed; charset=utf-8; BOUNDARY=batch_1'), 'batch_1');
    assert.equal(multipartBoundary('application/json'), undefined);
    assert.equal(multipartBoundary('multipart/mixed'), undefined);
    assert.equal(requests(parseBatch(buf(pnpStyle('batch_q', 'changeset_q'), '\n'), CT('batch_q', true))).length, 3);
  });

  it('keeps relative and origin-relative URLs as written, header names lower case, values as sent', () => {
    const body = buf([
      '--b', 'content-type: APPLICATION/HTTP', '', "GET web/lists/getbytitle('Tâches')?$select=Title HTTP/1.1", 'ACCEPT: application/json;odata=verbose', '',
      '--b', 'Content-Type: application/http', '', 'delete /sites/s/_api/web/lists(guid\'1\') HTTP/1.1', 'If-Match: "3"', 'X-HTTP-Method: DELETE', '',
      '--b--',
    ], '\r\n');
    const [a, b] = requests(parseBatch(body, CT('b')));
    assert.equal(a!.target, "web/lists/getbytitle('Tâches')?$select=Title");
    assert.deepEqual(a!.headers, { accept: 'application/json;odata=verbose' });
    assert.equal(b!.method, 'DELETE');
    assert.equal(b!.target, "/sites/s/_api/web/lists(guid'1')");
    assert.deepEqual(b!.headers, { 'if-match': '"3"', 'x-http-method': 'DELETE' });
  });

  it('keeps binary part bodies byte for byte', () => {
    const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff, 0x0d, 0x0a, 0x80]);
    const body = Buffer.concat([Buffer.from('--b\r\nContent-Type: application/http\r\n\r\nPOST x HTTP/1.1\r\n\r\n'), bytes, Buffer.from('\r\n--b--\r\n')]);
    assert.deepEqual(requests(parseBatch(body, CT('b')))[0]!.body, bytes);
  });

  it('ignores preamble and epilogue; an empty batch has no parts', () => {
    assert.equal(parseBatch(Buffer.from('preamble\n--b\nContent-Type: application/http\n\nGET web HTTP/1.1\n\n--b--\nepilogue\n'), CT('b')).length, 1);
    assert.deepEqual(parseBatch(Buffer.from('--b--\n'), CT('b')), []);
  });

  it('a part without a request line, or not application/http, is a bad part, not a bad batch', () => {
    const parts = parseBatch(buf([
      '--b', 'Content-Type: application/http', '', '', '',
      '--b', 'Content-Type: text/plain', '', 'hello', '',
      '--b', 'Content-Type: application/http', '', 'GET', '',
      '--b', 'Content-Type: application/http', '', 'GET web HTTP/1.1', '',
      '--b--',
    ], '\n'), CT('b'));
    assert.deepEqual(parts.map((p) => p.kind), ['bad', 'bad', 'bad', 'request']);
  });
});

describe('parseBatch: hostile bodies end in BatchParseError, fast', () => {
  const pnp = pnpStyle('batch_1', 'changeset_2').join('\n');

  it('no boundary, not multipart, or a boundary the body never uses', () => {
    refuses(() => parseBatch(Buffer.from(pnp), 'multipart/mixed'), /multipart\/mixed with a boundary/);
    refuses(() => parseBatch(Buffer.from(pnp), 'application/json'), /multipart\/mixed/);
    refuses(() => parseBatch(Buffer.from(pnp), undefined), /multipart\/mixed/);
    refuses(() => parseBatch(Buffer.from(pnp), CT('batch_other')), /no part delimited/);
    refuses(() => parseBatch(undefined, CT('b')), /no part delimited/);
  });

  it('a body truncated anywhere', () => {
    const bytes = Buffer.from(pnp);
    for (let cut = 0; cut < bytes.length - 12; cut += 7) {
      const started = performance.now();
      try {
        parseBatch(bytes.subarray(0, cut), CT('batch_1'));
        assert.fail(`a body cut at ${cut} was accepted`);
      } catch (e) {
        assert.ok(e instanceof BatchParseError, `cut at ${cut}: ${String(e)}`);
      }
      assert.ok(performance.now() - started < 100);
    }
  });

  it('changesets nested three deep, and a changeset inside a changeset', () => {
    const nested = buf([
      '--b', 'Content-Type: multipart/mixed; boundary=c1', '',
      '--c1', 'Content-Type: multipart/mixed; boundary=c2', '',
      '--c2', 'Content-Type: multipart/mixed; boundary=c3', '',
      '--c3', 'Content-Type: application/http', '', 'GET web HTTP/1.1', '', '--c3--',
      '--c2--', '--c1--', '--b--',
    ], '\n');
    refuses(() => parseBatch(nested, CT('b')), /may not contain another changeset/);
    refuses(() => parseBatch(Buffer.from('--b\nContent-Type: multipart/alternative\n\nx\n--b--\n'), CT('b')), /not a multipart\/mixed changeset/);
  });

  it(`more than ${MAX_BATCH_REQUESTS} requests (10,000 parts) → the limit error`, () => {
    const part = '--b\nContent-Type: application/http\n\nGET web HTTP/1.1\n\n';
    refuses(() => parseBatch(Buffer.from(part.repeat(10_000) + '--b--\n'), CT('b')), /more than 1000 requests/);
    const changeset = `--b\nContent-Type: multipart/mixed; boundary=c\n\n${'--c\nContent-Type: application/http\n\nPOST web HTTP/1.1\n\n'.repeat(10_000)}--c--\n--b--\n`;
    refuses(() => parseBatch(Buffer.from(changeset), CT('b')), /more than 1000 requests/);
    assert.equal(parseBatch(Buffer.from(part.repeat(MAX_BATCH_REQUESTS) + '--b--\n'), CT('b')).length, MAX_BATCH_REQUESTS);
  });

  it('binary junk, with and without delimiters in it', () => {
    let seed = 42;
    const random = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed; };
    for (let round = 0; round < 50; round++) {
      const junk = Buffer.from(Array.from({ length: 20_000 }, () => random() & 0xff));
      const withDelimiters = Buffer.concat([Buffer.from('--b\n'), junk, Buffer.from('\n--b\n'), junk]);
      for (const body of [junk, withDelimiters]) {
        try {
          parseBatch(body, CT('b'));
        } catch (e) {
          assert.ok(e instanceof BatchParseError, String(e));
        }
      }
    }
    // A long run without any line break, and a huge header line.
    refuses(() => parseBatch(Buffer.alloc(5_000_000, 0x41), CT('b')), /no part delimited/);
    const parts = parseBatch(Buffer.from(`--b\nX-Long: ${'a'.repeat(1_000_000)}\n\nGET web HTTP/1.1\n\n--b--\n`), CT('b'));
    assert.equal(parts[0]!.kind, 'request');
  });
});
