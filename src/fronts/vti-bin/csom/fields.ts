// SP.FieldCollection (a web's site columns, a list's fields: GetById, GetByInternalNameOrTitle)
// and SP.Field: read by Query; Title, Description, Group, Required, Hidden, Indexed, the
// ShowIn…Form switches and a calculated column's Formula set with SetProperty (CLI for
// Microsoft 365 sends every value as a String: "true"/"false" read as booleans) and written
// by Update or UpdateAndPushChanges(false) in one write (services/fields.ts,
// services/site-columns.ts), with ManageLists. Pushing a site column's change down to the
// lists that use it is not served.

import { fail } from '../../../domain/errors.ts';
import { findFieldByNameOrTitle } from '../../../domain/fields.ts';
import type { Field, FieldDefinition, List, SiteColumn, Web } from '../../../domain/model.ts';
import { grants } from '../../../domain/permissions.ts';
import { effectivePermissions } from '../../../identity/effective-permissions.ts';
import type { FieldChanges } from '../../../services/fields.ts';
import { webColumns } from '../../../services/site-columns.ts';
import { errors } from '../../../wire/errors.ts';
import { CsomObject, remember, guidValue, NOT_SERVED, webIdentity, type Argument, type CsomContext, type PropertyValue } from './objects.ts';

export type FieldOwner = { kind: 'web'; web: Web } | { kind: 'list'; web: Web; list: List };

const fieldsOf = (ctx: CsomContext, owner: FieldOwner): Promise<FieldDefinition[]> =>
  (owner.kind === 'web' ? webColumns(ctx.store, owner.web) : ctx.store.fields.of(owner.list));

export async function fieldById(ctx: CsomContext, owner: FieldOwner, id: string): Promise<FieldObject> {
  const wanted = id.replace(/^\{|\}$/g, '').toLowerCase();
  const field = (await fieldsOf(ctx, owner)).find((f) => f.id.toLowerCase() === wanted);
  if (!field) throw errors.fieldNotFound(wanted);
  return fieldObject(ctx, owner, field);
}

/** The request's one object for a field. */
const fieldObject = (ctx: CsomContext, owner: FieldOwner, field: FieldDefinition) =>
  remember(ctx, `web:${owner.web.id}${owner.kind === 'list' ? `:list:${owner.list.id}` : ''}:field:${field.id}`, () => new FieldObject(owner, field));

export class FieldCollection extends CsomObject {
  readonly typeName = 'SP.FieldCollection';
  constructor(private readonly owner: FieldOwner) { super(); }

  override async call(name: string, args: Argument[], ctx: CsomContext) {
    const arg = args[0];
    if (typeof arg !== 'string') return NOT_SERVED;
    if (name === 'GetById') return fieldById(ctx, this.owner, arg);
    if (name === 'GetByInternalNameOrTitle') {
      const field = findFieldByNameOrTitle(await fieldsOf(ctx, this.owner), arg);
      if (!field) throw errors.fieldNotFound(arg);
      return fieldObject(ctx, this.owner, field);
    }
    return NOT_SERVED;
  }
}

const TEXT_CHANGES: Record<string, 'title' | 'description' | 'group' | 'formula'> = { Title: 'title', Description: 'description', Group: 'group', Formula: 'formula' };
const BOOLEAN_CHANGES: Record<string, 'required' | 'hidden' | 'indexed' | 'showInDisplayForm' | 'showInEditForm' | 'showInNewForm'> = {
  Required: 'required', Hidden: 'hidden', Indexed: 'indexed', ShowInDisplayForm: 'showInDisplayForm', ShowInEditForm: 'showInEditForm', ShowInNewForm: 'showInNewForm',
};

export class FieldObject extends CsomObject {
  readonly typeName = 'SP.Field';
  #staged: FieldChanges = {};
  constructor(private readonly owner: FieldOwner, private field: FieldDefinition) { super(); }

  /** The field as it stands (a FieldLinkCreationInformation names it). */
  get definition(): FieldDefinition { return this.field; }

  override identity(ctx: CsomContext) {
    const list = this.owner.kind === 'list' ? `:list:${this.owner.list.id}` : '';
    return `${webIdentity(ctx, this.owner.web)}${list}:field:${this.field.id}`;
  }
  override defaultProperties() { return ['Description', 'Group', 'Hidden', 'Id', 'Indexed', 'InternalName', 'ReadOnlyField', 'Required', 'StaticName', 'Title']; }

  override async get(name: string): Promise<PropertyValue | undefined> {
    const f = this.field;
    switch (name) {
      case 'Id': return guidValue(f.id);
      case 'Title': return f.title;
      case 'InternalName': case 'StaticName': return f.internalName;
      case 'Description': return f.options.description ?? '';
      case 'Group': return f.options.group ?? '';
      case 'Hidden': return f.hidden;
      case 'Indexed': return f.indexed;
      case 'Required': return f.required;
      case 'ReadOnlyField': return f.readOnly;
      default: return undefined;
    }
  }

  override set(name: string, value: Argument): boolean {
    const text = TEXT_CHANGES[name];
    if (text && typeof value === 'string') { this.#staged[text] = value; return true; }
    const flag = BOOLEAN_CHANGES[name];
    const bool = typeof value === 'boolean' ? value : typeof value === 'string' && /^(true|false)$/i.test(value) ? value.toLowerCase() === 'true' : undefined;
    if (flag && bool !== undefined) { this.#staged[flag] = bool; return true; }
    return false;
  }

  override async call(name: string, args: Argument[], ctx: CsomContext) {
    if (name !== 'Update' && !(name === 'UpdateAndPushChanges' && args[0] === false)) return NOT_SERVED;
    if (Object.keys(this.#staged).length === 0) return undefined;
    const securable = this.owner.kind === 'web' ? { kind: 'web' as const, web: this.owner.web } : { kind: 'list' as const, web: this.owner.web, list: this.owner.list };
    if (!grants(await effectivePermissions(ctx.store, ctx.site, ctx.principal, securable), 'ManageLists')) throw fail.accessDenied();
    this.field = this.owner.kind === 'web'
      ? await ctx.services.siteColumns.update(this.field as SiteColumn, this.#staged)
      : await ctx.services.fields.update(this.owner.list, this.field as Field, this.#staged);
    this.#staged = {};
    return undefined;
  }
}
