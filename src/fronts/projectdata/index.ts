// Front: Project's reporting feed, `{pwa}/_api/ProjectData/…`. A WCF Data Service, not
// SharePoint REST: formats, errors and rights of its own (http.ts). Authentication is the
// shared stage; until it has passed, errors are SharePoint's (as Project Online answers a 401).

import { callerKey } from '../../pipeline/authenticate.ts';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { FrontDeps } from '../../pipeline/deps.ts';
import { describeRequest, splitApiUrl, type ApiResponse } from '../../pipeline/request.ts';
import { dropConnection, sendResponse } from '../../pipeline/send.ts';
import type { SitePathRouter } from '../../pipeline/site-paths.ts';
import { errorDialect } from '../../wire/dialect.ts';
import { errorResponse } from '../../wire/error-response.ts';
import { errors } from '../../wire/errors.ts';
import { newRequestId } from '../../wire/headers.ts';
import { respondProjectData } from './http.ts';
import { isProjectDataPath } from './request.ts';

export const projectDataFront: FastifyPluginAsync<{ deps: FrontDeps; sitePaths: SitePathRouter }> = async (_app, { deps, sitePaths }) => {
  sitePaths.add({
    name: 'projectdata',
    claims: (pathname) => {
      const split = splitApiUrl(pathname);
      return split !== undefined && isProjectDataPath(split.apiPath);
    },
    handle: (req, reply) => handle(req, reply, deps),
  });
};

async function handle(req: FastifyRequest, reply: FastifyReply, deps: FrontDeps): Promise<void> {
  const started = process.hrtime.bigint();
  // describe: the request as plain data.
  const request = describeRequest(req, deps.bodyLimit);
  const split = splitApiUrl(request.url.split('?', 1)[0]!)!;
  let response: ApiResponse;
  try {
    // authenticate: the shared stage (401 with SharePoint's challenge).
    const identity = await deps.authenticator.identify({ authorization: request.headers.authorization, cookie: request.headers.cookie, origin: request.origin });
    // The throttling-and-faults stage; its refusals are SharePoint's errors, as a 401 here is.
    const admission = deps.gate?.active ? await deps.gate.admit({ method: request.method, url: request.url, headers: request.headers, upn: callerKey(identity), inBatch: false }, req.log) : undefined;
    if (admission?.dropNow) return dropConnection(req, reply);
    if (admission?.refusal) throw admission.refusal;
    // the feed's own pipeline: dispatch, authorize, parse, execute, serialize, error.
    response = await respondProjectData(request, identity, decodeSitePath(split.sitePath), split.apiPath, deps, req.log);
    if (admission) response = { ...response, headers: { ...response.headers, ...admission.headers }, delivery: admission.delivery };
  } catch (e) {
    response = errorResponse(e, newRequestId(), errorDialect(request.headers.accept, request.headers['odata-version']), req.log, request.url);
  }
  sendResponse(req, reply, response, started);
}

function decodeSitePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    throw errors.invalidExpression(path);
  }
}
