// The ProjectData feed's own pipeline, entered from the `/_api` route for paths that start
// with `ProjectData`. It is a WCF Data Service, not SharePoint's `_api`: other formats
// (Atom by default), other errors, read-only. Stages, top to bottom:
// context → dispatch → authorize → method → parse → execute → serialize → error.

import type { FastifyBaseLogger } from 'fastify';
import type { Site } from '../../domain/model.ts';
import type { Store } from '../../store/store.ts';
import type { Authenticator, Identity } from '../../pipeline/authenticate.ts';
import type { ApiRequest, ApiResponse } from '../../pipeline/request.ts';
import { newRequestId, standardHeaders } from '../../wire/headers.ts';
import { DomainError } from '../../domain/errors.ts';
import { PdError } from './errors.ts';
import { errorFormat, negotiateFormat, PD_CONTENT_TYPES, type PdFormat } from './format.ts';
import { parsePdRequest } from './request.ts';
import { runPdRequest, type PdResult } from './execute.ts';
import { rawValueText, writeJson, writeJsonError } from './json.ts';
import { writeMetadata } from './metadata.ts';
import { writeAtomEntry, writeAtomFeed, writeAtomProperty, writeServiceDocument, writeXmlError } from './atom.ts';
import type { PdSiteOptions } from '../../store/projectdata.ts';
import { urlPrefix } from '../../domain/names.ts';

export interface PdDeps {
  store: Store;
  authenticator: Authenticator;
  clock: () => Date;
}

/** `sitePath` is the decoded site URL; `apiPath` the path after `/_api/` (starting with ProjectData). */
export async function respondProjectData(
  request: ApiRequest, identity: Identity, sitePath: string, apiPath: string, deps: PdDeps, log: FastifyBaseLogger,
): Promise<ApiResponse> {
  // context: a correlation id; the format comes once the query is parsed, errors before that follow Accept.
  const requestId = newRequestId();
  const rawQuery = request.url.includes('?') ? request.url.slice(request.url.indexOf('?') + 1) : '';
  let format: PdFormat = errorFormat(request.headers.accept, rawFormat(rawQuery));
  try {
    // dispatch: the PWA site; a site without ProjectData has no such segment.
    const site = await deps.store.sites.byUrl(sitePath);
    const siteOptions = site && await deps.store.projectData.options(site.id);
    if (!site || !siteOptions) throw PdError.notFound('ProjectData');

    // authorize: the site's owners and members, and the configured reporting readers (Project's SharePoint permission mode).
    await authorizeReader(site, identity, siteOptions, deps);

    // method: the feed is read-only. HEAD is a GET without the body (Node leaves the body out).
    if (request.method !== 'GET' && request.method !== 'HEAD') throw PdError.readOnly(request.method);

    // parse: the path below ProjectData and the OData v3 query options; then the response format.
    const parsed = parsePdRequest(apiPath, rawQuery);
    // `$count`, `$value` and `$metadata` answer text or XML whatever was asked (`Accept: text/plain` is
    // the protocol's own example for $count): the negotiated format then only shapes errors.
    const { target } = parsed;
    const fixed = target.kind === 'metadata' || (target.kind === 'resource' && (target.count || target.value));
    format = fixed ? tryNegotiate(request.headers.accept, parsed.options.format) ?? format : negotiateFormat(request.headers.accept, parsed.options.format);

    // execute: resolve sets, keys and navigation; one page query.
    const baseUrl = `${request.origin}${urlPrefix(site.url)}/_api/ProjectData/${parsed.locale ? `[${parsed.locale}]/` : ''}`;
    const schema = await deps.store.projectData.schema(site.id);
    const result = await runPdRequest(parsed, { store: deps.store.projectData, siteId: site.id, site: siteOptions, schema, baseUrl });

    // serialize: the result in the negotiated format.
    const { body, contentType, version } = serialize(result, format, { baseUrl, dates: siteOptions.dates, updated: deps.clock() });
    return { status: 200, requestId, body, headers: { ...headers(requestId, version), 'Content-Type': contentType } };
  } catch (e) {
    // error: WCF DS's error body in the response format; never a stack trace.
    return errorResponse(e, requestId, format, log, request.url);
  }
}

function tryNegotiate(accept: string | undefined, format: string | undefined): PdFormat | undefined {
  try {
    return negotiateFormat(accept, format);
  } catch {
    return undefined;
  }
}

/** `$format` as sent, read before the query is parsed, so that errors the parse finds follow it too. */
function rawFormat(rawQuery: string): string | undefined {
  for (const pair of rawQuery.split('&')) {
    const [name = '', value = ''] = pair.split('=', 2);
    if (name.toLowerCase() !== '$format') continue;
    try {
      return decodeURIComponent(value.replaceAll('+', ' '));
    } catch {
      return undefined;
    }
  }
  return undefined;
}

