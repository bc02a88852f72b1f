// What executing a request produces: a JSON payload the pipeline serializes in the client's
// dialect, an empty answer (status and headers), or bytes the pipeline sends as they are.

import type { Readable } from 'node:stream';
import type { Payload } from '../../../wire/values.ts';

/** A payload, serialized in the client's dialect. */
export interface PayloadOutcome {
  kind?: 'payload' | undefined;
  status: number;
  payload: Payload;
  headers?: Record<string, string> | undefined;
}

/** Status and headers only (204 No Content, …). */
export interface EmptyOutcome {
  kind?: 'empty' | undefined;
  status: number;
  payload?: undefined;
  headers?: Record<string, string> | undefined;
}

/**
 * Content sent as is (a file's `$value`, a photo): no serializer. A Readable is piped to the
 * client, never buffered (but for a `$batch` part, which must hold its body).
 */
export interface BytesOutcome {
  kind: 'bytes';
  status: number;
  payload?: undefined;
  headers?: Record<string, string> | undefined;
  body: Buffer | Readable;
  contentType: string;
  /** Content-Length of a Readable, when known (a Buffer's own length is used otherwise). */
  length?: number | undefined;
  etag?: string | undefined;
  /**
   * A part of the content (a Range request): `body` holds just those bytes, `size` is the whole
   * content's. Sent as 206 with Content-Range (pipeline/range.ts parses the request's Range).
   */
  range?: { start: number; end: number; size: number } | undefined;
}

export type Outcome = PayloadOutcome | EmptyOutcome | BytesOutcome;

export const ok = (payload: Payload, headers?: Record<string, string>): Outcome => ({ status: 200, payload, headers });
export const noContent = (headers?: Record<string, string>): Outcome => ({ status: 204, headers });

/**
 * What SharePoint answers a void action (checkout, checkin, …) and a navigation to nothing (a
 * root folder's ListItemAllFields, LockedByUser): 200 `{"odata.null":true}` (CONFIRMED, recorded SPO responses).
 */
export const voidResult = (methodName: string): Outcome => ok({ kind: 'primitive', methodName, edmType: 'Edm.Null', value: null });
