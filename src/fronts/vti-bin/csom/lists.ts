// SP.ListCollection (a web's Lists: GetById, GetByTitle; Web.GetList by URL) and SP.List: its
// settings read by Query, Title, Description, Hidden and the versioning switches set with
// SetProperty and written by Update in one write (services/lists.ts, as REST's MERGE), with
// ManageLists. Its Fields and ContentTypes lead on; what else a list has is not served yet.

import { fail } from '../../../domain/errors.ts';
import type { List, Web } from '../../../domain/model.ts';
import { grants } from '../../../domain/permissions.ts';
import { effectivePermissions } from '../../../identity/effective-permissions.ts';
import { NO_CONDITIONS } from '../../../services/conditions.ts';
import type { ListChanges } from '../../../services/lists.ts';
import { errors } from '../../../wire/errors.ts';
import { ContentTypeCollection } from './content-types.ts';
import { FieldCollection } from './fields.ts';
import { CsomObject, remember, dateValue, guidValue, NOT_SERVED, webIdentity, type Argument, type CsomContext, type PropertyValue } from './objects.ts';

/** A Guid parameter as CSOM clients write it, with or without braces. */
export const guidArgument = (a: Argument | undefined): string | undefined =>
  (typeof a === 'string' ? a.trim().replace(/^\{|\}$/g, '').toLowerCase() : undefined);

export async function listById(ctx: CsomContext, web: Web, id: string): Promise<ListObject> {
  const list = await ctx.store.lists.byId(web.id, id);
  if (!list) throw fail.listNotFoundById();
  return listObject(ctx, web, list);
}

/**
 * The request's one object for a list, reached as REST reaches one: with Open on it (a list
 * with unique permissions the caller holds nothing in is refused, not read).
 */
async function listObject(ctx: CsomContext, web: Web, list: List): Promise<ListObject> {
  if (!grants(await effectivePermissions(ctx.store, ctx.site, ctx.principal, { kind: 'list', web, list }), 'Open')) throw fail.accessDenied();
  return remember(ctx, `web:${web.id}:list:${list.id}`, () => new ListObject(web, list));
}

export class ListCollection extends CsomObject {
  readonly typeName = 'SP.ListCollection';
  constructor(private readonly web: Web) { super(); }

  override async call(name: string, args: Argument[], ctx: CsomContext) {
    if (name === 'GetById') {
      const id = guidArgument(args[0]);
      if (!id) throw fail.badArgument('id');
      return listById(ctx, this.web, id);
    }
    if (name === 'GetByTitle' && typeof args[0] === 'string') {
      const list = await ctx.store.lists.byTitle(this.web.id, args[0]);
      if (!list) throw errors.listNotFoundByTitle(args[0], `${ctx.origin}${this.web.serverRelativeUrl}`);
      return listObject(ctx, this.web, list);
    }
    return NOT_SERVED;
  }
}

/** Web.GetList(serverRelativeUrl): the list whose root folder is at that URL. */
export async function listByUrl(ctx: CsomContext, web: Web, url: string): Promise<ListObject> {
  const list = await ctx.store.lists.byUrl(web.id, decodeURIComponent(url).replace(/\/+$/, ''));
  if (!list) throw fail.listNotFoundById();
  return listObject(ctx, web, list);
}

const BOOLEAN_SETTINGS: Record<string, keyof ListChanges> = {
  Hidden: 'hidden', EnableVersioning: 'enableVersioning', EnableModeration: 'enableModeration', EnableMinorVersions: 'enableMinorVersions', DisableCommenting: 'disableCommenting',
};

export class ListObject extends CsomObject {
  readonly typeName = 'SP.List';
  #staged: ListChanges = {};
  #fields: FieldCollection | undefined;
  #contentTypes: ContentTypeCollection | undefined;
  constructor(readonly web: Web, public list: List) { super(); }

  override identity(ctx: CsomContext) { return `${webIdentity(ctx, this.web)}:list:${this.list.id}`; }
  override defaultProperties() {
    return ['BaseTemplate', 'BaseType', 'Created', 'Description', 'DisableCommenting', 'EnableMinorVersions', 'EnableModeration', 'EnableVersioning', 'Hidden', 'Id', 'ItemCount', 'Title'];
  }

  override async get(name: string, ctx: CsomContext): Promise<PropertyValue | undefined> {
    const l = this.list;
    switch (name) {
      case 'Id': return guidValue(l.id);
      case 'Title': return l.title;
      case 'Description': return l.description;
      case 'BaseTemplate': return l.baseTemplate;
      case 'BaseType': return l.baseType;
      case 'Hidden': return l.hidden;
      case 'ItemCount': return (await ctx.store.lists.withCounters([l]))[0]!.itemCount;
      case 'Created': return dateValue(l.created);
      case 'EnableVersioning': return l.enableVersioning;
      case 'EnableModeration': return l.enableModeration;
      case 'EnableMinorVersions': return l.enableMinorVersions;
      case 'DisableCommenting': return l.disableCommenting;
      case 'Fields': return (this.#fields ??= new FieldCollection({ kind: 'list', web: this.web, list: l }));
      case 'ContentTypes': return (this.#contentTypes ??= new ContentTypeCollection({ kind: 'list', web: this.web, list: l }));
      default: return undefined;
    }
  }

  override set(name: string, value: Argument): boolean {
    if ((name === 'Title' || name === 'Description') && typeof value === 'string') {
      this.#staged[name === 'Title' ? 'title' : 'description'] = value;
      return true;
    }
    const setting = BOOLEAN_SETTINGS[name];
    if (setting && typeof value === 'boolean') { (this.#staged as Record<string, unknown>)[setting] = value; return true; }
    return false;
  }

  override async call(name: string, _args: Argument[], ctx: CsomContext) {
    if (name !== 'Update') return NOT_SERVED;
    if (Object.keys(this.#staged).length === 0) return undefined;
    const mask = await effectivePermissions(ctx.store, ctx.site, ctx.principal, { kind: 'list', web: this.web, list: this.list });
    if (!grants(mask, 'ManageLists')) throw fail.accessDenied();
    this.list = await ctx.services.lists.update(this.list, this.#staged, NO_CONDITIONS);
    this.#staged = {};
    return undefined;
  }
}
