// SP.Field* and a list's field collection: creation in all three forms PnPjs uses
// (verbose `POST fields`, `AddField` with parameters, `createfieldasxml`), lookup by id,
// internal name or title, update and delete.

import type { Field, FieldOptions, List } from '../../../../domain/model.ts';
import { FIELD_KINDS, kindFromTypeKind, kindFromTypeName, type FieldKind } from '../../../../domain/field-kinds.ts';
import { findFieldByNameOrTitle } from '../../../../domain/fields.ts';
import { internalNameFromTitle } from '../../../../domain/names.ts';
import { errors } from '../../../../wire/errors.ts';
import type { NewField } from '../../../../store/store.ts';
import type { ApiContext } from '../context.ts';
import { fieldEntity } from '../entities.ts';
import { arrayValue, boolProp, intProp, readEntityBody, readParameters, stringProp, type Properties } from '../body.ts';
import { noContent, type Outcome } from '../outcome.ts';
import type { ResourceType } from '../resource.ts';
import { emptyOk, entityCollection, guidText, singleEntity, stringArgument } from './shared.ts';

/** SP.Field* properties spemu stores; the second set is accepted and has no effect here. */
const STORED = new Set(['Title', 'FieldTypeKind', 'StaticName', 'InternalName', 'Required', 'Indexed', 'Hidden',
  'Description', 'MaxLength', 'Choices', 'MinimumValue', 'MaximumValue', 'RichText', 'DisplayFormat', 'AllowMultipleValues',
  'LookupList', 'LookupListId', 'LookupField', 'LookupFieldName', 'EnforceUniqueValues', 'DefaultValue', 'TypeAsString', 'Type']);
const INERT = new Set(['Group', 'AllowHyperlink', 'AppendOnly', 'NumberOfLines', 'RestrictedMode', 'DateTimeCalendarType',
  'FriendlyDisplayFormat', 'CurrencyLocaleId', 'EditFormat', 'FillInChoice', 'SelectionGroup', 'SelectionMode',
  'ShowAsPercentage', 'UnlimitedLengthInDocumentLibrary', 'Presence', 'AllowDisplay', 'IsCompactName', 'LookupWebId',
  'ValidationFormula', 'ValidationMessage', 'ClientSideComponentId', 'ClientSideComponentProperties', 'CustomFormatter',
  'JSLink', 'ReadOnlyField', 'Sortable', 'Filterable', 'Sealed', 'EntityPropertyName', 'Scope', 'Options', 'ShowInFiltersPane']);

const fieldMetadataName = 'SP.ApiData.Fields';

function fieldOutcome(field: Field, list: List, ctx: ApiContext, status = 200): Outcome {
  const outcome = singleEntity(fieldEntity(field, list, ctx), fieldMetadataName, ctx);
  return { ...outcome, status };
}

/** Reads a field definition from SP.Field* properties (verbose bodies or AddField parameters). */
function fieldDefinition(props: Properties, typeFromMetadata?: string): NewField {
  for (const key of Object.keys(props)) if (!STORED.has(key) && !INERT.has(key)) throw errors.unknownBodyProperty(key, 'SP.Field');
  const title = stringProp(props, 'Title') ?? '';
  const allowMultiple = boolProp(props, 'AllowMultipleValues') ?? false;
  const typeKind = intProp(props, 'FieldTypeKind');
  const typeName = stringProp(props, 'TypeAsString') ?? stringProp(props, 'Type');
  let kind: FieldKind | undefined = typeKind !== undefined ? kindFromTypeKind(typeKind, allowMultiple)
    : typeName !== undefined ? kindFromTypeName(typeName) : undefined;
  if (!kind && typeFromMetadata) kind = kindFromTypeName(typeFromMetadata.replace(/^SP\.Field/, '')) ?? undefined;
  if (!kind) throw errors.badArgument(`The field type ${typeKind ?? typeName ?? '(none)'} is not supported by spemu.`);
  const options: FieldOptions = {};
  const choices = arrayValue(props.Choices);
  if (choices) options.choices = choices.map(String);
  const maxLength = intProp(props, 'MaxLength');
  if (maxLength !== undefined) options.maxLength = maxLength;
  const min = props.MinimumValue, max = props.MaximumValue;
  if (typeof min === 'number' && min > -1.7e308) options.min = min;
  if (typeof max === 'number' && max < 1.7e308) options.max = max;
  if (boolProp(props, 'RichText')) options.richText = true;
  if (kind === 'DateTime' && intProp(props, 'DisplayFormat') === 0) options.dateOnly = true;
  const lookupList = stringProp(props, 'LookupList') ?? stringProp(props, 'LookupListId');
  if (lookupList) options.lookupListId = lookupList.replace(/[{}]/g, '').toLowerCase();
  const lookupField = stringProp(props, 'LookupField') ?? stringProp(props, 'LookupFieldName');
  if (lookupField) options.lookupField = lookupField;
  if (FIELD_KINDS[kind].reference === 'lookup' && !options.lookupListId) throw errors.badArgument('A lookup field needs LookupListId.');
  const description = stringProp(props, 'Description');
  if (description) options.description = description;
  const defaultValue = stringProp(props, 'DefaultValue');
  if (defaultValue !== undefined) options.defaultValue = defaultValue;
  if (boolProp(props, 'EnforceUniqueValues')) options.enforceUniqueValues = true;
  const wanted = stringProp(props, 'StaticName') ?? stringProp(props, 'InternalName');
  return {
    // The name wanted; the service numbers it if the list has it already.
    internalName: internalNameFromTitle(wanted || title),
    title, kind, options,
    required: boolProp(props, 'Required') ?? false,
    indexed: boolProp(props, 'Indexed') ?? false,
    hidden: boolProp(props, 'Hidden') ?? false,
  };
}

