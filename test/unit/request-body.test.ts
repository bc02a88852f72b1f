// A request body is read only when a front asks, whole or as a stream, and the server's body
// limit holds either way: before reading (Content-Length) and as the bytes arrive.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PassThrough, Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { RequestBody } from '../../src/pipeline/body.ts';
import { DomainError } from '../../src/domain/errors.ts';

const chunks = (...parts: string[]) => Readable.from(parts.map((p) => Buffer.from(p)));
const tooLarge = (limit: number) => (e: unknown) => e instanceof DomainError && e.reason === 'bodyTooLarge' && e.args[0] === limit;

describe('request bodies', () => {
  it('nothing is read until asked: the source stream stays unconsumed', async () => {
    const source = new PassThrough();
    const body = RequestBody.fromRequest(source, undefined, 100)!;
    source.write('abc');
    assert.equal(source.readableLength, 3, 'the bytes wait in the stream');
    source.end();
    assert.equal((await body.bytes())!.toString(), 'abc');
  });

  it('bytes: the whole body once (later calls get the same), undefined when empty', async () => {
    const body = RequestBody.fromRequest(chunks('ab', 'cd'), '4', 100)!;
    const first = await body.bytes();
    assert.equal(first!.toString(), 'abcd');
    assert.equal(await body.bytes(), first);
    assert.equal(await RequestBody.fromRequest(chunks(), '0', 100)!.bytes(), undefined);
    assert.equal(RequestBody.fromRequest(undefined, undefined, 100), undefined);
  });

  it('stream: the chunks as they come, without gathering them', async () => {
    const source = new PassThrough();
    const stream = RequestBody.fromRequest(source, undefined, 100)!.stream();
    source.write('first ');
    const seen: string[] = [];
    stream.on('data', (c: Buffer) => seen.push(c.toString()));
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(seen, ['first '], 'a chunk is passed on before the body has ended');
    source.end('second');
    await new Promise((r) => stream.on('end', r));
    assert.deepEqual(seen, ['first ', 'second']);
  });

  it('a declared length over the limit fails before a byte is read', async () => {
    const source = chunks('x'.repeat(10));
    await assert.rejects(RequestBody.fromRequest(source, '11', 10)!.bytes(), tooLarge(10));
    assert.throws(() => RequestBody.fromRequest(chunks('x'), '11', 10)!.stream(), tooLarge(10));
  });

  it('an undeclared (chunked) body fails once the bytes pass the limit, whole or streamed', async () => {
    await assert.rejects(RequestBody.fromRequest(chunks('12345', '67890', 'x'), undefined, 10)!.bytes(), tooLarge(10));
    await assert.rejects(buffer(RequestBody.fromRequest(chunks('12345', '67890', 'x'), undefined, 10)!.stream()), tooLarge(10));
    assert.equal((await RequestBody.fromRequest(chunks('12345', '67890'), undefined, 10)!.bytes())!.length, 10);
  });

  it('a body is read once: streaming after reading it whole replays the bytes; reading it twice as a stream is an error', async () => {
    const body = RequestBody.fromRequest(chunks('abc'), '3', 100)!;
    await body.bytes();
    assert.equal((await buffer(body.stream())).toString(), 'abc');
    const streamed = RequestBody.fromRequest(chunks('abc'), '3', 100)!;
    streamed.stream();
    assert.throws(() => streamed.stream(), /already read/);
  });

  it('a $batch part\'s body is already in memory and has no limit of its own', async () => {
    assert.equal((await RequestBody.of(Buffer.from('part'))!.bytes())!.toString(), 'part');
    assert.equal(RequestBody.of(undefined), undefined);
  });
});
