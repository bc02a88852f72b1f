// Runs a parsed CSOM request ([MS-CSOM] 3.1.4.1): each action in order, each object path
// evaluated once, when an action (or another path) first needs it. Results are the pairs the
// answer lists after its header: the action's id, then its value. The first failure stops the
// run; what ran before it stays done, as on SharePoint (no transaction spans a request).

import { CsomError, csomErrors } from './errors.ts';
import { contentTypeOf, type ContentTypeObject } from './content-types.ts';
import { fieldById } from './fields.ts';
import { listById } from './lists.ts';
import { CsomObject, NOT_SERVED, parseIdentity, type Argument, type CsomContext } from './objects.ts';
import type { CsomRequest, CsomValue, ObjectPath, ObjectQuery } from './request.ts';
import { CLIENT_CONTEXT_TYPE_ID, ClientContextObject, requireOnWeb, webObject } from './web.ts';

export type CsomResult = Array<number | unknown>;

export async function executeCsom(request: CsomRequest, ctx: CsomContext): Promise<CsomResult> {
  const objects = new Map<string, Promise<CsomObject | null>>();
  // Paths being evaluated: actions and paths run one at a time, so a path asked for again
  // before it settles names itself through its parents or parameters, a cycle (which would
  // otherwise overflow the stack or wait on itself forever).
  const resolving = new Set<string>();
  const evaluate = (id: string): Promise<CsomObject | null> => {
    if (resolving.has(id)) return Promise.reject(csomErrors.invalidRequest(`The object path '${id}' depends on itself.`));
    let known = objects.get(id);
    if (!known) {
      const path = request.paths.get(id);
      if (!path) return Promise.reject(csomErrors.unknownPath(id));
      resolving.add(id);
      known = evaluatePath(path, ctx, evaluate, argumentsOf).finally(() => resolving.delete(id));
      objects.set(id, known);
    }
    return known;
  };
  const objectAt = async (id: string): Promise<CsomObject> => {
    const obj = await evaluate(id);
    if (!obj) throw csomErrors.unknownPath(id);
    return obj;
  };
  async function argumentOf(v: CsomValue): Promise<Argument> {
    if (v.kind === 'scalar') return v.value;
    if (v.kind === 'path') return objectAt(v.pathId);
    const out: { [name: string]: Argument } = {};
    for (const [name, p] of v.properties) out[name] = await argumentOf(p);
    return out;
  }
  async function argumentsOf(values: CsomValue[]): Promise<Argument[]> {
    const out: Argument[] = [];
    for (const v of values) out.push(await argumentOf(v));
    return out;
  }

  const results: CsomResult = [];
  for (const action of request.actions) {
    const id = Number(action.id);
    switch (action.kind) {
      case 'ObjectPath':
        results.push(id, { IsNull: (await evaluate(action.pathId)) === null });
        break;
      case 'ObjectIdentityQuery': {
        const obj = await objectAt(action.pathId);
        results.push(id, { _ObjectType_: obj.typeName, _ObjectIdentity_: obj.identity(ctx) ?? null });
        break;
      }
      case 'Query': {
        if (action.childItemQuery) throw csomErrors.notImplemented('ChildItemQuery');
        results.push(id, await serialize(await objectAt(action.pathId), action.query, ctx));
        break;
      }
      case 'SetProperty': {
        const obj = await objectAt(action.pathId);
        if (!obj.set(action.name, await argumentOf(action.value))) throw csomErrors.notImplemented(`setting ${obj.typeName}.${action.name}`);
        break;
      }
      case 'Method': {
        const obj = await objectAt(action.pathId);
        const value = await obj.call(action.name, await argumentsOf(action.parameters), ctx);
        if (value === NOT_SERVED) throw csomErrors.notImplemented(`${obj.typeName}.${action.name}`);
        if (value instanceof CsomObject) results.push(id, await serialize(value, { selectAll: true, properties: [] }, ctx));
        else if (value !== undefined) results.push(id, value);
        break;
      }
      default:
        throw csomErrors.notImplemented(`the ${action.kind} action`);
    }
  }
  return results;
}

