// Evaluating a parsed formula against one item's values. Excel's rules: arithmetic reads
// blanks as 0 and numeric text as numbers, `&` joins text, comparisons of text ignore case,
// an error met anywhere is the result, IF evaluates only the branch it takes.

import type { BinaryOp, FormulaNode } from './parse.ts';
import { formatText, roundHalfAway } from './text-format.ts';
import {
  DIV0_ERROR, FormulaErrorValue, msFromSerial, NUM_ERROR, toBoolean, toNumber, toText, VALUE_ERROR, type FormulaValue,
} from './values.ts';

/** The value of a column reference (the name as written in the formula). */
export type ReferenceReader = (name: string) => FormulaValue;

/** The functions spemu evaluates, with the number of arguments each takes. */
export const FUNCTIONS: Record<string, { min: number; max: number }> = {
  IF: { min: 2, max: 3 }, AND: { min: 1, max: 255 }, OR: { min: 1, max: 255 }, NOT: { min: 1, max: 1 },
  ISBLANK: { min: 1, max: 1 }, TEXT: { min: 2, max: 2 }, CONCATENATE: { min: 1, max: 255 },
  LEFT: { min: 1, max: 2 }, RIGHT: { min: 1, max: 2 }, MID: { min: 3, max: 3 }, LEN: { min: 1, max: 1 },
  UPPER: { min: 1, max: 1 }, LOWER: { min: 1, max: 1 }, TRIM: { min: 1, max: 1 },
  ROUND: { min: 2, max: 2 }, ROUNDUP: { min: 2, max: 2 }, ROUNDDOWN: { min: 2, max: 2 }, INT: { min: 1, max: 1 },
  ABS: { min: 1, max: 1 }, MOD: { min: 2, max: 2 }, YEAR: { min: 1, max: 1 }, MONTH: { min: 1, max: 1 },
  DAY: { min: 1, max: 1 }, DATE: { min: 3, max: 3 },
};

/** Functions whose value changes without the item changing: a stored column cannot hold them. */
export const VOLATILE_FUNCTIONS = new Set(['TODAY', 'NOW', 'ME']);

export function evaluateFormula(tree: FormulaNode, read: ReferenceReader): FormulaValue {
  switch (tree.t) {
    case 'number': case 'string': case 'boolean': return tree.value;
    case 'ref': return read(tree.name);
    case 'negate': {
      const n = toNumber(evaluateFormula(tree.operand, read));
      return n instanceof FormulaErrorValue ? n : -n;
    }
    case 'binary': return binary(tree.op, evaluateFormula(tree.left, read), evaluateFormula(tree.right, read));
    case 'call': return call(tree.name, tree.args, read);
  }
}

function binary(op: BinaryOp, left: FormulaValue, right: FormulaValue): FormulaValue {
  if (left instanceof FormulaErrorValue) return left;
  if (right instanceof FormulaErrorValue) return right;
  if (op === '&') {
    const a = toText(left), b = toText(right);
    return a instanceof FormulaErrorValue ? a : b instanceof FormulaErrorValue ? b : a + b;
  }
  if (op === '=' || op === '<>' || op === '<' || op === '>' || op === '<=' || op === '>=') {
    const c = compare(left, right);
    switch (op) {
      case '=': return c === 0;
      case '<>': return c !== 0;
      case '<': return c < 0;
      case '>': return c > 0;
      case '<=': return c <= 0;
      default: return c >= 0;
    }
  }
  const a = toNumber(left), b = toNumber(right);
  if (a instanceof FormulaErrorValue) return a;
  if (b instanceof FormulaErrorValue) return b;
  switch (op) {
    case '+': return a + b;
    case '-': return a - b;
    case '*': return a * b;
    case '/': return b === 0 ? DIV0_ERROR : a / b;
    default: { const p = a ** b; return Number.isFinite(p) ? p : NUM_ERROR; }
  }
}

