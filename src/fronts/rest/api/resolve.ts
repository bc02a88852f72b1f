// Walks a parsed `/_api` path through the resource model (resource.ts), then runs the
// HTTP verb against what it found.

import type { PathSegment } from '../../../odata/path.ts';
import { errors } from '../../../wire/errors.ts';
import type { ApiContext } from './context.ts';
import type { Outcome } from './outcome.ts';
import type { MethodDef, Resource, ResourceType } from './resource.ts';
import { RESOURCE_TYPES } from './types/index.ts';
import { requireRole } from '../../../identity/permissions.ts';

/** Names of SharePoint endpoints spemu knows of but does not serve yet: a uniform 501. */
const NOT_YET: ReadonlySet<string> = new Set([
  '$metadata', 'search', 'sp.utilities.utility',
  'alerts', 'contenttypes', 'views',
  'folders', 'files', 'getfolderbyserverrelativeurl', 'getfilebyserverrelativeurl', 'attachmentfiles', 'navigation',
  'features', 'usercustomactions', 'recyclebin', 'projectdata', 'sp.apps.appcatalog', 'getchanges', 'getitems',
  'renderlistdataasstream', 'addvalidateupdateitemusingpath',
  'validateupdatelistitem', 'breakroleinheritance', 'resetroleinheritance', 'addroleassignment', 'removeroleassignment',
  'firstuniqueancestorsecurableobject', 'getparentinfos', 'deletewithparameters', 'fileversion', 'fields',
]);

export type Verb = 'GET' | 'POST' | 'MERGE' | 'PATCH' | 'PUT' | 'DELETE';

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
    case 'sp.userprofiles.peoplemanager': return { kind: 'peopleManager' };
    case 'contextinfo': return { kind: 'contextInfo' };
    default: return unknownSegment(segment);
  }
}

/** Resolves the path and executes `verb` on it. */
export async function execute(segments: PathSegment[], verb: Verb, ifMatch: string | undefined, ctx: ApiContext): Promise<Outcome> {
  const [first, ...rest] = segments;
  if (!first) throw errors.resourceNotFound();
  let resource = await root(first, ctx);
  for (let i = 0; i < rest.length; i++) {
    const segment = rest[i]!;
    const type = typeOf(resource);
    const nav = type.navigation?.[segment.lname];
    if (nav) {
      resource = await nav(resource, ctx);
      if (segment.args !== undefined) {
        const key = typeOf(resource).key;
        if (!key || segment.args.length === 0) throw errors.resourceNotFound();
        resource = await key(resource, segment.args, ctx);
      }
      continue;
    }
    const method = type.methods?.[segment.lname] as MethodDef<Resource> | undefined;
    if (!method) unknownSegment(segment);
    const last = i === rest.length - 1;
    if (method.kind === 'action' && (!last || verb !== 'POST')) throw errors.methodNotAllowed(verb);
    // A write ends here: Edit (members) unless the method only reads.
    if (last && verb !== 'GET') requireRole(ctx.principal, method.readOnly ? 'visitor' : 'member');
    const result = await method.invoke(resource, segment.args ?? [], ctx);
    if ('status' in result) {
      if (!last) throw errors.resourceNotFound();
      return result;
    }
    resource = result;
  }
  return runVerb(resource, verb, ifMatch, ctx);
}

function runVerb(resource: Resource, verb: Verb, ifMatch: string | undefined, ctx: ApiContext): Promise<Outcome> {
  const type = typeOf(resource);
  const handler =
    verb === 'GET' ? type.get && ((r: Resource) => type.get!(r, ctx))
    : verb === 'POST' ? type.create && ((r: Resource) => type.create!(r, ctx))
    : verb === 'DELETE' ? type.delete && ((r: Resource) => type.delete!(r, ctx, ifMatch))
    : type.update && ((r: Resource) => type.update!(r, ctx, ifMatch));
  if (!handler) throw errors.methodNotAllowed(verb);
  if (verb !== 'GET') requireRole(ctx.principal, type.writeRole ?? 'member');
  return handler(resource);
}
