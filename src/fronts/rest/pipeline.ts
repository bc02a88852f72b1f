// The SharePoint REST front's pipeline: everything under a site's `/_api/` (but ProjectData),
// read top to bottom, one function call per stage. `handleApi` serves an HTTP request;
// `respond`, everything after authentication, also serves each part of a `$batch`.

import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../../wire/errors.ts';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { replay, resolve, type Route, type Verb } from './api/resolve.ts';
import type { BodyKind } from './api/resource.ts';
import type { Outcome } from './api/outcome.ts';
import type { ApiContext } from './api/context.ts';
import { parseApiPath, type PathSegment } from '../../odata/path.ts';
import { cachedDialect, keepRoute, knownRoute, parsedRequest, plannedFor } from './request-cache.ts';
import { ODataSyntaxError } from '../../odata/errors.ts';
import { CONTENT_TYPES, errorDialect, type Dialect } from '../../wire/dialect.ts';
import { serializerFor } from '../../wire/serializer.ts';
import { errorResponse, type Logger } from '../../wire/error-response.ts';
import { isoSeconds } from '../../domain/values.ts';
import { parseRequestQuery } from './query-options.ts';
import { newRequestId, standardHeaders } from '../../wire/headers.ts';
import { callerKey, type Identity } from '../../pipeline/authenticate.ts';
import type { FrontDeps } from '../../pipeline/deps.ts';
import type { GateLogger } from '../../pipeline/throttle/gate.ts';
import { describeRequest, rawQueryOf, splitApiUrl, type ApiRequest, type ApiResponse } from '../../pipeline/request.ts';
import { sendResponse } from '../../pipeline/send.ts';
import { executeBatch } from './batch/execute.ts';
import { newResponseBoundary, writeBatchResponse, type PartResponse } from './batch/write.ts';
import { urlPrefix } from '../../domain/names.ts';
import { DomainError } from '../../domain/errors.ts';
import { conditionsFromHeaders, NO_CONDITIONS } from '../../services/conditions.ts';
import { contentRange } from '../../pipeline/range.ts';
import { Services } from '../../services/services.ts';
import { webAt } from '../../services/document-paths.ts';
import type { Principal, Site, Web } from '../../domain/model.ts';

const VERBS: ReadonlySet<string> = new Set(['GET', 'POST', 'MERGE', 'PATCH', 'PUT', 'DELETE']);


/** The verb a request means: X-HTTP-Method tunnels MERGE/DELETE/PUT/PATCH through POST. */
function verbOf(req: ApiRequest): Verb {
  const tunnelled = req.headers['x-http-method'];
  const method = (req.method === 'POST' && typeof tunnelled === 'string' && tunnelled.trim() ? tunnelled.trim() : req.method).toUpperCase();
  if (!VERBS.has(method)) throw errors.methodNotAllowed(method);
  return method as Verb;
}

/** The body fields of the context a handler runs with (context.ts). */
export type BodyFields = Pick<ApiContext, 'body' | 'verboseBody' | 'rawBody' | 'bodyStream'>;

/**
 * Stage "deserialize": the body as the resolved handler takes it (resource.ts `BodyKind`).
 * `json`: parsed, undefined when empty, SharePoint's errors for anything else; `raw`: the bytes
 * untouched (PnPjs labels an image `application/json`: no parse, no content-type check);
 * `stream`: the request as it arrives (pipeline/body.ts); `none`: not read at all.
 */
export async function readBody(kind: BodyKind, req: ApiRequest, streamLimit = 0): Promise<BodyFields> {
  switch (kind) {
    case 'none': return { body: undefined, verboseBody: false };
    case 'raw': return { body: undefined, verboseBody: false, rawBody: await req.body?.bytes() };
    // A stream is written on, not held: it may be as large as a file sent in one request
    // (`--max-file-size`, 250 MiB by default as SharePoint Online), which the body limit (50 MiB) would refuse.
    case 'stream': return { body: undefined, verboseBody: false, bodyStream: req.body?.stream(Math.max(req.body.limit, streamLimit)) ?? Readable.from([]) };
    case 'json': {
      const { body, verbose } = deserializeBody(req, await req.body?.bytes());
      return { body, verboseBody: verbose };
    }
  }
}

