// ProjectData values between their stored form (PdValue, see model.ts) and the wire:
// WCF Data Services' `/Date(ms)/` and ISO 8601 dates, six-decimal Edm.Decimal strings.

import type { EdmType, PdValue } from './model.ts';

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** `/Date(1467244800000)/`, `/Date(-86400000)/`, `/Date(1467244800000+0200)/` (also without the solidi). */
const MS_DATE = /^\/?Date\((-?\d+)(?:([+-])(\d{2})(\d{2}))?\)\/?$/;
/** ISO 8601 date or date-time; no zone means UTC (as the feed's values carry none). */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * A Project date as the feed sends it (`/Date(ms)/`, `/Date(ms+hhmm)/`, ISO 8601 with or
 * without a zone) → a Date; undefined when the text is neither. The offset form states
 * the zone the instant was shown in: the milliseconds are already UTC, so it is ignored.
 */
export function parseProjectDate(value: string): Date | undefined {
  const ms = MS_DATE.exec(value.trim());
  if (ms) {
    const date = new Date(Number(ms[1]));
    return Number.isNaN(date.getTime()) ? undefined : date;
  }
  const iso = ISO_DATE.exec(value.trim());
  if (!iso) return undefined;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone] = iso;
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0–99 as 1900–1999 (0001-01-01 is .NET's DateTime.MinValue).
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  date.setUTCHours(Number(h), Number(mi), Number(s));
  // A date that does not exist (31 February rolls over into March) is not a date, whatever its zone.
  if (date.getUTCFullYear() !== Number(y) || date.getUTCMonth() !== Number(mo) - 1 || date.getUTCDate() !== Number(d)
    || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  // .NET's seven fraction digits are truncated to milliseconds, never rounded up: 23:59:59.9999999 stays on its day.
  let time = date.getTime() + (frac ? Number(frac.slice(1, 4).padEnd(3, '0')) : 0);
  if (zone && zone.toUpperCase() !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    time -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  return new Date(time);
}

/** .NET's DateTime range (0001-01-01 to 9999-12-31), which every Edm.DateTime the feed serves stays within. */
const MIN_DATE = -62_135_596_800_000;
const MAX_DATE = 253_402_300_799_999;

/**
 * Milliseconds → `2016-06-30T00:00:00` (UTC, no zone designator, as Project Server writes it);
 * a fraction only when non-zero, without trailing zeros (.NET's `FFFFFFF`: `.31`, not `.310`).
 */
export function isoDateText(ms: number): string {
  const iso = new Date(ms).toISOString(); // 2016-06-30T00:00:00.000Z
  const fraction = iso.slice(19, 23).replace(/\.?0+$/, '');
  return iso.slice(0, 19) + fraction;
}

/** Milliseconds → `/Date(1467244800000)/` (the JSON writer escapes the solidi). */
export const msDateText = (ms: number): string => `/Date(${ms})/`;

/** Edm.Decimal as WCF DS writes Project's decimals: six places, as a string. */
export function decimalText(value: number): string {
  const text = value.toFixed(6);
  return text === '-0.000000' ? '0.000000' : text;
}

/** Edm.Double as ODataLib writes it in JSON: `3.0` for a whole number (a `.0` unless there is a `.` or an exponent). */
export function doubleText(value: number): string {
  const text = String(value);
  return Number.isFinite(value) && !/[.eE]/.test(text) ? `${text}.0` : text;
}

export class PdValueError extends Error {}

const INT_RANGE: Partial<Record<EdmType, [number, number]>> = {
  'Edm.Byte': [0, 255], 'Edm.Int16': [-32768, 32767], 'Edm.Int32': [-2147483648, 2147483647],
  'Edm.Int64': [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
};

/**
 * A value from a tenant file or an exported page (JSON: verbose, light, ISO or `/Date()/`
 * dates, decimals as strings or numbers) → the stored form for a property of `type`.
 * Throws PdValueError with a message naming what was wrong.
 */
export function toPdValue(type: EdmType, value: unknown): PdValue {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'Edm.Guid':
      if (typeof value !== 'string' || !GUID.test(value)) throw new PdValueError(`expected a GUID, got ${JSON.stringify(value)}`);
      return value.toLowerCase();
    case 'Edm.String':
      if (typeof value !== 'string') throw new PdValueError(`expected a string, got ${JSON.stringify(value)}`);
      return value;
    case 'Edm.DateTime': {
      const date = typeof value === 'string' ? parseProjectDate(value) : undefined;
      if (!date) throw new PdValueError(`expected a date (ISO 8601 or /Date(ms)/), got ${JSON.stringify(value)}`);
      // Outside it, ISO text, skip tokens and key literals would need years of more than four digits.
      if (date.getTime() < MIN_DATE || date.getTime() > MAX_DATE) throw new PdValueError(`expected a date between 0001-01-01 and 9999-12-31, got ${JSON.stringify(value)}`);
      return date.getTime();
    }
    case 'Edm.Boolean':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      throw new PdValueError(`expected true or false, got ${JSON.stringify(value)}`);
    case 'Edm.Decimal':
    case 'Edm.Double': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (!Number.isFinite(n)) throw new PdValueError(`expected a number, got ${JSON.stringify(value)}`);
      return n;
    }
    default: {
      const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : NaN;
      const [min, max] = INT_RANGE[type] ?? [-Infinity, Infinity];
      if (!Number.isInteger(n) || n < min || n > max) throw new PdValueError(`expected an integer (${type}), got ${JSON.stringify(value)}`);
      return n;
    }
  }
}

/** The Edm type a custom field's first value suggests (tenant files and imports carry no types). */
export function inferType(value: unknown): EdmType | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value === 'boolean') return 'Edm.Boolean';
  if (typeof value === 'number') return 'Edm.Decimal';
  if (typeof value !== 'string') return undefined;
  if (GUID.test(value)) return 'Edm.Guid';
  if (MS_DATE.test(value) || (ISO_DATE.test(value) && value.length >= 10 && parseProjectDate(value))) return 'Edm.DateTime';
  return 'Edm.String';
}
