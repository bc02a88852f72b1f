// Permissions as SharePoint exposes them: EffectiveBasePermissions (the caller's permission
// level as an SP.BasePermissions mask), getUserEffectivePermissions, role assignments and
// role definitions. spemu's sites have one permission scope: the web's three groups hold
// Full Control, Edit and Read, and every list and item inherits them.

import type { Principal } from '../../../../domain/model.ts';
import { permissionsOfRole, ROLE_DEFINITIONS, ROLE_LEVEL, type BasePermissions, type RoleDefinition } from '../../../../domain/permissions.ts';
import { errors } from '../../../../wire/errors.ts';
import { resolveLogin } from '../../../../identity/logins.ts';
import { siteRoleOf } from '../../../../identity/roles.ts';
import { allSiteGroups, directRoles, siteGroupOfRole, type SiteGroupDef } from '../../../../identity/site-groups.ts';
import { assignmentsOf, effectivePermissions, type Securable } from '../../../../identity/effective-permissions.ts';
import { groupEntity, userEntity } from '../principal-entities.ts';
import { siteUserById } from './principals.ts';
import { findSiteUser, loginNameOf, SYSTEM_ACCOUNT_ID } from '../../../../identity/site-users.ts';
import { argumentLiteral, type Argument } from '../../../../odata/path.ts';
import type { SiteRoleName } from '../../../../domain/model.ts';
import type { Entity, Value } from '../../../../wire/values.ts';
import type { ApiContext } from '../context.ts';
import { projectedCollection, projectedEntity, type Navigation } from '../expand.ts';
import { noContent, ok, type Outcome, voidResult } from '../outcome.ts';
import { readEntityBody, type Properties } from '../body.ts';
import { allRoleDefinitions } from '../../../../identity/role-levels.ts';
import type { MethodDef, Resource, ResourceType } from '../resource.ts';
import { argument, entityCollection, integerArgument, singleEntity, stringArgument } from './shared.ts';
import { requireOnSecurable } from '../authorize-on.ts';

const RANK: Record<SiteRoleName, number> = { none: 0, visitor: 1, member: 2, owner: 3 };

/** SP.BasePermissions: High and Low are Edm.Int64, written as strings (reference §8.6). */
export const basePermissionsValue = (p: BasePermissions): Value =>
  ({ kind: 'complex', type: 'SP.BasePermissions', props: [['High', String(p.high)], ['Low', String(p.low)]] });

/** What the acting principal may do here (the System Account everything). */
export function callerPermissions(principal: Principal): BasePermissions {
  return principal.userId === SYSTEM_ACCOUNT_ID ? ROLE_LEVEL.owner.permissions : permissionsOfRole(principal.role);
}

const permissionsOutcome = (name: string, p: BasePermissions): Outcome =>
  ok({ kind: 'primitive', methodName: name, edmType: 'SP.BasePermissions', value: basePermissionsValue(p) });

/** The strongest role a login holds on the site: a user directly or through groups, a group directly. */
async function roleOfLogin(ctx: ApiContext, login: string): Promise<SiteRoleName> {
  if (login.trim().toLowerCase() === 'sharepoint\\system') return 'owner';
  const who = await resolveLogin(ctx.store, login);
  if (!who) throw errors.userNotFound();
  if (who.kind === 'user') return siteRoleOf(ctx.store.directory, ctx.site.id, who.user.upn);
  let best: SiteRoleName = 'none';
  for (const role of await directRoles(ctx.store, ctx.site, who)) if (RANK[role] > RANK[best]) best = role;
  return best;
}

