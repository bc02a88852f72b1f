// Fields on SQL: a row in `fields` and a typed column (with an index when indexed) in the
// list's item table, changed together. A list's fields are cached as one entry.

import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Field, List, NewField } from '../../domain/model.ts';
import type { FieldPatch, FieldRepository } from '../fields.ts';
import { recalculate } from './calculated.ts';
import { addFieldColumn, createFieldIndex, dropFieldIndex, fieldColumnName } from './item-table.ts';
import { listEntry, principalsOf, SqlLists } from './lists.ts';
import { rowToField } from './rows.ts';
import type { CacheName, SqlSession } from './session.ts';

/** A field change moves the list's version (its etag) too. */
const changesOf = (list: List): CacheName[] => [['fields', String(list.rowId)], listEntry(list), ...principalsOf(list)];

/** The list's fields as they are inside the unit of work (not the cached entry it is changing). */
async function fieldsOf(s: SqlSession, list: List): Promise<Field[]> {
  const rows = await s.db.selectFrom('fields').selectAll().where('list_row_id', '=', list.rowId).orderBy('position').execute();
  return rows.map(rowToField);
}

export class SqlFields implements FieldRepository {
  constructor(private readonly s: SqlSession) {}

  of(list: List): Promise<Field[]> {
    return this.s.cached('fields', String(list.rowId), async () => {
      const rows = await this.s.db.selectFrom('fields').selectAll().where('list_row_id', '=', list.rowId).orderBy('position').execute();
      return rows.map(rowToField);
    });
  }

  async add(list: List, input: NewField): Promise<Field> {
    const field = await this.s.metadataWrite(changesOf(list), async (s) => {
      await new SqlLists(s).touch(list);
      const max = await s.db.selectFrom('fields').select(sql<number>`coalesce(max(position), 0)`.as('p'))
        .where('list_row_id', '=', list.rowId).executeTakeFirst();
      const inserted = await s.db.insertInto('fields').values({
        id: input.builtIn?.id ?? input.id ?? randomUUID(), list_row_id: list.rowId, internal_name: input.internalName,
        name_key: input.internalName.toLowerCase(), title: input.title, kind: input.kind, required: input.required ? 1 : 0,
        indexed: input.indexed ? 1 : 0, hidden: input.hidden ? 1 : 0, read_only: input.readOnly ? 1 : 0,
        built_in: input.builtIn ? 1 : 0, column_name: input.builtIn?.column ?? '', position: Number(max?.p ?? 0) + 1,
        options: JSON.stringify(input.options),
      }).returning('row_id').executeTakeFirstOrThrow();
      const rowId = Number(inserted.row_id);
      // A dependent lookup reads its primary's column (the item it shows is the primary's): no column of its own.
      const primary = input.options.primaryFieldId === undefined ? undefined
        : (await fieldsOf(s, list)).find((f) => f.id === input.options.primaryFieldId);
      if (input.options.primaryFieldId !== undefined && !primary) throw new Error('a dependent lookup needs its primary field in the list');
      if (!input.builtIn) {
        await s.db.updateTable('fields').set({ column_name: primary?.column ?? fieldColumnName(rowId) }).where('row_id', '=', rowId).execute();
      }
      const row = await s.db.selectFrom('fields').selectAll().where('row_id', '=', rowId).executeTakeFirstOrThrow();
      const created = rowToField(row);
      if (primary) return created;
      await addFieldColumn(s.db, s.flavour, list.tableName, created);
      if (created.indexed) await createFieldIndex(s.db, s.flavour, list.tableName, created);
      // A calculated column added to a list with items gives each its value now.
      if (created.kind === 'Calculated') await recalculate(s, list, await fieldsOf(s, list), [created]);
      return created;
    });
    this.s.schemaChanged();
    return field;
  }

  update(list: List, field: Field, patch: FieldPatch): Promise<Field> {
    return this.s.metadataWrite(changesOf(list), async (s) => {
      await new SqlLists(s).touch(list);
      const set: Record<string, unknown> = {};
      if (patch.title !== undefined) set.title = patch.title;
      if (patch.required !== undefined) set.required = patch.required ? 1 : 0;
      if (patch.hidden !== undefined) set.hidden = patch.hidden ? 1 : 0;
      if (patch.options !== undefined) set.options = JSON.stringify(patch.options);
      if (patch.indexed !== undefined && patch.indexed !== field.indexed) {
        set.indexed = patch.indexed ? 1 : 0;
        if (patch.indexed) await createFieldIndex(s.db, s.flavour, list.tableName, field);
        else await dropFieldIndex(s.db, list.tableName, field);
      }
      if (Object.keys(set).length) await s.db.updateTable('fields').set(set).where('row_id', '=', field.rowId).execute();
      const row = await s.db.selectFrom('fields').selectAll().where('row_id', '=', field.rowId).executeTakeFirstOrThrow();
      const updated = rowToField(row);
      // A new formula (or output) recomputes every item's value.
      if (updated.kind === 'Calculated' && (updated.options.formula !== field.options.formula || updated.options.dateOnly !== field.options.dateOnly)) {
        await recalculate(s, list, await fieldsOf(s, list), [updated]);
      }
      return updated;
    });
  }

  async delete(list: List, field: Field): Promise<void> {
    await this.s.metadataWrite(changesOf(list), async (s) => {
      await new SqlLists(s).touch(list);
      // A dependent lookup shares its primary's column; a primary takes its dependents with it.
      if (field.options.primaryFieldId !== undefined) {
        await s.db.deleteFrom('fields').where('row_id', '=', field.rowId).execute();
        return;
      }
      const dependents = (await fieldsOf(s, list)).filter((f) => f.options.primaryFieldId === field.id);
      for (const d of dependents) await s.db.deleteFrom('fields').where('row_id', '=', d.rowId).execute();
      await dropFieldIndex(s.db, list.tableName, field);
      await s.db.deleteFrom('fields').where('row_id', '=', field.rowId).execute();
      await sql`alter table ${sql.table(list.tableName)} drop column ${sql.ref(field.column)}`.execute(s.db);
    });
    this.s.schemaChanged();
  }
}
