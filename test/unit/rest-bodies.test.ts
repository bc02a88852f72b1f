// The REST pipeline's body dispatch and byte answers, without a server: which body kind the
// resolver plans for a method or verb, what each kind hands the handler, and how a byte
// outcome is sent alone (as is, a Readable not buffered) and inside a `$batch` part.

import { it } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { outcomeResponse, partResponse, readBody } from '../../src/fronts/rest/pipeline.ts';
import { resolve } from '../../src/fronts/rest/api/resolve.ts';
import type { ApiContext } from '../../src/fronts/rest/api/context.ts';
import type { Outcome } from '../../src/fronts/rest/api/outcome.ts';
import { parseApiPath } from '../../src/odata/path.ts';
import { SpError } from '../../src/wire/errors.ts';
import { writeBatchResponse } from '../../src/fronts/rest/batch/write.ts';
import type { ApiRequest } from '../../src/pipeline/request.ts';
import { RequestBody } from '../../src/pipeline/body.ts';

const NOT_UTF8_NOR_JSON = Buffer.from([0xff, 0xfe, 0x00, 0x7b, 0xc0, 0x80, 0x22, 0x0d, 0x0a]);

const request = (body: Buffer | undefined, contentType?: string): ApiRequest => ({
  method: 'POST', url: '/sites/dev/_api/x', origin: 'http://h', headers: contentType ? { 'content-type': contentType } : {},
  // As the HTTP route has it: the request stream, not read yet.
  body: RequestBody.fromRequest(body === undefined ? undefined : Readable.from([body]), body ? String(body.length) : undefined, 1 << 20),
});

async function spError(fn: () => Promise<unknown>): Promise<SpError> {
  try {
    await fn();
  } catch (e) {
    assert.ok(e instanceof SpError, String(e));
    return e;
  }
  assert.fail('no error');
}

it('raw: the exact bytes, never parsed nor checked for their content type', async () => {
  for (const contentType of ['application/json', 'application/json;odata=verbose', 'text/html', undefined]) {
    const fields = await readBody('raw', request(NOT_UTF8_NOR_JSON, contentType));
    assert.ok(fields.rawBody);
    assert.ok(fields.rawBody.equals(NOT_UTF8_NOR_JSON));
    assert.equal(fields.body, undefined);
    assert.equal(fields.verboseBody, false);
  }
  assert.equal((await readBody('raw', request(undefined))).rawBody, undefined);
});

it('stream: a Readable of the exact bytes', async () => {
  const fields = await readBody('stream', request(NOT_UTF8_NOR_JSON, 'application/json'));
  assert.ok(fields.bodyStream instanceof Readable);
  assert.ok((await buffer(fields.bodyStream)).equals(NOT_UTF8_NOR_JSON));
  assert.equal((await buffer((await readBody('stream', request(undefined))).bodyStream!)).length, 0);
});

it('none: whatever was sent is ignored (and not read)', async () => {
  assert.deepEqual(await readBody('none', request(NOT_UTF8_NOR_JSON, 'text/html')), { body: undefined, verboseBody: false });
});

it('json: parsed, BOM stripped, verbose detected; SharePoint\'s 400 and 415 otherwise', async () => {
  const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}')]);
  assert.deepEqual(await readBody('json', request(bom, 'application/json')), { body: { a: 1 }, verboseBody: false });
  assert.deepEqual(await readBody('json', request(Buffer.from('{"a":1}'), 'application/json; odata = verbose')), { body: { a: 1 }, verboseBody: true });
  assert.deepEqual(await readBody('json', request(Buffer.from('[1]'), 'text/plain')), { body: [1], verboseBody: false });
  assert.deepEqual(await readBody('json', request(Buffer.from('  \r\n'), 'text/html')), { body: undefined, verboseBody: false });
  assert.deepEqual(await readBody('json', request(undefined)), { body: undefined, verboseBody: false });
  const invalid = await spError(() => readBody('json', request(NOT_UTF8_NOR_JSON, 'application/json')));
  assert.equal(invalid.status, 400);
  assert.equal(invalid.code, '-1, Microsoft.SharePoint.Client.InvalidClientQueryException');
  assert.match(invalid.message, /^Invalid JSON\. /);
  const html = await spError(() => readBody('json', request(Buffer.from('{}'), 'text/html')));
  assert.equal(html.status, 415);
  assert.equal(html.message, "The content type 'text/html' is not supported. Send JSON (application/json).");
});

// A context enough for resolving paths that touch no store (but the permission scopes: none): the web, the people manager.
const ctx = {
  // A site where nothing has unique permissions: the caller's site role decides.
  site: { id: 's' }, store: { roleAssignments: { scopes: async () => new Map() } },
  web: { id: 'w' }, principal: { role: 'owner' }, body: undefined, verboseBody: false,
} as unknown as ApiContext;
const plan = (path: string, verb: Parameters<typeof resolve>[1]) => resolve(parseApiPath(path, new Map()), verb, ctx);

