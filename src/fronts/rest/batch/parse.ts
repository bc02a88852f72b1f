// Reads a `$batch` request body (OData v3 batch, reference §9.1): a multipart/mixed envelope
// whose parts are either one HTTP request (`application/http`) or a changeset (a nested
// multipart/mixed of HTTP requests). Written for what real clients send: bare LF (PnPjs) or
// CRLF (Microsoft's examples, CLI), quoted or bare boundaries, header names in any case.
//
// The whole body is read before anything runs, so a batch that cannot be read is refused as
// a whole (BatchParseError → 400) and never half-applied. A part that is only wrong in itself
// (no request line, an unknown content type) becomes a `BadPart`: that part alone answers 400.
//
// The body is handled as a latin1 string (one character per byte), so binary part bodies
// survive unchanged; request lines and header values are decoded as UTF-8 afterwards.

/** Most requests (changeset members included) one batch may hold. */
export const MAX_BATCH_REQUESTS = 1000;
/** Longest boundary RFC 2046 allows. */
const MAX_BOUNDARY_LENGTH = 70;

export class BatchParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BatchParseError';
  }
}

/** One request of the batch, as if it had been sent alone. */
export interface BatchRequest {
  kind: 'request';
  method: string;
  /** The request-target as written: absolute (`https://…/_api/web`), origin-relative (`/sites/s/_api/web`) or relative to `_api/`. */
  target: string;
  /** Header names in lower case. */
  headers: Record<string, string>;
  body: Buffer | undefined;
  /** The changeset boundary when the request was inside one. */
  changeset?: string | undefined;
}

/** A part that could be delimited but not read as a request: it alone answers 400. */
export interface BadPart {
  kind: 'bad';
  message: string;
  headers: Record<string, string>;
  changeset?: string | undefined;
}

export type BatchPart = BatchRequest | BadPart;

export interface BatchLimits {
  maxRequests: number;
}

/** The boundary of a `multipart/mixed` content type, or undefined when it is not one or has none. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!contentType) return undefined;
  const [type = '', ...params] = contentType.split(';');
  if (type.trim().toLowerCase() !== 'multipart/mixed') return undefined;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'boundary') continue;
    let value = param.slice(eq + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (value === '' || value.length > MAX_BOUNDARY_LENGTH || /[\r\n"]/.test(value)) return undefined;
    return value;
  }
  return undefined;
}

/** Parses the batch body; throws BatchParseError (only) when the envelope cannot be read. */
export function parseBatch(body: Buffer | undefined, contentType: string | undefined, limits: BatchLimits = { maxRequests: MAX_BATCH_REQUESTS }): BatchPart[] {
  const boundary = multipartBoundary(contentType);
  if (!boundary) {
    throw new BatchParseError(`The content type '${contentType ?? ''}' of a batch request must be multipart/mixed with a boundary.`);
  }
  const text = (body ?? Buffer.alloc(0)).toString('latin1');
  const parts: BatchPart[] = [];
  const add = (part: BatchPart) => {
    parts.push(part);
    if (parts.length > limits.maxRequests) {
      throw new BatchParseError(`The batch holds more than ${limits.maxRequests} requests, the most one batch may hold.`);
    }
  };
  for (const entity of splitMultipart(text, boundary)) {
    const { headers, content } = readEntity(entity);
    const type = headers['content-type'];
    const changeset = multipartBoundary(type);
    if (changeset !== undefined) {
      for (const inner of splitMultipart(content, changeset)) {
        const member = readEntity(inner);
        if ((member.headers['content-type'] ?? '').trim().toLowerCase().startsWith('multipart/')) {
          throw new BatchParseError('A changeset may not contain another changeset.');
        }
        add(readRequestPart(member.headers, member.content, changeset));
      }
    } else if (type !== undefined && type.trim().toLowerCase().startsWith('multipart/')) {
      throw new BatchParseError(`The part content type '${type}' is not a multipart/mixed changeset with a boundary.`);
    } else {
      add(readRequestPart(headers, content, undefined));
    }
  }
  return parts;
}

