// The HTTP front: one fastify route for everything under a site's `/_api/`, running an
// explicit pipeline you can read top to bottom. Each stage is one function call.

import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
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
import type { Authenticator } from './authenticate.ts';
import { registerUserPhoto } from './userphoto.ts';
import { registerLogin } from './login.ts';

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
function verbOf(req: FastifyRequest): Verb {
  const tunnelled = req.headers['x-http-method'];
  const method = (req.method === 'POST' && typeof tunnelled === 'string' && tunnelled.trim() ? tunnelled.trim() : req.method).toUpperCase();
  if (!VERBS.has(method)) throw errors.methodNotAllowed(method);
  return method as Verb;
}

/** Methods whose body is binary content, not JSON (PnPjs sends it labelled `application/json`): read raw, never parsed. */
const RAW_BODY_METHODS: ReadonlySet<string> = new Set(['setmyprofilepicture']);

/** The body as JSON: undefined when empty; SharePoint's errors for anything else. */
function deserializeBody(req: FastifyRequest): { body: unknown; verbose: boolean } {
  const raw = req.body as Buffer | undefined;
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
    const spError = error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? errors.bodyTooLarge(options.bodyLimit)
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

async function handleApi(req: FastifyRequest, reply: FastifyReply, options: AppOptions): Promise<void> {
  const started = process.hrtime.bigint();
  // 1. context: a correlation id, and the dialect the client reads (406 if none fits).
  const requestId = newRequestId();
  const negotiated = negotiateDialect(header(req, 'accept'), header(req, 'odata-version'));
  const dialect: Dialect = negotiated ?? errorDialect(header(req, 'accept'), header(req, 'odata-version'));
  try {
    if (!negotiated) throw errors.notAcceptable();

    // 2. authenticate: who is asking (401 when nobody provably is), before anything about the tenant is revealed.
    const identity = await options.authenticator.identify({ authorization: header(req, 'authorization'), cookie: header(req, 'cookie') });

    // 3. dispatch: which site collection, and the path below its `/_api/`.
    const host = header(req, 'host') ?? 'localhost';
    const requestUrl = new URL(req.url, `${req.protocol}://${host}`);
    const split = splitApiUrl(requestUrl.pathname);
    if (!split) throw errors.resourceNotFound();
    const sitePath = decodeURIComponent(split.sitePath);
    const site = await options.store.getSiteByUrl(sitePath);
    if (!site) throw errors.siteNotFound(sitePath);
    const web = await options.store.getWeb(site.rootWebId);
    if (!web) throw errors.siteNotFound(sitePath);

    //    authorize: who acts on this site (becomes Author/Editor of what it writes); 403 without a role here.
    const principal = await options.authenticator.authorize(site, identity);

    // 4. parse: the path into segments, the query string into OData options.
    const rawQuery = req.url.includes('?') ? req.url.slice(req.url.indexOf('?') + 1) : '';
    const { options: query, aliases } = parseRequestQuery(rawQuery);
    const segments = parsePath(split.apiPath, aliases);

    //    digest: writes need a valid X-RequestDigest (reference §6) when sent with a cookie or Basic; contextinfo, which issues them, never.
    const verb = verbOf(req);
    const contextInfo = segments.length === 1 && segments[0]!.lname === 'contextinfo';
    if (verb !== 'GET' && !contextInfo) options.authenticator.checkWriteDigest(site, principal, header(req, 'x-requestdigest'));

    // 5. deserialize: the JSON body, if any (SetMyProfilePicture takes raw image bytes).
    const rawBody = Buffer.isBuffer(req.body) ? req.body : undefined;
    const { body, verbose } = RAW_BODY_METHODS.has(segments[segments.length - 1]?.lname ?? '') ? { body: undefined, verbose: false } : deserializeBody(req);

    // 6. execute: resolve the resource chain and run the verb on it.
    const ctx: ApiContext = {
      store: options.store, site, web, principal, query, settings: options.settings, body, verboseBody: verbose, rawBody,
      now: () => isoSeconds(options.clock().getTime()), requestUrl,
      formDigest: () => ({ value: options.authenticator.issueDigest(site, principal), timeoutSeconds: options.authenticator.digestTimeoutSeconds }),
      apiUrl: `${requestUrl.origin}${site.url === '/' ? '' : site.url}/_api/`,
    };
    const outcome = await execute(segments, verb, header(req, 'if-match'), ctx);

    // 7. serialize: the payload in the client's dialect, with SharePoint's headers.
    reply.code(outcome.status).headers({ ...standardHeaders(requestId, dialect), ...outcome.headers });
    if (outcome.payload) {
      reply.header('Content-Type', CONTENT_TYPES[dialect]).send(serializerFor(dialect).write(outcome.payload, { apiUrl: ctx.apiUrl, select: query.selectText }));
    } else {
      reply.send();
    }
  } catch (e) {
    // error: SharePoint's error body in the client's dialect; never a stack trace.
    const spError = e instanceof SpError ? e : undefined;
    if (!spError) req.log.error({ err: e, requestId, url: req.url }, 'unhandled error');
    sendError(reply, spError ?? errors.internal(requestId), requestId, dialect);
  } finally {
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    req.log.info({ requestId, method: req.method, url: req.url.split('?')[0], status: reply.statusCode, ms: Math.round(ms * 10) / 10 }, 'request');
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

