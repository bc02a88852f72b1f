// A file's bytes as HTTP answers them to browsers and download tools, whichever front names
// the file (its own URL, download.aspx): type from the extension, inline or attachment, the
// file's etag and time, 304 for what the client holds, one byte range as a 206 (416 past the
// end), HEAD with the headers alone. The bytes stream from the blob store, a range read as
// only that range, so no file is ever held in memory.

import { Readable } from 'node:stream';
import { isNotModified, type Conditions } from '../services/conditions.ts';
import { SHAREPOINT_BUILD } from '../wire/headers.ts';
import { isActiveContent, mediaTypeOf } from './media-types.ts';
import { contentRange, parseRange, type ByteRange } from './range.ts';
import type { ApiResponse } from './request.ts';

/** The file (or past version) to send. */
export interface FileToSend {
  name: string;
  size: number;
  /** `"{GUID},version"`, as `/_api` gives the same file. */
  etag: string;
  /** ISO time of its last change. */
  modified: string;
  /** Its bytes, or a range of them; undefined if the blob is gone. */
  open(range?: ByteRange): Promise<Readable | undefined>;
  /** The error for a file whose bytes are gone. */
  missing(): Error;
}

/** `inline`: shown in the browser if it can; `attachment`: saved. Active content is always an attachment. */
export type Disposition = 'inline' | 'attachment';

export interface FileRequest {
  method: string;
  headers: Record<string, string | undefined>;
  conditions: Conditions;
}

/** The file as the answer to `request` (GET or HEAD). */
export async function fileResponse(request: FileRequest, file: FileToSend, disposition: Disposition, requestId: string): Promise<ApiResponse> {
  const type = mediaTypeOf(file.name);
  const active = isActiveContent(type);
  const modified = new Date(file.modified);
  const headers: Record<string, string> = {
    'Cache-Control': 'private, max-age=0', SPRequestGuid: requestId, 'request-id': requestId,
    MicrosoftSharePointTeamServices: `16.0.0.${SHAREPOINT_BUILD}`, 'X-Content-Type-Options': 'nosniff',
    ETag: file.etag, 'Last-Modified': modified.toUTCString(), 'Accept-Ranges': 'bytes',
  };
  if (isNotModified(request.conditions, file.etag, modified)) return { status: 304, headers, body: undefined, requestId };

  headers['Content-Type'] = type;
  headers['Content-Disposition'] = contentDisposition(active ? 'attachment' : disposition, file.name);
  if (active || disposition === 'attachment') headers['X-Download-Options'] = 'noopen';
  // Should a browser render it anyway (a proxy dropping Content-Disposition), no script runs.
  if (active) headers['Content-Security-Policy'] = 'sandbox';

  const range = rangeAsked(request.headers, file, modified);
  if (range === 'unsatisfiable') {
    return { status: 416, headers: { ...headers, 'Content-Range': contentRange(undefined, file.size), 'Content-Length': '0' }, body: undefined, requestId };
  }
  if (range) headers['Content-Range'] = contentRange(range, file.size);
  headers['Content-Length'] = String(range ? range.end - range.start + 1 : file.size);
  const status = range ? 206 : 200;
  // HEAD: the headers alone; the blob is not opened.
  if (request.method === 'HEAD') return { status, headers, body: Readable.from([]), requestId };
  const body = await file.open(range);
  if (!body) throw file.missing();
  return { status, headers, body, requestId };
}

/**
 * The range `Range` asks for, unless `If-Range` names another representation (RFC 9110
 * §13.1.5: then the whole file is sent).
 */
function rangeAsked(headers: FileRequest['headers'], file: FileToSend, modified: Date): ByteRange | 'unsatisfiable' | undefined {
  const ifRange = headers['if-range']?.trim();
  if (ifRange !== undefined) {
    const date = ifRange.startsWith('"') || ifRange.startsWith('W/') ? NaN : Date.parse(ifRange);
    const same = Number.isNaN(date) ? ifRange === file.etag : Math.floor(modified.getTime() / 1000) <= Math.floor(date / 1000);
    if (!same) return undefined;
  }
  return parseRange(headers.range, file.size);
}

/**
 * `inline|attachment; filename="…"; filename*=UTF-8''…` (RFC 6266): the quoted name with
 * anything outside printable ASCII, and quotes and backslashes, as `_`, for old clients; the
 * exact name percent-encoded for the rest.
 */
export function contentDisposition(disposition: Disposition, name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const exact = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${disposition}; filename="${fallback}"; filename*=UTF-8''${exact}`;
}