/** `getUserEffectivePermissions(@user)?@user='i:0#.f|membership|…'` on a web, list or item. */
export const getUserEffectivePermissions: MethodDef<Resource> = {
  kind: 'function',
  async invoke(r: Resource, args: Argument[], ctx: ApiContext): Promise<Outcome> {
    const login = stringArgument(args, 'userName', 'user', 'loginName');
    const role = await roleOfLogin(ctx, login);
    const who = login.trim().toLowerCase() === 'sharepoint\\system' ? undefined : await resolveLogin(ctx.store, login);
    const row = who ? await findSiteUser(ctx.store, ctx.site, loginNameOf(who)) : undefined;
    const securable = securableOfResource(r, ctx);
    // Another principal's permissions need Enumerate Permissions on the object (SharePoint's
    // UnauthorizedAccessException, SPSecurableObject docs); the caller's own are what
    // EffectiveBasePermissions tells anyone who can read it (docs/compatibility.md).
    const caller = ctx.principal.upn?.toLowerCase();
    const own = !!caller && who?.kind === 'user' && who.user.upn.toLowerCase() === caller;
    if (!own) await requireEnumerate(securable ?? { kind: 'web', web: ctx.web }, ctx);
    if (!securable) return permissionsOutcome('GetUserEffectivePermissions', permissionsOfRole(role));
    const principal = { userId: row?.id ?? -1, loginName: login, upn: '', role, via: 'bearer' as const };
    return permissionsOutcome('GetUserEffectivePermissions', await effectivePermissions(ctx.store, ctx.site, principal, securable));
  },
};

/**
 * Reading an object's role assignments (who holds what there) needs Enumerate Permissions on it,
 * as in SharePoint: Full Control has it; Design, Edit, Contribute and Read do not.
 */
const requireEnumerate = (securable: Securable, ctx: ApiContext): Promise<void> => requireOnSecurable(securable, 'EnumeratePermissions', ctx);

/** The web, list or item a resource is, for permission questions about it. */
export function securableOfResource(r: Resource, ctx: ApiContext): Securable | undefined {
  if (r.kind === 'web') return { kind: 'web', web: r.web };
  if (r.kind === 'list') return { kind: 'list', web: ctx.web, list: r.list };
  if (r.kind === 'item') return { kind: 'item', web: ctx.web, list: r.list, id: r.id };
  return undefined;
}

export const basePermissionsType: ResourceType<{ kind: 'basePermissions'; name: string; securable?: Securable | undefined }> = {
  get: async (r, ctx) => permissionsOutcome(r.name, r.securable ? await effectivePermissions(ctx.store, ctx.site, ctx.principal, r.securable) : callerPermissions(ctx.principal)),
};

// ---- Role definitions ------------------------------------------------------------------

const definitionLink = (d: RoleDefinition) => `Web/RoleDefinitions(${d.id})`;

function definitionEntity(d: RoleDefinition, ctx: ApiContext): Entity {
  return {
    type: 'SP.RoleDefinition', id: `${ctx.apiUrl}${definitionLink(d)}`, editLink: definitionLink(d),
    props: [
      ['BasePermissions', basePermissionsValue(d.permissions)], ['Description', d.description], ['Hidden', d.hidden],
      ['Id', d.id], ['Name', d.name], ['Order', d.order], ['RoleTypeKind', d.roleTypeKind],
    ],
  };
}

/** The level a site group holds: Owners Full Control, Members Edit, Visitors Read. */
const levelOf = (group: SiteGroupDef): RoleDefinition => ROLE_LEVEL[group.role as Exclude<SiteRoleName, 'none'>];

type Binding = { base: string; securable: Securable; principalId: number };

/** The levels of a binding (one principal's at one object), or every level of the site collection: built in and its own. */
const definitionsOf = async (r: { binding?: Binding | undefined }, ctx: ApiContext): Promise<readonly RoleDefinition[]> =>
  r.binding ? levelsOf(r.binding, r.binding.principalId, ctx) : allRoleDefinitions(ctx.store, ctx.site.id);

async function definitionIn(r: { binding?: Binding | undefined }, ctx: ApiContext, match: (d: RoleDefinition) => boolean): Promise<Resource> {
  const definition = (await definitionsOf(r, ctx)).find(match);
  if (!definition) throw errors.roleDefinitionNotFound();
  return { kind: 'roleDefinition', definition };
}