/** The body as JSON: undefined when empty; SharePoint's errors for anything else. */
function deserializeBody(req: ApiRequest, raw: Buffer | undefined): { body: unknown; verbose: boolean } {
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

/** A `$batch` envelope, read whole: over the limit is the batch's own error (SharePoint answers 400, not 413). */
async function batchBody(request: ApiRequest, limit: number): Promise<Buffer | undefined> {
  try {
    return await request.body?.bytes();
  } catch (e) {
    if (e instanceof DomainError && e.reason === 'bodyTooLarge') throw errors.batchTooLarge(limit);
    throw e;
  }
}

/** Who sends the request (the batch's user for its parts), and whether it is a `$batch` part. */
interface Caller {
  identity: Identity;
  inBatch: boolean;
}

export async function handleApi(req: FastifyRequest, reply: FastifyReply, options: FrontDeps): Promise<void> {
  const started = process.hrtime.bigint();
  // 1. describe: the request as plain data (method, URL, headers, body), as a `$batch` part is too.
  const request = describeRequest(req, options.bodyLimit);
  let response: ApiResponse;
  try {
    // 2. authenticate: who is asking (401 when nobody provably is), before anything about the tenant is revealed.
    // A proven header answers at once (no promise, so no turn of the event loop waiting on one).
    const identified = options.authenticator.identify({ authorization: request.headers.authorization, cookie: request.headers.cookie, origin: request.origin });
    const identity = identified instanceof Promise ? await identified : identified;
    // 3. respond: everything after authentication, the same function that runs each part of a `$batch`.
    response = await respond(request, { identity, inBatch: false }, options, req.log);
  } catch (e) {
    response = errorResponse(e, newRequestId(), errorDialect(request.headers.accept, request.headers['odata-version']), req.log, request.url);
  }
  sendResponse(req, reply, response, started);
}

/**
 * The pipeline after authentication: a request in, a response out, never a throw. The HTTP
 * route calls it once per request; the `$batch` executor once per part, as the batch's user.
 * First the throttling-and-faults stage (pipeline/throttle/: a part is charged and faulted alone).
 */
function respond(request: ApiRequest, caller: Caller, options: FrontDeps, log: Logger & GateLogger): Promise<ApiResponse> {
  // Not async itself: without a gate the answer is serve's own promise, not one more wrapped around it.
  return options.gate?.active ? gated(request, caller, options, log) : serve(request, caller, options, log);
}

/** respond with throttling or faults on: admitted (or refused, delayed, dropped) first. */
async function gated(request: ApiRequest, caller: Caller, options: FrontDeps, log: Logger & GateLogger): Promise<ApiResponse> {
  const admission = await options.gate!.admit(
    { method: request.method, url: request.url, headers: request.headers, upn: callerKey(caller.identity), inBatch: caller.inBatch }, log);
  if (admission.dropNow) return { status: 0, headers: {}, body: undefined, requestId: newRequestId(), delivery: { kind: 'drop' } };
  if (admission.refusal) return errorResponse(admission.refusal, newRequestId(), errorDialect(request.headers.accept, request.headers['odata-version']), log, request.url);
  const response = await serve(request, caller, options, log);
  return { ...response, headers: { ...response.headers, ...admission.headers }, delivery: admission.delivery };
}

/** Everything after the throttling stage: context, dispatch, authorize, parse, digest, batch, resolve, body, execute, serialize, error. */
async function serve(request: ApiRequest, caller: Caller, options: FrontDeps, log: Logger & GateLogger): Promise<ApiResponse> {
  // context: a correlation id, and the dialect the client reads (406 if none fits; a `$batch` answers multipart whatever its Accept).
  const requestId = newRequestId();
  const accept = request.headers.accept;
  const odataVersion = request.headers['odata-version'];
  const negotiated = cachedDialect(accept, odataVersion);
  const dialect: Dialect = negotiated ?? errorDialect(accept, odataVersion);
  try {
    // replay: a plain GET whose path only addresses, served before under the same metadata, skips
    // dispatch, parse and resolution (resolve.ts `Route`, kept in request-cache.ts); who asks is
    // authorized and checked again, and the handler reads the data, as on the first request.
    const generation = options.store.generation();
    const routable = negotiated !== undefined && !caller.inBatch && request.method === 'GET' && request.headers['x-http-method'] === undefined;
    const known = routable ? knownRoute<KnownRoute>(options.store, request.origin, request.url) : undefined;
    if (known) {
      const principal = await options.authenticator.authorize(known.site, caller.identity);
      const ctx = contextFor(request, options, known, principal);
      return outcomeResponse(await replay(known.route, ctx), requestId, dialect, { apiUrl: known.apiUrl, select: known.query.selectText });
    }

    const pathname = request.url.split('?')[0]!;
    const split = splitApiUrl(pathname);
    const batch = !caller.inBatch && /^\$batch\/?$/i.test(split?.apiPath ?? '');
    if (!negotiated && !batch) throw errors.notAcceptable();

    // dispatch: which web (and its site collection), and the path below its `/_api/`.
    if (!split) throw errors.resourceNotFound();
    const sitePath = decodePath(split.sitePath);
    const addressed = await plannedFor(options.store, `web ${sitePath}`, () => webAt(options.store, sitePath));
    if (!addressed) throw errors.siteNotFound(sitePath);
    const { site, web } = addressed;

    // authorize: who acts on this site (becomes Author/Editor of what it writes); 403 without a role here.
    const principal = await options.authenticator.authorize(site, caller.identity);

    // parse: the path into segments, the query string into OData options (once per distinct URL: request-cache.ts).
    const { segments, query, requestUrl } = parsedRequest(request.origin, request.method, request.url, () => {
      const { options: parsedQuery, aliases } = parseRequestQuery(rawQueryOf(request.url));
      return { sitePath, apiPath: split.apiPath, segments: parsePath(split.apiPath, aliases), query: parsedQuery, requestUrl: new URL(`${request.origin}${request.url}`) };
    });

    // digest: writes need a valid X-RequestDigest (reference §6) when sent with a cookie or Basic; contextinfo, which
    // issues them, never; a `$batch` is checked once as a whole, its parts not again.
    const verb = verbOf(request);
    const contextInfo = segments.length === 1 && segments[0]!.lname === 'contextinfo';
    if (verb !== 'GET' && !contextInfo && !caller.inBatch) options.authenticator.checkWriteDigest(site, principal, request.headers['x-requestdigest']);

    // batch: a `$batch` runs its parts through this same function, one by one, and answers multipart (server/batch/).
    if (batch) {
      if (verb !== 'POST') throw errors.methodNotAllowed(verb);
      const errorPart = (error: unknown, id: string, headers: Record<string, string | undefined>, url: string): PartResponse => {
        const response = errorResponse(error, id, errorDialect(headers.accept, headers['odata-version']), log, url);
        return { status: response.status, headers: partHeaders(response.headers), body: response.body as string | Buffer | undefined };
      };
      const parts = await executeBatch(
        { body: await batchBody(request, options.bodyLimit), contentType: request.headers['content-type'], origin: request.origin, siteUrl: site.url, webUrl: web.serverRelativeUrl },
        {
          run: async (part) => {
            const response = await respond(part, { identity: caller.identity, inBatch: true }, options, log);
            // A byte answer is held to be written into its part; a stream that fails while read fails the part alone.
            return partResponse(response).catch((e: unknown) => errorPart(e, response.requestId, part.headers, part.url));
          },
          fail: (error, headers) => errorPart(error, requestId, headers, request.url),
        },
      );
      const boundary = newResponseBoundary();
      return {
        status: 200, requestId, body: writeBatchResponse(boundary, parts),
        headers: { ...standardHeaders(requestId, dialect), 'Content-Type': `multipart/mixed; boundary=${boundary}` },
      };
    }

    // resolve: walk the path to the handler that answers (navigation runs now; the body is not read yet).
    const target: Addressed = { site, web, query, requestUrl, apiUrl: apiUrlOf(requestUrl, web) };
    const ctx = contextFor(request, options, target, principal);
    const plan = await resolve(segments as PathSegment[], verb, ctx);
    if (routable && plan.route) keepRoute(options.store, request.origin, request.url, generation, { ...target, route: plan.route } satisfies KnownRoute);

    // deserialize, execute: the body as the handler declares it (JSON, raw bytes, none), then the handler.
    const outcome = await plan.run({ ...ctx, ...(await readBody(plan.body, request, options.settings.maxFileSize)) });

    // serialize: the payload in the client's dialect, with SharePoint's headers; bytes as they are.
    return outcomeResponse(outcome, requestId, dialect, { apiUrl: ctx.apiUrl, select: query.selectText });
  } catch (e) {
    // error: SharePoint's error body in the client's dialect; never a stack trace.
    return errorResponse(e, requestId, dialect, log, request.url);
  }
}

/** What a request addressed, as a route kept for its URL holds it. */
interface Addressed { site: Site; web: Web; query: ApiContext['query']; requestUrl: URL; apiUrl: string }
/** A GET's route, with what dispatch and parse found for its URL. */
interface KnownRoute extends Addressed { route: Route }

/** Absolute URL of the addressed web's API root, ending in `/_api/`. */
const apiUrlOf = (requestUrl: URL, web: Web) => `${requestUrl.origin}${urlPrefix(web.serverRelativeUrl)}/_api/`;

/** What every context of one server shares (its clock as `now`, its upload limits, its digest issuer): made once per server, not per request. */
interface ServerParts { now: () => string; limits: { maxFileSize: number }; formDigest: NonNullable<ApiContext['formDigest']> }
const serverParts = new WeakMap<FrontDeps, ServerParts>();
function partsOf(options: FrontDeps): ServerParts {
  let parts = serverParts.get(options);
  if (!parts) {
    serverParts.set(options, (parts = {
      now: () => isoSeconds(options.clock().getTime()),
      limits: { maxFileSize: options.settings.maxFileSize },
      formDigest: (site, principal) => ({ value: options.authenticator.issueDigest(site, principal), timeoutSeconds: options.authenticator.digestTimeoutSeconds }),
    }));
  }
  return parts;
}

/** The request's If-Match, If-None-Match, If-Modified-Since (none on most requests: one shared empty set, nothing parsed). */
const conditionsOf = (headers: ApiRequest['headers']) =>
  (headers['if-match'] === undefined && headers['if-none-match'] === undefined && headers['if-modified-since'] === undefined
    ? NO_CONDITIONS : conditionsFromHeaders(headers));

/**
 * The context a handler runs with: the request's own parts, what it addressed, and who acts.
 * Nothing in it is a function made for the request (each costs, with tsx's names, a property
 * definition): the clock and the digest issuer are the server's.
 */
function contextFor(request: ApiRequest, options: FrontDeps, { site, web, query, requestUrl, apiUrl }: Addressed, principal: Principal): ApiContext {
  const { now, limits, formDigest } = partsOf(options);
  return {
    store: options.store, services: new Services(options.store, { userId: principal.userId, now }, limits, options.settings.webhooks),
    conditions: conditionsOf(request.headers), site, web, principal, query, settings: options.settings, body: undefined, verboseBody: false,
    now, requestUrl, formDigest, apiUrl,
  };
}

/** Stage "serialize": an outcome as the response sent (a Readable stays a Readable: piped, not buffered). */
export function outcomeResponse(outcome: Outcome, requestId: string, dialect: Dialect, write: { apiUrl: string; select?: string | undefined }): ApiResponse {
  const headers: Record<string, string | string[]> = standardHeaders(requestId, dialect);
  if (outcome.headers) Object.assign(headers, outcome.headers);
  if (outcome.kind === 'bytes') {
    headers['Content-Type'] = outcome.contentType;
    const { range } = outcome;
    const length = range ? range.end - range.start + 1 : Buffer.isBuffer(outcome.body) ? outcome.body.length : outcome.length;
    if (length !== undefined) headers['Content-Length'] = String(length);
    if (outcome.etag !== undefined) headers.ETag = outcome.etag;
    if (range) headers['Content-Range'] = contentRange(range, range.size);
    return { status: range ? 206 : outcome.status, headers, body: outcome.body, requestId };
  }
  if (!outcome.payload) return { status: outcome.status, headers, body: undefined, requestId };
  headers['Content-Type'] = CONTENT_TYPES[dialect];
  return { status: outcome.status, headers, body: serializerFor(dialect).write(outcome.payload, write), requestId };
}

/** Names of the headers every response carries: a batch part has only its own (Content-Type, ETag, Location, …). */
const BATCH_LEVEL_HEADERS = new Set([...Object.keys(standardHeaders('', 'minimal')), ...Object.keys(standardHeaders('', 'v4-minimal'))].map((h) => h.toLowerCase()));

/** A response as a `$batch` part: its own headers only, and its body held (a part is written whole, batches are small). */
export async function partResponse(response: ApiResponse): Promise<PartResponse> {
  const body = response.body instanceof Readable ? await buffer(response.body) : response.body;
  return { status: response.status, headers: partHeaders(response.headers), body };
}

/** A part's own headers: without those every response carries. */
function partHeaders(headers: ApiResponse['headers']): PartResponse['headers'] {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !BATCH_LEVEL_HEADERS.has(name.toLowerCase())));
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

