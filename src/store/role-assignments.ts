// Unique permissions of a site collection's securable objects and their role assignments.

export interface RoleAssignmentRow {
  principalId: number;
  roleDefinitionId: number;
}

export interface RoleAssignmentRepository {
  /** Every scope of the site with unique permissions, with its assignments (one cached read per site). */
  scopes(siteId: string): Promise<ReadonlyMap<string, readonly RoleAssignmentRow[]>>;
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
