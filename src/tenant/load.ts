// Loads a validated tenant file into an empty store: sites with their User Information
// List, a Documents library, the lists with their fields, and the items with the history
// (author, editor, created, modified) the file states.

import { createHash, randomUUID } from 'node:crypto';
import type { Field, List, Site, StoredValue } from '../domain/model.ts';
import { createListWithFields } from '../domain/lists.ts';
import { kindFromTypeName } from '../domain/field-kinds.ts';
import { normaliseDateTime, toStoredValue } from '../domain/values.ts';
import { USER_INFO_LIST_TEMPLATE } from '../domain/templates.ts';
import type { Store } from '../store/store.ts';
import { siteDefaultUserKey } from '../server/authenticate.ts';
import type { TenantFile, TenantGroup, TenantSite, TenantUser } from './types.ts';

export const TENANT_NAME_KEY = 'tenant.name';
export const TENANT_HASH_KEY = 'tenant.hash';
export const TENANT_ID_KEY = 'tenant.id';
export const TENANT_FILE_KEY = 'tenant.file';

export const membershipLogin = (upn: string) => `i:0#.f|membership|${upn.toLowerCase()}`;
export const securityGroupLogin = (id: string) => `c:0t.c|tenant|${id.toLowerCase()}`;
export const m365GroupLogin = (id: string) => `c:0o.c|federateddirectoryclaimprovider|${id.toLowerCase()}`;

/** A stable fingerprint of the tenant file, to tell "already loaded" from "a different tenant". */
export function tenantHash(tenant: TenantFile): string {
  return createHash('sha256').update(JSON.stringify(tenant)).digest('hex');
}

/** The URL of a user's photo on this server (served by the identity work's userphoto.aspx). */
export const userPhotoUrl = (user: TenantUser) =>
  `/_layouts/15/userphoto.aspx?size=L&accountname=${encodeURIComponent(user.email ?? user.upn)}`;

class SiteUsers {
  private readonly ids = new Map<string, number>();
  constructor(private readonly store: Store, private readonly list: List, private readonly fields: Field[],
    private readonly tenant: TenantFile, private readonly now: string) {}

  /** The User Information List id of a user or group, adding the row on first use (like EnsureUser). */
  async ensure(name: string, siteAdmin = false): Promise<number> {
    const key = name.toLowerCase();
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    const user = this.tenant.users.find((u) => u.upn.toLowerCase() === key);
    const group = user ? undefined : (this.tenant.groups ?? []).find((g) => g.id.toLowerCase() === key || g.displayName === name);
    const values = user ? userRow(user, siteAdmin) : group ? groupRow(group) : undefined;
    if (!values) throw new Error(`the tenant file names '${name}', who is neither a user nor a group`);
    const stored: Record<string, StoredValue> = {};
    for (const [k, v] of Object.entries(values)) {
      const field = this.fields.find((f) => f.internalName === k)!;
      stored[k] = toStoredValue(field, v);
    }
    const selfId = this.list.itemCount + this.ids.size + 1;
    const item = await this.store.createItem(this.list, this.fields, { values: stored, actorId: selfId, now: this.now });
    this.ids.set(key, item.id);
    if (group) this.ids.set(group.id.toLowerCase(), item.id);
    return item.id;
  }
}

function userRow(user: TenantUser, siteAdmin: boolean): Record<string, unknown> {
  return {
    Title: user.displayName, Name: membershipLogin(user.upn), EMail: user.email ?? null, FirstName: user.firstName ?? null,
    LastName: user.lastName ?? null, JobTitle: user.jobTitle ?? null, Department: user.department ?? null, UserName: user.upn,
    IsSiteAdmin: siteAdmin, Deleted: false, UserInfoHidden: false,
    Picture: user.picture ? { Url: userPhotoUrl(user), Description: userPhotoUrl(user) } : null,
  };
}

function groupRow(group: TenantGroup): Record<string, unknown> {
  return {
    Title: group.displayName, Name: group.kind === 'm365' ? m365GroupLogin(group.id) : securityGroupLogin(group.id),
    IsSiteAdmin: false, Deleted: false, UserInfoHidden: false,
  };
}

export async function loadTenant(store: Store, tenant: TenantFile, now: string): Promise<void> {
  await store.transaction(async (tx) => {
    await tx.setSetting(TENANT_NAME_KEY, tenant.tenant.name);
    await tx.setSetting(TENANT_HASH_KEY, tenantHash(tenant));
    await tx.setSetting(TENANT_ID_KEY, randomUUID());
    await tx.setSetting(TENANT_FILE_KEY, JSON.stringify(tenant));
    for (const site of tenant.sites) await loadSite(tx, tenant, site, now);
  });
}

