// Writes a `$batch` response as SharePoint Online does (reference §9.2): one flat part per
// request, changeset members included (no nested changesetresponse), CRLF line endings, each
// part an `application/http` message whose own header names are upper case (`CONTENT-TYPE`,
// `ETAG`, `LOCATION`). A part without a body ends at its blank line. The closing delimiter is
// followed by exactly one line break: PnPjs's parser requires it (and fails on a second one).

import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';

export interface PartResponse {
  status: number;
  /** The part's own headers (Content-Type, ETag, Location, …), not the batch's. */
  headers: Record<string, string | string[]>;
  body: string | Buffer | undefined;
}

export const newResponseBoundary = () => `batchresponse_${randomUUID()}`;

const CRLF = '\r\n';

export function writeBatchResponse(boundary: string, parts: PartResponse[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const lines = [
      `--${boundary}`,
      'Content-Type: application/http',
      'Content-Transfer-Encoding: binary',
      '',
      `HTTP/1.1 ${part.status} ${STATUS_CODES[part.status] ?? 'Unknown'}`,
    ];
    // CONTENT-TYPE first, then the rest in the order the operation set them (ETAG, LOCATION).
    const entries = Object.entries(part.headers).sort(([a], [b]) => Number(b.toLowerCase() === 'content-type') - Number(a.toLowerCase() === 'content-type'));
    for (const [name, value] of entries) {
      for (const v of Array.isArray(value) ? value : [value]) lines.push(`${name.toUpperCase()}: ${v.replace(/[\r\n]+/g, ' ')}`);
    }
    lines.push('', '');
    chunks.push(Buffer.from(lines.join(CRLF), 'utf8'));
    const body = typeof part.body === 'string' ? Buffer.from(part.body, 'utf8') : part.body;
    if (body && body.length > 0 && part.status !== 204) chunks.push(body, Buffer.from(CRLF));
  }
  chunks.push(Buffer.from(`--${boundary}--${CRLF}`));
  return Buffer.concat(chunks);
}
