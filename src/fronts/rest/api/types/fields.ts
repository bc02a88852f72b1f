// SP.Field* and a list's field collection: creation in all three forms PnPjs uses
// (verbose `POST fields`, `AddField` with parameters, `createfieldasxml` — a site column's
// SchemaXml adds that column to the list under its own id), lookup by id, internal name or
// title, update, delete and setShowIn{Display,Edit,New}Form.

import type { Field, FieldDefinition, List } from '../../../../domain/model.ts';
import { findFieldByNameOrTitle } from '../../../../domain/fields.ts';
import type { FieldChanges } from '../../../../services/fields.ts';
import { errors } from '../../../../wire/errors.ts';
import type { Argument } from '../../../../odata/path.ts';
import { argumentLiteral } from '../../../../odata/path.ts';
import type { ApiContext } from '../context.ts';
import { fieldEntity, listFieldOwner, type FieldOwner } from '../entities.ts';
import { fieldChanges, fieldDefinition, propsFromSchemaXml } from '../field-bodies.ts';
import { readEntityBody, readParameters, type Properties } from '../body.ts';
import { noContent, type Outcome } from '../outcome.ts';
import type { MethodDef, Resource, ResourceType } from '../resource.ts';
import { argument, emptyOk, entityCollection, guidText, singleEntity, stringArgument } from './shared.ts';

const fieldMetadataName = 'SP.ApiData.Fields';

export function fieldOutcome(field: FieldDefinition, owner: FieldOwner, ctx: ApiContext, status = 200): Outcome {
  const outcome = singleEntity(fieldEntity(field, owner, ctx), fieldMetadataName, ctx);
  return { ...outcome, status };
}

/** `ownerOf` gives each field's owner (the columns of `availablefields` belong to several webs). */
export function fieldCollectionOutcome<F extends FieldDefinition>(fields: F[], ownerOf: (field: F) => FieldOwner, ctx: ApiContext): Outcome {
  return entityCollection(fields.map((f) => fieldEntity(f, ownerOf(f), ctx)), fieldMetadataName, ctx);
}

/** The three ways a client asks for a new field, each as SP.Field properties (and the verbose type, if any). */
export const fieldCreation = {
  /** `POST …/fields` with a verbose `SP.Field*` entity. */
  entity(ctx: ApiContext): { props: Properties; metadataType: string | undefined } {
    let metadataType: string | undefined;
    const props = readEntityBody(ctx, 'SP.Field', (t) => { metadataType = t; return /^SP\.Field\w*$/.test(t); });
    return { props, metadataType };
  },
  /** `…/fields/AddField` with `parameters` (SP.FieldCreationInformation). */
  addField: (ctx: ApiContext): Properties => readParameters(ctx, 'SP.FieldCreationInformation'),
  /** `…/fields/createfieldasxml` with `parameters.SchemaXml`. */
  schemaXml(ctx: ApiContext): Properties {
    const params = readParameters(ctx, 'SP.XmlSchemaFieldCreationInformation');
    if (typeof params.SchemaXml !== 'string') throw errors.badArgument('SchemaXml is required.');
    return propsFromSchemaXml(params.SchemaXml);
  },
};

/** The collection methods list fields and site columns share: by name, by title, by id. */
export function fieldLookupMethods<R extends Resource, F extends FieldDefinition>(
  fieldsOf: (r: R, ctx: ApiContext) => Promise<F[]>,
  toResource: (r: R, field: F) => Resource,
): Record<string, MethodDef<R>> {
  const find = async (r: R, ctx: ApiContext, match: (f: F) => boolean, name: string) => {
    const field = (await fieldsOf(r, ctx)).find(match);
    if (!field) throw errors.fieldNotFound(name);
    return toResource(r, field);
  };
  return {
    getbyinternalnameortitle: {
      kind: 'function',
      async invoke(r, args, ctx) {
        const name = stringArgument(args, 'strName');
        const field = findFieldByNameOrTitle(await fieldsOf(r, ctx), name);
        if (!field) throw errors.fieldNotFound(name);
        return toResource(r, field);
      },
    },
    getbytitle: {
      kind: 'function',
      invoke(r, args, ctx) {
        const title = stringArgument(args, 'title');
        const lower = title.toLowerCase();
        return find(r, ctx, (f) => f.title.toLowerCase() === lower, title);
      },
    },
    getbyid: {
      kind: 'function',
      invoke(r, args, ctx) {
        const id = guidText(stringArgument(args, 'id'));
        return find(r, ctx, (f) => f.id === id, id);
      },
    },
  };
}