/**
 * The entities between `--boundary` delimiter lines, up to the closing `--boundary--`. The
 * line break before a delimiter belongs to the delimiter (RFC 2046). Preamble and epilogue
 * are ignored. No delimiter, or no closing one (a truncated body): BatchParseError.
 */
function splitMultipart(text: string, boundary: string): string[] {
  const delimiter = `--${boundary}`;
  const entities: string[] = [];
  let entityStart = -1;
  let lineStart = 0;
  while (lineStart <= text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd < 0) lineEnd = text.length;
    // Fast path: only lines starting with `--` can be delimiters.
    if (text.startsWith(delimiter, lineStart)) {
      const rest = text.slice(lineStart + delimiter.length, lineEnd).replace(/[ \t\r]+$/, '');
      if (rest === '' || rest === '--') {
        if (entityStart >= 0) entities.push(text.slice(entityStart, precedingBreak(text, lineStart, entityStart)));
        if (rest === '--') return entities;
        entityStart = lineEnd + 1;
      }
    }
    lineStart = lineEnd + 1;
  }
  if (entityStart < 0) throw new BatchParseError(`The batch body holds no part delimited by '${delimiter}'.`);
  throw new BatchParseError(`The batch body ends before the closing delimiter '${delimiter}--'.`);
}

/** Where the line break before a delimiter starting at `at` begins (not before `floor`). */
function precedingBreak(text: string, at: number, floor: number): number {
  let end = at;
  if (end > floor && text[end - 1] === '\n') end--;
  if (end > floor && text[end - 1] === '\r') end--;
  return Math.max(end, floor);
}

/** MIME headers up to the first blank line (or the end), then the content. */
function readEntity(entity: string): { headers: Record<string, string>; content: string } {
  const headers: Record<string, string> = {};
  let at = 0;
  while (at < entity.length) {
    let end = entity.indexOf('\n', at);
    if (end < 0) end = entity.length;
    const line = entity.slice(at, end).replace(/\r$/, '');
    at = end + 1;
    if (line.trim() === '') return { headers, content: at <= entity.length ? entity.slice(at) : '' };
    addHeader(headers, line);
  }
  return { headers, content: '' };
}

function addHeader(headers: Record<string, string>, line: string): void {
  const colon = line.indexOf(':');
  if (colon <= 0) return;
  const name = line.slice(0, colon).trim().toLowerCase();
  if (!/^[!#$%&'*+.^_`|~0-9a-z-]+$/.test(name)) return;
  const value = utf8(line.slice(colon + 1).trim());
  headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
}

const utf8 = (latin1: string) => Buffer.from(latin1, 'latin1').toString('utf8');

/** An `application/http` part: request line, headers, blank line, body. */
function readRequestPart(partHeaders: Record<string, string>, content: string, changeset: string | undefined): BatchPart {
  const type = (partHeaders['content-type'] ?? 'application/http').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/http') {
    return { kind: 'bad', message: `The batch part content type '${partHeaders['content-type']}' is not application/http.`, headers: {}, changeset };
  }
  // Blank lines before the request line are tolerated (as OData's own reader does).
  let at = 0;
  let requestLine = '';
  while (at < content.length) {
    let end = content.indexOf('\n', at);
    if (end < 0) end = content.length;
    requestLine = content.slice(at, end).replace(/\r$/, '').trim();
    at = end + 1;
    if (requestLine !== '') break;
  }
  const { headers, content: body } = readEntity(at <= content.length ? content.slice(at) : '');
  const words = requestLine.split(/[ \t]+/);
  const version = words.length >= 3 && /^HTTP\/\d+(\.\d+)?$/i.test(words[words.length - 1]!) ? words.pop() : undefined;
  const method = words.shift() ?? '';
  const target = utf8(words.join(' '));
  if (!/^[A-Za-z]+$/.test(method) || target === '' || (version === undefined && words.length > 1)) {
    const message = requestLine === '' ? 'The batch part holds no request line.' : `The batch part's request line '${utf8(requestLine).slice(0, 200)}' is not valid.`;
    return { kind: 'bad', message, headers, changeset };
  }
  return {
    kind: 'request', method: method.toUpperCase(), target, headers,
    body: body === '' ? undefined : Buffer.from(body, 'latin1'), changeset,
  };
}
