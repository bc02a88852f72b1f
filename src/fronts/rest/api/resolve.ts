// Walks a parsed `/_api` path through the resource model (resource.ts) to the handler that
// answers the request (an action, or the HTTP verb on what it found): a plan the pipeline runs
// once it has read the body the handler takes.

import type { PathSegment } from '../../../odata/path.ts';
import { errors } from '../../../wire/errors.ts';
import type { ApiContext } from './context.ts';
import type { Outcome } from './outcome.ts';
import type { BodyKind, MethodDef, Resource, ResourceType, VerbHandlerName } from './resource.ts';
import { RESOURCE_TYPES } from './types/index.ts';
import { requirePermission } from '../../../identity/permissions.ts';
import { fail } from '../../../domain/errors.ts';
import type { Item, List } from '../../../domain/model.ts';
import { splitPath } from '../../../domain/documents.ts';
import { grants, type PermissionKind } from '../../../domain/permissions.ts';
import { effectivePermissions, folderSecurable, type Securable } from '../../../identity/effective-permissions.ts';

/** Names of SharePoint endpoints spemu knows of but does not serve yet: a uniform 501. */
const NOT_YET: ReadonlySet<string> = new Set([
  '$metadata', 'search', 'sp.utilities.utility',
  'alerts',
  'properties',
  'projectdata', 'sp.apps.appcatalog',
  'breakroleinheritance', 'resetroleinheritance', 'addroleassignment', 'removeroleassignment',
  'firstuniqueancestorsecurableobject', 'getparentinfos', 'deletewithparameters', 'fileversion', 'fields', 'files', 'folders',
]);

const SITE_SCRIPT_UTILITY = 'microsoft.sharepoint.utilities.webtemplateextensions.sitescriptutility';
/** A static method's segment: the class, then the method's name. */
const STATIC_METHOD = /^(sp\.movecopyutil|sp\.web|sp\.site|sp\.relateditemmanager|microsoft[._]sharepoint[._]utilities[._]webtemplateextensions[._]sitescriptutility|microsoft\.office\.server\.reputationmodel\.reputation)[._](.+)$/;

export type Verb = 'GET' | 'POST' | 'MERGE' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * Steps that only address: each reads cached metadata (the web, its lists) or nothing, never a
 * row and nothing about the caller. `root:<segment>`, `<kind>/<navigation or function>`, and
 * `<kind>()` for a key. A GET whose every step is one of these can be replayed (Route).
 */
const ADDRESSING: ReadonlySet<string> = new Set([
  'root:web', 'root:lists', 'root:site',
  'web/lists', 'lists/getbytitle', 'lists/getbyid', 'lists()',
  'list/items', 'list/fields', 'items()', 'items/getbyid',
]);

/**
 * What a GET made only of addressing steps resolved to: the resource, its `get` handler, and
 * the permission checks the walk made, in order. It depends on the URL and the metadata only,
 * so the REST front keeps it per URL while the store generation stands (request-cache.ts) and
 * replays it for any caller: the checks run again, for that caller, every time.
 */
export interface Route {
  resource: Resource;
  checks: ReadonlyArray<readonly [Resource, PermissionKind]>;
  get: (resource: Resource, ctx: ApiContext) => Promise<Outcome>;
}

/** A route resolved before, for this request's caller: its checks, then its handler (a GET: no body). */
export async function replay(route: Route, ctx: ApiContext): Promise<Outcome> {
  // Where nothing on the site has unique permissions every check is the caller's site role
  // (authorizeAt): one look at the site's scopes for all of them.
  if ((await ctx.store.roleAssignments.scopes(ctx.site.id)).size === 0) {
    for (const [, permission] of route.checks) requirePermission(ctx.principal, permission);
  } else {
    for (const [resource, permission] of route.checks) await authorizeAt(resource, permission, ctx);
  }
  // `return await`: the handler's promise is settled here, without the extra turns returning a promise costs.
  return await route.get(route.resource, ctx);
}

type AnyType = ResourceType<Resource>;
const typeOf = (r: Resource) => RESOURCE_TYPES[r.kind] as AnyType;

function unknownSegment(segment: PathSegment): never {
  throw NOT_YET.has(segment.lname) ? errors.notImplemented(segment.name) : errors.resourceNotFound();
}

