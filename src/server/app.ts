// The HTTP front: one fastify route for everything under a site's `/_api/`, running an
// explicit pipeline you can read top to bottom. Each stage is one function call.

import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { SpError, errors } from '../errors.ts';
import { execute, type Verb } from '../api/resolve.ts';
import type { ApiContext, ApiSettings } from '../api/context.ts';
import { parseApiPath } from '../odata/path.ts';
import { ODataSyntaxError } from '../odata/errors.ts';
import { CONTENT_TYPES, errorDialect, negotiateDialect, type Dialect } from '../serialize/dialect.ts';
import { serializerFor } from '../serialize/serializer.ts';
import type { Store } from '../store/store.ts';
import { isoSeconds } from '../domain/values.ts';
import { parseRequestQuery } from './query-options.ts';
import { newRequestId, standardHeaders } from './headers.ts';
import type { Authenticator, Identity } from './authenticate.ts';
import { executeBatch } from './batch/execute.ts';
import { isBatchUrl } from './batch/limits.ts';
import { newResponseBoundary, writeBatchResponse, type PartResponse } from './batch/write.ts';
import { registerUserPhoto } from './userphoto.ts';
import { registerLogin } from './login.ts';
import { isProjectDataPath } from '../projectdata/request.ts';
import { respondProjectData } from '../projectdata/http.ts';

export interface AppOptions {
  store: Store;
  authenticator: Authenticator;
  /** The workspace secret: signs the /_spemu/login session cookie. */
  secret: Uint8Array;
  settings: ApiSettings;
  bodyLimit: number;
  logLevel: string;
  clock: () => Date;
}

const VERBS: ReadonlySet<string> = new Set(['GET', 'POST', 'MERGE', 'PATCH', 'PUT', 'DELETE']);

/**
 * Largest request line plus headers, in bytes. Clients build long `$filter`s (hundreds of
 * `or`s) and SharePoint Online takes them, so spemu does too, well beyond node's 16 KiB.
 */
export const MAX_URL_BYTES = 1024 * 1024;

/** `/sites/dev/_api/web/lists` → site path `/sites/dev`, API path `web/lists`. */
function splitApiUrl(pathname: string): { sitePath: string; apiPath: string } | undefined {
  const m = /^(.*?)\/_api(?:\/(.*))?$/i.exec(pathname);
  if (!m) return undefined;
  return { sitePath: m[1] || '/', apiPath: m[2] ?? '' };
}

/** The verb a request means: X-HTTP-Method tunnels MERGE/DELETE/PUT/PATCH through POST. */
function verbOf(req: ApiRequest): Verb {
  const tunnelled = req.headers['x-http-method'];
  const method = (req.method === 'POST' && typeof tunnelled === 'string' && tunnelled.trim() ? tunnelled.trim() : req.method).toUpperCase();
  if (!VERBS.has(method)) throw errors.methodNotAllowed(method);
  return method as Verb;
}

/** Methods whose body is binary content, not JSON (PnPjs sends it labelled `application/json`): read raw, never parsed. */
const RAW_BODY_METHODS: ReadonlySet<string> = new Set(['setmyprofilepicture']);

/** The body as JSON: undefined when empty; SharePoint's errors for anything else. */
function deserializeBody(req: ApiRequest): { body: unknown; verbose: boolean } {
  const raw = req.body;
  const contentType = String(req.headers['content-type'] ?? '').toLowerCase();
  const verbose = /odata\s*=\s*verbose/.test(contentType);
  // A UTF-8 byte order mark (as .NET and PowerShell clients write it) is not part of the JSON.
  const text = raw?.toString('utf8').replace(/^\uFEFF/, '') ?? '';
  if (text.trim() === '') return { body: undefined, verbose };
  if (contentType && !contentType.includes('json') && !contentType.startsWith('text/plain')) {
    throw errors.unsupportedMediaType(contentType);
  }
  try {
    return { body: JSON.parse(text), verbose };
  } catch (e) {
    throw errors.invalidJson((e as Error).message);
  }
}

