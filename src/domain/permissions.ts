// SharePoint's permission levels (role definitions) and their base permission masks, as a
// new SharePoint Online site has them. spemu's site roles map onto three of them: owners
// Full Control, members Edit, visitors Read (the levels of a site's Owners, Members and
// Visitors groups).

import type { SiteRoleName } from './model.ts';

/** SP.BasePermissions: a 64-bit mask in two 32-bit halves (unsigned), as SharePoint writes them. */
export interface BasePermissions {
  high: number;
  low: number;
}

export interface RoleDefinition {
  id: number;
  name: string;
  description: string;
  /** SP.RoleType: Guest 1, Reader 2, Contributor 3, WebDesigner 4, Administrator 5, Editor 6. */
  roleTypeKind: number;
  order: number;
  hidden: boolean;
  permissions: BasePermissions;
}

/** A new site's role definitions in SharePoint's order, with its ids and masks. */
export const ROLE_DEFINITIONS: readonly RoleDefinition[] = [
  { id: 1073741829, name: 'Full Control', description: 'Has full control.', roleTypeKind: 5, order: 1, hidden: false,
    permissions: { high: 2147483647, low: 4294967295 } },
  { id: 1073741828, name: 'Design', description: 'Can view, add, update, delete, approve, and customize.', roleTypeKind: 4, order: 32, hidden: false,
    permissions: { high: 432, low: 1012866047 } },
  { id: 1073741830, name: 'Edit', description: 'Can add, edit and delete lists; can view, add, update and delete list items and documents.',
    roleTypeKind: 6, order: 48, hidden: false, permissions: { high: 432, low: 1011030767 } },
  { id: 1073741827, name: 'Contribute', description: 'Can view, add, update, and delete list items and documents.', roleTypeKind: 3, order: 64,
    hidden: false, permissions: { high: 432, low: 1011028719 } },
  { id: 1073741826, name: 'Read', description: 'Can view pages and list items and download documents.', roleTypeKind: 2, order: 128,
    hidden: false, permissions: { high: 176, low: 138612833 } },
  { id: 1073741825, name: 'Limited Access',
    description: 'Can view specific lists, document libraries, list items, folders, or documents when given permissions.',
    roleTypeKind: 1, order: 160, hidden: true, permissions: { high: 48, low: 134287360 } },
];

const byName = (name: string) => ROLE_DEFINITIONS.find((d) => d.name === name)!;

/** The permission level each site role holds. */
export const ROLE_LEVEL: Record<Exclude<SiteRoleName, 'none'>, RoleDefinition> = {
  owner: byName('Full Control'),
  member: byName('Edit'),
  visitor: byName('Read'),
};

export const EMPTY_PERMISSIONS: BasePermissions = { high: 0, low: 0 };

/** What a holder of `role` may do on the site, its lists and items (spemu has no unique permissions below the site). */
export const permissionsOfRole = (role: SiteRoleName): BasePermissions =>
  role === 'none' ? EMPTY_PERMISSIONS : ROLE_LEVEL[role].permissions;

/**
 * SP.PermissionKind: SharePoint's base permissions by name, each the 1-based number of its bit
 * in an SP.BasePermissions mask (bits 1–32 in `low`, 33–64 in `high`), as Microsoft numbers them.
 */
export const PERMISSION_KINDS = {
  ViewListItems: 1, AddListItems: 2, EditListItems: 3, DeleteListItems: 4, ApproveItems: 5, OpenItems: 6,
  ViewVersions: 7, DeleteVersions: 8, CancelCheckout: 9, ManagePersonalViews: 10, ManageLists: 12, ViewFormPages: 13,
  AnonymousSearchAccessList: 14, Open: 17, ViewPages: 18, AddAndCustomizePages: 19, ApplyThemeAndBorder: 20,
  ApplyStyleSheets: 21, ViewUsageData: 22, CreateSSCSite: 23, ManageSubwebs: 24, CreateGroups: 25, ManagePermissions: 26,
  BrowseDirectories: 27, BrowseUserInfo: 28, AddDelPrivateWebParts: 29, UpdatePersonalWebParts: 30, ManageWeb: 31,
  AnonymousSearchAccessWebLists: 32, UseClientIntegration: 37, UseRemoteAPIs: 38, ManageAlerts: 39, CreateAlerts: 40,
  EditMyUserInfo: 41, EnumeratePermissions: 63,
} as const;

export type PermissionKind = keyof typeof PERMISSION_KINDS;

/** Whether `mask` grants `kind`. */
export function grants(mask: BasePermissions, kind: PermissionKind): boolean {
  const bit = PERMISSION_KINDS[kind] - 1;
  return bit < 32 ? ((mask.low >>> bit) & 1) === 1 : ((mask.high >>> (bit - 32)) & 1) === 1;
}

/** Site roles from weakest to strongest (the order of their permission levels). */
const ROLE_ORDER: readonly SiteRoleName[] = ['none', 'visitor', 'member', 'owner'];

/** The stronger of two site roles. */
export const strongerRole = (a: SiteRoleName, b: SiteRoleName): SiteRoleName => (ROLE_ORDER.indexOf(a) >= ROLE_ORDER.indexOf(b) ? a : b);