/** SP.BasePermissions from a body: `{High, Low}` as numbers or the strings SharePoint writes (Edm.Int64). */
function basePermissionsProp(value: unknown): BasePermissions {
  const half = (v: unknown): number => {
    const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > 4294967295) throw errors.badArgument('BasePermissions needs High and Low, each a 32-bit unsigned number.');
    return n;
  };
  if (!value || typeof value !== 'object') throw errors.badArgument('BasePermissions needs High and Low.');
  const { High, Low } = value as { High?: unknown; Low?: unknown };
  return { high: half(High), low: half(Low) };
}

const DEFINITION_PROPS = new Set(['Name', 'Description', 'Order', 'BasePermissions']);

function definitionPatch(props: Properties): { name?: string; description?: string; order?: number; permissions?: BasePermissions } {
  for (const key of Object.keys(props)) if (!DEFINITION_PROPS.has(key) && !key.startsWith('odata.')) throw errors.unknownBodyProperty(key, 'SP.RoleDefinition');
  const patch: { name?: string; description?: string; order?: number; permissions?: BasePermissions } = {};
  if (props.Name !== undefined) { if (typeof props.Name !== 'string') throw errors.invalidPropertyValue('Edm.String'); patch.name = props.Name; }
  if (props.Description !== undefined) { if (typeof props.Description !== 'string') throw errors.invalidPropertyValue('Edm.String'); patch.description = props.Description; }
  if (props.Order !== undefined) { if (typeof props.Order !== 'number') throw errors.invalidPropertyValue('Edm.Int32'); patch.order = props.Order; }
  if (props.BasePermissions !== undefined) patch.permissions = basePermissionsProp(props.BasePermissions);
  return patch;
}

const ROLE_DEFINITIONS_METADATA = 'SP.ApiData.RoleDefinitions';

export const roleDefinitionsType: ResourceType<{ kind: 'roleDefinitions'; binding?: Binding | undefined }> = {
  permissions: { create: 'ManagePermissions' },
  key: async (r, args, ctx) => definitionIn(r, ctx, (d) => d.id === integerArgument(args)),
  methods: {
    getbyid: { kind: 'function', invoke: async (r, args, ctx) => definitionIn(r, ctx, (d) => d.id === integerArgument(args, 'id')) },
    getbyname: {
      kind: 'function',
      async invoke(r, args, ctx) {
        const name = stringArgument(args, 'name').toLowerCase();
        return definitionIn(r, ctx, (d) => d.name.toLowerCase() === name);
      },
    },
    getbytype: { kind: 'function', invoke: async (r, args, ctx) => definitionIn(r, ctx, (d) => d.roleTypeKind === integerArgument(args, 'roleType')) },
  },
  get: async (r, ctx) => entityCollection((await definitionsOf(r, ctx)).map((d) => definitionEntity(d, ctx)), ROLE_DEFINITIONS_METADATA, ctx),
  /** PnPjs's roleDefinitions.add: a permission level of the site collection's own. */
  async create(r, ctx) {
    if (r.binding) throw errors.notImplemented('Binding a role definition to an assignment');
    const patch = definitionPatch(readEntityBody(ctx, 'SP.RoleDefinition'));
    if (patch.name === undefined || patch.permissions === undefined) throw errors.badArgument('A permission level needs a Name and BasePermissions.');
    const definition = await ctx.services.roleDefinitions.create(ctx.web, { name: patch.name, description: patch.description, order: patch.order, permissions: patch.permissions });
    return { ...singleEntity(definitionEntity(definition, ctx), ROLE_DEFINITIONS_METADATA, ctx), status: 201 };
  },
};

export const roleDefinitionType: ResourceType<{ kind: 'roleDefinition'; definition: RoleDefinition }> = {
  permissions: { update: 'ManagePermissions', delete: 'ManagePermissions' },
  get: async (r, ctx) => singleEntity(definitionEntity(r.definition, ctx), ROLE_DEFINITIONS_METADATA, ctx),
  async update(r, ctx) {
    await ctx.services.roleDefinitions.update(ctx.web, r.definition, definitionPatch(readEntityBody(ctx, 'SP.RoleDefinition')));
    return noContent();
  },
  async delete(r, ctx) {
    await ctx.services.roleDefinitions.delete(ctx.web, r.definition);
    return { status: 200 };
  },
};

