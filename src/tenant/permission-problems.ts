// A tenant file's unique permissions (`permissions` on a site, subweb, list, item, folder or
// file), checked for what the JSON Schema cannot say: assignments only where inheritance is
// broken, principals the directory or the site knows, permission levels that exist and may be
// assigned. The loader (permissions.ts) relies on these checks: it resolves what they accept.

import { ROLE_DEFINITIONS } from '../domain/permissions.ts';
import { parseLogin } from '../identity/logins.ts';
import type { TenantProblem } from './validate.ts';

type Json = Record<string, unknown>;

/** Whether a name is a directory principal: undefined if so, else why not (validate.ts's principal check). */
export type DirectoryCheck = (name: string) => string | undefined;

/** The default SharePoint groups' titles a site gets from its title (identity/site-groups.ts). */
export const defaultGroupTitles = (siteTitle: string): string[] => ['Owners', 'Visitors', 'Members'].map((suffix) => `${siteTitle} ${suffix}`);

const EVERYONE_NAMES = new Set(['everyone', 'everyone except external users']);
const LIMITED_ACCESS = 'Limited Access';

/** The built-in level a tenant file's role names (by name in any case, or by id), or undefined. */
export function builtInRole(role: unknown): (typeof ROLE_DEFINITIONS)[number] | undefined {
  if (typeof role === 'number') return ROLE_DEFINITIONS.find((d) => d.id === role);
  if (typeof role === 'string') return ROLE_DEFINITIONS.find((d) => d.name.toLowerCase() === role.trim().toLowerCase());
  return undefined;
}

/** Every permissions object of a site (`site` at JSON Pointer `base`): its root web's, then each web's lists, items, folders, files and subwebs. */
export function permissionProblems(site: Json, base: string, directory: DirectoryCheck, tenantId: string | undefined): TenantProblem[] {
  const problems: TenantProblem[] = [];
  const siteTitle = typeof site.title === 'string' ? site.title : '';
  const check = (permissions: unknown, path: string, root = false) => {
    if (isObject(permissions)) problems.push(...permissionsProblems(permissions, path, root, (name) => principalProblem(name, siteTitle, directory, tenantId)));
  };
  check(site.permissions, `${base}/permissions`, true);
  const visit = (web: Json, pointer: string) => {
    if (web !== site) check(web.permissions, `${pointer}/permissions`);
    for (const [l, list] of objectsIn(web.lists)) {
      const at = `${pointer}/lists/${l}`;
      check(list.permissions, `${at}/permissions`);
      for (const [i, item] of objectsIn(list.items)) check(item.permissions, `${at}/items/${i}/permissions`);
      for (const [f, folder] of objectsIn(list.folders)) check(folder.permissions, `${at}/folders/${f}/permissions`);
      for (const [f, file] of objectsIn(list.files)) check(file.permissions, `${at}/files/${f}/permissions`);
    }
    for (const [w, sub] of objectsIn(web.webs)) visit(sub, `${pointer}/webs/${w}`);
  };
  visit(site, base);
  return problems;
}

function permissionsProblems(p: Json, path: string, root: boolean, principal: (name: string) => string | undefined): TenantProblem[] {
  const problems: TenantProblem[] = [];
  if (root) {
    if (p.inherit === true) problems.push({ path: `${path}/inherit`, message: "the root web of a site collection has no parent to inherit from (leave inherit out, or false)" });
    if (p.copy !== undefined) problems.push({ path: `${path}/copy`, message: "does not apply to a site's root web: its assignments are added to its default groups'" });
  } else if (p.inherit !== false) {
    if (p.assignments !== undefined) problems.push({ path: `${path}/assignments`, message: 'needs "inherit": false: an object that inherits has its parent\'s assignments, not its own' });
    if (p.copy !== undefined) problems.push({ path: `${path}/copy`, message: 'applies only with "inherit": false' });
  }
  for (const [index, assignment] of objectsIn(p.assignments)) {
    const at = `${path}/assignments/${index}`;
    if (typeof assignment.principal === 'string') {
      const problem = principal(assignment.principal);
      if (problem) problems.push({ path: `${at}/principal`, message: problem });
    }
    if (typeof assignment.role === 'string' || typeof assignment.role === 'number') {
      const problem = roleProblem(assignment.role);
      if (problem) problems.push({ path: `${at}/role`, message: problem });
    }
  }
  return problems;
}

function roleProblem(role: string | number): string | undefined {
  const found = builtInRole(role);
  if (found?.name === LIMITED_ACCESS) return 'Limited Access cannot be assigned: SharePoint gives it by itself';
  if (found) return undefined;
  const levels = ROLE_DEFINITIONS.filter((d) => d.name !== LIMITED_ACCESS);
  return typeof role === 'number'
    ? `${role} is no role definition id (${levels.map((d) => `${d.id} ${d.name}`).join(', ')})`
    : `"${role}" is no permission level: ${levels.map((d) => d.name).join(', ')}`;
}

function principalProblem(name: string, siteTitle: string, directory: DirectoryCheck, tenantId: string | undefined): string | undefined {
  const lower = name.trim().toLowerCase();
  const groups = defaultGroupTitles(siteTitle);
  if (groups.some((g) => g.toLowerCase() === lower) || EVERYONE_NAMES.has(lower)) return undefined;
  const parsed = parseLogin(name);
  const unknown = `"${name}" is neither a user UPN, a group id or display name, nor a SharePoint group of this site (${groups.map((g) => `"${g}"`).join(', ')}), Everyone or Everyone except external users`;
  switch (parsed.kind) {
    case 'everyone': return undefined;
    case 'everyoneExceptExternal':
      return tenantId?.toLowerCase() === parsed.tenantId.toLowerCase() ? undefined : `"${name}" names another tenant's users (this tenant's id is tenant.id); write Everyone except external users`;
    case 'user': return directory(parsed.name) ? `"${parsed.name}" is not a directory user` : undefined;
    case 'groupId': return directory(parsed.id) ? `"${parsed.id}" is not a directory group id` : undefined;
    case 'name': {
      const problem = directory(parsed.name);
      return problem === undefined ? undefined : problem.includes('use the group id') ? problem : unknown;
    }
    default: return unknown;
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function objectsIn(value: unknown): [number, Json][] {
  return Array.isArray(value) ? value.flatMap((v, i): [number, Json][] => (isObject(v) ? [[i, v]] : [])) : [];
}
