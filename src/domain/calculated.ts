// Calculated columns: a formula over the item's other columns, evaluated whenever the item
// is written and stored typed by its output type, so queries filter and sort on it as on any
// column. Here: the checks a formula passes when a column is made or changed, with
// SharePoint's messages, and the values an item's calculated columns take.

import { fail } from './errors.ts';
import type { FieldKind } from './field-kinds.ts';
import { evaluateFormula, FUNCTIONS, VOLATILE_FUNCTIONS } from './formula/evaluate.ts';
import { FormulaSyntaxError, nodesOf, parseFormula, type FormulaNode } from './formula/parse.ts';
import { FormulaErrorValue, msFromSerial, serialFromIso, toBoolean, toNumber, toText, type FormulaValue } from './formula/values.ts';
import type { FieldDefinition, StoredValue } from './model.ts';
import { isoSeconds } from './values.ts';

export type CalculatedOutput = 'Text' | 'Number' | 'Currency' | 'DateTime' | 'Boolean';

/** OutputType as SP.FieldCalculated carries it (an SP.FieldType number), and its name (Field XML's ResultType). */
export const OUTPUT_TYPE_NUMBERS: Record<CalculatedOutput, number> = { Text: 2, Number: 9, Currency: 10, DateTime: 4, Boolean: 8 };

export function outputTypeFrom(value: unknown): CalculatedOutput | undefined {
  if (typeof value === 'number') return (Object.keys(OUTPUT_TYPE_NUMBERS) as CalculatedOutput[]).find((k) => OUTPUT_TYPE_NUMBERS[k] === value);
  if (typeof value !== 'string') return undefined;
  return (Object.keys(OUTPUT_TYPE_NUMBERS) as CalculatedOutput[]).find((k) => k.toLowerCase() === value.trim().toLowerCase());
}

/**
 * The kinds a formula may name: SharePoint's single line of text, number, currency, date and
 * time, choice and yes/no columns. Lookups, people, notes and multi-values are refused; so are
 * other calculated columns, which spemu does not order yet (docs/compatibility.md).
 */
const REFERABLE = new Set<FieldKind>(['Text', 'Number', 'Currency', 'Integer', 'DateTime', 'Choice', 'Boolean']);

export const FORMULA_MESSAGES = {
  syntax: 'The formula contains a syntax error or is not supported.',
  unknownColumn: 'The formula refers to a column that does not exist.  Check the formula for spelling mistakes or change the non-existing column to an existing column.',
  unsupportedColumn: 'One or more column references are not allowed, because the columns are defined as a data type that is not supported in formulas.',
  volatile: 'Calculated columns cannot contain volatile functions like Today and Me.',
};

type Named = Pick<FieldDefinition, 'internalName' | 'title' | 'kind'>;

/** The column a reference names: its display name first (as SharePoint's formulas use), then its internal name; case ignored. */
export function referencedField<F extends Named>(fields: readonly F[], name: string): F | undefined {
  const lower = name.toLowerCase();
  return fields.find((f) => f.title.toLowerCase() === lower) ?? fields.find((f) => f.internalName.toLowerCase() === lower);
}

const parsed = new Map<string, FormulaNode>();

/** The formula's tree, kept per formula text (a list's items share a handful). */
function treeOf(formula: string): FormulaNode {
  let tree = parsed.get(formula);
  if (!tree) {
    tree = parseFormula(formula);
    if (parsed.size > 2000) parsed.clear();
    parsed.set(formula, tree);
  }
  return tree;
}

/**
 * Checks a formula for a column among `fields` (the list's, or the site columns a web can use):
 * it reads, names only functions spemu evaluates and no volatile one, and names existing
 * columns of kinds a formula may use. Throws SharePoint's error; returns the formula as stored.
 */