async function authorizeReader(site: Site, identity: Identity, options: PdSiteOptions, deps: PdDeps): Promise<void> {
  let role: string | undefined;
  try {
    role = (await deps.authenticator.authorize(site, identity)).role;
  } catch (e) {
    if (!(e instanceof DomainError) || e.kind !== 'forbidden') throw e;
  }
  if (role === 'owner' || role === 'member') return;
  // An app-only caller is a reader only through its role.
  if (!identity.user) throw PdError.forbidden();
  const readers = new Set(options.readers.map((r) => r.toLowerCase()));
  if (readers.has(identity.user.upn.toLowerCase())) return;
  const groups = await deps.store.directory.groupsOf(identity.user.upn);
  if (groups.some((g) => readers.has(g.id.toLowerCase()) || readers.has(g.displayName.toLowerCase()))) return;
  throw PdError.forbidden();
}

interface Serialized {
  body: string;
  contentType: string;
  /** DataServiceVersion of the response: 3.0 for JSON light, 2.0 where a count or next link needs it, else 1.0. */
  version: string;
}

function serialize(result: PdResult, format: PdFormat, ctx: { baseUrl: string; dates: 'online' | 'onprem'; updated: Date }): Serialized {
  if (result.kind === 'metadata') return { body: writeMetadata(result.sets), contentType: PD_CONTENT_TYPES.xml, version: '3.0;' };
  if (result.kind === 'count') return { body: String(result.count), contentType: PD_CONTENT_TYPES.text, version: '2.0;' };
  if (result.kind === 'property' && result.raw) return { body: rawValueText(result.property, result.value), contentType: PD_CONTENT_TYPES.text, version: '1.0;' };
  const paged = result.kind === 'feed' && (result.count !== undefined || result.nextLink !== undefined);
  const version = format === 'verbose' || format === 'atom' ? (paged ? '2.0;' : '1.0;') : '3.0;';
  if (format !== 'atom') return { body: writeJson(result, format, ctx), contentType: PD_CONTENT_TYPES[format], version };
  switch (result.kind) {
    case 'service': return { body: writeServiceDocument(ctx.baseUrl, result.sets.map((s) => s.name)), contentType: PD_CONTENT_TYPES.service, version };
    case 'feed': return {
      body: writeAtomFeed({ baseUrl: ctx.baseUrl, set: result.set, rows: result.rows, selected: result.projection.properties, navigations: result.projection.navigations, updated: ctx.updated, count: result.count, nextLink: result.nextLink, feedPath: result.feedPath }),
      contentType: PD_CONTENT_TYPES.feed, version,
    };
    case 'entry': return {
      body: writeAtomEntry({ baseUrl: ctx.baseUrl, set: result.set, row: result.row, selected: result.projection.properties, navigations: result.projection.navigations, updated: ctx.updated }),
      contentType: PD_CONTENT_TYPES.entry, version,
    };
    case 'property': return { body: writeAtomProperty(result.property, result.value), contentType: PD_CONTENT_TYPES.xml, version };
  }
}

function headers(requestId: string, version: string): Record<string, string> {
  const base = standardHeaders(requestId, undefined);
  delete base.DATASERVICEVERSION;
  return { ...base, DataServiceVersion: version };
}

function errorResponse(e: unknown, requestId: string, format: PdFormat, log: FastifyBaseLogger, url: string): ApiResponse {
  // The store reports bad filters and an unavailable database as domain failures: WCF DS's status and body for their kind.
  const error = e instanceof PdError ? e : e instanceof DomainError ? fromDomain(e) : undefined;
  if (!error) log.error({ err: e, requestId, url }, 'unhandled error');
  const err = error ?? new PdError(500, `An error occurred while processing this request. Correlation id: ${requestId}.`);
  const body = format === 'atom' ? writeXmlError(err.message) : writeJsonError(err.message, format);
  const contentType = format === 'atom' ? PD_CONTENT_TYPES.xml : PD_CONTENT_TYPES[format];
  return { status: err.status, requestId, body, headers: { ...headers(requestId, '1.0;'), ...err.headers, 'Content-Type': contentType } };
}

const STATUS_OF_KIND: Record<DomainError['kind'], number> = {
  invalid: 400, notFound: 404, conflict: 409, preconditionFailed: 412, unauthenticated: 401, forbidden: 403, limitExceeded: 500, unavailable: 503,
};

function fromDomain(e: DomainError): PdError {
  const headers: Record<string, string> = e.reason === 'serviceUnavailable' ? { 'Retry-After': String(e.args[0]) } : {};
  return new PdError(STATUS_OF_KIND[e.kind], e.message, headers);
}
