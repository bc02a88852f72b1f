// Permissions as SharePoint exposes them: EffectiveBasePermissions (the caller's permission
// level as an SP.BasePermissions mask), getUserEffectivePermissions, role assignments and
// role definitions. spemu's sites have one permission scope: the web's three groups hold
// Full Control, Edit and Read, and every list and item inherits them.

import type { Principal } from '../../../../domain/model.ts';
import { permissionsOfRole, ROLE_DEFINITIONS, ROLE_LEVEL, type BasePermissions, type RoleDefinition } from '../../../../domain/permissions.ts';
import { errors } from '../../../../wire/errors.ts';
import { resolveLogin } from '../../../../identity/logins.ts';
import { siteRoleOf } from '../../../../identity/roles.ts';
import { directRoles, siteGroupById, siteGroupOfRole, siteGroups, type SiteGroupDef } from '../../../../identity/site-groups.ts';
import { SYSTEM_ACCOUNT_ID } from '../../../../identity/site-users.ts';
import type { Argument } from '../../../../odata/path.ts';
import type { SiteRoleName } from '../../../../domain/model.ts';
import type { Entity, Value } from '../../../../wire/values.ts';
import type { ApiContext } from '../context.ts';
import { projectedCollection, projectedEntity, type Navigation } from '../expand.ts';
import { ok, type Outcome } from '../outcome.ts';
import { groupEntity } from '../principal-entities.ts';
import type { MethodDef, Resource, ResourceType } from '../resource.ts';
import { entityCollection, integerArgument, singleEntity, stringArgument } from './shared.ts';

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
  async invoke(_r: Resource, args: Argument[], ctx: ApiContext): Promise<Outcome> {
    const login = stringArgument(args, 'userName', 'user', 'loginName');
    return permissionsOutcome('GetUserEffectivePermissions', permissionsOfRole(await roleOfLogin(ctx, login)));
  },
};

