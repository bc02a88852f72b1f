// Content types on SQL. Read by the calls about content types only, so not cached.

import { sql } from 'kysely';
import type { ContentType, FieldLink } from '../../domain/content-types.ts';
import type { ContentTypePatch, ContentTypeRepository, ContentTypeScope } from '../content-types.ts';
import { bool } from './rows.ts';
import type { SqlSession } from './session.ts';

const scopeKey = (scope: ContentTypeScope) => (scope.kind === 'web' ? `web:${scope.webId}` : `list:${scope.listRowId}`);
const flag = (v: boolean) => (v ? 1 : 0);

function rowToContentType(r: any, scope: ContentTypeScope): ContentType {
  return {
    id: String(r.id), name: String(r.name), description: String(r.description), group: String(r.group_name),
    hidden: bool(r.hidden), readOnly: bool(r.read_only), sealed: bool(r.sealed), fieldLinks: JSON.parse(String(r.field_links)) as FieldLink[], scope,
  };
}

export class SqlContentTypes implements ContentTypeRepository {
  constructor(private readonly s: SqlSession) {}

  async of(scope: ContentTypeScope): Promise<ContentType[]> {
    const rows = await this.s.db.selectFrom('content_types').selectAll().where('scope', '=', scopeKey(scope)).orderBy('position').execute();
    return rows.map((r) => rowToContentType(r, scope));
  }

  add(scope: ContentTypeScope, type: Omit<ContentType, 'scope'>): Promise<boolean> {
    return this.s.transaction(async (s) => {
      const key = scopeKey(scope);
      const inserted = await s.db.insertInto('content_types').values({
        scope: key, id: type.id,
        position: sql`(select coalesce(max(position), -1) + 1 from content_types where scope = ${key})`,
        name: type.name, description: type.description, group_name: type.group, hidden: flag(type.hidden), read_only: flag(type.readOnly),
        sealed: flag(type.sealed), field_links: JSON.stringify(type.fieldLinks),
      }).onConflict((oc) => oc.columns(['scope', 'id']).doNothing()).executeTakeFirst();
      return Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0;
    });
  }

  async update(scope: ContentTypeScope, id: string, patch: ContentTypePatch): Promise<ContentType | undefined> {
    const set: Record<string, unknown> = {};
    if (patch.name !== undefined) set.name = patch.name;
    if (patch.description !== undefined) set.description = patch.description;
    if (patch.group !== undefined) set.group_name = patch.group;
    if (patch.hidden !== undefined) set.hidden = flag(patch.hidden);
    if (patch.readOnly !== undefined) set.read_only = flag(patch.readOnly);
    if (patch.sealed !== undefined) set.sealed = flag(patch.sealed);
    if (patch.fieldLinks !== undefined) set.field_links = JSON.stringify(patch.fieldLinks);
    return this.s.transaction(async (s) => {
      if (Object.keys(set).length > 0) await s.db.updateTable('content_types').set(set).where('scope', '=', scopeKey(scope)).where('id', '=', id).execute();
      const row = await s.db.selectFrom('content_types').selectAll().where('scope', '=', scopeKey(scope)).where('id', '=', id).executeTakeFirst();
      return row ? rowToContentType(row, scope) : undefined;
    });
  }

  async delete(scope: ContentTypeScope, id: string): Promise<boolean> {
    const result = await this.s.db.deleteFrom('content_types').where('scope', '=', scopeKey(scope)).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async dropScope(scope: ContentTypeScope): Promise<void> {
    await this.s.db.deleteFrom('content_types').where('scope', '=', scopeKey(scope)).execute();
  }
}
