// Site groups on SQL: read through the cache (a request's authorization reads a user's groups),
// invalidated by every write.

import type { SiteGroupPatch, SiteGroupRepository, StoredSiteGroup } from '../site-groups.ts';
import { bool } from './rows.ts';
import type { SqlSession } from './session.ts';

function rowToGroup(r: any): StoredSiteGroup {
  return {
    id: Number(r.id), title: String(r.title), description: String(r.description), ownerId: r.owner_id == null ? null : Number(r.owner_id),
    allowMembersEditMembership: bool(r.allow_members_edit), onlyAllowMembersViewMembership: bool(r.only_members_view),
  };
}

const GROUPS = 'siteGroups';
const MEMBERS = 'siteGroupMembers';

export class SqlSiteGroups implements SiteGroupRepository {
  constructor(private readonly s: SqlSession) {}

  of(siteId: string): Promise<StoredSiteGroup[]> {
    return this.s.cached(GROUPS, siteId, async () =>
      (await this.s.db.selectFrom('site_groups').selectAll().where('site_id', '=', siteId).orderBy('id').execute()).map(rowToGroup));
  }

  add(siteId: string, group: StoredSiteGroup): Promise<boolean> {
    return this.s.metadataWrite([[GROUPS, siteId]], async ({ db }) => {
      const result = await db.insertInto('site_groups').values({
        site_id: siteId, id: group.id, title: group.title, title_key: group.title.toLowerCase(), description: group.description,
        owner_id: group.ownerId, allow_members_edit: group.allowMembersEditMembership ? 1 : 0, only_members_view: group.onlyAllowMembersViewMembership ? 1 : 0,
      }).onConflict((oc) => oc.columns(['site_id', 'title_key']).doNothing()).executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    });
  }

  update(siteId: string, id: number, patch: SiteGroupPatch): Promise<StoredSiteGroup | 'titleTaken' | undefined> {
    return this.s.metadataWrite([[GROUPS, siteId]], async ({ db }) => {
      const set: Record<string, unknown> = {};
      if (patch.title !== undefined) {
        const taken = await db.selectFrom('site_groups').select('id').where('site_id', '=', siteId).where('title_key', '=', patch.title.toLowerCase()).where('id', '<>', id).executeTakeFirst();
        if (taken) return 'titleTaken';
        Object.assign(set, { title: patch.title, title_key: patch.title.toLowerCase() });
      }
      if (patch.description !== undefined) set.description = patch.description;
      if (patch.ownerId !== undefined) set.owner_id = patch.ownerId;
      if (patch.allowMembersEditMembership !== undefined) set.allow_members_edit = patch.allowMembersEditMembership ? 1 : 0;
      if (patch.onlyAllowMembersViewMembership !== undefined) set.only_members_view = patch.onlyAllowMembersViewMembership ? 1 : 0;
      if (Object.keys(set).length > 0) await db.updateTable('site_groups').set(set).where('site_id', '=', siteId).where('id', '=', id).execute();
      const row = await db.selectFrom('site_groups').selectAll().where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
      return row ? rowToGroup(row) : undefined;
    });
  }

  delete(siteId: string, id: number): Promise<boolean> {
    return this.s.metadataWrite([[GROUPS, siteId], [MEMBERS, siteId]], async ({ db }) => {
      await db.deleteFrom('site_group_members').where('site_id', '=', siteId).where('group_id', '=', id).execute();
      const result = await db.deleteFrom('site_groups').where('site_id', '=', siteId).where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  private allMembers(siteId: string): Promise<Array<{ groupId: number; userId: number }>> {
    return this.s.cached(MEMBERS, siteId, async () =>
      (await this.s.db.selectFrom('site_group_members').select(['group_id', 'user_id']).where('site_id', '=', siteId).execute())
        .map((r) => ({ groupId: Number(r.group_id), userId: Number(r.user_id) })));
  }

  async members(siteId: string, groupId: number): Promise<number[]> {
    return (await this.allMembers(siteId)).filter((m) => m.groupId === groupId).map((m) => m.userId);
  }

  async groupsOf(siteId: string, userId: number): Promise<number[]> {
    return (await this.allMembers(siteId)).filter((m) => m.userId === userId).map((m) => m.groupId);
  }

  async addMember(siteId: string, groupId: number, userId: number): Promise<void> {
    await this.s.metadataWrite([[MEMBERS, siteId]], async ({ db }) => {
      await db.insertInto('site_group_members').values({ site_id: siteId, group_id: groupId, user_id: userId })
        .onConflict((oc) => oc.columns(['site_id', 'group_id', 'user_id']).doNothing()).execute();
    });
  }

  removeMember(siteId: string, groupId: number, userId: number): Promise<boolean> {
    return this.s.metadataWrite([[MEMBERS, siteId]], async ({ db }) => {
      const result = await db.deleteFrom('site_group_members').where('site_id', '=', siteId).where('group_id', '=', groupId).where('user_id', '=', userId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }
}
