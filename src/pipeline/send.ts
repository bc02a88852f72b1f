// The last step of a front's HTTP route: the response written, and the one log line every
// request gets, with the same fields whichever front answered. A fault rule may have asked
// for the connection to be dropped instead, or the body cut short (pipeline/throttle/).

import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiResponse } from './request.ts';

/** Log levels that leave out the per-request line (`info`): it is not even built then. */
const QUIET: ReadonlySet<string> = new Set(['warn', 'error', 'fatal', 'silent']);

/**
 * Sends `response` and logs the request: its id, method, path (without the query string),
 * status and the milliseconds since `started` (`process.hrtime.bigint()` when it arrived).
 */
export function sendResponse(req: FastifyRequest, reply: FastifyReply, response: ApiResponse, started: bigint): void {
  const delivery = response.delivery;
  if (delivery?.kind === 'drop') dropConnection(req, reply);
  else if (delivery?.kind === 'truncate') sendTruncated(req, reply, response, delivery.bytes);
  else if (response.body instanceof Readable) reply.code(response.status).headers(response.headers).send(response.body);
  else writeWhole(req, reply, response.status, response.headers, response.body);
  if (QUIET.has(req.log.level)) return;
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  req.log.info({
    requestId: response.requestId, method: req.method, url: req.url.split('?')[0], status: delivery?.kind === 'drop' ? 'dropped' : response.status,
    ms: Math.round(ms * 10) / 10, ...(delivery?.kind === 'truncate' ? { truncated: delivery.bytes } : {}),
  }, 'request');
}

/**
 * An answer held whole (text, bytes or none), written to node directly with its headers as one
 * flat list: node then takes them as they are, where a header object costs a setHeader each —
 * about a third of a small answer's CPU (docs/benchmarks.md, fifth step). What fastify's send
 * would do is done here the same way: a header named twice in different cases is sent once
 * (the last value); a default Content-Type; Content-Length from the body (a HEAD keeps the one
 * it was given), `0` for no body but on 204 and 304; no Content-Type or Content-Length, and no
 * body, on 1xx and 204.
 */
function writeWhole(req: FastifyRequest, reply: FastifyReply, status: number, headers: ApiResponse['headers'], body: string | Buffer | undefined): void {
  reply.hijack();
  const byName = new Map<string, readonly [string, string | string[]]>();
  for (const name in headers) byName.set(name.toLowerCase(), [name, headers[name]!]);
  const head = req.method === 'HEAD';
  if (body === undefined) {
    if (status >= 200 && status !== 204 && status !== 304 && !head) byName.set('content-length', ['Content-Length', '0']);
  } else if (status < 200 || status === 204) {
    byName.delete('content-type');
    byName.delete('content-length');
    body = undefined;
  } else {
    if (!byName.has('content-type')) byName.set('content-type', ['Content-Type', typeof body === 'string' ? 'text/plain; charset=utf-8' : 'application/octet-stream']);
    const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
    const given = byName.get('content-length')?.[1];
    if (!given || (!head && Number(given) !== length)) byName.set('content-length', ['Content-Length', String(length)]);
  }
  const flat: string[] = [];
  for (const [name, value] of byName.values()) {
    if (Array.isArray(value)) for (const v of value) flat.push(name, v);
    else flat.push(name, value as string);
  }
  reply.raw.writeHead(status, flat);
  reply.raw.end(body);
}

/** No answer at all: the socket is destroyed, as a connection reset by the server looks to a client. */
export function dropConnection(req: FastifyRequest, reply: FastifyReply): void {
  reply.hijack();
  req.raw.socket.destroy();
}

/** The status and headers as they would be (a Content-Length of the whole body), `bytes` of the body, then the socket destroyed. */
function sendTruncated(req: FastifyRequest, reply: FastifyReply, response: ApiResponse, bytes: number): void {
  reply.hijack();
  const res = reply.raw;
  const body = response.body;
  const cut = () => req.raw.socket.destroy();
  if (body instanceof Readable) {
    res.writeHead(response.status, response.headers);
    let left = bytes;
    body.on('data', (chunk: Buffer) => {
      if (left <= 0) return;
      res.write(chunk.subarray(0, left));
      left -= chunk.length;
      if (left <= 0) { body.destroy(); res.once('finish', cut); setImmediate(cut); }
    });
    body.on('end', () => setImmediate(cut));
    body.on('error', cut);
    return;
  }
  const whole = typeof body === 'string' ? Buffer.from(body, 'utf8') : body ?? Buffer.alloc(0);
  res.writeHead(response.status, { ...response.headers, 'Content-Length': String(whole.length) });
  // Written, then cut once it has left: the client reads exactly `bytes` before the reset.
  res.write(whole.subarray(0, Math.min(bytes, whole.length)), () => setImmediate(cut));
}
