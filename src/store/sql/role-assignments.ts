// Role assignments on SQL: a site's unique scopes and their assignments are one cache entry,
// read by permission checks (a site with none answers from memory and adds no query), dropped
// by every write to them. A list's folders with unique permissions (their paths) are a cache
// entry of their own per list (folder-scopes.ts), which the writes to its items' scopes name too.

import type { List } from '../../domain/model.ts';
import type { FolderScope, RoleAssignmentRepository, RoleAssignmentRow } from '../role-assignments.ts';
import { uniqueItemIds } from '../../domain/scope-keys.ts';
import { FOLDER_SCOPES, folderScopesOfScope } from './folder-scopes.ts';
import { SqlItems } from './items.ts';
import type { CacheName, SqlSession } from './session.ts';

const SCOPE = 'roleAssignments';

/** What a write to `scopes` of the site changes: the site's scopes, and the folder scopes of the lists whose items they are. */
const changesOf = (siteId: string, ...scopes: string[]): CacheName[] => [[SCOPE, siteId], ...scopes.flatMap(folderScopesOfScope)];

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

  folderScopes(siteId: string, list: List): Promise<readonly FolderScope[]> {
    return this.s.cached(FOLDER_SCOPES, String(list.rowId), async () => {
      const ids = uniqueItemIds(await this.scopes(siteId), list.rowId);
      if (ids.length === 0) return [];
      return (await new SqlItems(this.s).getMany(list, [], ids, []))
        .filter((item) => item.place.folder && item.place.name !== null)
        .map((item) => ({ id: item.id, path: item.place.dir ? `${item.place.dir}/${item.place.name}` : item.place.name! }));
    });
  }

  async breakInheritance(siteId: string, scope: string, assignments: readonly RoleAssignmentRow[]): Promise<void> {
    await this.s.metadataWrite(changesOf(siteId, scope), async ({ db }) => {
      await db.deleteFrom('role_assignments').where('site_id', '=', siteId).where('scope', '=', scope).execute();
      await db.insertInto('unique_scopes').values({ site_id: siteId, scope }).onConflict((oc) => oc.columns(['site_id', 'scope']).doNothing()).execute();
      for (const a of assignments) {
        await db.insertInto('role_assignments').values({ site_id: siteId, scope, principal_id: a.principalId, role_definition_id: a.roleDefinitionId })
          .onConflict((oc) => oc.columns(['site_id', 'scope', 'principal_id', 'role_definition_id']).doNothing()).execute();
      }
    });
  }

  async resetInheritance(siteId: string, scope: string): Promise<void> {
    await this.s.metadataWrite(changesOf(siteId, scope), async ({ db }) => {
      await db.deleteFrom('role_assignments').where('site_id', '=', siteId).where('scope', '=', scope).execute();
      await db.deleteFrom('unique_scopes').where('site_id', '=', siteId).where('scope', '=', scope).execute();
    });
  }

  async resetBelow(siteId: string, prefixes: readonly string[]): Promise<void> {
    if (prefixes.length === 0) return;
    await this.s.metadataWrite(changesOf(siteId, ...prefixes), async ({ db }) => {
      for (const prefix of prefixes) {
        await db.deleteFrom('role_assignments').where('site_id', '=', siteId).where('scope', 'like', `${prefix}%`).execute();
        await db.deleteFrom('unique_scopes').where('site_id', '=', siteId).where('scope', 'like', `${prefix}%`).execute();
      }
    });
  }

  // Adding or removing an assignment leaves which items are unique as it was: the folder scopes stay.
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
