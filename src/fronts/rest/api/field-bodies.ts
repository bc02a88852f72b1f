// What clients send to make or change a field, list field and site column alike: SP.Field*
// properties (verbose `POST fields` bodies, AddField's parameters, MERGE bodies) and Field XML
// (createfieldasxml's SchemaXml), read into the domain's terms with SharePoint's errors.

import type { FieldOptions, NewField } from '../../../domain/model.ts';
import { outputTypeFrom } from '../../../domain/calculated.ts';
import { FIELD_KINDS, kindFromTypeKind, kindFromTypeName, type FieldKind } from '../../../domain/field-kinds.ts';
import { internalNameFromTitle } from '../../../domain/names.ts';
import type { FieldChanges } from '../../../services/fields.ts';
import { errors } from '../../../wire/errors.ts';
import { arrayValue, boolProp, intProp, stringProp, type Properties } from './body.ts';

/** SP.Field* properties spemu stores; the second set is accepted and has no effect here. */
const STORED = new Set(['Title', 'FieldTypeKind', 'StaticName', 'InternalName', 'Required', 'Indexed', 'Hidden',
  'Description', 'MaxLength', 'Choices', 'MinimumValue', 'MaximumValue', 'RichText', 'DisplayFormat', 'AllowMultipleValues',
  'LookupList', 'LookupListId', 'LookupField', 'LookupFieldName', 'EnforceUniqueValues', 'DefaultValue', 'TypeAsString', 'Type',
  'Group', 'Id', 'Formula', 'OutputType', 'DateFormat']);
const INERT = new Set(['AllowHyperlink', 'AppendOnly', 'NumberOfLines', 'RestrictedMode', 'DateTimeCalendarType',
  'FriendlyDisplayFormat', 'CurrencyLocaleId', 'EditFormat', 'FillInChoice', 'SelectionGroup', 'SelectionMode',
  'ShowAsPercentage', 'UnlimitedLengthInDocumentLibrary', 'Presence', 'AllowDisplay', 'IsCompactName', 'LookupWebId',
  'ValidationFormula', 'ValidationMessage', 'ClientSideComponentId', 'ClientSideComponentProperties', 'CustomFormatter',
  'JSLink', 'ReadOnlyField', 'Sortable', 'Filterable', 'Sealed', 'EntityPropertyName', 'Scope', 'Options', 'ShowInFiltersPane']);

const GUID = /^\{?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\}?$/i;

/** Every property of `props` is one SP.Field* has (spemu stores it or lets it be). */
export function checkFieldProperties(props: Properties): void {
  for (const key of Object.keys(props)) if (!STORED.has(key) && !INERT.has(key)) throw errors.unknownBodyProperty(key, 'SP.Field');
}

/** The field kind a body asks for: FieldTypeKind, else TypeAsString, else the verbose type (`SP.FieldText`). */
function requestedKind(props: Properties, typeFromMetadata: string | undefined): FieldKind {
  const allowMultiple = boolProp(props, 'AllowMultipleValues') ?? false;
  const typeKind = intProp(props, 'FieldTypeKind');
  const typeName = stringProp(props, 'TypeAsString') ?? stringProp(props, 'Type');
  let kind: FieldKind | undefined = typeKind !== undefined ? kindFromTypeKind(typeKind, allowMultiple)
    : typeName !== undefined ? kindFromTypeName(typeName) : undefined;
  if (!kind && typeKind === undefined && typeName === undefined && typeFromMetadata) {
    kind = kindFromTypeName(typeFromMetadata.replace(/^SP\.Field/, '')) ?? undefined;
  }
  // The kinds spemu does not model are refused before anything is made.
  if (!kind) throw errors.badArgument(`The field type ${typeKind ?? typeName ?? '(none)'} is not supported by spemu.`);
  return kind;
}

/** Reads a field definition from SP.Field* properties (verbose bodies or AddField parameters). */
export function fieldDefinition(props: Properties, typeFromMetadata?: string): NewField {
  const kind = requestedKind(props, typeFromMetadata);
  checkFieldProperties(props);
  const title = stringProp(props, 'Title') ?? '';
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
  const group = stringProp(props, 'Group');
  if (group) options.group = group;
  if (kind === 'Calculated') Object.assign(options, calculatedOptions(props));
  const wanted = stringProp(props, 'StaticName') ?? stringProp(props, 'InternalName');
  const id = stringProp(props, 'Id');
  if (id !== undefined && !GUID.test(id)) throw errors.badArgument(`The field id '${id}' is not a GUID.`);
  return {
    // The name wanted; the service numbers it if the list (or web) has it already.
    internalName: internalNameFromTitle(wanted || title),
    title, kind, options,
    required: boolProp(props, 'Required') ?? false,
    indexed: boolProp(props, 'Indexed') ?? false,
    hidden: boolProp(props, 'Hidden') ?? false,
    id: id === undefined ? undefined : GUID.exec(id)![1]!.toLowerCase(),
  };
}

