// Form values: an item's fields as the text SharePoint's forms post them
// (ValidateUpdateListItem, AddValidateUpdateItemUsingPath), read into the values the REST
// body would carry. The site's locale is en-US and its time zone UTC (spemu's sites), so a
// date is `12/31/2024`, `12/31/2024 10:30 AM` or ISO 8601; a number may group thousands with
// commas; people are a people-picker JSON (`[{"Key":"i:0#.f|membership|…"}]`), logins or ids.

import type { Field } from './model.ts';

/** What a form value says: a value the REST body would carry, or people to resolve to site user ids. */
export type FormValue =
  | { kind: 'value'; raw: unknown }
  | { kind: 'people'; logins: string[]; ids: number[] };

export class FormValueError extends Error {}

/** SharePoint's messages for a value its form refuses. */
const INVALID_NUMBER = 'Invalid number value. A number field contains invalid data. Please check the value and try again.';
const INVALID_DATE = 'You must specify a valid date within the range of 1/1/1900 and 12/31/8900.';

/** Reads `text` as `field`'s form value; an empty text clears the field. */
export function readFormValue(field: Field, text: string): FormValue {
  const value = text.trim();
  if (value === '') return { kind: 'value', raw: null };
  switch (field.kind) {
    case 'Number': case 'Currency': case 'Integer': {
      const n = Number(value.replace(/^\$/, '').replace(/,(?=\d{3}(\D|$))/g, ''));
      if (!Number.isFinite(n)) throw new FormValueError(INVALID_NUMBER);
      return { kind: 'value', raw: n };
    }
    case 'Boolean': {
      if (/^(1|yes|true)$/i.test(value)) return { kind: 'value', raw: true };
      if (/^(0|no|false)$/i.test(value)) return { kind: 'value', raw: false };
      throw new FormValueError(`The value "${text}" is not Yes or No.`);
    }
    case 'DateTime': return { kind: 'value', raw: formDate(value) };
    case 'MultiChoice': return { kind: 'value', raw: value.split(';#').filter((c) => c !== '') };
    case 'Lookup': return { kind: 'value', raw: lookupIds(value)[0] ?? null };
    case 'LookupMulti': return { kind: 'value', raw: lookupIds(value) };
    case 'URL': {
      const comma = value.indexOf(', ');
      return { kind: 'value', raw: comma < 0 ? { Url: value, Description: value } : { Url: value.slice(0, comma), Description: value.slice(comma + 2) } };
    }
    case 'User': case 'UserMulti': return people(value);
    default: return { kind: 'value', raw: text };
  }
}

/** en-US `M/D/YYYY[ h:mm[:ss] AM|PM]` or `H:mm`, or ISO 8601; UTC, as spemu's sites keep time. */
function formDate(text: string): string {
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2})(?::(\d{2}))?\s*(AM|PM)?)?$/i.exec(text);
  let iso: string;
  if (us) {
    const [, m, d, y, h = '0', min = '0', s = '0', half] = us;
    let hour = Number(h);
    if (half) {
      if (hour < 1 || hour > 12) throw new FormValueError(INVALID_DATE);
      hour = (hour % 12) + (half.toUpperCase() === 'PM' ? 12 : 0);
    }
    const date = new Date(Date.UTC(Number(y), Number(m) - 1, Number(d), hour, Number(min), Number(s)));
    if (date.getUTCMonth() !== Number(m) - 1 || date.getUTCDate() !== Number(d) || hour > 23 || Number(min) > 59 || Number(s) > 59) throw new FormValueError(INVALID_DATE);
    iso = date.toISOString().replace(/\.\d{3}Z$/, 'Z');
  } else {
    const ms = Date.parse(text);
    if (!/^\d{4}-\d{2}-\d{2}/.test(text) || Number.isNaN(ms)) throw new FormValueError(INVALID_DATE);
    iso = new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }
  if (iso < '1900-01-01T00:00:00Z' || iso > '8900-12-31T23:59:59Z') throw new FormValueError(INVALID_DATE);
  return iso;
}

/** `5`, `5;#Title`, `1;#;#2;#`, `1;#A;#2;#B`: the ids at the even places. */
function lookupIds(text: string): number[] {
  const parts = text.split(';#');
  const ids: number[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    const part = parts[i]!.trim();
    if (part === '') continue;
    if (!/^\d+$/.test(part)) throw new FormValueError(`The lookup value "${text}" is not an item id.`);
    ids.push(Number(part));
  }
  return ids;
}

/** A people-picker JSON array (`Key` is the login), or logins / ids separated by `;#` or `;`. */
function people(text: string): FormValue {
  let entries: string[];
  if (text.startsWith('[')) {
    let parsed: unknown;
    try { parsed = JSON.parse(text); } catch { throw new FormValueError(`The people value "${text}" is not valid JSON.`); }
    if (!Array.isArray(parsed)) throw new FormValueError('The people value must be a JSON array.');
    entries = parsed.map((p) => {
      const key = p && typeof p === 'object' ? (p as { Key?: unknown; key?: unknown }).Key ?? (p as { key?: unknown }).key : undefined;
      if (typeof key !== 'string' || !key) throw new FormValueError('Each person needs a Key (their login).');
      return key;
    });
  } else {
    entries = text.split(/;#|;/).map((e) => e.trim()).filter((e) => e !== '');
  }
  const ids = entries.filter((e) => /^\d+$/.test(e)).map(Number);
  return { kind: 'people', ids, logins: entries.filter((e) => !/^\d+$/.test(e)) };
}
