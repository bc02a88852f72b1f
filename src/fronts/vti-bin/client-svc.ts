// `POST {site}/_vti_bin/client.svc/ProcessQuery`: the client-side object model (CSOM), the
// slice of it CLI for Microsoft 365 and similar clients send (csom/: request.ts reads the
// XML, execute.ts runs it over the objects of web.ts and content-types.ts, errors.ts gives
// CSOM's ErrorInfo). Stages as every front: describe, authenticate (401 challenge as
// anywhere), dispatch (the web the URL names), authorize (a role on the site), digest (as REST
// writes: cookie and Basic callers send X-RequestDigest), then execute. A query that fails,
// is refused, or asks for what spemu does not serve answers HTTP 200 with the ErrorInfo, as
// CSOM reports a failed query; never a made-up success.

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FrontDeps } from '../../pipeline/deps.ts';
import { describeRequest, type ApiResponse } from '../../pipeline/request.ts';
import { sendResponse } from '../../pipeline/send.ts';
import { DomainError } from '../../domain/errors.ts';
import { isoSeconds } from '../../domain/values.ts';
import { webAt } from '../../services/document-paths.ts';
import { Services } from '../../services/services.ts';
import { errorDialect } from '../../wire/dialect.ts';
import { errors } from '../../wire/errors.ts';
import { errorResponse } from '../../wire/error-response.ts';
import { LIBRARY_VERSION, newRequestId, standardHeaders } from '../../wire/headers.ts';
import { errorInfoOf, type ErrorInfo } from './csom/errors.ts';
import { executeCsom } from './csom/execute.ts';
import { parseCsomRequest } from './csom/request.ts';

export const PROCESS_QUERY_PATH = /\/_vti_bin\/client\.svc\/ProcessQuery$/i;

export async function serveProcessQuery(req: FastifyRequest, reply: FastifyReply, deps: FrontDeps): Promise<void> {
  const started = process.hrtime.bigint();
  const request = describeRequest(req, deps.bodyLimit);
  const requestId = newRequestId();
  const answer = (results: unknown[], errorInfo: ErrorInfo | null): ApiResponse => ({
    status: 200, requestId,
    headers: { ...standardHeaders(requestId, undefined), 'Content-Type': 'application/json; charset=utf-8' },
    body: JSON.stringify([{ SchemaVersion: '15.0.0.0', LibraryVersion: LIBRARY_VERSION, ErrorInfo: errorInfo, TraceCorrelationId: requestId }, ...results]),
  });
  let response: ApiResponse;
  try {
    const identity = await deps.authenticator.identify({ authorization: request.headers.authorization, cookie: request.headers.cookie, origin: request.origin });
    const pathname = request.url.split('?')[0]!;
    let sitePath: string;
    try {
      sitePath = decodeURIComponent(pathname.slice(0, pathname.search(PROCESS_QUERY_PATH))) || '/';
    } catch {
      throw errors.invalidExpression(pathname);
    }
    const addressed = await webAt(deps.store, sitePath);
    if (!addressed) throw errors.siteNotFound(sitePath);
    const { site, web } = addressed;
    try {
      const principal = await deps.authenticator.authorize(site, identity);
      deps.authenticator.checkWriteDigest(site, principal, request.headers['x-requestdigest']);
      const xml = (await request.body?.bytes())?.toString('utf8') ?? '';
      const parsed = parseCsomRequest(xml);
      const now = () => isoSeconds(deps.clock().getTime());
      const services = new Services(deps.store, { userId: principal.userId, now }, { maxFileSize: deps.settings.maxFileSize }, deps.settings.webhooks);
      response = answer(await executeCsom(parsed, { store: deps.store, services, site, web, principal, requestId, origin: request.origin, objects: new Map() }), null);
    } catch (e) {
      // A refusal, a failure of the domain's, or what spemu does not serve: CSOM's ErrorInfo. A
      // body past the limit, or a fault of spemu's own, keeps SharePoint's HTTP error (logged).
      const info = e instanceof DomainError && (e.kind === 'limitExceeded' || e.kind === 'unavailable' || e.kind === 'unauthenticated') ? undefined : errorInfoOf(e, requestId);
      if (!info) throw e;
      response = answer([], info);
    }
  } catch (e) {
    response = errorResponse(e, requestId, errorDialect(request.headers.accept, request.headers['odata-version']), req.log, request.url);
  }
  sendResponse(req, reply, response, started);
}
