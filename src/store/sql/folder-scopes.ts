// The folders with unique permissions of a list, with their paths: what a permission check on
// a list with uniquely-permissioned items needs to know which folders govern what is inside
// them. Kept in the read cache (one entry per list) and dropped, as metadata writes so that
// every instance and worker drops it too, by each write that can change it:
//   - role assignment writes on the list's items (role-assignments.ts): which items are unique;
//   - moves and renames (document-moves.ts): a folder's path, or the path of a folder above it;
//   - deleting or recycling a unique folder (items.ts, documents.ts deleteFolder);
//   - deleting the list (lists.ts).
// Nothing else changes it: item ids are never reused, a new item or folder inherits, and a
// file's place is read with the file.

import type { List } from '../../domain/model.ts';
import { itemScopeKey } from '../../domain/scope-keys.ts';
import type { CacheName, SqlSession } from './session.ts';
import { SqlRoleAssignments } from './role-assignments.ts';
import { SqlSites } from './sites.ts';

export const FOLDER_SCOPES = 'folderScopes';

/** The cache entry of a list's folder scopes. */
export const folderScopesEntry = (listRowId: number): CacheName => [FOLDER_SCOPES, String(listRowId)];

/**
 * The folder-scope entries a role assignment write to `scope` (or, for resetBelow, to every
 * scope starting with it) changes: an item's scope (`item:<list>:<id>`) or a list's items
 * (`item:<list>:`) name their list's entry; a web's or a list's own scope changes none.
 */
export function folderScopesOfScope(scope: string): CacheName[] {
  const match = /^item:(\d+):/.exec(scope);
  return match ? [folderScopesEntry(Number(match[1]))] : [];
}

/** Whether the list's item `id` has unique permissions (cached reads outside a transaction). */
export async function isUniqueItem(s: SqlSession, list: List, id: number): Promise<boolean> {
  const web = await new SqlSites(s).web(list.webId);
  if (!web) return false;
  return (await new SqlRoleAssignments(s).scopes(web.siteId)).has(itemScopeKey(list.rowId, id));
}
