// ProjectData's two JSON formats, as WCF Data Services V3 writes them: verbose
// (`{"d":{"results":[…],"__next":…}}`, `__metadata`, deferred links) and JSON light
// (`odata.metadata`, `value`, `odata.nextLink`). Dates follow the site's setting: Project
// Online's `"\/Date(ms)\/"` (the solidi escaped, as WCF DS writes them) or on-premises ISO.

import type { EdmType, PdEntitySet, PdProperty, PdRow, PdValue } from '../../domain/projectdata/model.ts';
import { NAMESPACE } from '../../domain/projectdata/model.ts';
import type { PdResult, Projection } from './execute.ts';
import { keyPredicate } from './keys.ts';
import { decimalText, doubleText, isoDateText } from '../../domain/projectdata/values.ts';

export type DateStyle = 'online' | 'onprem';
export type JsonFormat = 'verbose' | 'light' | 'light-nometadata';

interface WriteContext {
  baseUrl: string;
  dates: DateStyle;
}

/** One value in JSON. Decimals and 64-bit integers are strings in both formats (OData v2/v3 JSON). */
export function jsonValue(type: EdmType, value: PdValue, dates: DateStyle): string {
  if (value === null) return 'null';
  switch (type) {
    case 'Edm.DateTime':
      // `\/` is a legal JSON escape of `/`: clients' JSON parsers read `/Date(…)/`, and readers of the raw text see WCF DS's form.
      return dates === 'online' ? `"\\/Date(${Number(value)})\\/"` : `"${isoDateText(Number(value))}"`;
    case 'Edm.Decimal':
      return `"${decimalText(Number(value))}"`;
    case 'Edm.Int64':
      return `"${value}"`;
    case 'Edm.Double':
      return Number.isFinite(value) ? doubleText(Number(value)) : `"${value}"`;
    case 'Edm.Boolean':
    case 'Edm.Int32':
    case 'Edm.Int16':
    case 'Edm.Byte':
      return JSON.stringify(value);
    default:
      return JSON.stringify(String(value));
  }
}

const properties = (row: PdRow, projection: Projection, dates: DateStyle): string[] =>
  projection.properties.map((p) => `${JSON.stringify(p.name)}:${jsonValue(p.type, row[p.name] ?? null, dates)}`);

function verboseEntry(set: PdEntitySet, row: PdRow, projection: Projection, ctx: WriteContext): string {
  const uri = `${ctx.baseUrl}${set.name}(${keyPredicate(set, row)})`;
  const parts = [`"__metadata":{"id":${JSON.stringify(uri)},"uri":${JSON.stringify(uri)},"type":"${NAMESPACE}.${set.entityType}"}`];
  // Links first, then properties: WCF DS writes an entry's properties when the entry ends, after its nested links.
  for (const n of projection.navigations) parts.push(`${JSON.stringify(n.name)}:{"__deferred":{"uri":${JSON.stringify(`${uri}/${n.name}`)}}}`);
  parts.push(...properties(row, projection, ctx.dates));
  return `{${parts.join(',')}}`;
}

const lightEntry = (row: PdRow, projection: Projection, ctx: WriteContext): string =>
  `{${properties(row, projection, ctx.dates).join(',')}}`;

/** `…/$metadata#Tasks`, with the `$select` as WCF DS appends it (`&$select=TaskId,TaskName`). */
function metadataUrl(ctx: WriteContext, fragment: string, selectText: string | undefined): string {
  return `${ctx.baseUrl}$metadata#${fragment}${selectText !== undefined && selectText.trim() !== '' ? `&$select=${selectText}` : ''}`;
}

export function writeJson(result: Exclude<PdResult, { kind: 'metadata' } | { kind: 'count' }>, format: JsonFormat, ctx: WriteContext): string {
  const light = format !== 'verbose';
  const meta = format === 'light';
  switch (result.kind) {
    case 'service': {
      if (!light) return `{"d":{"EntitySets":${JSON.stringify(result.sets.map((s) => s.name))}}}`;
      const value = result.sets.map((s) => `{"name":${JSON.stringify(s.name)},"url":${JSON.stringify(s.name)}}`).join(',');
      return `{${meta ? `"odata.metadata":${JSON.stringify(`${ctx.baseUrl}$metadata`)},` : ''}"value":[${value}]}`;
    }
    case 'feed': {
      const count = result.count === undefined ? undefined : `"${result.count}"`;
      if (!light) {
        const rows = result.rows.map((r) => verboseEntry(result.set, r, result.projection, ctx)).join(',');
        return `{"d":{${count !== undefined ? `"__count":${count},` : ''}"results":[${rows}]${result.nextLink ? `,"__next":${JSON.stringify(result.nextLink)}` : ''}}}`;
      }
      const rows = result.rows.map((r) => lightEntry(r, result.projection, ctx)).join(',');
      return `{${meta ? `"odata.metadata":${JSON.stringify(metadataUrl(ctx, result.set.name, result.selectText))},` : ''}`
        + `${count !== undefined ? `"odata.count":${count},` : ''}"value":[${rows}]`
        + `${result.nextLink ? `,"odata.nextLink":${JSON.stringify(result.nextLink)}` : ''}}`;
    }
    case 'entry': {
      if (!light) return `{"d":${verboseEntry(result.set, result.row, result.projection, ctx)}}`;
      const props = properties(result.row, result.projection, ctx.dates);
      if (meta) props.unshift(`"odata.metadata":${JSON.stringify(metadataUrl(ctx, `${result.set.name}/@Element`, result.selectText))}`);
      return `{${props.join(',')}}`;
    }
    case 'property': {
      const value = jsonValue(result.property.type, result.value, ctx.dates);
      if (!light) return `{"d":{${JSON.stringify(result.property.name)}:${value}}}`;
      return `{${meta ? `"odata.metadata":${JSON.stringify(`${ctx.baseUrl}$metadata#${result.property.type}`)},` : ''}"value":${value}}`;
    }
  }
}

/** WCF DS's JSON error: `error` in verbose, `odata.error` in JSON light; the code is empty. */
export function writeJsonError(message: string, format: JsonFormat): string {
  const body = `{"code":"","message":{"lang":"en-US","value":${JSON.stringify(message)}}}`;
  return format === 'verbose' ? `{"error":${body}}` : `{"odata.error":${body}}`;
}

/** A primitive value for `/$value`: the raw text, dates in ISO (XML's form, whatever the site's JSON style). */
export function rawValueText(property: PdProperty, value: PdValue): string {
  if (value === null) return '';
  if (property.type === 'Edm.DateTime') return isoDateText(Number(value));
  if (property.type === 'Edm.Decimal') return decimalText(Number(value));
  return String(value);
}
