// A web's site columns (`web/fields`): field definitions its lists may use. They hold no item
// values, so a change to one touches only its own row.

import type { FieldOptions, NewField, SiteColumn, Web } from '../domain/model.ts';

export interface SiteColumnPatch {
  title?: string | undefined;
  required?: boolean | undefined;
  indexed?: boolean | undefined;
  hidden?: boolean | undefined;
  options?: FieldOptions | undefined;
}

export interface SiteColumnRepository {
  /** The web's own stored columns, in the order they were added. */
  of(web: Web): Promise<SiteColumn[]>;
  add(web: Web, column: NewField): Promise<SiteColumn>;
  update(column: SiteColumn, patch: SiteColumnPatch): Promise<SiteColumn>;
  delete(column: SiteColumn): Promise<void>;
}
