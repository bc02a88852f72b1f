// A request's body, not yet read. fastify hands the fronts the request stream untouched
// (server/app.ts), so each front reads the body only once it knows what it wants of it:
// the REST front after the path has resolved to a handler and its declared body kind, whole
// (`bytes`) for JSON and small raw bodies, as a stream (`stream`) for uploads too large to
// hold. Either way a limit holds, counted as the bytes arrive: the server's body limit, or
// for a stream the larger limit its handler sets (a file upload's, services/documents.ts).

import { Readable } from 'node:stream';
import { fail } from '../domain/errors.ts';

export class RequestBody {
  private whole: Promise<Buffer | undefined> | undefined;
  private taken = false;

  private constructor(
    private readonly source: Readable | Buffer,
    /** Most bytes the body may have. */
    readonly limit: number,
    /** Content-Length as sent, when it was. */
    readonly declaredLength: number | undefined,
  ) {}

  /** The body of an HTTP request: `payload` as fastify passes it (undefined when the request has none). */
  static fromRequest(payload: unknown, contentLength: string | undefined, limit: number): RequestBody | undefined {
    if (Buffer.isBuffer(payload)) return new RequestBody(payload, limit, payload.length);
    if (!(payload instanceof Readable)) return undefined;
    const length = contentLength === undefined ? undefined : Number(contentLength);
    return new RequestBody(payload, limit, Number.isFinite(length) ? length : undefined);
  }

  /** A body already in memory (a `$batch` part, read with its envelope). */
  static of(bytes: Buffer | undefined): RequestBody | undefined {
    return bytes === undefined ? undefined : new RequestBody(bytes, Infinity, bytes.length);
  }

  /** The whole body (undefined when empty); reads it on the first call. Fails `bodyTooLarge` past the limit. */
  bytes(): Promise<Buffer | undefined> {
    this.whole ??= this.readWhole();
    return this.whole;
  }

  /**
   * The body as it arrives, for a handler that writes it on without holding it. Fails
   * `bodyTooLarge` (as a stream error) once more than `limit` (by default the server's body
   * limit) has come. Once only, and not after `bytes` began reading (then it streams what
   * `bytes` read).
   */
  stream(limit = this.limit): Readable {
    const whole = this.whole;
    if (whole) return Readable.from((async function* () { const bytes = await whole; if (bytes) yield bytes; })());
    this.take();
    if (Buffer.isBuffer(this.source)) return Readable.from(this.source.length ? [this.source] : []);
    this.checkDeclared(limit);
    return Readable.from(limited(this.source, limit));
  }

  private async readWhole(): Promise<Buffer | undefined> {
    this.take();
    if (Buffer.isBuffer(this.source)) return this.source.length ? this.source : undefined;
    this.checkDeclared();
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of limited(this.source, this.limit)) {
      chunks.push(chunk);
      size += chunk.length;
    }
    return size ? Buffer.concat(chunks, size) : undefined;
  }

  private take(): void {
    if (this.taken) throw new Error('the request body was already read');
    this.taken = true;
  }

  /** A Content-Length over the limit fails before anything is read. */
  private checkDeclared(limit = this.limit): void {
    if (this.declaredLength !== undefined && this.declaredLength > limit) throw fail.bodyTooLarge(limit);
  }
}

/** `source`'s chunks, failing once their total passes `limit`. */
async function* limited(source: Readable, limit: number): AsyncGenerator<Buffer> {
  let size = 0;
  for await (const chunk of source) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > limit) throw fail.bodyTooLarge(limit);
    yield buffer;
  }
}