it('the resolver plans the body the final method or verb declares', async () => {
  assert.equal((await plan('SP.UserProfiles.PeopleManager/SetMyProfilePicture', 'POST')).body, 'raw');
  assert.equal((await plan('SP.UserProfiles.PeopleManager/SetSingleValueProfileProperty', 'POST')).body, 'json');
  assert.equal((await plan('lists', 'POST')).body, 'json');
  assert.equal((await plan('web', 'GET')).body, 'none');
});

it('a raw method gets the exact bytes the pipeline read for it, as a picture (not as JSON)', async () => {
  const user = { upn: 'alice@contoso.com' };
  const withUser = { ...ctx, principal: { role: 'visitor', upn: user.upn }, store: { directory: { findUser: async () => user }, roleAssignments: { scopes: async () => new Map() } } } as unknown as ApiContext;
  const p = await resolve(parseApiPath('SP.UserProfiles.PeopleManager/SetMyProfilePicture', new Map()), 'POST', withUser);
  const fields = await readBody(p.body, request(NOT_UTF8_NOR_JSON, 'application/json'));
  let seen: Buffer | undefined;
  const withBody = { ...withUser, ...fields };
  Object.defineProperty(withBody, 'rawBody', { get: () => (seen = fields.rawBody) });
  // Not an image: refused by the picture check, which had the bytes exactly as sent.
  await assert.rejects(p.run(withBody), (e: unknown) => e instanceof SpError && e.status === 400 && !/Invalid JSON/.test(e.message));
  assert.ok(seen?.equals(NOT_UTF8_NOR_JSON));
});

const STANDARD = { apiUrl: 'http://h/_api/' };

it('a byte outcome is sent as is: its content type, length and ETag, no serializer', () => {
  const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff]);
  const outcome: Outcome = { kind: 'bytes', status: 200, body: bytes, contentType: 'image/png', etag: '"{1},2"', headers: { 'Cache-Control': 'no-cache' } };
  const r = outcomeResponse(outcome, 'rid', 'minimal', STANDARD);
  assert.equal(r.status, 200);
  assert.equal(r.body, bytes);
  assert.equal(r.headers['Content-Type'], 'image/png');
  assert.equal(r.headers['Content-Length'], '5');
  assert.equal(r.headers.ETag, '"{1},2"');
  assert.equal(r.headers['Cache-Control'], 'no-cache');
  assert.equal(r.headers.SPRequestGuid, 'rid');
});

it('a Readable byte outcome stays the same Readable (piped, not buffered); its length only when known', () => {
  const stream = Readable.from([Buffer.from('a'), Buffer.from('b')]);
  const r = outcomeResponse({ kind: 'bytes', status: 200, body: stream, contentType: 'application/octet-stream', length: 2 }, 'rid', 'v4-minimal', STANDARD);
  assert.equal(r.body, stream);
  assert.equal(r.headers['Content-Length'], '2');
  const unknown = outcomeResponse({ kind: 'bytes', status: 200, body: Readable.from([]), contentType: 'text/plain' }, 'rid', 'minimal', STANDARD);
  assert.equal(unknown.headers['Content-Length'], undefined);
});

it('payload and empty outcomes are answered as before', () => {
  const empty = outcomeResponse({ status: 204 }, 'rid', 'minimal', STANDARD);
  assert.equal(empty.body, undefined);
  assert.equal(empty.headers['Content-Type'], undefined);
  const json = outcomeResponse({ status: 200, payload: { kind: 'primitive', methodName: 'X', edmType: 'Edm.String', value: 'v' } }, 'rid', 'nometadata', STANDARD);
  assert.match(String(json.headers['Content-Type']), /^application\/json/);
  assert.equal(JSON.parse(String(json.body)).value, 'v');
});

it('inside a $batch a byte answer is buffered into its part, with its own headers only', async () => {
  const r = outcomeResponse({ kind: 'bytes', status: 200, body: Readable.from([NOT_UTF8_NOR_JSON.subarray(0, 4), NOT_UTF8_NOR_JSON.subarray(4)]), contentType: 'image/png', etag: '"e"' }, 'rid', 'minimal', STANDARD);
  const part = await partResponse(r);
  assert.ok(Buffer.isBuffer(part.body) && part.body.equals(NOT_UTF8_NOR_JSON));
  assert.deepEqual(part.headers, { 'Content-Type': 'image/png', ETag: '"e"' });
  const written = writeBatchResponse('b', [part]);
  const at = written.indexOf('CONTENT-TYPE: image/png\r\nETAG: "e"\r\n\r\n');
  assert.ok(at > 0, written.toString('latin1'));
  const start = written.indexOf('\r\n\r\n', at) + 4;
  assert.ok(written.subarray(start, start + NOT_UTF8_NOR_JSON.length).equals(NOT_UTF8_NOR_JSON));
});
