// A tenant file's calculated fields: their formulas are checked as SharePoint checks them when
// a column is made (domain/calculated.ts), against the columns the field can name: the
// built-in ones, the list's (or, for a site column, the columns its web can use).

import { checkFormula } from '../domain/calculated.ts';
import { DomainError } from '../domain/errors.ts';
import { kindFromTypeName, type FieldKind } from '../domain/field-kinds.ts';

type Json = Record<string, unknown>;

/** The built-in columns every item has that a formula may name. */
const BUILT_IN_COLUMNS: ReadonlyArray<{ internalName: string; title: string; kind: FieldKind }> = [
  { internalName: 'Title', title: 'Title', kind: 'Text' },
  { internalName: 'Created', title: 'Created', kind: 'DateTime' },
  { internalName: 'Modified', title: 'Modified', kind: 'DateTime' },
  { internalName: 'ID', title: 'ID', kind: 'Counter' },
  { internalName: 'Author', title: 'Created By', kind: 'User' },
  { internalName: 'Editor', title: 'Modified By', kind: 'User' },
];

/** The columns a formula may name, from tenant-file field entries (name, title, type). */
export function formulaColumns(fields: Iterable<Json>): Array<{ internalName: string; title: string; kind: FieldKind }> {
  const out = [...BUILT_IN_COLUMNS];
  for (const f of fields) {
    if (typeof f.name !== 'string' || typeof f.type !== 'string') continue;
    const kind = kindFromTypeName(f.type);
    if (kind) out.push({ internalName: f.name, title: typeof f.title === 'string' ? f.title : f.name, kind });
  }
  return out;
}

/** SharePoint's message for a formula it would refuse, or undefined. */
export function formulaProblem(field: Json, columns: ReturnType<typeof formulaColumns>): string | undefined {
  if (field.type !== 'Calculated' || typeof field.formula !== 'string') return undefined;
  try {
    checkFormula(field.formula, columns, typeof field.name === 'string' ? field.name : undefined);
    return undefined;
  } catch (e) {
    if (e instanceof DomainError) return e.message;
    throw e;
  }
}
