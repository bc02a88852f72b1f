// The Directory on SQL. It works through the store's session, so inside a unit of work its
// writes commit or roll back with everything else. What authentication reads on every
// request (a user, their groups, a site's roles, a group) is cached; photos are not.

import { sql, type RawBuilder } from 'kysely';
import { binaryCollation } from './flavour.ts';
import type { Directory, DirectoryGroup, DirectoryUser, Photo, SiteRole } from '../directory.ts';
import type { CacheName, SqlSession } from './session.ts';

const key = (s: string) => s.trim().toLowerCase();

function rowToUser(r: any): DirectoryUser {
  return {
    upn: r.upn, displayName: r.display_name, firstName: r.first_name ?? null, lastName: r.last_name ?? null,
    email: r.email ?? null, jobTitle: r.job_title ?? null, department: r.department ?? null,
    objectId: r.object_id, puid: r.puid, profile: JSON.parse(r.profile) as DirectoryUser['profile'],
  };
}

function rowToGroup(r: any): DirectoryGroup {
  return { id: r.id, displayName: r.display_name, kind: r.kind, mail: r.mail ?? null };
}

/** A new user or group can change anyone's memberships (groups name members before they exist). */
const MEMBERSHIP_CHANGES: CacheName[] = [['dir.users'], ['dir.passwords'], ['dir.groups'], ['dir.memberships']];

export class SqlDirectory implements Directory {
  /** Text keys order by code point on both databases (flavour.ts). */
  private readonly binary: RawBuilder<unknown>;

  constructor(private readonly s: SqlSession) {
    this.binary = sql.raw(binaryCollation(s.flavour));
  }

  private get db() { return this.s.db; }

  async addUser(user: DirectoryUser, passwordHash: string | null): Promise<void> {
    await this.s.metadataWrite(MEMBERSHIP_CHANGES, ({ db }) => db.insertInto('directory_users').values({
      upn_key: key(user.upn), upn: user.upn, email_key: user.email ? key(user.email) : null, display_name: user.displayName,
      first_name: user.firstName, last_name: user.lastName, email: user.email, job_title: user.jobTitle,
      department: user.department, object_id: user.objectId, puid: user.puid, password_hash: passwordHash,
      profile: JSON.stringify(user.profile),
    }).execute().then(() => {}));
  }

  async addGroup(group: DirectoryGroup, members: string[]): Promise<void> {
    await this.s.metadataWrite(MEMBERSHIP_CHANGES, async ({ db }) => {
      await db.insertInto('directory_groups').values({
        id: key(group.id), display_name: group.displayName, name_key: key(group.displayName), kind: group.kind, mail: group.mail,
      }).execute();
      for (const member of new Set(members.map(key))) {
        await db.insertInto('directory_members').values({ group_id: key(group.id), member }).execute();
      }
    });
  }

  findUser(upnOrEmail: string): Promise<DirectoryUser | undefined> {
    const k = key(upnOrEmail);
    return this.s.cached('dir.users', k, async () => {
      const row = await this.db.selectFrom('directory_users').selectAll()
        .where((eb) => eb.or([eb('upn_key', '=', k), eb('email_key', '=', k)])).orderBy(sql`upn_key${this.binary}`).executeTakeFirst();
      return row ? rowToUser(row) : undefined;
    });
  }

  async listUsers(): Promise<DirectoryUser[]> {
    return (await this.db.selectFrom('directory_users').selectAll().orderBy(sql`upn_key${this.binary}`).execute()).map(rowToUser);
  }

  passwordHash(upn: string): Promise<string | null | undefined> {
    const k = key(upn);
    return this.s.cached('dir.passwords', k, async () => {
      const row = await this.db.selectFrom('directory_users').select('password_hash').where('upn_key', '=', k).executeTakeFirst();
      return row ? (row.password_hash ?? null) : undefined;
    });
  }

  findGroup(idOrName: string): Promise<DirectoryGroup | undefined> {
    const k = key(idOrName);
    return this.s.cached('dir.groups', k, async () => {
      const row = await this.db.selectFrom('directory_groups').selectAll()
        .where((eb) => eb.or([eb('id', '=', k), eb('name_key', '=', k)])).orderBy(sql`id${this.binary}`).executeTakeFirst();
      return row ? rowToGroup(row) : undefined;
    });
  }

  async groupMembers(groupId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('directory_members').select('member').where('group_id', '=', key(groupId)).execute();
    return rows.map((r) => r.member as string);
  }

  groupsOf(upn: string): Promise<DirectoryGroup[]> {
    return this.s.cached('dir.memberships', key(upn), () => this.walkGroupsOf(upn));
  }

  private async walkGroupsOf(upn: string): Promise<DirectoryGroup[]> {
    // Walk memberships upwards: groups that contain the user, then groups that contain those.
    const found = new Map<string, DirectoryGroup>();
    let frontier = [key(upn)];
    while (frontier.length) {
      const rows = await this.db.selectFrom('directory_members').innerJoin('directory_groups', 'directory_groups.id', 'directory_members.group_id')
        .selectAll('directory_groups').where('directory_members.member', 'in', frontier).execute();
      frontier = [];
      for (const row of rows) {
        if (found.has(row.id)) continue;
        found.set(row.id, rowToGroup(row));
        frontier.push(row.id);
      }
    }
    return [...found.values()];
  }

  async setProfileProperty(upn: string, name: string, value: string | string[]): Promise<void> {
    const user = await this.findUser(upn);
    if (!user) return;
    await this.s.metadataWrite([['dir.users']], async ({ db }) => {
      await db.updateTable('directory_users').set({ profile: JSON.stringify({ ...user.profile, [name]: value }) })
        .where('upn_key', '=', key(user.upn)).execute();
    });
  }

  async setSiteRoles(siteId: string, roles: SiteRole[]): Promise<void> {
    await this.s.metadataWrite([['dir.roles', siteId]], async ({ db }) => {
      await db.deleteFrom('site_roles').where('site_id', '=', siteId).execute();
      let position = 0;
      for (const role of roles) {
        await db.insertInto('site_roles').values({ site_id: siteId, position: position++, role: role.role, principal: key(role.principal) }).execute();
      }
    });
  }

  siteRoles(siteId: string): Promise<SiteRole[]> {
    return this.s.cached('dir.roles', siteId, async () => {
      const rows = await this.db.selectFrom('site_roles').select(['role', 'principal']).where('site_id', '=', siteId).orderBy('position').execute();
      return rows.map((r): SiteRole => ({ role: r.role, principal: r.principal }));
    });
  }

  async getPhoto(upn: string): Promise<Photo | undefined> {
    const row = await this.db.selectFrom('user_photos').selectAll().where('upn_key', '=', key(upn)).executeTakeFirst();
    return row ? { contentType: row.content_type, bytes: Buffer.from(row.bytes as Uint8Array), updated: row.updated } : undefined;
  }

  async setPhoto(upn: string, photo: Photo): Promise<void> {
    const values = { content_type: photo.contentType, bytes: photo.bytes, updated: photo.updated };
    await this.s.metadataWrite([], async ({ db }) => {
      await db.insertInto('user_photos').values({ upn_key: key(upn), ...values })
        .onConflict((oc) => oc.column('upn_key').doUpdateSet(values)).execute();
    });
  }
}