async function evaluatePath(path: ObjectPath, ctx: CsomContext, evaluate: (id: string) => Promise<CsomObject | null>,
  argumentsOf: (v: CsomValue[]) => Promise<Argument[]>): Promise<CsomObject | null> {
  // A long chain of parents is walked a microtask at a time, not as one deep call stack.
  await undefined;
  switch (path.kind) {
    case 'StaticProperty':
      if (path.typeId.toLowerCase() === CLIENT_CONTEXT_TYPE_ID && path.name === 'Current') return new ClientContextObject();
      throw csomErrors.notImplemented(`the static property ${path.name} of type ${path.typeId}`);
    case 'Identity':
      return objectOfIdentity(path.name, ctx);
    case 'Property': {
      const parent = await evaluate(path.parentId);
      if (!parent) throw csomErrors.unknownPath(path.parentId);
      const value = await parent.get(path.name, ctx);
      if (value === undefined) throw csomErrors.notImplemented(`${parent.typeName}.${path.name}`);
      if (value === null) return null;
      if (!(value instanceof CsomObject)) throw csomErrors.invalidRequest(`${parent.typeName}.${path.name} is not an object.`);
      return value;
    }
    case 'Method': {
      const parent = await evaluate(path.parentId);
      if (!parent) throw csomErrors.unknownPath(path.parentId);
      const value = await parent.call(path.name, await argumentsOf(path.parameters), ctx);
      if (value === NOT_SERVED) throw csomErrors.notImplemented(`${parent.typeName}.${path.name}`);
      if (value === undefined || value === null) return null;
      if (!(value instanceof CsomObject)) throw csomErrors.invalidRequest(`${parent.typeName}.${path.name} does not return an object.`);
      return value;
    }
    default:
      throw csomErrors.notImplemented(`the ${path.kind} object path`);
  }
}

/**
 * An object by its `_ObjectIdentity_`: a web of this site collection, and below it a list, a
 * content type or a field (of the web or of the list); anything else is not served.
 */
async function objectOfIdentity(name: string, ctx: CsomContext): Promise<CsomObject> {
  const parts = parseIdentity(name);
  if (!parts || parts[0]?.[0] !== 'site' || parts[1]?.[0] !== 'web') throw csomErrors.notImplemented(`the object identity "${name}"`);
  const [[, siteId], [, webId], ...rest] = parts as [[string, string], [string, string], ...Array<[string, string]>];
  const web = siteId.toLowerCase() === ctx.site.id.toLowerCase()
    ? (webId.toLowerCase() === ctx.web.id.toLowerCase() ? ctx.web : await ctx.store.sites.web(webId.toLowerCase()))
    : undefined;
  if (!web || web.siteId !== ctx.site.id) throw new CsomError('The object named by the identity does not exist in this site collection.', -2147024809, 'System.ArgumentException');
  // A web (and so what is in it) is reached with Open on it, as REST's are: a subweb with unique permissions may refuse the caller.
  await requireOnWeb(ctx, web, 'Open');
  const kinds = rest.map(([k]) => k).join(':');
  const value = (i: number) => rest[i]![1];
  switch (kinds) {
    case '': return webObject(ctx, web);
    case 'contenttype': return contentTypeOf(ctx, { kind: 'web', web }, value(0));
    case 'field': return fieldById(ctx, { kind: 'web', web }, value(0));
    case 'list': return listById(ctx, web, value(0).toLowerCase());
    case 'list:contenttype': return contentTypeOf(ctx, { kind: 'list', web, list: (await listById(ctx, web, value(0).toLowerCase())).list }, value(1));
    case 'contenttype:fl': return linkOf(await contentTypeOf(ctx, { kind: 'web', web }, value(0)), value(1));
    case 'list:contenttype:fl':
      return linkOf(await contentTypeOf(ctx, { kind: 'list', web, list: (await listById(ctx, web, value(0).toLowerCase())).list }, value(1)), value(2));
    case 'list:field': return fieldById(ctx, { kind: 'list', web, list: (await listById(ctx, web, value(0).toLowerCase())).list }, value(1));
    default: throw csomErrors.notImplemented(`objects of identity ${kinds}`);
  }
}

function linkOf(type: ContentTypeObject, id: string): CsomObject {
  const link = type.fieldLink(id);
  if (!link) throw new CsomError('The field link named by the identity does not exist.', -2147024809, 'System.ArgumentException');
  return link;
}

/** A Query's answer for one object: its type and identity, then the properties asked for. */
async function serialize(obj: CsomObject, query: ObjectQuery, ctx: CsomContext): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = { _ObjectType_: obj.typeName };
  const identity = obj.identity(ctx);
  if (identity !== undefined) out._ObjectIdentity_ = identity;
  const fields = obj.allFields(ctx);
  if (fields) Object.assign(out, await fields);
  const names = new Map<string, ObjectQuery['properties'][number] | undefined>();
  if (query.selectAll) for (const name of obj.defaultProperties()) names.set(name, undefined);
  for (const p of query.properties) names.set(p.name, p);
  for (const [name, p] of names) {
    const value = await obj.get(name, ctx);
    if (value === undefined) throw csomErrors.notImplemented(`${obj.typeName}.${name}`);
    out[name] = value instanceof CsomObject ? await serialize(value, p?.query ?? { selectAll: p?.selectAll ?? true, properties: [] }, ctx) : value;
  }
  return out;
}
