// Site users (SP.User: rows of the User Information List), site groups (SP.Group: the
// site's Owners, Visitors and Members) and EnsureUser.

import type { Item } from '../../../../domain/model.ts';
import type { Expression } from '../../../../query/ast.ts';
import { errors } from '../../../../wire/errors.ts';
import { resolveLogin } from '../../../../identity/logins.ts';
import {
  allSiteGroups, groupMembers, groupsOfPrincipal, siteGroupOfRole, type SiteGroupDef,
} from '../../../../identity/site-groups.ts';
import {
  directoryPrincipal, findSiteUser, loginNameOf, SYSTEM_ACCOUNT_ID, userInfoList, type SitePrincipal,
} from '../../../../identity/site-users.ts';
import { argumentLiteral, type Argument } from '../../../../odata/path.ts';
import { voidAction } from './documents-shared.ts';
import type { Entity } from '../../../../wire/values.ts';
import type { ApiContext } from '../context.ts';
import { readEntityBody, type Properties } from '../body.ts';
import {
  directoryUserOfRow, directoryUsersOfRows, groupEntity, GROUPS_METADATA, siteUserRecord, SYSTEM_ACCOUNT, userEntity, USERS_METADATA, type SiteUserRecord,
} from '../principal-entities.ts';
import { noContent, type Outcome } from '../outcome.ts';
import { requirePermission } from '../../../../identity/permissions.ts';
import { toStoredValue, ValueError } from '../../../../domain/values.ts';
import type { StoredValue } from '../../../../domain/model.ts';
import type { Resource, ResourceType } from '../resource.ts';
import { argument, entityCollection, integerArgument, singleEntity, stringArgument } from './shared.ts';

type SiteUsersResource = { kind: 'siteUsers'; group?: SiteGroupDef | undefined };
type SiteUserResource = { kind: 'siteUser'; user: SiteUserRecord };
type SiteGroupsResource = { kind: 'siteGroups'; memberOf?: SiteUserRecord | undefined };
type SiteGroupResource = { kind: 'siteGroup'; group: SiteGroupDef };

// ---- User Information List rows ------------------------------------------------------------

async function record(ctx: ApiContext, item: Item): Promise<SiteUserRecord> {
  return siteUserRecord(item, await directoryUserOfRow(ctx.store, item));
}

/** Many rows at once: one directory read for all of them. */
async function records(ctx: ApiContext, items: Item[]): Promise<SiteUserRecord[]> {
  const users = await directoryUsersOfRows(ctx.store, items);
  return items.map((item, i) => siteUserRecord(item, users[i]));
}

async function rowById(ctx: ApiContext, id: number): Promise<Item | undefined> {
  const { list, fields } = await userInfoList(ctx.store, ctx.site);
  return ctx.store.items.get(list, fields, id);
}

/** Every row, in id order, read a page at a time. */
async function allRows(ctx: ApiContext): Promise<Item[]> {
  const { list, fields } = await userInfoList(ctx.store, ctx.site);
  const rows: Item[] = [];
  let after: { id: number; values: [] } | undefined;
  for (;;) {
    const page = await ctx.store.items.query(list, fields, { orderBy: [], top: 5000, after, lookups: new Map() });
    rows.push(...page.items);
    if (!page.hasMore || page.items.length === 0) return rows;
    after = { id: page.items[page.items.length - 1]!.id, values: [] };
  }
}

async function rowByEmail(ctx: ApiContext, email: string): Promise<Item | undefined> {
  const { list, fields } = await userInfoList(ctx.store, ctx.site);
  const page = await ctx.store.items.query(list, fields, {
    filter: { kind: 'compare', op: 'eq', left: { kind: 'member', path: ['EMail'] }, right: { kind: 'literal', type: 'string', value: email } },
    orderBy: [], top: 1, lookups: new Map(),
  });
  return page.items[0];
}

/**
 * The principal's row, created if absent. The check runs first outside a transaction (the
 * common case: the row exists); creation re-checks inside one, so racing requests make one row.
 */
function ensureRow(ctx: ApiContext, who: SitePrincipal, actorId?: number): Promise<Item> {
  return ctx.services.principals.ensure(ctx.site, who, actorId);
}

