// SP.ContentTypeCollection and SP.ContentType: a web's types, `Add` with a
// ContentTypeCreationInformation (the Id the caller gives kept, as CSOM can and REST cannot:
// services/content-types.ts `define`), `GetById`, a type's Name, Description, Group and
// Hidden set with SetProperty, and its FieldLinks (GetById, Add with a FieldLinkCreationInformation,
// a link's DeleteObject, Required and Hidden), all staged and written by Update(false) in one
// write, needing ManageLists as REST's do. Adding to a list's collection, and Update(true)
// (pushing the change down to child types), are not served yet.

import { normaliseContentTypeId, type ContentType } from '../../../domain/content-types.ts';
import { fail } from '../../../domain/errors.ts';
import type { List, Web } from '../../../domain/model.ts';
import { grants } from '../../../domain/permissions.ts';
import { effectivePermissions } from '../../../identity/effective-permissions.ts';
import { listContentTypes, webContentTypes } from '../../../services/content-types.ts';
import type { ContentTypePatch } from '../../../store/content-types.ts';
import type { FieldLink } from '../../../domain/content-types.ts';
import { FieldObject } from './fields.ts';
import { CsomObject, remember, NOT_SERVED, webIdentity, type Argument, type CsomContext, type PropertyValue } from './objects.ts';

export type ContentTypeOwner = { kind: 'web'; web: Web } | { kind: 'list'; web: Web; list: List };

async function requireManageLists(ctx: CsomContext, owner: ContentTypeOwner): Promise<void> {
  const securable = owner.kind === 'web' ? { kind: 'web' as const, web: owner.web } : { kind: 'list' as const, web: owner.web, list: owner.list };
  if (!grants(await effectivePermissions(ctx.store, ctx.site, ctx.principal, securable), 'ManageLists')) throw fail.accessDenied();
}

const ownerKey = (owner: ContentTypeOwner) => `web:${owner.web.id}${owner.kind === 'list' ? `:list:${owner.list.id}` : ''}`;

const typesOf = (ctx: CsomContext, owner: ContentTypeOwner) =>
  (owner.kind === 'web' ? webContentTypes(ctx.store, owner.web) : listContentTypes(ctx.store, owner.list));

/** The type of `id` the owner has, else SharePoint's "not found". */
export async function contentTypeOf(ctx: CsomContext, owner: ContentTypeOwner, id: string): Promise<ContentTypeObject> {
  const wanted = normaliseContentTypeId(id);
  const type = wanted === undefined ? undefined : (await typesOf(ctx, owner)).find((t) => t.id === wanted);
  if (!type) throw fail.contentTypeNotFound();
  return remember(ctx, `${ownerKey(owner)}:contenttype:${type.id}`, () => new ContentTypeObject(owner, type));
}

export class ContentTypeCollection extends CsomObject {
  readonly typeName = 'SP.ContentTypeCollection';
  constructor(private readonly owner: ContentTypeOwner) { super(); }

  override async call(name: string, args: Argument[], ctx: CsomContext) {
    if (name === 'GetById' && typeof args[0] === 'string') return contentTypeOf(ctx, this.owner, args[0]);
    if (name !== 'Add' || this.owner.kind !== 'web') return NOT_SERVED;
    const info = args[0];
    if (info === null || typeof info !== 'object' || info instanceof CsomObject) throw fail.badArgument('parameters');
    // A parent given as an object (ParentContentType) rather than by Id is not served yet.
    if (info.ParentContentType !== undefined && info.ParentContentType !== null) return NOT_SERVED;
    const text = (v: Argument | undefined) => (typeof v === 'string' ? v : '');
    await requireManageLists(ctx, this.owner);
    const created = await ctx.services.contentTypes.define(this.owner.web, {
      id: typeof info.Id === 'string' ? info.Id : undefined, name: text(info.Name), description: text(info.Description), group: text(info.Group),
    });
    return remember(ctx, `${ownerKey(this.owner)}:contenttype:${created.id}`, () => new ContentTypeObject(this.owner, created));
  }
}

export class ContentTypeObject extends CsomObject {
  readonly typeName = 'SP.ContentType';
  readonly #staged: ContentTypePatch = {};
  #links: FieldLinkCollection | undefined;
  constructor(private readonly owner: ContentTypeOwner, private type: ContentType) { super(); }

