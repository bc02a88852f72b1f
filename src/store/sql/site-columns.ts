// Site columns on SQL: a row each in `site_columns`; a web's columns are cached as one entry.

import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { FieldKind } from '../../domain/field-kinds.ts';
import type { FieldOptions, NewField, SiteColumn, Web } from '../../domain/model.ts';
import type { SiteColumnPatch, SiteColumnRepository } from '../site-columns.ts';
import type { CacheName, SqlSession } from './session.ts';

const entry = (webId: string): CacheName => ['siteColumns', webId];

export function rowToSiteColumn(r: any): SiteColumn {
  return {
    rowId: Number(r.row_id), id: r.id, webId: r.web_id, internalName: r.internal_name, title: r.title, kind: r.kind as FieldKind,
    required: Number(r.required) === 1, indexed: Number(r.indexed) === 1, hidden: Number(r.hidden) === 1,
    readOnly: false, builtIn: false, options: JSON.parse(r.options) as FieldOptions,
  };
}

export class SqlSiteColumns implements SiteColumnRepository {
  constructor(private readonly s: SqlSession) {}

  of(web: Web): Promise<SiteColumn[]> {
    return this.s.cached('siteColumns', web.id, async () => {
      const rows = await this.s.db.selectFrom('site_columns').selectAll().where('web_id', '=', web.id).orderBy('position').execute();
      return rows.map(rowToSiteColumn);
    });
  }

  add(web: Web, input: NewField): Promise<SiteColumn> {
    return this.s.metadataWrite([entry(web.id)], async ({ db }) => {
      const max = await db.selectFrom('site_columns').select(sql<number>`coalesce(max(position), 0)`.as('p'))
        .where('web_id', '=', web.id).executeTakeFirst();
      const inserted = await db.insertInto('site_columns').values({
        id: input.id ?? randomUUID(), web_id: web.id, internal_name: input.internalName,
        name_key: input.internalName.toLowerCase(), title: input.title, kind: input.kind, required: input.required ? 1 : 0,
        indexed: input.indexed ? 1 : 0, hidden: input.hidden ? 1 : 0, position: Number(max?.p ?? 0) + 1,
        options: JSON.stringify(input.options),
      }).returning('row_id').executeTakeFirstOrThrow();
      const row = await db.selectFrom('site_columns').selectAll().where('row_id', '=', Number(inserted.row_id)).executeTakeFirstOrThrow();
      return rowToSiteColumn(row);
    });
  }

  update(column: SiteColumn, patch: SiteColumnPatch): Promise<SiteColumn> {
    return this.s.metadataWrite([entry(column.webId)], async ({ db }) => {
      const set: Record<string, unknown> = {};
      if (patch.title !== undefined) set.title = patch.title;
      if (patch.required !== undefined) set.required = patch.required ? 1 : 0;
      if (patch.indexed !== undefined) set.indexed = patch.indexed ? 1 : 0;
      if (patch.hidden !== undefined) set.hidden = patch.hidden ? 1 : 0;
      if (patch.options !== undefined) set.options = JSON.stringify(patch.options);
      if (Object.keys(set).length) await db.updateTable('site_columns').set(set).where('row_id', '=', column.rowId).execute();
      const row = await db.selectFrom('site_columns').selectAll().where('row_id', '=', column.rowId).executeTakeFirstOrThrow();
      return rowToSiteColumn(row);
    });
  }

  async delete(column: SiteColumn): Promise<void> {
    await this.s.metadataWrite([entry(column.webId)], async ({ db }) => {
      await db.deleteFrom('site_columns').where('row_id', '=', column.rowId).execute();
    });
  }
}
