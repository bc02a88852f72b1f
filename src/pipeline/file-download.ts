// Serving a file outside `/_api`, as browsers and download tools fetch it, for the fronts
// that name files that way (fronts/files: a file's own URL; fronts/layouts: download.aspx).
// The stages, in order: authenticate (the same 401 challenge as `/_api`), the site from the
// URL, authorize (403 without a role there), what the URL names, the permission to read it
// (ViewListItems, ViewVersions for a past version, as the caller's level on the site grants
// them), then the bytes (file-response.ts). Errors are SharePoint's JSON error body. Besides a
// library's documents, the files of its Forms folder (services/forms-files.ts), which are no
// items: read with view rights on the library, from the database, with no versions.

import { Readable } from 'node:stream';
import { callerKey } from './authenticate.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fileEtag, placePath, urlInList } from '../domain/documents.ts';
import { fail } from '../domain/errors.ts';
import type { Item, List, Site, Web } from '../domain/model.ts';
import { requirePermission } from '../identity/permissions.ts';
import { effectivePermissions } from '../identity/effective-permissions.ts';
import { grants, type PermissionKind } from '../domain/permissions.ts';
import type { Principal } from '../domain/model.ts';
import { conditionsFromHeaders } from '../services/conditions.ts';
import { formsFileEtag } from '../services/forms-files.ts';
import type { FormsFile } from '../store/forms-files.ts';
import type { StoreReader } from '../store/store.ts';
import { errorDialect } from '../wire/dialect.ts';
import { errorResponse } from '../wire/error-response.ts';
import { newRequestId } from '../wire/headers.ts';
import type { FrontDeps } from './deps.ts';
import { fileResponse, type Disposition, type FileToSend } from './file-response.ts';
import type { ApiResponse } from './request.ts';
import { dropConnection, sendResponse } from './send.ts';
import type { Admission } from './throttle/gate.ts';

/** A file, or one of its past versions (`version`), as services/document-paths.ts finds them. */
export interface FoundDocument { list: List; item: Item; version?: Item | undefined }
/** A file of a library's Forms folder, as services/forms-files.ts finds it. */
export interface FoundFormsFile { list: List; file: FormsFile }
export type FoundFile = FoundDocument | FoundFormsFile;

const isFormsFile = (found: FoundFile): found is FoundFormsFile => 'file' in found;

/** How a front finds what a request names. Either step may throw a domain error of its own. */
export interface FileLookup {
  /** The web the URL addresses and its site collection; undefined if none. */
  web(store: StoreReader): Promise<{ site: Site; web: Web } | undefined>;
  /** The file in that web; undefined if the URL names none. */
  file(store: StoreReader, web: Web): Promise<FoundFile | undefined>;
  /** The answer to a site or file that is not there. */
  notFound(): Error;
  disposition: Disposition;
}

export async function serveFile(req: FastifyRequest, reply: FastifyReply, deps: FrontDeps, lookup: FileLookup): Promise<void> {
  const started = process.hrtime.bigint();
  const requestId = newRequestId();
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.headers)) headers[name] = Array.isArray(value) ? value[0] : value;
  let response: ApiResponse;
  let admission: Admission | undefined;
  try {
    const identity = await deps.authenticator.identify({ authorization: headers.authorization, cookie: headers.cookie, origin: req.publicOrigin });
    // The throttling-and-faults stage (a download costs 1 resource unit).
    admission = deps.gate?.active ? await deps.gate.admit({ method: req.method, url: req.url, headers, upn: callerKey(identity), inBatch: false }, req.log) : undefined;
    if (admission?.dropNow) return dropConnection(req, reply);
    if (admission?.refusal) throw admission.refusal;
    const addressed = await lookup.web(deps.store);
    if (!addressed) throw lookup.notFound();
    const { site, web } = addressed;
    const principal = await deps.authenticator.authorize(site, identity);
    const found = await lookup.file(deps.store, web);
    if (!found) throw lookup.notFound();
    await requireOnFile(deps.store, site, principal, web, found, !isFormsFile(found) && found.version ? 'ViewVersions' : 'ViewListItems');
    const file = isFormsFile(found) ? formsFileToSend(found, lookup) : toSend(found, deps, lookup);
    response = await fileResponse({ method: req.method, headers, conditions: conditionsFromHeaders(headers) }, file, lookup.disposition, requestId);
    if (admission) response = { ...response, headers: { ...response.headers, ...admission.headers }, delivery: admission.delivery };
  } catch (e) {
    response = errorResponse(e, requestId, errorDialect(headers.accept, headers['odata-version']), req.log, req.url);
  }
  sendResponse(req, reply, response, started);
}

/**
 * The caller's permission on the file itself, as `/_api` checks it (fronts/rest/api/resolve.ts):
 * from the site role where nothing in the site has unique permissions, else from the role
 * assignments that apply to the file's item (its own, its list's, its web's).
 */
async function requireOnFile(store: StoreReader, site: Site, principal: Principal, web: Web, found: FoundFile, kind: PermissionKind): Promise<void> {
  if ((await store.roleAssignments.scopes(site.id)).size === 0) return requirePermission(principal, kind);
  const listWeb = found.list.webId === web.id ? web : await store.sites.web(found.list.webId) ?? web;
  // A Forms file is no item: the library's own permissions govern it.
  const target = isFormsFile(found) ? { kind: 'list' as const, web: listWeb, list: found.list } : { kind: 'item' as const, web: listWeb, list: found.list, id: found.item.id };
  const mask = await effectivePermissions(store, site, principal, target);
  if (!grants(mask, kind)) throw fail.accessDenied();
}

function toSend(found: FoundDocument, deps: FrontDeps, lookup: FileLookup): FileToSend {
  const content = found.version ?? found.item;
  const bytes = content.file;
  if (!bytes) throw lookup.notFound();
  return {
    name: found.item.place.name ?? '', size: bytes.size, etag: fileEtag(content), modified: content.modified,
    open: (range) => deps.store.blobs.open(bytes.blobId, range),
    missing: () => fail.fileNotFound(urlInList(found.list.serverRelativeUrl, placePath(found.item.place))),
  };
}

/** A Forms file is small and held whole (services/forms-files.ts): a range is a slice of it. */
function formsFileToSend(found: FoundFormsFile, lookup: FileLookup): FileToSend {
  const { file } = found;
  return {
    name: file.name, size: file.content.byteLength, etag: formsFileEtag(file), modified: file.modified,
    open: async (range) => Readable.from([Buffer.from(range ? file.content.subarray(range.start, range.end + 1) : file.content)]),
    missing: () => lookup.notFound(),
  };
}
