// The last step of a front's HTTP route: the response written, and the one log line every
// request gets, with the same fields whichever front answered.

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiResponse } from './request.ts';

/** Log levels that leave out the per-request line (`info`): it is not even built then. */
const QUIET: ReadonlySet<string> = new Set(['warn', 'error', 'fatal', 'silent']);

/**
 * Sends `response` and logs the request: its id, method, path (without the query string),
 * status and the milliseconds since `started` (`process.hrtime.bigint()` when it arrived).
 */
export function sendResponse(req: FastifyRequest, reply: FastifyReply, response: ApiResponse, started: bigint): void {
  reply.code(response.status).headers(response.headers).send(response.body);
  if (QUIET.has(req.log.level)) return;
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  req.log.info({ requestId: response.requestId, method: req.method, url: req.url.split('?')[0], status: response.status, ms: Math.round(ms * 10) / 10 }, 'request');
}
