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
import { noContent, ok, type Outcome } from '../outcome.ts';
import { readEntityBody, type Properties } from '../body.ts';
import { allRoleDefinitions } from '../../../../services/role-definitions.ts';
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

/** The levels of a binding (one group's), or every level of the site collection: built in and its own. */
const definitionsOf = async (r: { binding?: { group: SiteGroupDef } | undefined }, ctx: ApiContext): Promise<readonly RoleDefinition[]> =>
  r.binding ? [levelOf(r.binding.group)] : allRoleDefinitions(ctx.store, ctx.site.id);

async function definitionIn(r: { binding?: { group: SiteGroupDef } | undefined }, ctx: ApiContext, match: (d: RoleDefinition) => boolean): Promise<Resource> {
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

export const roleDefinitionsType: ResourceType<{ kind: 'roleDefinitions'; binding?: { base: string; group: SiteGroupDef } | undefined }> = {
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