/**
 * A group's members as site users, in the order the site lists them: their rows, read in one
 * query. A GET writes nothing: the tenant load gives every role holder a row, and a holder
 * without one (never loaded, never seen) is not listed until something gives it one.
 */
async function groupUsers(ctx: ApiContext, group: SiteGroupDef): Promise<SiteUserRecord[]> {
  if (group.role === null) {
    // A group of the site's own holds site users by id.
    const rows: Item[] = [];
    for (const id of await ctx.store.siteGroups.members(ctx.site.id, group.id)) {
      const row = await rowById(ctx, id);
      if (row) rows.push(row);
    }
    return records(ctx, rows);
  }
  const logins = (await groupMembers(ctx.store, ctx.site, group)).map(loginNameOf);
  if (logins.length === 0) return [];
  const { list, fields } = await userInfoList(ctx.store, ctx.site);
  const byName: Expression = logins.map((login): Expression => ({
    kind: 'compare', op: 'eq', left: { kind: 'member', path: ['Name'] }, right: { kind: 'literal', type: 'string', value: login },
  })).reduce((left, right) => ({ kind: 'logical', op: 'or', left, right }));
  const page = await ctx.store.items.query(list, fields, { filter: byName, orderBy: [], top: logins.length, lookups: new Map() });
  const rows = new Map(page.items.map((row) => [String(row.values.Name).toLowerCase(), row]));
  const seen = new Set<number>();
  const found: Item[] = [];
  for (const login of logins) {
    const row = rows.get(login.toLowerCase());
    if (!row || seen.has(row.id)) continue;
    seen.add(row.id);
    found.push(row);
  }
  return records(ctx, found);
}

// ---- Lookups ---------------------------------------------------------------------------

/** By id: a row of the User Information List, or the System Account. */
export async function siteUserById(ctx: ApiContext, id: number): Promise<SiteUserRecord> {
  if (id === SYSTEM_ACCOUNT_ID) return SYSTEM_ACCOUNT;
  const row = await rowById(ctx, id);
  if (!row) throw errors.userNotFound();
  return record(ctx, row);
}

/** Within a collection: the whole site's users, or one group's. */
async function lookUp(ctx: ApiContext, r: SiteUsersResource, find: (users: SiteUserRecord[]) => SiteUserRecord | undefined,
  direct: () => Promise<Item | undefined>): Promise<SiteUserResource> {
  if (r.group) {
    const user = find(await groupUsers(ctx, r.group));
    if (!user) throw errors.userNotFound();
    return { kind: 'siteUser', user };
  }
  const row = await direct();
  if (!row) throw errors.userNotFound();
  return { kind: 'siteUser', user: await record(ctx, row) };
}

const byId = (ctx: ApiContext, r: SiteUsersResource, id: number) =>
  lookUp(ctx, r, (us) => us.find((u) => u.id === id), () => rowById(ctx, id));

const byLoginName = (ctx: ApiContext, r: SiteUsersResource, login: string) =>
  lookUp(ctx, r, (us) => us.find((u) => u.loginName.toLowerCase() === login.trim().toLowerCase()),
    () => findSiteUser(ctx.store, ctx.site, login.trim()));

const byEmail = (ctx: ApiContext, r: SiteUsersResource, email: string) =>
  lookUp(ctx, r, (us) => us.find((u) => (u.email ?? '').toLowerCase() === email.trim().toLowerCase()),
    () => rowByEmail(ctx, email.trim()));

function requireGroup(group: SiteGroupDef | undefined): SiteGroupDef {
  if (!group) throw errors.groupNotFound();
  return group;
}

// ---- EnsureUser --------------------------------------------------------------------------