/** Excel's order across types: numbers < text < logical values; a blank is 0, "" or FALSE to whatever it meets. */
function compare(a: FormulaValue, b: FormulaValue): number {
  const rank = (v: FormulaValue) => (typeof v === 'number' ? 0 : typeof v === 'string' ? 1 : 2);
  if (a === null && b === null) return 0;
  if (a === null) a = typeof b === 'number' ? 0 : typeof b === 'string' ? '' : false;
  if (b === null) b = typeof a === 'number' ? 0 : typeof a === 'string' ? '' : false;
  if (rank(a) !== rank(b)) return rank(a) - rank(b);
  if (typeof a === 'string') {
    const x = a.toLowerCase(), y = (b as string).toLowerCase();
    return x < y ? -1 : x > y ? 1 : 0;
  }
  const x = Number(a), y = Number(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

function call(name: string, args: FormulaNode[], read: ReferenceReader): FormulaValue {
  if (name === 'IF') {
    const condition = toBoolean(evaluateFormula(args[0]!, read));
    if (condition instanceof FormulaErrorValue) return condition;
    const branch = condition ? args[1] : args[2];
    return branch ? evaluateFormula(branch, read) : false;
  }
  const values = args.map((a) => evaluateFormula(a, read));
  if (name === 'ISBLANK') return values[0] === null || values[0] === '';
  const error = values.find((v) => v instanceof FormulaErrorValue);
  if (error !== undefined) return error;
  const number = (i: number) => toNumber(values[i]!);
  const text = (i: number) => toText(values[i]!);
  switch (name) {
    case 'AND': case 'OR': {
      const flags = values.map(toBoolean);
      const bad = flags.find((f) => f instanceof FormulaErrorValue);
      if (bad !== undefined) return bad;
      return name === 'AND' ? flags.every(Boolean) : flags.some(Boolean);
    }
    case 'NOT': { const f = toBoolean(values[0]!); return f instanceof FormulaErrorValue ? f : !f; }
    case 'TEXT': { const f = text(1); return f instanceof FormulaErrorValue ? f : formatText(values[0]!, f); }
    case 'CONCATENATE': return values.map(toText).join('');
    case 'LEN': return withText(text(0), (s) => s.length);
    case 'UPPER': return withText(text(0), (s) => s.toUpperCase());
    case 'LOWER': return withText(text(0), (s) => s.toLowerCase());
    case 'TRIM': return withText(text(0), (s) => s.trim().replace(/ {2,}/g, ' '));
    case 'LEFT': case 'RIGHT': {
      const s = text(0), n = values.length > 1 ? number(1) : 1;
      if (s instanceof FormulaErrorValue) return s;
      if (n instanceof FormulaErrorValue) return n;
      if (n < 0) return VALUE_ERROR;
      const count = Math.floor(n);
      return name === 'LEFT' ? s.slice(0, count) : count === 0 ? '' : s.slice(-count);
    }
    case 'MID': {
      const s = text(0), start = number(1), count = number(2);
      if (s instanceof FormulaErrorValue) return s;
      if (start instanceof FormulaErrorValue) return start;
      if (count instanceof FormulaErrorValue) return count;
      if (start < 1 || count < 0) return VALUE_ERROR;
      return s.substr(Math.floor(start) - 1, Math.floor(count));
    }
    case 'ROUND': case 'ROUNDUP': case 'ROUNDDOWN': return withNumbers(number(0), number(1), (n, d) => round(name, n, Math.trunc(d)));
    case 'INT': return withNumbers(number(0), 0, (n) => Math.floor(n));
    case 'ABS': return withNumbers(number(0), 0, (n) => Math.abs(n));
    case 'MOD': {
      const n = number(0), d = number(1);
      if (d === 0) return DIV0_ERROR;
      return withNumbers(n, d, (a, b) => a - b * Math.floor(a / b));
    }
    case 'YEAR': case 'MONTH': case 'DAY': return withNumbers(number(0), 0, (serial) => {
      if (serial < 0) return NUM_ERROR;
      const d = new Date(msFromSerial(serial));
      return name === 'YEAR' ? d.getUTCFullYear() : name === 'MONTH' ? d.getUTCMonth() + 1 : d.getUTCDate();
    });
    case 'DATE': {
      const y = number(0), m = number(1), d = number(2);
      if (y instanceof FormulaErrorValue) return y;
      if (m instanceof FormulaErrorValue) return m;
      if (d instanceof FormulaErrorValue) return d;
      // Excel: a year below 1900 is counted from 1900; months and days overflow into the next.
      const year = Math.trunc(y) < 1900 ? 1900 + Math.trunc(y) : Math.trunc(y);
      const ms = Date.UTC(year, Math.trunc(m) - 1, Math.trunc(d));
      return ms / 86_400_000 + 25_569;
    }
    default:
      // Names are checked when the column is made; a stored formula naming another is a value error.
      return VALUE_ERROR;
  }
}

function withText(s: string | FormulaErrorValue, fn: (s: string) => FormulaValue): FormulaValue {
  return s instanceof FormulaErrorValue ? s : fn(s);
}

function withNumbers(a: number | FormulaErrorValue, b: number | FormulaErrorValue, fn: (a: number, b: number) => FormulaValue): FormulaValue {
  if (a instanceof FormulaErrorValue) return a;
  if (b instanceof FormulaErrorValue) return b;
  return fn(a, b);
}

function round(name: string, n: number, digits: number): number {
  if (name === 'ROUND') return roundHalfAway(n, digits);
  const factor = 10 ** digits;
  const scaled = Number((Math.abs(n) * factor).toPrecision(15));
  const magnitude = (name === 'ROUNDUP' ? Math.ceil(scaled) : Math.floor(scaled)) / factor;
  return n < 0 ? -magnitude : magnitude;
}
