// The values a formula computes with, as Excel has them: numbers (dates are serial day
// numbers, day 1 being 1900-01-01), text, logical values, a blank (an empty column) and
// errors, which pass through every operation that meets them.

export class FormulaErrorValue {
  constructor(readonly text: '#VALUE!' | '#DIV/0!' | '#NUM!') {}
}

export type FormulaValue = number | string | boolean | null | FormulaErrorValue;

export const VALUE_ERROR = new FormulaErrorValue('#VALUE!');
export const DIV0_ERROR = new FormulaErrorValue('#DIV/0!');
export const NUM_ERROR = new FormulaErrorValue('#NUM!');

const MS_PER_DAY = 86_400_000;
/** Days from Excel's day 0 (1899-12-30, as serials count) to 1970-01-01. */
const EPOCH_SERIAL = 25_569;

export const serialFromIso = (iso: string): number => Date.parse(iso) / MS_PER_DAY + EPOCH_SERIAL;
/** A serial day number as a UTC time in milliseconds (to the second). */
export const msFromSerial = (serial: number): number => Math.round((serial - EPOCH_SERIAL) * 86_400) * 1000;

/** A value as a number for arithmetic: blank is 0, TRUE 1, text that reads as a number that number. */
export function toNumber(v: FormulaValue): number | FormulaErrorValue {
  if (v instanceof FormulaErrorValue) return v;
  if (v === null) return 0;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'number') return v;
  const trimmed = v.trim();
  if (trimmed !== '' && Number.isFinite(Number(trimmed))) return Number(trimmed);
  const date = /^\d{4}-\d{2}-\d{2}(T[\d:]+Z?)?$/.test(trimmed) ? Date.parse(trimmed) : NaN;
  return Number.isNaN(date) ? VALUE_ERROR : date / MS_PER_DAY + EPOCH_SERIAL;
}

/** A value as text, as `&` joins it: numbers in Excel's General form, logical values TRUE/FALSE. */
export function toText(v: FormulaValue): string | FormulaErrorValue {
  if (v instanceof FormulaErrorValue) return v;
  if (v === null) return '';
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (typeof v === 'number') return generalNumber(v);
  return v;
}

/** A value as a logical one: numbers are TRUE unless 0; text only as TRUE or FALSE. */
export function toBoolean(v: FormulaValue): boolean | FormulaErrorValue {
  if (v instanceof FormulaErrorValue) return v;
  if (v === null) return false;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'number') return v !== 0;
  const upper = v.trim().toUpperCase();
  return upper === 'TRUE' ? true : upper === 'FALSE' ? false : VALUE_ERROR;
}

/** Excel's General format: at most 15 significant digits, no trailing zeros. */
export function generalNumber(n: number): string {
  if (Number.isInteger(n) && Math.abs(n) < 1e15) return String(n);
  return String(Number(n.toPrecision(15)));
}
