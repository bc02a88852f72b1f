// Turning client-supplied values into stored ones, per field kind, with the checks
// SharePoint makes. Stored forms: text as text, numbers as numbers, booleans as 0/1,
// dates as `YYYY-MM-DDTHH:MM:SSZ` (UTC, seconds), multi-values and URLs as JSON text.

import { FIELD_KINDS } from './field-kinds.ts';
import type { Field, StoredValue } from './model.ts';

/** A value SharePoint would refuse: out of range, too long, required but empty. */
export class ValueError extends Error {}
/** A value of the wrong JSON type for its field (SharePoint fails to convert it: 400). */
export class ValueTypeError extends ValueError {
  constructor(readonly field: string, readonly expectedType: string, message: string) { super(message); }
}

const EDM_TYPES: Partial<Record<string, string>> = {
  Number: 'Edm.Double', Currency: 'Edm.Double', Integer: 'Edm.Int32', Boolean: 'Edm.Boolean', DateTime: 'Edm.DateTime',
  User: 'Edm.Int32', Lookup: 'Edm.Int32', UserMulti: 'Collection(Edm.Int32)', LookupMulti: 'Collection(Edm.Int32)',
  MultiChoice: 'Collection(Edm.String)', URL: 'SP.FieldUrlValue', Guid: 'Edm.Guid',
};

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * Any ISO 8601 date or date-time → `YYYY-MM-DDTHH:MM:SSZ`, or undefined if it is not one.
 * A value without a zone is taken as UTC (spemu's sites use UTC as their time zone).
 */
export function normaliseDateTime(text: string): string | undefined {
  const m = ISO_DATE.exec(text.trim());
  if (!m) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', zone] = m;
  let ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
  const check = new Date(ms);
  if (check.getUTCFullYear() !== Number(y) || check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d)) return undefined;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  return isoSeconds(ms);
}

/** A time in milliseconds → `YYYY-MM-DDTHH:MM:SSZ`. */
export function isoSeconds(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/**
 * Checks and converts one value for `field`. `value` is what the client sent for the field's
 * own property (for User/Lookup fields: the `<Name>Id` property, an id or list of ids).
 * Throws ValueError with a message fit for the client.
 */
export function toStoredValue(field: Field, value: unknown): StoredValue {
  if (value === null || value === undefined) return null;
  const fail = (expected: string): never => {
    throw new ValueTypeError(field.internalName, EDM_TYPES[field.kind] ?? 'Edm.String',
      `Invalid value for field '${field.internalName}' (${FIELD_KINDS[field.kind].typeAsString}): expected ${expected}, got ${describe(value)}.`);
  };
  switch (field.kind) {
    case 'Text': case 'Note': case 'Choice': {
      if (typeof value !== 'string') {
        if (typeof value === 'number' || typeof value === 'boolean') return String(value);
        return fail('a string');
      }
      const max = field.kind === 'Text' ? field.options.maxLength ?? 255 : field.kind === 'Note' ? 1 << 30 : 255;
      if (value.length > max) throw new ValueError(`The value of field '${field.internalName}' is longer than its maximum length of ${max}.`);
      return value;
    }
    case 'Guid': {
      const text = typeof value === 'string' ? value.replace(/^\{|\}$/g, '') : fail('a GUID string');
      if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text)) fail('a GUID string');
      return text.toLowerCase();
    }
    case 'Number': case 'Currency': case 'Integer': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (!Number.isFinite(n)) return fail('a number');
      if (field.kind === 'Integer' && !Number.isInteger(n)) return fail('an integer');
      if (field.options.min !== undefined && n < field.options.min) throw new ValueError(`The value of field '${field.internalName}' is below its minimum of ${field.options.min}.`);
      if (field.options.max !== undefined && n > field.options.max) throw new ValueError(`The value of field '${field.internalName}' is above its maximum of ${field.options.max}.`);
      return n;
    }
    case 'Boolean': {
      if (typeof value === 'boolean') return value ? 1 : 0;
      if (value === 0 || value === 1) return value;
      if (typeof value === 'string' && /^(true|false|0|1)$/i.test(value)) return /^(true|1)$/i.test(value) ? 1 : 0;
      return fail('a boolean');
    }
    case 'DateTime': {
      const iso = typeof value === 'string' ? normaliseDateTime(value) : undefined;
      if (!iso) return fail('an ISO 8601 date');
      if (iso < '1900-01-01T00:00:00Z' || iso > '8900-12-31T23:59:59Z') {
        throw new ValueError('You must specify a valid date within the range of 1/1/1900 and 12/31/8900.');
      }
      return iso;
    }
    case 'User': case 'Lookup': {
      const id = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
      if (!Number.isInteger(id) || id < 0) return fail('an item id');
      return id === 0 ? null : id;
    }
    case 'UserMulti': case 'LookupMulti': {
      const ids = multiValues(value).map((v) => (typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN));
      if (ids.some((id) => !Number.isInteger(id) || id <= 0)) return fail('a list of item ids');
      return ids.length ? JSON.stringify([...new Set(ids)]) : null;
    }
    case 'MultiChoice': {
      const choices = multiValues(value);
      if (choices.some((c) => typeof c !== 'string')) return fail('a list of strings');
      return choices.length ? JSON.stringify(choices) : null;
    }
    case 'URL': {
      if (typeof value === 'string') return value === '' ? null : JSON.stringify({ Description: value, Url: value });
      if (typeof value !== 'object' || Array.isArray(value)) return fail('an object with Url and Description');
      const { Url, Description } = value as { Url?: unknown; Description?: unknown };
      if (typeof Url !== 'string' || (Description !== undefined && Description !== null && typeof Description !== 'string')) {
        return fail('an object with Url and Description');
      }
      if (Url === '') return null;
      return JSON.stringify({ Description: typeof Description === 'string' ? Description : Url, Url });
    }
    case 'Location': case 'Thumbnail': {
      // Written as JSON text (PnPjs and SharePoint's forms send a string); an object is taken as its JSON.
      const text = typeof value === 'string' ? value : typeof value === 'object' && !Array.isArray(value) ? JSON.stringify(value) : fail('a JSON string');
      if (text === '') return null;
      let parsed: unknown;
      try { parsed = JSON.parse(text); } catch { return fail('a JSON object string'); }
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return fail('a JSON object string');
      return text;
    }
    default:
      throw new ValueError(`The field '${field.internalName}' is read-only.`);
  }
}

/** Multi-values arrive as `{results:[…]}` (verbose, with optional `__metadata`) or a plain array. */
function multiValues(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object' && Array.isArray((value as { results?: unknown }).results)) {
    return (value as { results: unknown[] }).results;
  }
  throw new ValueTypeError('', 'Collection', 'expected an array or {"results":[…]}');
}

/** Parses a stored multi-value (JSON text) back into its array. */
export function storedArray<T>(value: StoredValue): T[] {
  if (typeof value !== 'string') return [];
  const parsed: unknown = JSON.parse(value);
  return Array.isArray(parsed) ? (parsed as T[]) : [];
}
