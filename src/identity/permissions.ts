// What each site role may do, as SharePoint's default permission levels: owners have Full
// Control, members Edit (items, and EnsureUser), visitors Read. Anyone else is refused.

import type { Principal, SiteRoleName } from '../domain/model.ts';
import { fail } from '../domain/errors.ts';

const RANK: Record<SiteRoleName, number> = { none: 0, visitor: 1, member: 2, owner: 3 };

/** Throws SharePoint's 403 unless the principal holds at least `needed` on the site. */
export function requireRole(principal: Principal, needed: Exclude<SiteRoleName, 'none'>): void {
  if (RANK[principal.role] < RANK[needed]) throw fail.accessDenied();
}

export const atLeast = (principal: Principal, role: Exclude<SiteRoleName, 'none'>): boolean => RANK[principal.role] >= RANK[role];
