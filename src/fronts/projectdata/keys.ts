// OData v3 literals for ProjectData values: key predicates (`Tasks(ProjectId=guid'…',TaskId=guid'…')`)
// and the skip tokens of next links (`$skiptoken=guid'…',datetime'…'`), and the reverse.

import type { Literal } from '../../query/ast.ts';
import type { EdmType, PdEntitySet, PdProperty, PdRow, PdValue } from '../../domain/projectdata/model.ts';
import { decimalText, doubleText, isoDateText, parseProjectDate } from '../../domain/projectdata/values.ts';

/** A stored value as an OData literal: `guid'…'`, `datetime'2016-06-30T00:00:00'`, `'O''Neil'`, `1.500000M`, `12`, `null`. */
export function literalText(type: EdmType, value: PdValue): string {
  if (value === null) return 'null';
  switch (type) {
    case 'Edm.Guid': return `guid'${String(value)}'`;
    case 'Edm.DateTime': return `datetime'${isoDateText(Number(value))}'`;
    case 'Edm.String': return `'${String(value).replaceAll("'", "''")}'`;
    // A skip token must name the row's exact value: six places when they hold it, else every digit.
    case 'Edm.Decimal': return `${Number(decimalText(Number(value))) === value ? decimalText(Number(value)) : String(value)}M`;
    case 'Edm.Int64': return `${value}L`;
    case 'Edm.Double': return doubleText(Number(value));
    default: return String(value);
  }
}

/** The key predicate inside the parentheses: one value alone, several as `Name=value` pairs. */
export function keyPredicate(set: PdEntitySet, row: PdRow): string {
  const keys = set.key.map((name) => set.properties.find((p) => p.name === name)!);
  if (keys.length === 1) return literalText(keys[0]!.type, row[keys[0]!.name] ?? null);
  return keys.map((p) => `${p.name}=${literalText(p.type, row[p.name] ?? null)}`).join(',');
}

/** A parsed literal as the value of a property of `type`; undefined when it cannot be one. */
export function literalValue(property: PdProperty, literal: Literal): PdValue | undefined {
  if (literal.type === 'null') return property.nullable ? null : undefined;
  switch (property.type) {
    case 'Edm.Guid':
      return literal.type === 'guid' ? literal.value.toLowerCase() : undefined;
    case 'Edm.String':
      return literal.type === 'string' ? literal.value : undefined;
    case 'Edm.DateTime': {
      if (literal.type !== 'datetime') return undefined;
      return parseProjectDate(literal.value)?.getTime();
    }
    case 'Edm.Boolean':
      return literal.type === 'boolean' ? literal.value : undefined;
    case 'Edm.Decimal':
    case 'Edm.Double':
      return literal.type === 'number' ? literal.value : undefined;
    default:
      return literal.type === 'number' && Number.isInteger(literal.value) ? literal.value : undefined;
  }
}

/** Encodes a literal list for a URL query, keeping the quotes, commas and colons readable as WCF DS does. */
export function encodeTokenForUrl(text: string): string {
  return encodeURIComponent(text).replace(/%27/g, "'").replace(/%2C/g, ',').replace(/%3A/g, ':');
}