async function root(segment: PathSegment, ctx: ApiContext): Promise<Resource> {
  if (segment.args !== undefined) unknownSegment(segment);
  switch (segment.lname) {
    case 'web': return { kind: 'web', web: ctx.web };
    case 'site': return { kind: 'site' };
    case 'lists': return { kind: 'lists', web: ctx.web };
    case 'sitepages': return { kind: 'sitePages', web: ctx.web };
    case 'sp.userprofiles.peoplemanager': return { kind: 'peopleManager' };
    case 'contextinfo': return { kind: 'contextInfo' };
    case 'navigation': return { kind: 'navigationService' };
    case 'sp.movecopyutil': return { kind: 'moveCopyUtil' };
    case 'sp.web': return { kind: 'webStatics' };
    case 'sp.site': return { kind: 'siteStatics' };
    case 'sp.relateditemmanager': return { kind: 'relatedItemManager' };
    case 'hubsites': return { kind: 'hubSites' };
    case 'siteiconmanager': return { kind: 'siteIconManager' };
    case SITE_SCRIPT_UTILITY: return { kind: 'siteScriptUtility' };
    case 'microsoft.office.server.reputationmodel.reputation': return { kind: 'reputation' };
    default: return unknownSegment(segment);
  }
}

/**
 * What a resolved request runs: the final method or verb handler, and the body it takes. The
 * pipeline reads the body as `body` says, then calls `run` with it on the context.
 */
export interface Plan {
  body: BodyKind;
  run(ctx: ApiContext): Promise<Outcome>;
  /** Set on a GET made only of addressing steps: the same answer for the same URL and metadata (replay). */
  route?: Route | undefined;
}

/**
 * Resolves the path (navigation, keys, functions: what addresses the resource, run now) and
 * checks the role the request needs, down to the handler that ends it: an action, or the
 * verb's handler on the resource found. The body is not read yet; nothing here uses it.
 */
export async function resolve(segments: PathSegment[], verb: Verb, ctx: ApiContext): Promise<Plan> {
  // Whether every step so far only addressed (ADDRESSING), and the checks made on the way.
  let addressing = verb === 'GET';
  const checks: Array<readonly [Resource, PermissionKind]> = [];
  const authorize = (resource: Resource, permission: PermissionKind) => {
    checks.push([resource, permission]);
    return authorizeAt(resource, permission, ctx);
  };
  // `SP.MoveCopyUtil.CopyFileByPath(…)`, `SP.Web.GetDocumentLibraries(@v)`, `SP.Site.Exists`,
  // `SP.RelatedItemManager.AddSingleLink` and
  // `Microsoft.SharePoint.Utilities.WebTemplateExtensions.SiteScriptUtility.GetSiteScripts` (its
  // dots may be underscores) and `Microsoft.Office.Server.ReputationModel.Reputation.SetRating(…)`
  // are static methods: read as the class, then the method.
  const util = STATIC_METHOD.exec(segments[0]?.lname ?? '');
  if (util) {
    addressing = false;
    const name = segments[0]!.name.slice(util[1]!.length + 1);
    const lname = util[1]!.replace(/_/g, '.');
    segments = [{ ...segments[0]!, name: lname, lname, args: undefined }, { ...segments[0]!, name, lname: util[2]! }, ...segments.slice(1)];
  }
  const [first, ...rest] = segments;
  if (!first) throw errors.resourceNotFound();
  addressing &&= ADDRESSING.has(`root:${first.lname}`);
  let resource = await root(first, ctx);
  for (let i = 0; i < rest.length; i++) {
    const segment = rest[i]!;
    const type = typeOf(resource);
    const nav = type.navigation?.[segment.lname];
    if (nav) {
      addressing &&= ADDRESSING.has(`${resource.kind}/${segment.lname}`);
      resource = await nav(resource, ctx);
      if (segment.args !== undefined) {
        const key = typeOf(resource).key;
        if (!key || segment.args.length === 0) throw errors.resourceNotFound();
        addressing &&= ADDRESSING.has(`${resource.kind}()`);
        resource = await key(resource, segment.args, ctx);
      }
      continue;
    }
    const method = type.methods?.[segment.lname] as MethodDef<Resource> | undefined;
    const last = i === rest.length - 1;
    // `deleteObject()` (gd-sprest, CSOM habits): what DELETE does to the resource, as a POSTed method.
    if (!method && segment.lname === 'deleteobject' && type.delete) {
      if (!last || verb !== 'POST') throw errors.methodNotAllowed(verb);
      const deletion = await verbPlan(resource, 'DELETE', authorize);
      return {
        body: deletion.body,
        async run(withBody) {
          await deletion.run(withBody);
          return { status: 200, payload: { kind: 'primitive', methodName: 'DeleteObject', edmType: 'Edm.Null', value: null } };
        },
      };
    }
    if (!method) unknownSegment(segment);
    // An action is POSTed; SharePoint runs one sent with `X-HTTP-Method: DELETE` too (PnPjs's
    // attachment recycle() does so, and passes against SharePoint Online).
    if (method.kind === 'action' && (!last || (verb !== 'POST' && verb !== 'DELETE'))) throw errors.methodNotAllowed(verb);
    // authorize: the permission the method declares, on the object it acts on, before it runs.
    await authorize(resource, method.permission ?? 'Open');
    addressing &&= method.kind === 'function' && ADDRESSING.has(`${resource.kind}/${segment.lname}`);
    const args = segment.args ?? [];
    if (method.kind === 'action') {
      // An action ends the path and takes the body: it runs once the body is read.
      const target = resource;
      return {
        body: method.body ?? 'json',
        async run(withBody) {
          const result = await method.invoke(target, args, withBody);
          return 'status' in result ? result : (await verbPlan(result, verb, (r, p) => authorizeAt(r, p, withBody))).run(withBody);
        },
      };
    }
    const result = await method.invoke(resource, args, ctx);
    if ('status' in result) {
      if (!last) throw errors.resourceNotFound();
      return { body: 'none', run: async () => result };
    }
    resource = result;
  }
  const plan = await verbPlan(resource, verb, authorize);
  const get = typeOf(resource).get;
  if (addressing && get) plan.route = { resource, checks, get };
  return plan;
}