/** `fields(guid'…')` and `fields('…')`. */
export function fieldKey<R extends Resource, F extends FieldDefinition>(
  fieldsOf: (r: R, ctx: ApiContext) => Promise<F[]>, toResource: (r: R, field: F) => Resource,
) {
  return async (r: R, args: Argument[], ctx: ApiContext): Promise<Resource> => {
    const id = guidText(stringArgument(args));
    const field = (await fieldsOf(r, ctx)).find((f) => f.id === id);
    if (!field) throw errors.fieldNotFound(id);
    return toResource(r, field);
  };
}

/** `adddependentlookupfield(displayName='…', primarylookupfieldid='…', showfield='…')`, as PnPjs sends it: the new field (200). */
export function dependentLookupMethod<R extends Resource>(
  add: (r: R, displayName: string, primaryId: string, showField: string, ctx: ApiContext) => Promise<{ field: FieldDefinition; owner: FieldOwner }>,
): MethodDef<R> {
  return {
    kind: 'action', permission: 'ManageLists', body: 'none',
    async invoke(r, args, ctx) {
      const { field, owner } = await add(r, stringArgument(args, 'displayName'), guidText(stringArgument(args, 'primaryLookupFieldId')), stringArgument(args, 'showField'), ctx);
      return fieldOutcome(field, owner, ctx);
    },
  };
}

/** `setshowindisplayform(true)` and its siblings: POST, a Boolean argument, no answer (SharePoint's void). */
export function showInFormMethods<R extends Resource>(
  permission: 'ManageLists', change: (r: R, changes: FieldChanges, ctx: ApiContext) => Promise<void>,
): Record<string, MethodDef<R>> {
  const method = (key: 'showInDisplayForm' | 'showInEditForm' | 'showInNewForm'): MethodDef<R> => ({
    kind: 'action', permission, body: 'none',
    async invoke(r, args, ctx) {
      const literal = argumentLiteral(argument(args, 'value'));
      const value = literal?.type === 'boolean' ? literal.value
        : literal?.type === 'string' && /^(true|false)$/i.test(literal.value) ? literal.value.toLowerCase() === 'true' : undefined;
      if (value === undefined) throw errors.badArgument(`The method ${key} takes one Boolean argument.`);
      await change(r, { [key]: value }, ctx);
      return emptyOk();
    },
  });
  return {
    setshowindisplayform: method('showInDisplayForm'),
    setshowineditform: method('showInEditForm'),
    setshowinnewform: method('showInNewForm'),
  };
}

type FieldsResource = { kind: 'fields'; list: List };
type FieldResource = { kind: 'field'; list: List; field: Field };

const listFields = (r: FieldsResource, ctx: ApiContext) => ctx.store.fields.of(r.list);
const listField = (r: FieldsResource, field: Field): Resource => ({ kind: 'field', list: r.list, field });

async function addListField(list: List, props: Properties, ctx: ApiContext, metadataType?: string): Promise<Outcome> {
  const field = await ctx.services.fields.add(list, fieldDefinition(props, metadataType));
  return fieldOutcome(field, listFieldOwner(list), ctx, 201);
}

export const fieldsType: ResourceType<FieldsResource> = {
  permissions: { create: 'ManageLists' },
  key: fieldKey(listFields, listField),
  methods: {
    ...fieldLookupMethods(listFields, listField),
    addfield: {
      kind: 'action', permission: 'ManageLists',
      invoke: (r, _args, ctx) => addListField(r.list, fieldCreation.addField(ctx), ctx),
    },
    createfieldasxml: {
      kind: 'action', permission: 'ManageLists',
      invoke: (r, _args, ctx) => addListField(r.list, fieldCreation.schemaXml(ctx), ctx),
    },
    adddependentlookupfield: dependentLookupMethod<FieldsResource>(async (r, name, primary, show, ctx) => ({
      field: await ctx.services.fields.addDependentLookup(r.list, name, primary, show), owner: listFieldOwner(r.list),
    })),
  },
  get: async (r, ctx) => { const owner = listFieldOwner(r.list); return fieldCollectionOutcome(await listFields(r, ctx), () => owner, ctx); },
  async create(r, ctx) {
    const { props, metadataType } = fieldCreation.entity(ctx);
    return addListField(r.list, props, ctx, metadataType);
  },
};

export const fieldType: ResourceType<FieldResource> = {
  permissions: { update: 'ManageLists', delete: 'ManageLists' },
  methods: showInFormMethods<FieldResource>('ManageLists', async (r, changes, ctx) => { await ctx.services.fields.update(r.list, r.field, changes); }),
  get: async (r, ctx) => fieldOutcome(r.field, listFieldOwner(r.list), ctx),
  async update(r, ctx) {
    const props = readEntityBody(ctx, 'SP.Field', (t) => /^SP\.Field\w*$/.test(t));
    await ctx.services.fields.update(r.list, r.field, fieldChanges(props));
    return noContent();
  },
  async delete(r, ctx) {
    await ctx.services.fields.delete(r.list, r.field);
    return emptyOk();
  },
};
