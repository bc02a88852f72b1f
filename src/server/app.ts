// The server: one fastify instance that composes the fronts (one folder and one plugin per
// protocol, src/fronts/*) over the shared stages (src/pipeline/*). Nothing here serves a
// resource; it sets fastify up the way SharePoint clients need it (raw bodies, MERGE, long
// URLs, SharePoint-shaped answers to what fastify itself refuses) and registers the fronts.

import { STATUS_CODES } from 'node:http';
import type { ServerOptions as HttpsServerOptions } from 'node:https';
import type { Socket } from 'node:net';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { SpError, errors, isReportable, toSpError } from '../wire/errors.ts';
import { CONTENT_TYPES, errorDialect, type Dialect } from '../wire/dialect.ts';
import { serializerFor } from '../wire/serializer.ts';
import { newRequestId, standardHeaders } from '../wire/headers.ts';
import type { FrontDeps } from '../pipeline/deps.ts';
import { firstHeader, splitApiUrl } from '../pipeline/request.ts';
import { SitePathRouter } from '../pipeline/site-paths.ts';
import { adminFront } from '../fronts/admin/index.ts';
import { loginFront } from '../fronts/login/index.ts';
import { identityFront } from '../fronts/identity/index.ts';
import { layoutsFront } from '../fronts/layouts/index.ts';
import { vtiBinFront } from '../fronts/vti-bin/index.ts';
import { formsFront } from '../fronts/forms/index.ts';
import { projectDataFront } from '../fronts/projectdata/index.ts';
import { linksFront } from '../fronts/links/index.ts';
import { filesFront } from '../fronts/files/index.ts';
import { restFront } from '../fronts/rest/index.ts';
import { managedIdentityFront } from '../fronts/managed-identity/index.ts';
import { isBatchUrl } from '../fronts/rest/batch/limits.ts';
import { requestOrigin, type PeerTrust } from '../pipeline/origin.ts';
import { checkHost } from './hosts.ts';

export interface AppOptions extends FrontDeps {
  logLevel: string;
  /** Serve TLS with this key and certificate (server/tls.ts); plain HTTP without. */
  https?: Pick<HttpsServerOptions, 'key' | 'cert' | 'pfx' | 'passphrase'> | undefined;
  /** `--trust-proxy`: the peers whose Forwarded / X-Forwarded-* headers are believed; none without it. */
  trustProxy?: PeerTrust | undefined;
  /** Host-named tenants: the only host names answered (server/hosts.ts); every one when undefined. */
  allowedHosts?: Set<string> | undefined;
  /** `--managed-identity`: the app (client id) or directory user (UPN) the managed-identity endpoint issues tokens for. */
  managedIdentity?: string | undefined;
}

/**
 * Largest request line plus headers, in bytes. Clients build long `$filter`s (hundreds of
 * `or`s) and SharePoint Online takes them, so spemu does too, well beyond node's 16 KiB.
 */
export const MAX_URL_BYTES = 1024 * 1024;