export async function createApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: options.logLevel, redact: ['req.headers.authorization', 'req.headers.cookie'] },
    // One log line per request comes from handleApi, with the correlation id SharePoint clients see.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: options.bodyLimit,
    return503OnClosing: true,
    http: { maxHeaderSize: MAX_URL_BYTES },
    routerOptions: { maxParamLength: MAX_URL_BYTES },
    // What the router refuses (malformed %-escapes, over-long paths) gets SharePoint's error body too.
    frameworkErrors: (error, req, reply) => {
      const spError = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? errors.urlTooLong(MAX_URL_BYTES)
        : errors.invalidExpression(splitApiUrl(req.url.split('?')[0]!)?.apiPath ?? req.url);
      sendError(reply, spError, newRequestId(), errorDialect(header(req, 'accept'), header(req, 'odata-version')));
    },
    clientErrorHandler,
  });
  app.addHttpMethod('MERGE', { hasBody: true });
  // Bodies are read raw: JSON parsing and its errors are SharePoint's, not fastify's.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  app.get('/_spemu/health', async () => ({ status: 'ok' }));
  registerUserPhoto(app, options);
  registerLogin(app, options);

  app.route({
    method: ['GET', 'POST', 'MERGE', 'PATCH', 'PUT', 'DELETE'],
    url: '/*',
    handler: (req, reply) => handleApi(req, reply, options),
  });

  // Methods no route serves (OPTIONS, PROPFIND, …): every path has a route, so only the verb can miss.
  app.setNotFoundHandler((req, reply) => {
    sendError(reply, errors.methodNotAllowed(req.method), newRequestId(), errorDialect(header(req, 'accept'), header(req, 'odata-version')));
  });

  // Errors raised before our handler runs (body too large, bad headers) get SharePoint's shape too.
  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, req, reply) => {
    const spError = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
      ? (isBatchUrl(req.url) ? errors.batchTooLarge(options.bodyLimit) : errors.bodyTooLarge(options.bodyLimit))
      : error instanceof SpError ? error
      : (error.statusCode ?? 500) < 500 ? errors.badArgument(error.message) : undefined;
    const requestId = newRequestId();
    if (!spError) req.log.error({ err: error, requestId }, 'unhandled error');
    sendError(reply, spError ?? errors.internal(requestId), requestId, errorDialect(header(req, 'accept'), header(req, 'odata-version')));
  });
  return app;
}

const header = (req: FastifyRequest, name: string) => {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
};

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

/** A request as the pipeline takes it: from the HTTP route, or one part of a `$batch`. */
export interface ApiRequest {
  method: string;
  /** Path and query exactly as sent (`/sites/dev/_api/web?$select=Title`). */
  url: string;
  /** `http://host:port`, for absolute links in responses. */
  origin: string;
  /** Header names in lower case. */
  headers: Record<string, string | undefined>;
  body: Buffer | undefined;
}

export interface ApiResponse {
  status: number;
  headers: Record<string, string | string[]>;
  body: string | Buffer | undefined;
  /** The correlation id of the response (SPRequestGuid). */
  requestId: string;
}

/** Who sends the request (the batch's user for its parts), and whether it is a `$batch` part. */
interface Caller {
  identity: Identity;
  inBatch: boolean;
}

async function handleApi(req: FastifyRequest, reply: FastifyReply, options: AppOptions): Promise<void> {
  const started = process.hrtime.bigint();
  // 1. describe: the request as plain data (method, URL, headers, body), as a `$batch` part is too.
  const request = describeRequest(req);
  let response: ApiResponse;
  try {
    // 2. authenticate: who is asking (401 when nobody provably is), before anything about the tenant is revealed.
    const identity = await options.authenticator.identify({ authorization: request.headers.authorization, cookie: request.headers.cookie });
    // 3. respond: everything after authentication, the same function that runs each part of a `$batch`.
    response = await respond(request, { identity, inBatch: false }, options, req.log);
  } catch (e) {
    response = errorResponse(e, newRequestId(), errorDialect(request.headers.accept, request.headers['odata-version']), req.log, request.url);
  }
  reply.code(response.status).headers(response.headers).send(response.body);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  req.log.info({ requestId: response.requestId, method: req.method, url: req.url.split('?')[0], status: response.status, ms: Math.round(ms * 10) / 10 }, 'request');
}

function describeRequest(req: FastifyRequest): ApiRequest {
  const headers: Record<string, string | undefined> = {};
  for (const name of Object.keys(req.headers)) headers[name] = header(req, name);
  return {
    method: req.method, url: req.url, origin: `${req.protocol}://${headers.host ?? 'localhost'}`, headers,
    body: Buffer.isBuffer(req.body) ? req.body : undefined,
  };
}

/**
 * The pipeline after authentication: a request in, a response out, never a throw. The HTTP
 * route calls it once per request; the `$batch` executor once per part, as the batch's user.
 */