// ---- Role assignments ------------------------------------------------------------------

type AssignmentsResource = { kind: 'roleAssignments'; base: string; securable: Securable };
type AssignmentResource = { kind: 'roleAssignment'; base: string; securable: Securable; principalId: number };

const assignmentLink = (base: string, principalId: number) => `${base}/RoleAssignments/GetByPrincipalId(${principalId})`;

function assignmentEntity(base: string, principalId: number, ctx: ApiContext): Entity {
  const link = assignmentLink(base, principalId);
  return { type: 'SP.RoleAssignment', id: `${ctx.apiUrl}${link}`, editLink: link, deferred: ['Member', 'RoleDefinitionBindings'], props: [['PrincipalId', principalId]] };
}

/** A principal of the site as SP.Group or SP.User. */
async function memberEntity(principalId: number, ctx: ApiContext): Promise<Entity> {
  const group = (await allSiteGroups(ctx.store, ctx.site)).find((g) => g.id === principalId);
  if (group) return groupEntity(group, siteGroupOfRole(ctx.site, 'owner').title, ctx);
  return userEntity(await siteUserById(ctx, principalId), ctx);
}

async function levelsOf(r: { securable: Securable }, principalId: number, ctx: ApiContext): Promise<RoleDefinition[]> {
  const { assignments } = await assignmentsOf(ctx.store, ctx.site, r.securable);
  const ids = new Set(assignments.filter((a) => a.principalId === principalId).map((a) => a.roleDefinitionId));
  return (await allRoleDefinitions(ctx.store, ctx.site.id)).filter((d) => ids.has(d.id));
}

function assignmentNavigations(r: { base: string; securable: Securable }, principalId: number, ctx: ApiContext): Record<string, Navigation> {
  const link = assignmentLink(r.base, principalId);
  return {
    Member: { link: `${link}/Member`, load: () => memberEntity(principalId, ctx) },
    RoleDefinitionBindings: { link: `${link}/RoleDefinitionBindings`, load: async () => (await levelsOf(r, principalId, ctx)).map((d) => definitionEntity(d, ctx)) },
  };
}

async function principalIdsAt(r: { securable: Securable }, ctx: ApiContext): Promise<number[]> {
  return [...new Set((await assignmentsOf(ctx.store, ctx.site, r.securable)).assignments.map((a) => a.principalId))];
}

async function assignmentOf(ctx: ApiContext, r: AssignmentsResource, principalId: number): Promise<Resource> {
  if (!(await principalIdsAt(r, ctx)).includes(principalId)) throw errors.principalNotFound(principalId);
  return { kind: 'roleAssignment', base: r.base, securable: r.securable, principalId };
}

const ROLE_ASSIGNMENTS_METADATA = 'SP.ApiData.RoleAssignments';

/** The role assignments of the securable at `base`, as `$expand=RoleAssignments` shows them (its own, or the ones it inherits). */
export async function roleAssignmentEntities(base: string, securable: Securable, ctx: ApiContext): Promise<Entity[]> {
  // Every way to list them ends here: `RoleAssignments` read, or expanded on a list or item (a page of items: each one's).
  await requireEnumerate(securable, ctx);
  return (await principalIdsAt({ securable }, ctx)).map((id) => assignmentEntity(base, id, ctx));
}

/**
 * `$expand=RoleAssignments` on a web or list, with `RoleAssignments/Member` and
 * `RoleAssignments/RoleDefinitionBindings` below it (CLI for Microsoft 365's `spo list get --withPermissions`).
 */
export function roleAssignmentsNavigation(base: string, securable: Securable, ctx: ApiContext): Navigation {
  return {
    link: `${base}/RoleAssignments`,
    load: () => roleAssignmentEntities(base, securable, ctx),
    nested: (e) => assignmentNavigations({ base, securable }, Number(e.props.find(([k]) => k === 'PrincipalId')?.[1]), ctx),
  };
}

