// Fields (a list's columns): their rules. Internal names are unique in a list (SharePoint
// numbers a clash: Status, Status0, Status1, …); a lookup points at a list of the same web;
// built-in fields keep their shape and cannot be deleted.

import { fail } from '../domain/errors.ts';
import { checkFormula } from '../domain/calculated.ts';
import { dependentLookupDefinition } from '../domain/fields.ts';
import type { Field, FieldDefinition, FieldOptions, List, NewField } from '../domain/model.ts';
import type { Store } from '../store/store.ts';

export interface FieldChanges {
  title?: string | undefined;
  required?: boolean | undefined;
  indexed?: boolean | undefined;
  hidden?: boolean | undefined;
  choices?: string[] | undefined;
  description?: string | undefined;
  group?: string | undefined;
  showInDisplayForm?: boolean | undefined;
  showInEditForm?: boolean | undefined;
  showInNewForm?: boolean | undefined;
  /** Calculated columns only: a new formula (checked against the columns it may name). */
  formula?: string | undefined;
}

/** A field's options with `changes` applied (what lives in options rather than in columns of its own). */
export function applyFieldChanges(current: FieldOptions, changes: FieldChanges): FieldOptions {
  const options: FieldOptions = { ...current };
  if (changes.choices) options.choices = changes.choices;
  if (changes.description !== undefined) options.description = changes.description;
  if (changes.group !== undefined) options.group = changes.group;
  if (changes.showInDisplayForm !== undefined) options.showInDisplayForm = changes.showInDisplayForm;
  if (changes.showInEditForm !== undefined) options.showInEditForm = changes.showInEditForm;
  if (changes.showInNewForm !== undefined) options.showInNewForm = changes.showInNewForm;
  if (changes.formula !== undefined) options.formula = changes.formula;
  return options;
}

/** The User Information List: its fields are the site's. */
const USER_INFO_TEMPLATE = 112;

export class FieldService {
  constructor(private readonly store: Store) {}

  /** Adds `definition`, its internal name numbered if the list has one like it. */
  async add(list: List, definition: NewField): Promise<Field> {
    if (!definition.title.trim()) throw fail.badArgument('The field title must not be empty.');
    const fields = await this.store.fields.of(list);
    const lookupList = definition.options.lookupListId;
    if (lookupList && !(await this.store.lists.byId(list.webId, lookupList))) throw fail.listNotFoundById();
    // A site column added to a list keeps its id: once per list.
    const clash = definition.id ? fields.find((f) => f.id === definition.id) : undefined;
    if (clash) throw fail.fieldAlreadyExists(clash.internalName);
    return this.store.fields.add(list, { ...checkCalculated(definition, fields), internalName: uniqueInternalName(definition.internalName, fields) });
  }

  /** `adddependentlookupfield`: a read-only lookup showing `showField` of the item the list's lookup `primaryId` points at. */
  async addDependentLookup(list: List, displayName: string, primaryId: string, showField: string): Promise<Field> {
    const primary = (await this.store.fields.of(list)).find((f) => f.id === primaryId);
    return this.add(list, dependentLookupDefinition(primary, displayName, showField));
  }

  async update(list: List, field: Field, changes: FieldChanges): Promise<Field> {
    // A built-in field's title and requiredness are the list's, but for Title's.
    if (field.builtIn && (changes.required !== undefined || changes.title !== undefined) && field.internalName !== 'Title') {
      throw fail.badArgument(`The field '${field.internalName}' cannot be changed.`);
    }
    // A dependent lookup reads its primary's column: the primary's index is the one to change.
    if (field.options.primaryFieldId !== undefined && changes.indexed !== undefined && changes.indexed !== field.indexed) {
      throw fail.badArgument(`The field '${field.internalName}' is a dependent lookup: index its primary lookup field instead.`);
    }
    const options = applyFieldChanges(field.options, formulaChange(field, changes, await this.store.fields.of(list)));
    return this.store.fields.update(list, field, {
      title: changes.title, required: changes.required, indexed: changes.indexed, hidden: changes.hidden, options,
    });
  }

  async delete(list: List, field: Field): Promise<void> {
    if (field.builtIn || list.baseTemplate === USER_INFO_TEMPLATE) throw fail.badArgument(`The field '${field.internalName}' cannot be deleted.`);
    await this.store.fields.delete(list, field);
  }
}

/** A calculated column's definition with its formula checked against the columns it may name (domain/calculated.ts). */
export function checkCalculated<D extends NewField>(definition: D, columns: ReadonlyArray<Pick<FieldDefinition, 'internalName' | 'title' | 'kind'>>): D {
  if (definition.kind !== 'Calculated') return definition;
  const formula = checkFormula(definition.options.formula ?? '', columns);
  return { ...definition, options: { ...definition.options, formula, outputType: definition.options.outputType ?? 'Text' } };
}

/** `changes` with a new formula checked (only a calculated column has one), the column itself not among those it may name. */
export function formulaChange(field: FieldDefinition, changes: FieldChanges,
  columns: ReadonlyArray<Pick<FieldDefinition, 'internalName' | 'title' | 'kind'>>): FieldChanges {
  if (changes.formula === undefined) return changes;
  if (field.kind !== 'Calculated') throw fail.badArgument(`The field '${field.internalName}' has no formula.`);
  return { ...changes, formula: checkFormula(changes.formula, columns, field.internalName) };
}

/** SharePoint numbers a clashing internal name: Status, Status0, Status1, … */
export function uniqueInternalName(name: string, fields: ReadonlyArray<{ internalName: string }>): string {
  const taken = new Set(fields.map((f) => f.internalName.toLowerCase()));
  if (!taken.has(name.toLowerCase())) return name;
  for (let n = 0; ; n++) if (!taken.has(`${name}${n}`.toLowerCase())) return `${name}${n}`;
}
