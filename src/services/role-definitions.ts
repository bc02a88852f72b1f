// Permission levels: a site collection's own, beside SharePoint's built-in ones (which are
// not spemu's to change). Defined at the site collection's root web: a subweb shares its
// parent's (SharePoint: "permission levels" are inherited), so changing them through a subweb
// is refused, as SharePoint refuses it.

import { fail } from '../domain/errors.ts';
import type { Web } from '../domain/model.ts';
import { ROLE_DEFINITIONS, type BasePermissions, type RoleDefinition } from '../domain/permissions.ts';
import type { RoleDefinitionPatch } from '../store/role-definitions.ts';
import type { Store } from '../store/store.ts';
import { allRoleDefinitions } from '../identity/role-levels.ts';

/** Where ids of a site's own permission levels start (SharePoint numbers them after its built-in ones). */
const FIRST_CUSTOM_ID = 1073741924;


export interface RoleDefinitionInput {
  name: string;
  description?: string | undefined;
  order?: number | undefined;
  permissions: BasePermissions;
}

export class RoleDefinitionService {
  constructor(private readonly store: Store) {}

  async create(web: Web, input: RoleDefinitionInput): Promise<RoleDefinition> {
    rootOnly(web);
    const name = checkName(input.name);
    const existing = await allRoleDefinitions(this.store, web.siteId);
    if (existing.some((d) => d.name.toLowerCase() === name.toLowerCase())) throw fail.roleDefinitionNameTaken(name);
    const id = Math.max(FIRST_CUSTOM_ID - 1, ...existing.map((d) => d.id).filter((n) => n >= FIRST_CUSTOM_ID)) + 1;
    const definition: RoleDefinition = {
      id, name, description: input.description ?? '', roleTypeKind: 0, order: checkOrder(input.order ?? 1000), hidden: false, permissions: input.permissions,
    };
    if (!(await this.store.roleDefinitions.add(web.siteId, definition))) throw fail.roleDefinitionNameTaken(name);
    return definition;
  }

  async update(web: Web, definition: RoleDefinition, patch: RoleDefinitionPatch): Promise<void> {
    rootOnly(web);
    builtInsAreFixed(definition);
    const updated = await this.store.roleDefinitions.update(web.siteId, definition.id, {
      ...patch, ...(patch.name !== undefined ? { name: checkName(patch.name) } : {}), ...(patch.order !== undefined ? { order: checkOrder(patch.order) } : {}),
    });
    if (updated === 'nameTaken') throw fail.roleDefinitionNameTaken(patch.name!);
    if (!updated) throw fail.roleDefinitionNotFound();
  }

  async delete(web: Web, definition: RoleDefinition): Promise<void> {
    rootOnly(web);
    builtInsAreFixed(definition);
    if (!(await this.store.roleDefinitions.delete(web.siteId, definition.id))) throw fail.roleDefinitionNotFound();
  }
}

function rootOnly(web: Web): void {
  if (web.parentId !== null) throw fail.inheritedRoleDefinitions();
}

function builtInsAreFixed(definition: RoleDefinition): void {
  if (ROLE_DEFINITIONS.some((d) => d.id === definition.id)) throw fail.builtInRoleDefinition(definition.name);
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 64) throw fail.badArgument('A permission level needs a name of at most 64 characters.');
  return trimmed;
}

function checkOrder(order: number): number {
  if (!Number.isInteger(order) || order < 0) throw fail.badArgument('Order must be a whole number, 0 or more.');
  return order;
}
