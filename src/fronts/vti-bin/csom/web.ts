// SP.ClientContext.Current, its Web (SP.Web) and the web's property bag (SP.PropertyValues).
// A web's Title and Description (SetProperty) and its property bag entries (AllProperties'
// SetFieldValue) are staged until the web's Update, then written in one write, as SharePoint
// keeps them on the object until Update. Writing needs ManageWeb, as REST's web MERGE does.

import { fail } from '../../../domain/errors.ts';
import type { Web } from '../../../domain/model.ts';
import { grants, type PermissionKind } from '../../../domain/permissions.ts';
import { effectivePermissions } from '../../../identity/effective-permissions.ts';
import { webPropertyBag } from '../../../services/web-properties.ts';
import { LIBRARY_VERSION } from '../../../wire/headers.ts';
import { ContentTypeCollection } from './content-types.ts';
import { FieldCollection } from './fields.ts';
import { folderAt } from './folders.ts';
import { ListCollection, listByUrl } from './lists.ts';
import { CsomObject, remember, dateValue, guidValue, NOT_SERVED, webIdentity, type Argument, type CsomContext, type PropertyValue } from './objects.ts';

/** SP.ClientContext's TypeId, as CSOM clients name it in `<StaticProperty Name="Current">`. */
export const CLIENT_CONTEXT_TYPE_ID = '{3747adcd-a3c3-41b9-bfab-4a64dd2f1e0a}';

/** The request's one object for a web. */
export const webObject = (ctx: CsomContext, web: Web) => remember(ctx, `web:${web.id}`, () => new WebObject(web));

export class ClientContextObject extends CsomObject {
  readonly typeName = 'SP.ClientContext';
  override async get(name: string, ctx: CsomContext): Promise<PropertyValue | undefined> {
    if (name === 'Web') {
      // The site-level role ProcessQuery checked does not reach a subweb with unique permissions: Open on the web, as REST's.
      await requireOnWeb(ctx, ctx.web, 'Open');
      return webObject(ctx, ctx.web);
    }
    return undefined;
  }
}

/** Throws SharePoint's access denied unless the caller has `kind` on the web. */
export async function requireOnWeb(ctx: CsomContext, web: Web, kind: PermissionKind): Promise<void> {
  if (!grants(await effectivePermissions(ctx.store, ctx.site, ctx.principal, { kind: 'web', web }), kind)) throw fail.accessDenied();
}

export class WebObject extends CsomObject {
  readonly typeName = 'SP.Web';
  #bag: PropertyValuesObject | undefined;
  #contentTypes: ContentTypeCollection | undefined;
  #lists: ListCollection | undefined;
  #fields: FieldCollection | undefined;
  /** SetProperty's changes, until Update. */
  readonly staged: { title?: string; description?: string; properties: Map<string, string | null> } = { properties: new Map() };

  constructor(public web: Web) { super(); }

  override identity(ctx: CsomContext) { return webIdentity(ctx, this.web); }
  override defaultProperties() { return ['Created', 'Description', 'Id', 'Language', 'ServerRelativeUrl', 'Title', 'WebTemplate']; }

  override async get(name: string, ctx: CsomContext): Promise<PropertyValue | undefined> {
    const w = this.web;
    switch (name) {
      case 'Id': return guidValue(w.id);
      case 'Title': return w.title;
      case 'Description': return w.description;
      case 'ServerRelativeUrl': return w.serverRelativeUrl;
      case 'Language': return w.language;
      case 'WebTemplate': return w.webTemplate;
      case 'Created': return dateValue(w.created);
      case 'EffectiveBasePermissions': {
        const mask = await effectivePermissions(ctx.store, ctx.site, ctx.principal, { kind: 'web', web: w });
        return { _ObjectType_: 'SP.BasePermissions', High: mask.high, Low: mask.low };
      }
      case 'AllProperties': return (this.#bag ??= new PropertyValuesObject(this));
      case 'ContentTypes': return (this.#contentTypes ??= new ContentTypeCollection({ kind: 'web', web: w }));
      case 'Lists': return (this.#lists ??= new ListCollection(w));
      case 'Fields': return (this.#fields ??= new FieldCollection({ kind: 'web', web: w }));
      default: return undefined;
    }
  }

  override set(name: string, value: Argument): boolean {
    if (name === 'Title' && typeof value === 'string') { this.staged.title = value; return true; }
    if (name === 'Description' && typeof value === 'string') { this.staged.description = value; return true; }
    return false;
  }

  override async call(name: string, args: Argument[], ctx: CsomContext) {
    if (name === 'GetList' && typeof args[0] === 'string') return listByUrl(ctx, this.web, args[0]);
    if (name === 'GetFolderByServerRelativeUrl' && typeof args[0] === 'string') return folderAt(ctx, this.web, args[0]);
    if (name !== 'Update') return NOT_SERVED;
    const { title, description, properties } = this.staged;
    if (title === undefined && description === undefined && properties.size === 0) return undefined;
    await requireOnWeb(ctx, this.web, 'ManageWeb');
    if (title !== undefined || description !== undefined) this.web = await ctx.services.webs.update(this.web, { title, description });
    if (properties.size > 0) this.web = await ctx.services.webs.setProperties(this.web, Object.fromEntries(properties));
    delete this.staged.title;
    delete this.staged.description;
    properties.clear();
    return undefined;
  }
}

/** A web's AllProperties: every entry, keys as stored (CSOM writes no `_x005f_`), values as text. */
export class PropertyValuesObject extends CsomObject {
  readonly typeName = 'SP.PropertyValues';
  constructor(private readonly owner: WebObject) { super(); }

  override allFields(ctx: CsomContext): Promise<Record<string, unknown>> {
    return Promise.resolve(Object.fromEntries(webPropertyBag(ctx.site, this.owner.web, LIBRARY_VERSION)));
  }

  override async get(name: string, ctx: CsomContext): Promise<PropertyValue | undefined> {
    const fields = await this.allFields(ctx);
    return Object.hasOwn(fields, name) ? fields[name] as string : null;
  }

  override async call(name: string, args: Argument[]) {
    if (name !== 'SetFieldValue') return NOT_SERVED;
    const [key, value] = args;
    if (typeof key !== 'string') throw fail.badArgument('fieldName');
    // A string is stored as it is; Null removes the entry (spo propertybag remove); other types are not spemu's to keep.
    if (value !== null && typeof value !== 'string') return NOT_SERVED;
    this.owner.staged.properties.set(key, value);
    return undefined;
  }
}
