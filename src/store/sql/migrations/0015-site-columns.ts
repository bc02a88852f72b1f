// Site columns: fields a web holds for its lists to use (`web/fields`). They have no item
// column of their own — a list that uses one gets a list field of its own — so they live in a
// table apart from `fields`, and a list's fields (read on every item request) stay one query.

import { type ColumnDefinitionBuilder, type Migration } from 'kysely';
import type { Flavour } from './frozen.ts';

const serialKey = (flavour: Flavour) => (c: ColumnDefinitionBuilder) =>
  flavour === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey();

export const siteColumns = (flavour: Flavour): Migration => ({
  async up(db) {
    await db.schema.createTable('site_columns')
      .addColumn('row_id', 'integer', serialKey(flavour))
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('web_id', 'text', (c) => c.notNull().references('webs.id').onDelete('cascade'))
      .addColumn('internal_name', 'text', (c) => c.notNull())
      .addColumn('name_key', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('required', 'integer', (c) => c.notNull())
      .addColumn('indexed', 'integer', (c) => c.notNull())
      .addColumn('hidden', 'integer', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('options', 'text', (c) => c.notNull())
      .addUniqueConstraint('site_columns_web_name', ['web_id', 'name_key'])
      .addUniqueConstraint('site_columns_web_id', ['web_id', 'id'])
      .execute();
  },
});
