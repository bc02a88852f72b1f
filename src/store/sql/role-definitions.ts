// Custom role definitions on SQL, cached per site collection (permission checks may read them).

import type { RoleDefinition } from '../../domain/permissions.ts';
import type { RoleDefinitionPatch, RoleDefinitionRepository } from '../role-definitions.ts';
import type { SqlSession } from './session.ts';

const SCOPE = 'roleDefinitions';

function rowToDefinition(r: any): RoleDefinition {
  return {
    id: Number(r.id), name: String(r.name), description: String(r.description), roleTypeKind: 0, order: Number(r.sort_order), hidden: false,
    permissions: { high: Number(r.high), low: Number(r.low) },
  };
}

export class SqlRoleDefinitions implements RoleDefinitionRepository {
  constructor(private readonly s: SqlSession) {}

  of(siteId: string): Promise<RoleDefinition[]> {
    return this.s.cached(SCOPE, siteId, async () =>
      (await this.s.db.selectFrom('role_definitions').selectAll().where('site_id', '=', siteId).orderBy('sort_order').orderBy('id').execute()).map(rowToDefinition));
  }

  add(siteId: string, d: RoleDefinition): Promise<boolean> {
    return this.s.metadataWrite([[SCOPE, siteId]], async ({ db }) => {
      const result = await db.insertInto('role_definitions').values({
        site_id: siteId, id: d.id, name: d.name, name_key: d.name.toLowerCase(), description: d.description, sort_order: d.order,
        high: d.permissions.high, low: d.permissions.low,
      }).onConflict((oc) => oc.columns(['site_id', 'name_key']).doNothing()).executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    });
  }

  update(siteId: string, id: number, patch: RoleDefinitionPatch): Promise<RoleDefinition | 'nameTaken' | undefined> {
    return this.s.metadataWrite([[SCOPE, siteId]], async ({ db }) => {
      const set: Record<string, unknown> = {};
      if (patch.name !== undefined) {
        const taken = await db.selectFrom('role_definitions').select('id').where('site_id', '=', siteId).where('name_key', '=', patch.name.toLowerCase()).where('id', '<>', id).executeTakeFirst();
        if (taken) return 'nameTaken';
        Object.assign(set, { name: patch.name, name_key: patch.name.toLowerCase() });
      }
      if (patch.description !== undefined) set.description = patch.description;
      if (patch.order !== undefined) set.sort_order = patch.order;
      if (patch.permissions !== undefined) Object.assign(set, { high: patch.permissions.high, low: patch.permissions.low });
      if (Object.keys(set).length > 0) await db.updateTable('role_definitions').set(set).where('site_id', '=', siteId).where('id', '=', id).execute();
      const row = await db.selectFrom('role_definitions').selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
      return row ? rowToDefinition(row) : undefined;
    });
  }

  delete(siteId: string, id: number): Promise<boolean> {
    return this.s.metadataWrite([[SCOPE, siteId]], async ({ db }) => {
      const result = await db.deleteFrom('role_definitions').where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }
}