/** `addRoleAssignment(principalid=n, roledefid=m)` / `removeRoleAssignment(…)` on a securable's role assignments. */
function assignmentAction(name: string, run: (r: AssignmentsResource, principalId: number, roleDefinitionId: number, ctx: ApiContext) => Promise<void>): MethodDef<AssignmentsResource> {
  return {
    kind: 'action', permission: 'ManagePermissions', body: 'none',
    async invoke(r, args, ctx) {
      await run(r, integerArgument(args, 'principalId', 'principalid'), integerArgument(args, 'roleDefId', 'roledefid'), ctx);
      return voidResult(name);
    },
  };
}

export const roleAssignmentsType: ResourceType<AssignmentsResource> = {
  permissions: { create: 'ManagePermissions' },
  key: async (r, args, ctx) => assignmentOf(ctx, r, integerArgument(args)),
  methods: {
    getbyprincipalid: { kind: 'function', invoke: async (r, args, ctx) => assignmentOf(ctx, r, integerArgument(args, 'principalId')) },
    addroleassignment: assignmentAction('AddRoleAssignment', (r, p, d, ctx) => ctx.services.permissions.add(ctx.site, r.securable, p, d)),
    removeroleassignment: assignmentAction('RemoveRoleAssignment', (r, p, d, ctx) => ctx.services.permissions.remove(ctx.site, r.securable, p, d)),
  },
  async get(r, ctx) {
    return projectedCollection(await roleAssignmentEntities(r.base, r.securable, ctx),
      (e) => assignmentNavigations(r, Number(e.props.find(([k]) => k === 'PrincipalId')?.[1]), ctx),
      ROLE_ASSIGNMENTS_METADATA, ctx);
  },
};

export const roleAssignmentType: ResourceType<AssignmentResource> = {
  permissions: { delete: 'ManagePermissions' },
  navigation: {
    member: async (r, ctx) => {
      const group = (await allSiteGroups(ctx.store, ctx.site)).find((g) => g.id === r.principalId);
      return group ? { kind: 'siteGroup', group } : { kind: 'siteUser', user: await siteUserById(ctx, r.principalId) };
    },
    roledefinitionbindings: async (r) => ({ kind: 'roleDefinitions', binding: { base: r.base, securable: r.securable, principalId: r.principalId } }),
  },
  get: async (r, ctx) => projectedEntity(assignmentEntity(r.base, r.principalId, ctx), assignmentNavigations(r, r.principalId, ctx), ROLE_ASSIGNMENTS_METADATA, ctx),
  async delete(r, ctx) {
    await ctx.services.permissions.remove(ctx.site, r.securable, r.principalId);
    return { status: 200 };
  },
};

// ---- What a web, list or item gains ------------------------------------------------------

/** Where a securable resource is and what it is: its edit link and the object (web, list or item). */
export type SecurableOf<R> = (r: R, ctx: ApiContext) => Promise<{ base: string; securable: Securable }>;

