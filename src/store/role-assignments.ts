// Unique permissions of a site collection's securable objects and their role assignments.

import type { List } from '../domain/model.ts';

export interface RoleAssignmentRow {
  principalId: number;
  roleDefinitionId: number;
}

/** A folder of a list with unique permissions: its item's id and its path inside the list (`A/B`). */
export interface FolderScope {
  id: number;
  path: string;
}

export interface RoleAssignmentRepository {
  /** Every scope of the site with unique permissions, with its assignments (one cached read per site). */
  scopes(siteId: string): Promise<ReadonlyMap<string, readonly RoleAssignmentRow[]>>;
  /**
   * The list's folders with unique permissions, with their paths (one cached entry per list,
   * read only where the list has items with unique permissions). Dropped, on every instance,
   * by whatever can change it: role assignment writes on the list's items, a move or rename
   * (of the folder or of a folder above it), the deletion of such a folder, the list's deletion.
   */
  folderScopes(siteId: string, list: List): Promise<readonly FolderScope[]>;
  /** Gives `scope` unique permissions with these assignments (replacing any it had). */
  breakInheritance(siteId: string, scope: string, assignments: readonly RoleAssignmentRow[]): Promise<void>;
  /** `scope` inherits again; its assignments go. */
  resetInheritance(siteId: string, scope: string): Promise<void>;
  /** Every scope whose key starts with one of `prefixes` inherits again (clearSubscopes). */
  resetBelow(siteId: string, prefixes: readonly string[]): Promise<void>;
  add(siteId: string, scope: string, row: RoleAssignmentRow): Promise<void>;
  /** Removes the principal's assignments at the scope (one level, or all of them); false if none. */
  remove(siteId: string, scope: string, principalId: number, roleDefinitionId?: number): Promise<boolean>;
}