/** SP.FieldCalculated's Formula (checked by the service), OutputType (a SP.FieldType number or name) and DateFormat (0 date only). */
function calculatedOptions(props: Properties): FieldOptions {
  const output = props.OutputType === undefined || props.OutputType === null ? 'Text' : outputTypeFrom(props.OutputType);
  if (!output) throw errors.badArgument(`The output type ${String(props.OutputType)} is not one a calculated field can have.`);
  const options: FieldOptions = { formula: stringProp(props, 'Formula') ?? '', outputType: output };
  if (intProp(props, 'DateFormat') === 0) options.dateOnly = true;
  return options;
}

/** A MERGE body's changes (SP.Field* properties, checked as on creation). */
export function fieldChanges(props: Properties): FieldChanges {
  checkFieldProperties(props);
  // spemu keeps a calculated column's stored type: changing it is refused rather than ignored.
  if (props.OutputType !== undefined) throw errors.badArgument("spemu cannot change a calculated field's OutputType; delete the field and add it again.");
  return {
    formula: stringProp(props, 'Formula'),
    title: stringProp(props, 'Title'), required: boolProp(props, 'Required'), indexed: boolProp(props, 'Indexed'),
    hidden: boolProp(props, 'Hidden'), choices: arrayValue(props.Choices)?.map(String), description: stringProp(props, 'Description'),
    group: stringProp(props, 'Group'),
  };
}

const xmlText = (s: string) => s.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&apos;/g, "'").replace(/&amp;/g, '&');

/**
 * `<Field ID="{…}" Type="Number" DisplayName="Cost" Name="Cost" Required="TRUE" Group="…" />` →
 * SP.Field properties. The `ID` is kept: a site column's XML added to a list makes a field with
 * the column's id, as SharePoint does.
 */
export function propsFromSchemaXml(xml: string): Properties {
  const tag = /^\s*<Field\b([^>]*?)\/?>/i.exec(xml);
  if (!tag) throw errors.badArgument('SchemaXml must be a <Field …/> element.');
  const attrs = new Map<string, string>();
  for (const m of tag[1]!.matchAll(/([A-Za-z_][\w.-]*)\s*=\s*"([^"]*)"/g)) attrs.set(m[1]!.toLowerCase(), xmlText(m[2]!));
  const type = attrs.get('type');
  if (!type) throw errors.badArgument('SchemaXml must name the field Type.');
  const choices = [...xml.matchAll(/<CHOICE>([^<]*)<\/CHOICE>/gi)].map((m) => xmlText(m[1]!));
  const flag = (name: string) => attrs.get(name)?.toUpperCase() === 'TRUE';
  const props: Properties = {
    Title: attrs.get('displayname') ?? attrs.get('name'), TypeAsString: type,
    StaticName: attrs.get('staticname') ?? attrs.get('name'),
    Required: flag('required'), Indexed: flag('indexed'), Hidden: flag('hidden'),
  };
  if (attrs.get('id')) props.Id = attrs.get('id');
  if (attrs.get('group')) props.Group = attrs.get('group');
  if (attrs.get('description')) props.Description = attrs.get('description');
  if (flag('mult')) props.AllowMultipleValues = true;
  if (attrs.get('list')) props.LookupList = attrs.get('list');
  if (attrs.get('showfield')) props.LookupField = attrs.get('showfield');
  if (attrs.get('maxlength') && /^\d+$/.test(attrs.get('maxlength')!)) props.MaxLength = Number(attrs.get('maxlength'));
  const number = (name: string) => { const v = attrs.get(name); return v !== undefined && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : undefined; };
  if (number('min') !== undefined) props.MinimumValue = number('min');
  if (number('max') !== undefined) props.MaximumValue = number('max');
  if (attrs.get('format')?.toLowerCase() === 'dateonly') props.DisplayFormat = 0;
  if (choices.length) props.Choices = choices;
  if (type.toLowerCase() === 'calculated') {
    const formula = /<Formula>([\s\S]*?)<\/Formula>/i.exec(xml);
    if (formula) props.Formula = xmlText(formula[1]!);
    if (attrs.get('resulttype')) props.OutputType = attrs.get('resulttype');
    if (attrs.get('format')?.toLowerCase() === 'dateonly') { props.DateFormat = 0; delete props.DisplayFormat; }
  }
  return props;
}