  /** The links as they will be after Update: staged ones once changed, else the type's. */
  links(): FieldLink[] { return this.#staged.fieldLinks ?? this.type.fieldLinks; }
  stageLinks(links: FieldLink[]): void { this.#staged.fieldLinks = links; }
  fieldLink(id: string): FieldLinkObject | null {
    const wanted = id.replace(/^\{|\}$/g, '').toLowerCase();
    return this.links().some((l) => l.id.toLowerCase() === wanted) ? new FieldLinkObject(this, wanted) : null;
  }

  override identity(ctx: CsomContext) {
    const list = this.owner.kind === 'list' ? `:list:${this.owner.list.id}` : '';
    return `${webIdentity(ctx, this.owner.web)}${list}:contenttype:${this.type.id}`;
  }
  override defaultProperties() { return ['Description', 'Group', 'Hidden', 'Id', 'Name', 'ReadOnly', 'Sealed', 'StringId']; }

  override async get(name: string): Promise<PropertyValue | undefined> {
    const t = this.type;
    switch (name) {
      case 'Id': return { _ObjectType_: 'SP.ContentTypeId', StringValue: t.id };
      case 'StringId': return t.id;
      case 'Name': return t.name;
      case 'Description': return t.description;
      case 'Group': return t.group;
      case 'Hidden': return t.hidden;
      case 'ReadOnly': return t.readOnly;
      case 'Sealed': return t.sealed;
      case 'FieldLinks': return (this.#links ??= new FieldLinkCollection(this));
      default: return undefined;
    }
  }

  override set(name: string, value: Argument): boolean {
    if (typeof value === 'string' && (name === 'Name' || name === 'Description' || name === 'Group')) {
      this.#staged[name === 'Name' ? 'name' : name === 'Description' ? 'description' : 'group'] = value;
      return true;
    }
    if (name === 'Hidden' && typeof value === 'boolean') { this.#staged.hidden = value; return true; }
    return false;
  }

  /** Update(updateChildren): the staged changes, in one write. Pushing them down to child types is not served. */
  override async call(name: string, args: Argument[], ctx: CsomContext) {
    if (name !== 'Update') return NOT_SERVED;
    if (args[0] === true) return NOT_SERVED;
    if (Object.keys(this.#staged).length === 0) return undefined;
    await requireManageLists(ctx, this.owner);
    this.type = await ctx.services.contentTypes.update(this.type, { ...this.#staged });
    for (const k of Object.keys(this.#staged)) delete this.#staged[k as keyof ContentTypePatch];
    return undefined;
  }
}

/** SP.FieldLinkCollection: a type's links, changed on the type until its Update. */
class FieldLinkCollection extends CsomObject {
  readonly typeName = 'SP.FieldLinkCollection';
  constructor(private readonly type: ContentTypeObject) { super(); }

  override async call(name: string, args: Argument[]) {
    if (name === 'GetById' && typeof args[0] === 'string') return this.type.fieldLink(args[0]);
    if (name !== 'Add') return NOT_SERVED;
    const info = args[0];
    const field = info !== null && typeof info === 'object' && !(info instanceof CsomObject) ? info.Field : undefined;
    if (!(field instanceof FieldObject)) return NOT_SERVED;
    const { id, internalName } = field.definition;
    if (!this.type.links().some((l) => l.id.toLowerCase() === id.toLowerCase())) {
      this.type.stageLinks([...this.type.links(), { id, name: internalName, required: false, hidden: false }]);
    }
    return this.type.fieldLink(id);
  }
}

/** SP.FieldLink: Required and Hidden set, or the link deleted, on its type until the type's Update. */
export class FieldLinkObject extends CsomObject {
  readonly typeName = 'SP.FieldLink';
  constructor(private readonly type: ContentTypeObject, private readonly id: string) { super(); }

  override identity(ctx: CsomContext) { return `${this.type.identity(ctx)}:fl:${this.id}`; }
  override defaultProperties() { return ['Hidden', 'Id', 'Name', 'Required']; }

  #link(): FieldLink | undefined { return this.type.links().find((l) => l.id.toLowerCase() === this.id); }

  override async get(name: string): Promise<PropertyValue | undefined> {
    const link = this.#link();
    if (!link) return null;
    switch (name) {
      case 'Id': return `/Guid(${link.id})/`;
      case 'Name': return link.name;
      case 'Hidden': return link.hidden;
      case 'Required': return link.required;
      default: return undefined;
    }
  }

  override set(name: string, value: Argument): boolean {
    if ((name !== 'Required' && name !== 'Hidden') || typeof value !== 'boolean' || !this.#link()) return false;
    const key = name === 'Required' ? 'required' : 'hidden';
    this.type.stageLinks(this.type.links().map((l) => (l.id.toLowerCase() === this.id ? { ...l, [key]: value } : l)));
    return true;
  }

  override async call(name: string) {
    if (name !== 'DeleteObject') return NOT_SERVED;
    this.type.stageLinks(this.type.links().filter((l) => l.id.toLowerCase() !== this.id));
    return undefined;
  }
}