/** `<Field Type="Number" DisplayName="Cost" Name="Cost" Required="TRUE" />` → SP.Field properties. */
function propsFromSchemaXml(xml: string): Properties {
  const tag = /^\s*<Field\b([^>]*?)\/?>/i.exec(xml);
  if (!tag) throw errors.badArgument('SchemaXml must be a <Field …/> element.');
  const attrs = new Map<string, string>();
  for (const m of tag[1]!.matchAll(/([A-Za-z_][\w.-]*)\s*=\s*"([^"]*)"/g)) {
    attrs.set(m[1]!.toLowerCase(), m[2]!.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&'));
  }
  const type = attrs.get('type');
  if (!type) throw errors.badArgument('SchemaXml must name the field Type.');
  const choices = [...xml.matchAll(/<CHOICE>([^<]*)<\/CHOICE>/gi)].map((m) => m[1]!);
  const props: Properties = {
    Title: attrs.get('displayname') ?? attrs.get('name'), TypeAsString: type,
    StaticName: attrs.get('staticname') ?? attrs.get('name'),
    Required: attrs.get('required')?.toUpperCase() === 'TRUE', Indexed: attrs.get('indexed')?.toUpperCase() === 'TRUE',
  };
  if (attrs.get('mult')?.toUpperCase() === 'TRUE') props.AllowMultipleValues = true;
  if (attrs.get('list')) props.LookupList = attrs.get('list');
  if (attrs.get('showfield')) props.LookupField = attrs.get('showfield');
  if (choices.length) props.Choices = choices;
  return props;
}

async function addField(list: List, props: Properties, ctx: ApiContext, typeFromMetadata?: string): Promise<Outcome> {
  const field = await ctx.services.fields.add(list, fieldDefinition(props, typeFromMetadata));
  return fieldOutcome(field, list, ctx, 201);
}

async function requireField(list: List, ctx: ApiContext, find: (fields: Field[]) => Field | undefined, name: string): Promise<Field> {
  const field = find(await ctx.store.fields.of(list));
  if (!field) throw errors.fieldNotFound(name);
  return field;
}

export const fieldsType: ResourceType<{ kind: 'fields'; list: List }> = {
  permissions: { create: 'ManageLists' },
  key: async (r, args, ctx) => {
    const id = guidText(stringArgument(args));
    return { kind: 'field', list: r.list, field: await requireField(r.list, ctx, (fs) => fs.find((f) => f.id === id), id) };
  },
  methods: {
    getbyinternalnameortitle: {
      kind: 'function',
      async invoke(r, args, ctx) {
        const name = stringArgument(args, 'strName');
        return { kind: 'field', list: r.list, field: await requireField(r.list, ctx, (fs) => findFieldByNameOrTitle(fs, name), name) };
      },
    },
    getbytitle: {
      kind: 'function',
      async invoke(r, args, ctx) {
        const title = stringArgument(args, 'title');
        const lower = title.toLowerCase();
        return { kind: 'field', list: r.list, field: await requireField(r.list, ctx, (fs) => fs.find((f) => f.title.toLowerCase() === lower), title) };
      },
    },
    getbyid: {
      kind: 'function',
      async invoke(r, args, ctx) {
        const id = guidText(stringArgument(args, 'id'));
        return { kind: 'field', list: r.list, field: await requireField(r.list, ctx, (fs) => fs.find((f) => f.id === id), id) };
      },
    },
    addfield: {
      kind: 'action', permission: 'ManageLists',
      invoke: (r, _args, ctx) => addField(r.list, readParameters(ctx, 'SP.FieldCreationInformation'), ctx),
    },
    createfieldasxml: {
      kind: 'action', permission: 'ManageLists',
      async invoke(r, _args, ctx) {
        const params = readParameters(ctx, 'SP.XmlSchemaFieldCreationInformation');
        if (typeof params.SchemaXml !== 'string') throw errors.badArgument('SchemaXml is required.');
        return addField(r.list, propsFromSchemaXml(params.SchemaXml), ctx);
      },
    },
  },
  async get(r, ctx) {
    const fields = await ctx.store.fields.of(r.list);
    return entityCollection(fields.map((f) => fieldEntity(f, r.list, ctx)), fieldMetadataName, ctx);
  },
  async create(r, ctx) {
    let metadataType: string | undefined;
    const props = readEntityBody(ctx, 'SP.Field', (t) => { metadataType = t; return /^SP\.Field\w*$/.test(t); });
    return addField(r.list, props, ctx, metadataType);
  },
};

export const fieldType: ResourceType<{ kind: 'field'; list: List; field: Field }> = {
  permissions: { update: 'ManageLists', delete: 'ManageLists' },
  get: async (r, ctx) => fieldOutcome(r.field, r.list, ctx),
  async update(r, ctx) {
    const props = readEntityBody(ctx, 'SP.Field', (t) => /^SP\.Field\w*$/.test(t));
    for (const key of Object.keys(props)) if (!STORED.has(key) && !INERT.has(key)) throw errors.unknownBodyProperty(key, 'SP.Field');
    await ctx.services.fields.update(r.list, r.field, {
      title: stringProp(props, 'Title'), required: boolProp(props, 'Required'), indexed: boolProp(props, 'Indexed'),
      hidden: boolProp(props, 'Hidden'), choices: arrayValue(props.Choices)?.map(String), description: stringProp(props, 'Description'),
    });
    return noContent();
  },
  async delete(r, ctx) {
    await ctx.services.fields.delete(r.list, r.field);
    return emptyOk();
  },
};