export function checkFormula(formula: string, fields: readonly Named[], self?: string): string {
  let tree: FormulaNode;
  try {
    tree = parseFormula(formula);
  } catch (e) {
    if (e instanceof FormulaSyntaxError) throw fail.invalidFormula(FORMULA_MESSAGES.syntax);
    throw e;
  }
  for (const node of nodesOf(tree)) {
    if (node.t === 'call') {
      if (VOLATILE_FUNCTIONS.has(node.name)) throw fail.invalidFormula(FORMULA_MESSAGES.volatile);
      const arity = FUNCTIONS[node.name];
      if (!arity || node.args.length < arity.min || node.args.length > arity.max) throw fail.invalidFormula(FORMULA_MESSAGES.syntax);
    } else if (node.t === 'ref') {
      // [Today] and [Me] read as the volatile functions they name.
      if (VOLATILE_FUNCTIONS.has(node.name.toUpperCase()) && !referencedField(fields, node.name)) throw fail.invalidFormula(FORMULA_MESSAGES.volatile);
      const field = referencedField(fields, node.name);
      if (!field || (self !== undefined && field.internalName === self)) throw fail.invalidFormula(FORMULA_MESSAGES.unknownColumn);
      if (!REFERABLE.has(field.kind)) throw fail.invalidFormula(FORMULA_MESSAGES.unsupportedColumn);
    }
  }
  const trimmed = formula.trim();
  return trimmed.startsWith('=') ? trimmed : `=${trimmed}`;
}

type CalculatedField = Named & Pick<FieldDefinition, 'options'>;

export const hasCalculated = (fields: readonly Pick<FieldDefinition, 'kind'>[]): boolean => fields.some((f) => f.kind === 'Calculated');

/**
 * The stored values of every calculated column of `fields` for an item whose other values are
 * `values` (by internal name; system dates under `Created` and `Modified`). An evaluation
 * error is not a failed write: a text column stores its error text (`#VALUE!`), a typed one
 * stays empty.
 */
export function calculatedValues(fields: readonly CalculatedField[], values: Record<string, StoredValue>): Record<string, StoredValue> {
  const out: Record<string, StoredValue> = {};
  for (const field of fields) {
    if (field.kind !== 'Calculated' || !field.options.formula) continue;
    let result: FormulaValue;
    try {
      result = evaluateFormula(treeOf(field.options.formula), (name) => {
        const source = referencedField(fields, name);
        return source ? formulaValue(source.kind, values[source.internalName] ?? null) : null;
      });
    } catch (e) {
      if (!(e instanceof FormulaSyntaxError)) throw e;
      result = new FormulaErrorValue('#VALUE!');
    }
    out[field.internalName] = storedResult(result, field.options.outputType ?? 'Text', field.options.dateOnly ?? false);
  }
  return out;
}

/** A stored value as a formula sees it: dates as serial day numbers, yes/no as logical values. */
function formulaValue(kind: FieldKind, value: StoredValue): FormulaValue {
  if (value === null) return null;
  if (kind === 'DateTime' && typeof value === 'string') return serialFromIso(value);
  if (kind === 'Boolean') return Number(value) === 1;
  return value;
}

function storedResult(result: FormulaValue, output: CalculatedOutput, dateOnly: boolean): StoredValue {
  if (result instanceof FormulaErrorValue) return output === 'Text' ? result.text : null;
  if (result === null) return null;
  switch (output) {
    case 'Text': { const t = toText(result); return t instanceof FormulaErrorValue ? t.text : t; }
    case 'Number': case 'Currency': { const n = toNumber(result); return n instanceof FormulaErrorValue || !Number.isFinite(n) ? null : n; }
    case 'Boolean': { const b = toBoolean(result); return b instanceof FormulaErrorValue ? null : b ? 1 : 0; }
    case 'DateTime': {
      const n = toNumber(result);
      if (n instanceof FormulaErrorValue || !Number.isFinite(n) || n < 1) return null;
      const ms = msFromSerial(dateOnly ? Math.floor(n) : n);
      return isoSeconds(ms);
    }
  }
}
