// The one place a caller's permissions are checked: the base permission an operation needs
// (SP.PermissionKind, declared by the operation) against the mask of the caller's permission
// level on the site (owners Full Control, members Edit, visitors Read; spemu's lists and items
// inherit the web's). The REST resolver calls it for every method and verb it plans.

import type { Principal } from '../domain/model.ts';
import { fail } from '../domain/errors.ts';
import { grants, permissionsOfRole, type PermissionKind } from '../domain/permissions.ts';

/** Whether the principal's permission level on the site grants `kind`. */
export const hasPermission = (principal: Principal, kind: PermissionKind): boolean => grants(permissionsOfRole(principal.role), kind);

/** Throws SharePoint's 403 (access denied) unless the principal's permission level grants `kind`. */
export function requirePermission(principal: Principal, kind: PermissionKind): void {
  if (!hasPermission(principal, kind)) throw fail.accessDenied();
}
