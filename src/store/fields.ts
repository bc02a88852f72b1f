// A list's fields (columns): each is a typed column of the list's item table.

import type { Field, FieldOptions, List, NewField } from '../domain/model.ts';

export interface FieldPatch {
  title?: string;
  required?: boolean;
  indexed?: boolean;
  hidden?: boolean;
  options?: FieldOptions;
}

export interface FieldRepository {
  /** In position order. */
  of(list: List): Promise<Field[]>;
  add(list: List, field: NewField): Promise<Field>;
  update(list: List, field: Field, patch: FieldPatch): Promise<Field>;
  delete(list: List, field: Field): Promise<void>;
}