/** Navigation properties of a securable object. */
export function securableNavigation<R extends Resource>(of: SecurableOf<R>, forUi = false):
  Record<string, (r: R, ctx: ApiContext) => Promise<Resource>> {
  return {
    // Everything below (`GetByPrincipalId(n)`, `(n)/Member`, the bindings, add and remove) reads them first.
    roleassignments: async (r, ctx) => {
      const at = await of(r, ctx);
      await requireEnumerate(at.securable, ctx);
      return { kind: 'roleAssignments', ...at };
    },
    effectivebasepermissions: async (r, ctx) => ({ kind: 'basePermissions', name: 'EffectiveBasePermissions', securable: (await of(r, ctx)).securable }),
    ...(forUi ? {
      effectivebasepermissionsforui: async (r: R, ctx: ApiContext): Promise<Resource> =>
        ({ kind: 'basePermissions', name: 'EffectiveBasePermissionsForUI', securable: (await of(r, ctx)).securable }),
    } : {}),
    /** The object whose role assignments apply here: this one, or the nearest parent with unique permissions. */
    firstuniqueancestorsecurableobject: async (r, ctx) => {
      const { base, securable } = await of(r, ctx);
      const { inheritedFrom, unique } = await assignmentsOf(ctx.store, ctx.site, securable);
      const from = unique ? securable : inheritedFrom ?? { kind: 'web', web: (await ctx.store.sites.web(ctx.site.rootWebId)) ?? ctx.web };
      const link = from === securable ? base : securableLink(from);
      return { kind: 'readOnly', read: async (c) => singleEntity({ type: 'SP.SecurableObject', id: `${c.apiUrl}${link}`, editLink: link, props: [['HasUniqueRoleAssignments', true]] }, 'SP.SecurableObject', c) };
    },
  };
}

function securableLink(s: Securable): string {
  return s.kind === 'web' ? 'Web' : s.kind === 'list' ? `Web/Lists(guid'${s.list.id}')` : `Web/Lists(guid'${s.list.id}')/Items(${s.id})`;
}

const flagArgument = (args: Argument[], name: string): boolean => {
  const literal = argumentLiteral(argument(args, name));
  if (literal === undefined) return false;
  if (literal.type !== 'boolean') throw errors.invalidPropertyValue('Edm.Boolean');
  return literal.value;
};

/** breakRoleInheritance(copyRoleAssignments, clearSubscopes) and resetRoleInheritance on a securable object. */
export function securableMethods<R extends Resource>(of: SecurableOf<R>): Record<string, MethodDef<R>> {
  return {
    breakroleinheritance: {
      kind: 'action', permission: 'ManagePermissions', body: 'none',
      async invoke(r, args, ctx) {
        await ctx.services.permissions.breakInheritance(ctx.site, (await of(r, ctx)).securable, flagArgument(args, 'copyRoleAssignments'), flagArgument(args, 'clearSubscopes'));
        return voidResult('BreakRoleInheritance');
      },
    },
    resetroleinheritance: {
      kind: 'action', permission: 'ManagePermissions', body: 'none',
      async invoke(r, _args, ctx) {
        await ctx.services.permissions.resetInheritance(ctx.site, (await of(r, ctx)).securable);
        return voidResult('ResetRoleInheritance');
      },
    },
  };
}

/**
 * Properties of SP.Web and SP.List that SharePoint writes only when `$select` names them:
 * EffectiveBasePermissions (the caller's on the object) and HasUniqueRoleAssignments.
 * Appended to `entity` when selected (or expanded).
 */
export async function withSecurableProperties(entity: Entity, ctx: ApiContext, securable: Securable): Promise<Entity> {
  // Named in `$expand` too, as CLI for Microsoft 365 asks for HasUniqueRoleAssignments (SharePoint writes it then).
  const named = new Set([...(ctx.query.select ?? []), ...ctx.query.expand.filter((p) => p.length === 1)].map((p) => p[0]?.toLowerCase()));
  const props = [...entity.props];
  await appendSecurableProperties(props, ctx, securable, named.has('effectivebasepermissions'), named.has('hasuniqueroleassignments'));
  return props.length === entity.props.length ? entity : { ...entity, props };
}

/** Appends EffectiveBasePermissions and HasUniqueRoleAssignments (those asked for, in that order) to `props`. */
export async function appendSecurableProperties(
  props: Array<[string, Value]>, ctx: ApiContext, securable: Securable, effectiveBasePermissions: boolean, hasUniqueRoleAssignments: boolean,
): Promise<void> {
  if (effectiveBasePermissions) props.push(['EffectiveBasePermissions', basePermissionsValue(await effectivePermissions(ctx.store, ctx.site, ctx.principal, securable))]);
  if (hasUniqueRoleAssignments) props.push(['HasUniqueRoleAssignments', (await assignmentsOf(ctx.store, ctx.site, securable)).unique]);
}