/** The logon name from the path (`ensureuser('…')`) or the body (`{"logonName":"…"}`, verbose or light). */
function logonNameOf(args: Argument[], ctx: ApiContext): string {
  let value: unknown;
  if (args.length > 0) {
    const literal = argumentLiteral(argument(args, 'logonName'));
    if (!literal || literal.type === 'null') value = undefined;
    else if (literal.type !== 'string') throw errors.invalidPropertyValue('Edm.String');
    else value = literal.value;
  } else {
    const body = ctx.body;
    if (body !== undefined) {
      if (body === null || typeof body !== 'object' || Array.isArray(body)) throw errors.notAnObject();
      // Lenient about `__metadata`: verbose clients send one (or none), light clients should not but some do.
      const entry = Object.entries(body as Properties).find(([k]) => k.toLowerCase() === 'logonname');
      value = entry?.[1] ?? undefined;
    }
  }
  if (value !== undefined && value !== null && typeof value !== 'string') throw errors.invalidPropertyValue('Edm.String');
  if (typeof value !== 'string' || value.trim() === '') {
    throw errors.badArgument('The logonName parameter is required and must not be empty: send {"logonName":"i:0#.f|membership|user@contoso.com"}.');
  }
  return value;
}

async function ensureUser(args: Argument[], ctx: ApiContext): Promise<Outcome> {
  const logonName = logonNameOf(args, ctx);
  const who = await resolveLogin(ctx.store, logonName);
  if (!who) throw errors.ensureUserNotFound(logonName);
  const row = await ensureRow(ctx, who, ctx.principal.userId);
  return singleEntity(userEntity(await record(ctx, row), ctx), USERS_METADATA, ctx);
}

// ---- Resource types --------------------------------------------------------------------

export const siteUsersType: ResourceType<SiteUsersResource> = {
  /** Adding a site user (EnsureUser by another name) adds a row to the User Information List. */
  permissions: { create: 'AddListItems' },
  /** `siteusers(@v)?@v='i:0#.f|membership|…'` (PnPjs's getByLoginName); a number is taken as an id. */
  key: async (r, args, ctx) => {
    const literal = argumentLiteral(argument(args));
    if (literal?.type === 'number') return byId(ctx, r, integerArgument(args));
    return byLoginName(ctx, r, stringArgument(args));
  },
  methods: {
    getbyid: { kind: 'function', invoke: (r, args, ctx) => byId(ctx, r, integerArgument(args, 'id')) },
    getbyemail: { kind: 'function', invoke: (r, args, ctx) => byEmail(ctx, r, stringArgument(args, 'emailAddress', 'email')) },
    getbyloginname: { kind: 'function', invoke: (r, args, ctx) => byLoginName(ctx, r, stringArgument(args, 'loginName')) },
    /** A group's `users/removeById(n)`: the member leaves the group (a site's users are not removed this way). */
    removebyid: voidAction('RemoveById', 'Open', async (r, args, ctx) => removeFromGroup(ctx, r, await byId(ctx, r, integerArgument(args, 'id')))),
    removebyloginname: voidAction('RemoveByLoginName', 'Open', async (r, args, ctx) => removeFromGroup(ctx, r, await byLoginName(ctx, r, stringArgument(args, 'loginName')))),
  },
  async get(r, ctx) {
    const users = r.group ? await groupUsers(ctx, r.group) : await records(ctx, await allRows(ctx));
    return entityCollection(users.map((u) => userEntity(u, ctx)), USERS_METADATA, ctx);
  },
  /** `POST siteusers {"LoginName":…}` (PnPjs's siteUsers.add): EnsureUser by another name. */
  async create(r, ctx) {
    const props = readEntityBody(ctx, 'SP.User');
    const login = props.LoginName;
    if (typeof login !== 'string' || login.trim() === '') throw errors.badArgument('The LoginName property is required and must not be empty.');
    const who = await resolveLogin(ctx.store, login);
    if (!who) throw errors.ensureUserNotFound(login);
    if (r.group) {
      // Adding to a group changes who may do what: ManagePermissions (the group's owner may too).
      requireGroupManager(ctx, r.group);
      const id = await ctx.services.siteGroups.addMember(ctx.site, r.group, who);
      return { ...singleEntity(userEntity(await siteUserById(ctx, id), ctx), USERS_METADATA, ctx), status: 201 };
    }
    const row = await ensureRow(ctx, who, ctx.principal.userId);
    return { ...singleEntity(userEntity(await record(ctx, row), ctx), USERS_METADATA, ctx), status: 201 };
  },
};