const VERB_HANDLERS: Record<Verb, VerbHandlerName> = { GET: 'get', POST: 'create', MERGE: 'update', PATCH: 'update', PUT: 'update', DELETE: 'delete' };
const DEFAULT_BODIES: Record<VerbHandlerName, BodyKind> = { get: 'none', create: 'json', update: 'json', delete: 'none' };

async function verbPlan(resource: Resource, verb: Verb, authorize: (resource: Resource, permission: PermissionKind) => Promise<void>): Promise<Plan> {
  const type = typeOf(resource);
  const name = VERB_HANDLERS[verb];
  const handler = type[name];
  if (!handler) throw errors.methodNotAllowed(verb);
  // authorize: the permission the verb's handler declares (a write that declares none is refused).
  const permission = type.permissions?.[name] ?? (name === 'get' ? 'Open' : undefined);
  if (!permission) throw fail.accessDenied();
  await authorize(resource, permission);
  return { body: type.bodies?.[name] ?? DEFAULT_BODIES[name], run: (withBody) => handler(resource, withBody) };
}

/**
 * The caller's permission on the object a resource is (or is in): an item, a list, or the web.
 * A site where nothing has unique permissions answers from the caller's site role at once; where
 * something has, from the role assignments that apply to the object (identity/effective-permissions.ts).
 */
async function authorizeAt(resource: Resource, kind: PermissionKind, ctx: ApiContext): Promise<void> {
  if ((await ctx.store.roleAssignments.scopes(ctx.site.id)).size === 0) return requirePermission(ctx.principal, kind);
  const mask = await effectivePermissions(ctx.store, ctx.site, ctx.principal, await securableAt(resource, ctx));
  if (!grants(mask, kind)) throw fail.accessDenied();
}

/**
 * The securable object a resource acts on: the item it is or belongs to (a file's item, in its
 * folder), a folder (by path: what governs it, folderSecurable), else its list, else the web.
 */
async function securableAt(resource: Resource, ctx: ApiContext): Promise<Securable> {
  const r = resource as { list?: List; id?: unknown; item?: Item };
  if (r.list) {
    switch (resource.kind) {
      case 'folder': return folderSecurable(ctx.store, ctx.site, ctx.web, resource.list, resource.path);
      case 'files': case 'folders': return folderSecurable(ctx.store, ctx.site, ctx.web, resource.list, resource.dir);
      // A file not there yet (its upload makes it): the folder it goes in.
      case 'fileStub': return folderSecurable(ctx.store, ctx.site, ctx.web, resource.list, splitPath(resource.path).dir);
    }
    if (r.item && resource.kind !== 'items' && resource.kind !== 'list') return { kind: 'item', web: ctx.web, list: r.list, id: r.item.id, dir: r.item.place?.dir };
    const itemId = typeof r.id === 'number' ? r.id : undefined;
    if (itemId !== undefined && resource.kind !== 'items' && resource.kind !== 'list') return { kind: 'item', web: ctx.web, list: r.list, id: itemId };
    return { kind: 'list', web: ctx.web, list: r.list };
  }
  if (resource.kind === 'web') return { kind: 'web', web: resource.web };
  return { kind: 'web', web: ctx.web };
}
