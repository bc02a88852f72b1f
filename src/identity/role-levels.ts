// A site collection's permission levels: SharePoint's built-in ones and the site's own.

import { ROLE_DEFINITIONS, type RoleDefinition } from '../domain/permissions.ts';
import type { StoreReader } from '../store/store.ts';

export async function allRoleDefinitions(store: Pick<StoreReader, 'roleDefinitions'>, siteId: string): Promise<RoleDefinition[]> {
  return [...ROLE_DEFINITIONS, ...await store.roleDefinitions.of(siteId)].sort((a, b) => a.order - b.order || a.id - b.id);
}