export const siteUserType: ResourceType<SiteUserResource> = {
  permissions: { update: 'EditListItems', delete: 'DeleteListItems' },
  navigation: {
    groups: async (r) => ({ kind: 'siteGroups', memberOf: r.user }),
  },
  get: async (r, ctx) => singleEntity(userEntity(r.user, ctx), USERS_METADATA, ctx),
  /**
   * MERGE: Title, Email and IsHiddenInUI are kept in the user's User Information List row;
   * IsSiteAdmin needs Manage Web Site. Clients send the whole SP.User back (PnPjs's
   * `currentUser.update(props)`): the other properties may come unchanged, not changed.
   */
  async update(r, ctx) {
    const props = readEntityBody(ctx, 'SP.User');
    const current = userEntity(r.user, ctx);
    const values: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(props)) {
      if (key.startsWith('odata.')) continue;
      const settable = USER_COLUMNS[key];
      if (settable) { values[settable] = value; continue; }
      const shown = current.props.find(([name]) => name === key);
      if (!shown) throw errors.unknownBodyProperty(key, 'SP.User');
      if (JSON.stringify(plain(shown[1])) !== JSON.stringify(value)) throw errors.badArgument(`The property '${key}' of SP.User cannot be changed.`);
    }
    if ('IsSiteAdmin' in values && values.IsSiteAdmin !== r.user.isSiteAdmin) requirePermission(ctx.principal, 'ManageWeb');
    const { list, fields } = await userInfoList(ctx.store, ctx.site);
    const stored: Record<string, StoredValue> = {};
    for (const [name, raw] of Object.entries(values)) {
      const field = fields.find((f) => f.internalName === name)!;
      if (name === 'Title' && (typeof raw !== 'string' || !raw.trim())) throw errors.badArgument('The Title of a user must not be empty.');
      try { stored[name] = toStoredValue(field, raw); } catch (e) { if (e instanceof ValueError) throw errors.badArgument(e.message); throw e; }
    }
    await ctx.services.items.update(list, fields, r.user.id, stored, ctx.conditions);
    return noContent();
  },
  delete: async () => { throw errors.notImplemented('SP.User.DeleteObject'); },
};

/** SP.User's settable properties → the User Information List's columns. */
const USER_COLUMNS: Record<string, string> = { Title: 'Title', Email: 'EMail', IsHiddenInUI: 'UserInfoHidden', IsSiteAdmin: 'IsSiteAdmin' };

