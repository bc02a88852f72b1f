// TEXT(value, format): the format codes provisioning formulas use. Numbers: `0`, `0.00`,
// `#,##0`, `#,##0.00`, `0%`; dates: `yyyy`, `yy`, `mmmm`, `mmm`, `mm`, `m`, `dddd`, `ddd`,
// `dd`, `d`, `hh`, `ss` with any literal text between (`yyyy-mm-dd`, `dd/mm/yyyy`). Other
// codes give the value in General form (docs/compatibility.md).

import { FormulaErrorValue, generalNumber, msFromSerial, toNumber, VALUE_ERROR, type FormulaValue } from './values.ts';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const NUMBER_FORMAT = /^([#,0]*0|#)(?:\.(0+))?(%?)$/;
const DATE_CODE = /yyyy|yy|mmmm|mmm|mm|m|dddd|ddd|dd|d|hh|h|ss|s/gi;

export function formatText(value: FormulaValue, format: string): FormulaValue {
  if (value instanceof FormulaErrorValue) return value;
  const numberFormat = NUMBER_FORMAT.exec(format);
  if (numberFormat) {
    const n = toNumber(value);
    if (n instanceof FormulaErrorValue) return typeof value === 'string' ? value : n;
    const percent = numberFormat[3] === '%';
    const decimals = numberFormat[2]?.length ?? 0;
    const scaled = percent ? n * 100 : n;
    const fixed = roundHalfAway(scaled, decimals).toFixed(decimals);
    const grouped = numberFormat[1]!.includes(',') ? groupThousands(fixed) : fixed;
    return grouped + (percent ? '%' : '');
  }
  if (/[ymd]/i.test(format)) {
    const serial = toNumber(value);
    if (serial instanceof FormulaErrorValue) return typeof value === 'string' ? value : serial;
    if (serial < 0) return VALUE_ERROR;
    const date = new Date(msFromSerial(serial));
    const pad = (n: number) => String(n).padStart(2, '0');
    return format.replace(DATE_CODE, (code) => {
      switch (code.toLowerCase()) {
        case 'yyyy': return String(date.getUTCFullYear());
        case 'yy': return pad(date.getUTCFullYear() % 100);
        case 'mmmm': return MONTHS[date.getUTCMonth()]!;
        case 'mmm': return MONTHS[date.getUTCMonth()]!.slice(0, 3);
        case 'mm': return pad(date.getUTCMonth() + 1);
        case 'm': return String(date.getUTCMonth() + 1);
        case 'dddd': return DAYS[date.getUTCDay()]!;
        case 'ddd': return DAYS[date.getUTCDay()]!.slice(0, 3);
        case 'dd': return pad(date.getUTCDate());
        case 'd': return String(date.getUTCDate());
        case 'hh': return pad(date.getUTCHours());
        case 'h': return String(date.getUTCHours());
        case 'ss': return pad(date.getUTCSeconds());
        default: return String(date.getUTCSeconds());
      }
    });
  }
  return typeof value === 'number' ? generalNumber(value) : value === null ? '' : typeof value === 'boolean' ? (value ? 'TRUE' : 'FALSE') : value;
}

/** Rounds half away from zero, as Excel does (toFixed alone rounds 1.005 down). */
export function roundHalfAway(n: number, digits: number): number {
  const factor = 10 ** digits;
  const scaled = Math.abs(n) * factor;
  const rounded = Math.round(Number(scaled.toPrecision(15))) / factor;
  return n < 0 ? -rounded : rounded;
}

function groupThousands(fixed: string): string {
  const [whole, fraction] = fixed.split('.');
  const sign = whole!.startsWith('-') ? '-' : '';
  const digits = whole!.replace('-', '').replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return sign + digits + (fraction !== undefined ? `.${fraction}` : '');
}
