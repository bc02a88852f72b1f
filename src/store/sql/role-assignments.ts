// Role assignments on SQL: a site's unique scopes and their assignments are one cache entry,
// read by permission checks (a site with none answers from memory and adds no query), dropped
// by every write to them.

import type { RoleAssignmentRepository, RoleAssignmentRow } from '../role-assignments.ts';
import type { SqlSession } from './session.ts';

const SCOPE = 'roleAssignments';

export class SqlRoleAssignments implements RoleAssignmentRepository {
  constructor(private readonly s: SqlSession) {}

  scopes(siteId: string): Promise<ReadonlyMap<string, readonly RoleAssignmentRow[]>> {
    return this.s.cached(SCOPE, siteId, async () => {
      const map = new Map<string, RoleAssignmentRow[]>();
      for (const r of await this.s.db.selectFrom('unique_scopes').select('scope').where('site_id', '=', siteId).execute()) map.set(String(r.scope), []);
      const rows = await this.s.db.selectFrom('role_assignments').selectAll().where('site_id', '=', siteId)
        .orderBy('principal_id').orderBy('role_definition_id').execute();
      for (const r of rows) map.get(String(r.scope))?.push({ principalId: Number(r.principal_id), roleDefinitionId: Number(r.role_definition_id) });
      return map;
    });
  }

  async breakInheritance(siteId: string, scope: string, assignments: readonly RoleAssignmentRow[]): Promise<void> {
    await this.s.metadataWrite([[SCOPE, siteId]], async ({ db }) => {
      await db.deleteFrom('role_assignments').where('site_id', '=', siteId).where('scope', '=', scope).execute();
      await db.insertInto('unique_scopes').values({ site_id: siteId, scope }).onConflict((oc) => oc.columns(['site_id', 'scope']).doNothing()).execute();
      for (const a of assignments) {
        await db.insertInto('role_assignments').values({ site_id: siteId, scope, principal_id: a.principalId, role_definition_id: a.roleDefinitionId })
          .onConflict((oc) => oc.columns(['site_id', 'scope', 'principal_id', 'role_definition_id']).doNothing()).execute();
      }
    });
  }

  async resetInheritance(siteId: string, scope: string): Promise<void> {
    await this.s.metadataWrite([[SCOPE, siteId]], async ({ db }) => {
      await db.deleteFrom('role_assignments').where('site_id', '=', siteId).where('scope', '=', scope).execute();
      await db.deleteFrom('unique_scopes').where('site_id', '=', siteId).where('scope', '=', scope).execute();
    });
  }

  async resetBelow(siteId: string, prefixes: readonly string[]): Promise<void> {
    if (prefixes.length === 0) return;
    await this.s.metadataWrite([[SCOPE, siteId]], async ({ db }) => {
      for (const prefix of prefixes) {
        await db.deleteFrom('role_assignments').where('site_id', '=', siteId).where('scope', 'like', `${prefix}%`).execute();
        await db.deleteFrom('unique_scopes').where('site_id', '=', siteId).where('scope', 'like', `${prefix}%`).execute();
      }
    });
  }

  async add(siteId: string, scope: string, row: RoleAssignmentRow): Promise<void> {
    await this.s.metadataWrite([[SCOPE, siteId]], async ({ db }) => {
      await db.insertInto('role_assignments').values({ site_id: siteId, scope, principal_id: row.principalId, role_definition_id: row.roleDefinitionId })
        .onConflict((oc) => oc.columns(['site_id', 'scope', 'principal_id', 'role_definition_id']).doNothing()).execute();
    });
  }

  remove(siteId: string, scope: string, principalId: number, roleDefinitionId?: number): Promise<boolean> {
    return this.s.metadataWrite([[SCOPE, siteId]], async ({ db }) => {
      let q = db.deleteFrom('role_assignments').where('site_id', '=', siteId).where('scope', '=', scope).where('principal_id', '=', principalId);
      if (roleDefinitionId !== undefined) q = q.where('role_definition_id', '=', roleDefinitionId);
      return Number((await q.executeTakeFirst()).numDeletedRows) > 0;
    });
  }
}