export const basePermissionsType: ResourceType<{ kind: 'basePermissions'; name: string }> = {
  get: async (r, ctx) => permissionsOutcome(r.name, callerPermissions(ctx.principal)),
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

const definitionsOf = (r: { binding?: { group: SiteGroupDef } | undefined }): readonly RoleDefinition[] =>
  r.binding ? [levelOf(r.binding.group)] : ROLE_DEFINITIONS;

function definitionIn(r: { binding?: { group: SiteGroupDef } | undefined }, match: (d: RoleDefinition) => boolean): Resource {
  const definition = definitionsOf(r).find(match);
  if (!definition) throw errors.roleDefinitionNotFound();
  return { kind: 'roleDefinition', definition };
}

const ROLE_DEFINITIONS_METADATA = 'SP.ApiData.RoleDefinitions';

export const roleDefinitionsType: ResourceType<{ kind: 'roleDefinitions'; binding?: { base: string; group: SiteGroupDef } | undefined }> = {
  permissions: { create: 'ManagePermissions' },
  key: async (r, args) => definitionIn(r, (d) => d.id === integerArgument(args)),
  methods: {
    getbyid: { kind: 'function', invoke: async (r, args) => definitionIn(r, (d) => d.id === integerArgument(args, 'id')) },
    getbyname: {
      kind: 'function',
      async invoke(r, args) {
        const name = stringArgument(args, 'name').toLowerCase();
        return definitionIn(r, (d) => d.name.toLowerCase() === name);
      },
    },
    getbytype: { kind: 'function', invoke: async (r, args) => definitionIn(r, (d) => d.roleTypeKind === integerArgument(args, 'roleType')) },
  },
  get: async (r, ctx) => entityCollection(definitionsOf(r).map((d) => definitionEntity(d, ctx)), ROLE_DEFINITIONS_METADATA, ctx),
  create: async () => { throw errors.notImplemented('SP.RoleDefinitionCollection.Add'); },
};

export const roleDefinitionType: ResourceType<{ kind: 'roleDefinition'; definition: RoleDefinition }> = {
  permissions: { update: 'ManagePermissions', delete: 'ManagePermissions' },
  get: async (r, ctx) => singleEntity(definitionEntity(r.definition, ctx), ROLE_DEFINITIONS_METADATA, ctx),
  update: async () => { throw errors.notImplemented('SP.RoleDefinition.Update'); },
  delete: async () => { throw errors.notImplemented('SP.RoleDefinition.DeleteObject'); },
};

// ---- Role assignments ------------------------------------------------------------------

const assignmentLink = (base: string, group: SiteGroupDef) => `${base}/RoleAssignments/GetByPrincipalId(${group.id})`;

function assignmentEntity(base: string, group: SiteGroupDef, ctx: ApiContext): Entity {
  const link = assignmentLink(base, group);
  return {
    type: 'SP.RoleAssignment', id: `${ctx.apiUrl}${link}`, editLink: link,
    deferred: ['Member', 'RoleDefinitionBindings'],
    props: [['PrincipalId', group.id]],
  };
}

function assignmentNavigations(base: string, group: SiteGroupDef, ctx: ApiContext): Record<string, Navigation> {
  const link = assignmentLink(base, group);
  const owners = siteGroupOfRole(ctx.site, 'owner').title;
  return {
    Member: { link: `${link}/Member`, load: async () => groupEntity(group, owners, ctx) },
    RoleDefinitionBindings: { link: `${link}/RoleDefinitionBindings`, load: async () => [definitionEntity(levelOf(group), ctx)] },
  };
}

function assignmentOf(ctx: ApiContext, base: string, principalId: number): Resource {
  const group = siteGroupById(ctx.site, principalId);
  if (!group) throw errors.principalNotFound(principalId);
  return { kind: 'roleAssignment', base, group };
}

const ROLE_ASSIGNMENTS_METADATA = 'SP.ApiData.RoleAssignments';

/** The role assignments of the securable at `base`, as `$expand=RoleAssignments` shows them (the web's groups: every item inherits them). */
export const roleAssignmentEntities = (base: string, ctx: ApiContext): Entity[] => siteGroups(ctx.site).map((g) => assignmentEntity(base, g, ctx));

export const roleAssignmentsType: ResourceType<{ kind: 'roleAssignments'; base: string }> = {
  permissions: { create: 'ManagePermissions' },
  key: async (r, args, ctx) => assignmentOf(ctx, r.base, integerArgument(args)),
  methods: {
    getbyprincipalid: { kind: 'function', invoke: async (r, args, ctx) => assignmentOf(ctx, r.base, integerArgument(args, 'principalId')) },
  },
  async get(r, ctx) {
    const groups = siteGroups(ctx.site);
    const byId = new Map(groups.map((g) => [g.id, g]));
    return projectedCollection(groups.map((g) => assignmentEntity(r.base, g, ctx)),
      (e) => assignmentNavigations(r.base, byId.get(Number(e.props.find(([k]) => k === 'PrincipalId')?.[1]))!, ctx),
      ROLE_ASSIGNMENTS_METADATA, ctx);
  },
};

export const roleAssignmentType: ResourceType<{ kind: 'roleAssignment'; base: string; group: SiteGroupDef }> = {
  permissions: { delete: 'ManagePermissions' },
  navigation: {
    member: async (r) => ({ kind: 'siteGroup', group: r.group }),
    roledefinitionbindings: async (r) => ({ kind: 'roleDefinitions', binding: { base: r.base, group: r.group } }),
  },
  get: async (r, ctx) => projectedEntity(assignmentEntity(r.base, r.group, ctx), assignmentNavigations(r.base, r.group, ctx),
    ROLE_ASSIGNMENTS_METADATA, ctx),
  delete: async () => { throw errors.notImplemented('SP.RoleAssignment.DeleteObject'); },
};

// ---- What a web, list or item gains ------------------------------------------------------

/** Navigation properties of a securable object whose edit link is `base(r)`. */
export function securableNavigation<R extends Resource>(base: (r: R, ctx: ApiContext) => Promise<string>, forUi = false):
  Record<string, (r: R, ctx: ApiContext) => Promise<Resource>> {
  return {
    roleassignments: async (r, ctx) => ({ kind: 'roleAssignments', base: await base(r, ctx) }),
    effectivebasepermissions: async (r, ctx) => { await base(r, ctx); return { kind: 'basePermissions', name: 'EffectiveBasePermissions' }; },
    ...(forUi ? {
      effectivebasepermissionsforui: async (r: R, ctx: ApiContext): Promise<Resource> => {
        await base(r, ctx);
        return { kind: 'basePermissions', name: 'EffectiveBasePermissionsForUI' };
      },
    } : {}),
  };
}

/**
 * Properties of SP.Web and SP.List that SharePoint writes only when `$select` names them:
 * EffectiveBasePermissions (the caller's level) and HasUniqueRoleAssignments (the web holds
 * the site's one permission scope; lists inherit it). Appended to `entity` when selected.
 */
export function withSecurableProperties(entity: Entity, ctx: ApiContext, uniqueRoleAssignments: boolean): Entity {
  const named = new Set((ctx.query.select ?? []).map((p) => p[0]));
  const props = [...entity.props];
  if (named.has('EffectiveBasePermissions')) props.push(['EffectiveBasePermissions', basePermissionsValue(callerPermissions(ctx.principal))]);
  if (named.has('HasUniqueRoleAssignments')) props.push(['HasUniqueRoleAssignments', uniqueRoleAssignments]);
  return props.length === entity.props.length ? entity : { ...entity, props };
}