/** A wire value as the JSON a client sends it back (complex values as plain objects). */
function plain(value: unknown): unknown {
  if (value && typeof value === 'object' && (value as { kind?: string }).kind === 'complex') {
    return Object.fromEntries((value as { props: Array<[string, unknown]> }).props.map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

async function groupOutcome(group: SiteGroupDef, ctx: ApiContext): Promise<Outcome> {
  return singleEntity(groupEntity(group, await ownerTitle(ctx, group), ctx), GROUPS_METADATA, ctx);
}

export const siteGroupsType: ResourceType<SiteGroupsResource> = {
  permissions: { create: 'CreateGroups' },
  key: async (r, args, ctx) => ({ kind: 'siteGroup', group: requireGroup(await groupIn(ctx, r, integerArgument(args))) }),
  methods: {
    getbyid: {
      kind: 'function',
      invoke: async (r, args, ctx) => ({ kind: 'siteGroup', group: requireGroup(await groupIn(ctx, r, integerArgument(args, 'id'))) }),
    },
    getbyname: {
      kind: 'function',
      async invoke(r, args, ctx) {
        const name = stringArgument(args, 'name').toLowerCase();
        const group = (await groupsOf(ctx, r)).find((g) => g.title.toLowerCase() === name);
        return { kind: 'siteGroup', group: requireGroup(group) };
      },
    },
    removebyid: voidAction('RemoveById', 'ManagePermissions', async (r, args, ctx) => {
      await ctx.services.siteGroups.delete(ctx.site, requireGroup(await groupIn(ctx, r, integerArgument(args, 'id'))));
    }),
    removebyloginname: voidAction('RemoveByLoginName', 'ManagePermissions', async (r, args, ctx) => {
      const name = stringArgument(args, 'loginName').toLowerCase();
      await ctx.services.siteGroups.delete(ctx.site, requireGroup((await groupsOf(ctx, r)).find((g) => g.title.toLowerCase() === name)));
    }),
  },
  async get(r, ctx) {
    const entities: Entity[] = [];
    for (const g of await groupsOf(ctx, r)) entities.push(groupEntity(g, await ownerTitle(ctx, g), ctx));
    return entityCollection(entities, GROUPS_METADATA, ctx);
  },
  /** `POST sitegroups {"Title":…}` (PnPjs's siteGroups.add): a group of the site's own, owned by its maker. */
  async create(r, ctx) {
    if (r.memberOf) throw errors.methodNotAllowed('POST');
    const props = readEntityBody(ctx, 'SP.Group');
    for (const key of Object.keys(props)) if (!GROUP_PROPS.has(key)) throw errors.unknownBodyProperty(key, 'SP.Group');
    const group = await ctx.services.siteGroups.create(ctx.site, groupInput(props));
    return { ...(await groupOutcome(group, ctx)), status: 201 };
  },
};

const GROUP_PROPS = new Set(['Title', 'Description', 'AllowMembersEditMembership', 'OnlyAllowMembersViewMembership']);

function groupInput(props: Properties): { title: string; description?: string | undefined; allowMembersEditMembership?: boolean | undefined; onlyAllowMembersViewMembership?: boolean | undefined } {
  const text = (name: string) => {
    const v = props[name];
    if (v !== undefined && v !== null && typeof v !== 'string') throw errors.invalidPropertyValue('Edm.String');
    return v ?? undefined;
  };
  const flag = (name: string) => {
    const v = props[name];
    if (v !== undefined && v !== null && typeof v !== 'boolean') throw errors.invalidPropertyValue('Edm.Boolean');
    return v ?? undefined;
  };
  return { title: (text('Title') as string | undefined) ?? '', description: text('Description') as string | undefined,
    allowMembersEditMembership: flag('AllowMembersEditMembership') as boolean | undefined, onlyAllowMembersViewMembership: flag('OnlyAllowMembersViewMembership') as boolean | undefined };
}

async function removeFromGroup(ctx: ApiContext, r: SiteUsersResource, member: SiteUserResource): Promise<void> {
  if (!r.group) throw errors.notImplemented('Removing a user from the site');
  requireGroupManager(ctx, r.group);
  const who = await resolveLogin(ctx.store, member.user.loginName);
  await ctx.services.siteGroups.removeMember(ctx.site, r.group, member.user.id, who);
}

/** Group membership changes need ManagePermissions, or to be the group's owner (or a member, where members may edit it). */
function requireGroupManager(ctx: ApiContext, group: SiteGroupDef): void {
  if (group.ownerId === ctx.principal.userId) return;
  requirePermission(ctx.principal, 'ManagePermissions');
}

/** The title of a group's owner: a site user's, or the site's Owners group's. */
async function ownerTitle(ctx: ApiContext, group: SiteGroupDef): Promise<string> {
  if (group.ownerId !== null) {
    const row = await rowById(ctx, group.ownerId);
    if (row) return String(row.values.Title ?? '');
  }
  return siteGroupOfRole(ctx.site, 'owner').title;
}

/** The groups of the collection: all the site's, or those a user is in. */
async function groupsOf(ctx: ApiContext, r: SiteGroupsResource): Promise<SiteGroupDef[]> {
  if (!r.memberOf) return allSiteGroups(ctx.store, ctx.site);
  const who = await resolveLogin(ctx.store, r.memberOf.loginName);
  return who ? groupsOfPrincipal(ctx.store, ctx.site, who) : [];
}

async function groupIn(ctx: ApiContext, r: SiteGroupsResource, id: number): Promise<SiteGroupDef | undefined> {
  return (await groupsOf(ctx, r)).find((g) => g.id === id);
}

export const siteGroupType: ResourceType<SiteGroupResource> = {
  permissions: { update: 'ManagePermissions', delete: 'ManagePermissions' },
  navigation: {
    users: async (r) => ({ kind: 'siteUsers', group: r.group }),
    owner: async (_r, ctx) => ({ kind: 'siteGroup', group: siteGroupOfRole(ctx.site, 'owner') }),
  },
  methods: {
    /** The group's owner becomes this site user (or group id). */
    setuserasowner: voidAction('SetUserAsOwner', 'ManagePermissions', async (r, args, ctx) => {
      await ctx.services.siteGroups.setOwner(ctx.site, r.group, integerArgument(args, 'ownerId'));
    }),
  },
  get: async (r, ctx) => groupOutcome(r.group, ctx),
  /** MERGE: Title, Description and the membership flags of a group of the site's own. */
  async update(r, ctx) {
    const props = readEntityBody(ctx, 'SP.Group');
    for (const key of Object.keys(props)) {
      if (key.startsWith('odata.') || GROUP_PROPS.has(key)) continue;
      throw errors.unknownBodyProperty(key, 'SP.Group');
    }
    const input = groupInput(props);
    await ctx.services.siteGroups.update(ctx.site, r.group, {
      ...(props.Title !== undefined ? { title: input.title } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.allowMembersEditMembership !== undefined ? { allowMembersEditMembership: input.allowMembersEditMembership } : {}),
      ...(input.onlyAllowMembersViewMembership !== undefined ? { onlyAllowMembersViewMembership: input.onlyAllowMembersViewMembership } : {}),
    });
    return noContent();
  },
  async delete(r, ctx) {
    await ctx.services.siteGroups.delete(ctx.site, r.group);
    return { status: 200 };
  },
};

// ---- Entry points on SP.Web --------------------------------------------------------------

/** Navigation properties and methods the web gains (merged into webType). */
export const webPrincipalNavigation: Record<string, (r: unknown, ctx: ApiContext) => Promise<Resource>> = {
  siteusers: async () => ({ kind: 'siteUsers' }),
  sitegroups: async () => ({ kind: 'siteGroups' }),
  currentuser: async (_r, ctx) => ({ kind: 'siteUser', user: await currentUser(ctx) }),
  siteuserinfolist: async (_r, ctx) => ({ kind: 'list', list: (await userInfoList(ctx.store, ctx.site)).list }),
  associatedownergroup: async (_r, ctx) => ({ kind: 'siteGroup', group: siteGroupOfRole(ctx.site, 'owner') }),
  associatedmembergroup: async (_r, ctx) => ({ kind: 'siteGroup', group: siteGroupOfRole(ctx.site, 'member') }),
  associatedvisitorgroup: async (_r, ctx) => ({ kind: 'siteGroup', group: siteGroupOfRole(ctx.site, 'visitor') }),
};

/**
 * The web's associated owner, member or visitor group as an entity, for `$expand` on the web
 * (CLI for Microsoft 365's `spo web get --withGroups`), the same one `web/AssociatedMemberGroup` answers.
 */
export async function associatedGroupEntity(role: 'owner' | 'member' | 'visitor', ctx: ApiContext): Promise<Entity> {
  const group = siteGroupOfRole(ctx.site, role);
  return groupEntity(group, await ownerTitle(ctx, group), ctx);
}

/** Whoever the request acts as; a directory user without a row yet gets one. */
async function currentUser(ctx: ApiContext): Promise<SiteUserRecord> {
  const { principal } = ctx;
  if (principal.userId === SYSTEM_ACCOUNT_ID) return SYSTEM_ACCOUNT;
  const row = await rowById(ctx, principal.userId);
  if (row) return record(ctx, row);
  const who = principal.upn ? await directoryPrincipal(ctx.store, principal.upn) : undefined;
  if (!who) throw errors.userNotFound();
  return record(ctx, await ensureRow(ctx, who));
}

export const webPrincipalMethods = {
  getuserbyid: {
    kind: 'function' as const,
    invoke: async (_r: unknown, args: Argument[], ctx: ApiContext): Promise<Resource> =>
      ({ kind: 'siteUser', user: await siteUserById(ctx, integerArgument(args, 'id')) }),
  },
  ensureuser: {
    kind: 'action' as const,
    /** Gives the person a row in the User Information List (Edit may, Read may not). */
    permission: 'AddListItems' as const,
    invoke: (_r: unknown, args: Argument[], ctx: ApiContext): Promise<Outcome> => ensureUser(args, ctx),
  },
};