async function respond(request: ApiRequest, caller: Caller, options: AppOptions, log: FastifyBaseLogger): Promise<ApiResponse> {
  // context: a correlation id, and the dialect the client reads (406 if none fits; a `$batch` answers multipart whatever its Accept).
  const requestId = newRequestId();
  const accept = request.headers.accept;
  const odataVersion = request.headers['odata-version'];
  const negotiated = negotiateDialect(accept, odataVersion);
  const dialect: Dialect = negotiated ?? errorDialect(accept, odataVersion);
  try {
    const pathname = request.url.split('?')[0]!;
    const split = splitApiUrl(pathname);
    const batch = !caller.inBatch && /^\$batch\/?$/i.test(split?.apiPath ?? '');
    // ProjectData is a WCF Data Service with formats, errors and rights of its own (src/projectdata/http.ts).
    if (split && isProjectDataPath(split.apiPath)) {
      return respondProjectData(request, caller.identity, decodePath(split.sitePath), split.apiPath, options, log);
    }
    if (!negotiated && !batch) throw errors.notAcceptable();

    // dispatch: which site collection, and the path below its `/_api/`.
    if (!split) throw errors.resourceNotFound();
    const sitePath = decodePath(split.sitePath);
    const site = await options.store.getSiteByUrl(sitePath);
    if (!site) throw errors.siteNotFound(sitePath);
    const web = await options.store.getWeb(site.rootWebId);
    if (!web) throw errors.siteNotFound(sitePath);

    // authorize: who acts on this site (becomes Author/Editor of what it writes); 403 without a role here.
    const principal = await options.authenticator.authorize(site, caller.identity);

    // parse: the path into segments, the query string into OData options.
    const rawQuery = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
    const { options: query, aliases } = parseRequestQuery(rawQuery);
    const segments = parsePath(split.apiPath, aliases);

    // digest: writes need a valid X-RequestDigest (reference §6) when sent with a cookie or Basic; contextinfo, which
    // issues them, never; a `$batch` is checked once as a whole, its parts not again.
    const verb = verbOf(request);
    const contextInfo = segments.length === 1 && segments[0]!.lname === 'contextinfo';
    if (verb !== 'GET' && !contextInfo && !caller.inBatch) options.authenticator.checkWriteDigest(site, principal, request.headers['x-requestdigest']);

    // batch: a `$batch` runs its parts through this same function, one by one, and answers multipart (server/batch/).
    if (batch) {
      if (verb !== 'POST') throw errors.methodNotAllowed(verb);
      const parts = await executeBatch(
        { body: request.body, contentType: request.headers['content-type'], origin: request.origin, siteUrl: site.url },
        {
          run: (part) => respond(part, { identity: caller.identity, inBatch: true }, options, log).then(partResponse),
          fail: (error, headers) => partResponse(errorResponse(error, requestId, errorDialect(headers.accept, headers['odata-version']), log, request.url)),
        },
      );
      const boundary = newResponseBoundary();
      return {
        status: 200, requestId, body: writeBatchResponse(boundary, parts),
        headers: { ...standardHeaders(requestId, dialect), 'Content-Type': `multipart/mixed; boundary=${boundary}` },
      };
    }

    // deserialize: the JSON body, if any (SetMyProfilePicture takes raw image bytes).
    const { body, verbose } = RAW_BODY_METHODS.has(segments[segments.length - 1]?.lname ?? '') ? { body: undefined, verbose: false } : deserializeBody(request);

    // execute: resolve the resource chain and run the verb on it.
    const requestUrl = new URL(`${request.origin}${request.url}`);
    const ctx: ApiContext = {
      store: options.store, site, web, principal, query, settings: options.settings, body, verboseBody: verbose, rawBody: request.body,
      now: () => isoSeconds(options.clock().getTime()), requestUrl,
      formDigest: () => ({ value: options.authenticator.issueDigest(site, principal), timeoutSeconds: options.authenticator.digestTimeoutSeconds }),
      apiUrl: `${requestUrl.origin}${site.url === '/' ? '' : site.url}/_api/`,
    };
    const outcome = await execute(segments, verb, request.headers['if-match'], ctx);

    // serialize: the payload in the client's dialect, with SharePoint's headers.
    const headers: Record<string, string | string[]> = { ...standardHeaders(requestId, dialect), ...outcome.headers };
    if (!outcome.payload) return { status: outcome.status, headers, body: undefined, requestId };
    headers['Content-Type'] = CONTENT_TYPES[dialect];
    return { status: outcome.status, headers, body: serializerFor(dialect).write(outcome.payload, { apiUrl: ctx.apiUrl, select: query.selectText }), requestId };
  } catch (e) {
    // error: SharePoint's error body in the client's dialect; never a stack trace.
    return errorResponse(e, requestId, dialect, log, request.url);
  }
}

/** SharePoint's error response for what was thrown; anything not an SpError is logged and becomes a 500 with the correlation id. */
function errorResponse(e: unknown, requestId: string, dialect: Dialect, log: FastifyBaseLogger, url: string): ApiResponse {
  const spError = e instanceof SpError ? e : undefined;
  if (!spError) log.error({ err: e, requestId, url }, 'unhandled error');
  const err = spError ?? errors.internal(requestId);
  return {
    status: err.status, requestId, body: serializerFor(dialect).error(err),
    headers: { ...standardHeaders(requestId, dialect), ...err.headers, 'Content-Type': CONTENT_TYPES[dialect] },
  };
}

/** Names of the headers every response carries: a batch part has only its own (Content-Type, ETag, Location, …). */
const BATCH_LEVEL_HEADERS = new Set([...Object.keys(standardHeaders('', 'minimal')), ...Object.keys(standardHeaders('', 'v4-minimal'))].map((h) => h.toLowerCase()));

function partResponse(response: ApiResponse): PartResponse {
  const headers = Object.fromEntries(Object.entries(response.headers).filter(([name]) => !BATCH_LEVEL_HEADERS.has(name.toLowerCase())));
  return { status: response.status, headers, body: response.body };
}

function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    throw errors.invalidExpression(path);
  }
}

function parsePath(apiPath: string, aliases: Map<string, string>) {
  try {
    return parseApiPath(apiPath, aliases);
  } catch (e) {
    if (e instanceof ODataSyntaxError) throw errors.invalidExpression(e.expression);
    throw e;
  }
}