async function loadSite(store: Store, tenant: TenantFile, def: TenantSite, now: string): Promise<Site> {
  const { site, web } = await store.createSite({ url: def.url, title: def.title, description: def.description ?? '', now });
  const userList = await createListWithFields(store, web, { title: 'User Information List', description: '', baseTemplate: USER_INFO_LIST_TEMPLATE, hidden: true, enableVersioning: false }, now);
  const users = new SiteUsers(store, userList, await store.getFields(userList), tenant, now);
  // Owners, members and visitors become the site's users in that order, before any item.
  const owners = def.owners ?? [];
  for (const name of owners) await users.ensure(name, true);
  for (const name of [...(def.members ?? []), ...(def.visitors ?? [])]) await users.ensure(name);
  const actor = owners[0] ? await users.ensure(owners[0], true) : await systemAccount(store, userList, now);
  await store.setSetting(siteDefaultUserKey(site.id), JSON.stringify({ userId: actor, loginName: owners[0] ? membershipLogin(owners[0]) : 'SHAREPOINT\\system' }));

  await createListWithFields(store, web, { title: 'Documents', description: '', baseTemplate: 101, relativeUrl: 'Shared Documents' }, now);
  const lists = new Map<string, List>();
  for (const l of def.lists ?? []) {
    lists.set(l.title.toLowerCase(), await createListWithFields(store, web, {
      title: l.title, description: l.description ?? '', baseTemplate: l.template ?? 100, hidden: l.hidden ?? false,
      ...(l.url ? { relativeUrl: l.url } : {}),
    }, now));
  }
  // Fields after all lists exist, so a lookup may point at a list defined later in the file.
  for (const l of def.lists ?? []) {
    const list = lists.get(l.title.toLowerCase())!;
    for (const f of l.fields ?? []) {
      const kind = kindFromTypeName(f.type)!;
      const target = f.lookupList ? lists.get(f.lookupList.toLowerCase()) : undefined;
      await store.addField(list, {
        internalName: f.name, title: f.title ?? f.name, kind, required: f.required ?? false, indexed: f.indexed ?? false, hidden: false,
        options: {
          ...(f.choices ? { choices: f.choices } : {}), ...(target ? { lookupListId: target.id, lookupField: f.lookupField ?? 'Title' } : {}),
          ...(f.maxLength !== undefined ? { maxLength: f.maxLength } : {}), ...(f.richText ? { richText: true } : {}),
          ...(f.dateOnly ? { dateOnly: true } : {}), ...(f.min !== undefined ? { min: f.min } : {}), ...(f.max !== undefined ? { max: f.max } : {}),
        },
      });
    }
  }
  for (const l of def.lists ?? []) {
    const list = (await store.getListByRowId(lists.get(l.title.toLowerCase())!.rowId))!;
    const fields = await store.getFields(list);
    for (const item of l.items ?? []) {
      const { author, editor, created, modified, ...rest } = item;
      const values: Record<string, StoredValue> = {};
      for (const [name, raw] of Object.entries(rest)) {
        const field = fields.find((f) => f.internalName === name)!;
        values[name] = await fixtureValue(field, raw, users);
      }
      const authorId = author ? await users.ensure(author) : actor;
      const editorId = editor ? await users.ensure(editor) : authorId;
      await store.createItem(list, fields, {
        values, actorId: editorId, authorId, now,
        created: created ? normaliseDateTime(created) : undefined,
        modified: modified ? normaliseDateTime(modified) : created ? normaliseDateTime(created) : undefined,
      });
    }
  }
  return site;
}

/** User fields name people by UPN in a tenant file; everything else is a REST value already. */
async function fixtureValue(field: Field, raw: unknown, users: SiteUsers): Promise<StoredValue> {
  if (field.kind === 'User' && typeof raw === 'string') return toStoredValue(field, await users.ensure(raw));
  if (field.kind === 'UserMulti' && Array.isArray(raw)) {
    const ids: number[] = [];
    for (const upn of raw) ids.push(await users.ensure(String(upn)));
    return toStoredValue(field, ids);
  }
  return toStoredValue(field, raw);
}

async function systemAccount(store: Store, userList: List, now: string): Promise<number> {
  const fields = await store.getFields(userList);
  const item = await store.createItem(userList, fields, {
    values: { Title: 'System Account', Name: 'SHAREPOINT\\system', IsSiteAdmin: 1, Deleted: 0, UserInfoHidden: 0 }, actorId: 1, now,
  });
  return item.id;
}

