// SharePoint's error response for anything thrown while serving a request: an SpError as it
// is, a domain error through its SharePoint catalogue entry, anything else a logged 500 with
// the correlation id. Never a stack trace.

import { errors, isReportable, toSpError } from './errors.ts';
import { CONTENT_TYPES, type Dialect } from './dialect.ts';
import { serializerFor } from './serializer.ts';
import { standardHeaders } from './headers.ts';

/** The part of a logger this needs (fastify's request logger fits). */
export interface Logger {
  error(details: object, message: string): void;
}

export interface ErrorResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: string;
  requestId: string;
}

export function errorResponse(e: unknown, requestId: string, dialect: Dialect, log: Logger, url: string): ErrorResponse {
  if (!isReportable(e)) log.error({ err: e, requestId, url }, 'unhandled error');
  const err = isReportable(e) ? toSpError(e) : errors.internal(requestId);
  return {
    status: err.status, requestId, body: serializerFor(dialect).error(err),
    headers: { ...standardHeaders(requestId, dialect), ...err.headers, 'Content-Type': CONTENT_TYPES[dialect] },
  };
}