export async function createApp(options: AppOptions): Promise<FastifyInstance> {
  const trustProxy = options.trustProxy;
  // fastify's cast: `https` makes its instance an https.Server one; every route is the same.
  const app = Fastify({
    ...(options.https ? { https: options.https } : {}),
    // req.ip (logs) and req.protocol follow a trusted proxy's X-Forwarded-* as publicOrigin does:
    // only the immediate peer (hop 0) is ever trusted.
    trustProxy: trustProxy ? (address: string, hop: number) => hop === 0 && trustProxy(address) : false,
    logger: { level: options.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-identity-header"]'] },
    // One log line per request comes from each front, with the correlation id SharePoint clients see.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimit,
    return503OnClosing: true,
    http: { maxHeaderSize: MAX_URL_BYTES },
    routerOptions: { maxParamLength: MAX_URL_BYTES },
    // What the router refuses (malformed %-escapes, over-long paths) gets SharePoint's error body too.
    frameworkErrors: (error, req, reply) => {
      const spError = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? errors.urlTooLong(MAX_URL_BYTES)
        : errors.invalidExpression(splitApiUrl(req.url.split('?')[0]!)?.apiPath ?? req.url);
      sendError(reply, spError, newRequestId(), dialectOf(req));
    },
    clientErrorHandler,
  }) as unknown as FastifyInstance;
  // First of all: the origin every absolute URL is written with, then the host-named tenant's check.
  app.decorateRequest('publicOrigin', '');
  app.addHook('onRequest', (req, reply, done) => {
    req.publicOrigin = requestOrigin(req, trustProxy);
    if (checkHost(req, reply, options.allowedHosts)) done();
  });
  app.addHttpMethod('MERGE', { hasBody: true });
  // Bodies are not read here: each front gets the request stream and reads it once it knows
  // how (pipeline/body.ts) — the REST front after the path has resolved to a handler that
  // declares JSON, raw bytes or a stream. The body limit is counted there as bytes arrive.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_req, payload, done) => done(null, payload));

  // The fronts. Those at fixed paths add routes; those below a site's path claim requests
  // through `sitePaths`, asked in this order, SharePoint REST last (it takes the rest).
  const sitePaths = new SitePathRouter();
  await app.register(adminFront, { deps: options });
  await app.register(loginFront, { deps: options });
  await app.register(managedIdentityFront, { deps: options, identity: options.managedIdentity });
  await app.register(identityFront, { deps: options });
  await app.register(layoutsFront, { deps: options, sitePaths });
  await app.register(vtiBinFront, { deps: options, sitePaths });
  await app.register(formsFront, { deps: options, sitePaths });
  await app.register(projectDataFront, { deps: options, sitePaths });
  await app.register(linksFront, { deps: options, sitePaths });
  await app.register(filesFront, { deps: options, sitePaths });
  await app.register(restFront, { deps: options, sitePaths });
  app.route({
    method: ['GET', 'POST', 'MERGE', 'PATCH', 'PUT', 'DELETE'],
    url: '/*',
    // `return reply`: a front may have sent a stream that has not started yet; fastify must not
    // take the handler's settled promise for "nothing sent" and answer an empty body over it.
    handler: async (req, reply) => { await sitePaths.dispatch(req, reply); return reply; },
  });

  // Methods no route serves (OPTIONS, PROPFIND, …): every path has a route, so only the verb can miss.
  app.setNotFoundHandler((req, reply) => {
    sendError(reply, errors.methodNotAllowed(req.method), newRequestId(), dialectOf(req));
  });

  // Errors raised before a front runs (body too large, bad headers) get SharePoint's shape too.
  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, req, reply) => {
    const spError = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
      ? (isBatchUrl(req.url) ? errors.batchTooLarge(options.bodyLimit) : errors.bodyTooLarge(options.bodyLimit))
      : isReportable(error) ? toSpError(error)
      : (error.statusCode ?? 500) < 500 ? errors.badArgument(error.message) : undefined;
    const requestId = newRequestId();
    if (!spError) req.log.error({ err: error, requestId }, 'unhandled error');
    sendError(reply, spError ?? errors.internal(requestId), requestId, dialectOf(req));
  });
  return app;
}

const dialectOf = (req: FastifyRequest): Dialect => errorDialect(firstHeader(req, 'accept'), firstHeader(req, 'odata-version'));

/**
 * Requests node's HTTP parser refuses (headers over MAX_URL_BYTES, a request line it cannot
 * read) never reach fastify: the answer is written to the socket, in the default dialect.
 */
function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const spError = error.code === 'HPE_HEADER_OVERFLOW' ? errors.headersTooLarge(MAX_URL_BYTES)
    : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? errors.requestTimeout()
    : errors.badArgument('The request could not be read: it is not well-formed HTTP.');
  const requestId = newRequestId();
  const body = serializerFor('minimal').error(spError);
  const headers = { ...standardHeaders(requestId, 'minimal'), 'Content-Type': CONTENT_TYPES.minimal, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' };
  if (socket.writable) {
    const head = Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\r\n');
    socket.write(`HTTP/1.1 ${spError.status} ${STATUS_CODES[spError.status]}\r\n${head}\r\n\r\n${body}`);
  }
  socket.destroy(error);
}

function sendError(reply: FastifyReply, err: SpError, requestId: string, dialect: Dialect): void {
  reply.code(err.status).headers({ ...standardHeaders(requestId, dialect), ...err.headers, 'Content-Type': CONTENT_TYPES[dialect] })
    .send(serializerFor(dialect).error(err));
}
