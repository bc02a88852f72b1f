// Stage 1 of every front, "describe": an HTTP request as plain data. The `/_api` front and a
// `$batch` part build the same shape, so everything after this stage runs for both.

import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { RequestBody } from './body.ts';
import type { Delivery } from './throttle/gate.ts';

/** A request as the fronts take it: from an HTTP route, or one part of a `$batch`. */
export interface ApiRequest {
  method: string;
  /** Path and query exactly as sent (`/sites/dev/_api/web?$select=Title`). */
  url: string;
  /** `https://host:port`: the scheme and host the client used (pipeline/origin.ts), for absolute links in responses. */
  origin: string;
  /** Header names in lower case. */
  headers: Record<string, string | undefined>;
  /** Not read yet: each front reads it once it knows how (pipeline/body.ts). */
  body: RequestBody | undefined;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string | string[]>;
  /** A Readable is piped to the client as it comes (a `$batch` part buffers it). */
  body: string | Buffer | Readable | undefined;
  /** The correlation id of the response (SPRequestGuid). */
  requestId: string;
  /** A fault rule's doing (pipeline/throttle/): drop the connection instead of answering, or cut the body short. */
  delivery?: Delivery | undefined;
}

/** A header's first value (node gives arrays for repeated headers). */
export function firstHeader(req: FastifyRequest, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** `bodyLimit`: the most bytes the body may have (read later, counted as they come). */
export function describeRequest(req: FastifyRequest, bodyLimit: number): ApiRequest {
  const headers: Record<string, string | undefined> = {};
  for (const name of Object.keys(req.headers)) headers[name] = firstHeader(req, name);
  return {
    method: req.method, url: req.url, origin: req.publicOrigin, headers,
    body: RequestBody.fromRequest(req.body, headers['content-length'], bodyLimit),
  };
}

/** `/sites/dev/_api/web/lists` → site path `/sites/dev`, API path `web/lists` (both as sent, still encoded). */
export function splitApiUrl(pathname: string): { sitePath: string; apiPath: string } | undefined {
  const m = /^(.*?)\/_api(?:\/(.*))?$/i.exec(pathname);
  if (!m) return undefined;
  return { sitePath: m[1] || '/', apiPath: m[2] ?? '' };
}

/** The query string of a URL as sent, without the `?`. */
export function rawQueryOf(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? '' : url.slice(at + 1);
}
