// The tenant file as schema/tenant.schema.json describes it: one interface per schema
// definition, property for property. Defaults named here are applied by the loader, not here.

export interface TenantFile {
  /** Optional reference to the JSON Schema, for editors; ignored. */
  $schema?: string;
  /** `hosts`: the names the tenant is reached by (host-named tenants); none: any. `id`: the tenant id (default: random at first load). */
  tenant: { name: string; id?: string; hosts?: string[] };
  /** The directory; may be empty. */
  users: TenantUser[];
  groups?: TenantGroup[];
  /** Entra app registrations (identity/apps.ts keeps them, secrets hashed). */
  apps?: TenantApp[];
  /** SharePoint's trusted security token issuers (New-SPTrustedSecurityTokenIssuer): high-trust add-in tokens signed with their certificate act as an app of `apps`. */
  trustedIssuers?: TenantTrustedIssuer[];
  /** At least one. */
  sites: TenantSite[];
  /** ProjectData feed content by PWA site URL (a URL present in `sites`): options and entity-set rows (src/projectdata/rows.ts). */
  projectData?: Record<string, Record<string, unknown>>;
}

export interface TenantUser {
  /** Unique, case-insensitive; contains `@`. */
  upn: string;
  displayName: string;
  firstName?: string;
  lastName?: string;
  email?: string;
  /** false: disabled (no sign-in, no token). Default true. */
  accountEnabled?: boolean;
  /** Without one, the user cannot sign in with Basic. */
  password?: string;
  jobTitle?: string;
  department?: string;
  /** Relative to the tenant file's folder. */
  picture?: string;
  profile?: Record<string, string | string[]>;
}

export type TenantGroupKind = 'security' | 'm365';

export interface TenantGroup {
  /** GUID, unique. */
  id: string;
  displayName: string;
  /** Default `security`. */
  kind?: TenantGroupKind;
  /** UPNs or ids of nested groups. */
  members?: string[];
}

export type TenantAppPermission = 'Sites.FullControl.All' | 'Sites.Manage.All' | 'Sites.ReadWrite.All' | 'Sites.Read.All' | 'Sites.Selected';

export interface TenantApp {
  /** GUID, unique. */
  clientId: string;
  displayName: string;
  /** Clear text in the file (test fixtures); stored only as hashes. */
  secrets?: Array<string | { value: string; expires?: string }>;
  /** PEM text, or a PEM file relative to the tenant file's folder. */
  certificates?: Array<{ pem: string } | { file: string }>;
  redirectUris?: string[];
  publicClient?: boolean;
  permissions?: TenantAppPermission[];
  /** Sites.Selected grants: a site URL of `sites` and the role on it. */
  sites?: Array<{ url: string; role: 'read' | 'write' | 'manage' | 'fullcontrol' }>;
}

export interface TenantTrustedIssuer {
  /** GUID, unique: the `<issuerId>` of the tokens' `iss` (`<issuerId>@<tenant id>`). */
  issuerId: string;
  name?: string;
  /** The certificate whose private key signs the tokens: PEM text, or a PEM file relative to the tenant file's folder. */
  certificate: { pem: string } | { file: string };
}

export interface TenantSite {
  /** `/`, `/sites/<name>` or `/teams/<name>`. */
  url: string;
  title: string;
  description?: string;
  /** UPNs, group ids or group display names. */
  owners?: string[];
  members?: string[];
  visitors?: string[];
  lists?: TenantList[];
  contentTypes?: TenantContentType[];
  /** Site columns of the root web, for every list of the site collection to add by name. */
  siteColumns?: TenantField[];
  webs?: TenantWeb[];
  /** The root web's own role assignments, added to its default groups' (it has no parent to inherit from). */
  permissions?: TenantPermissions;
}

/**
 * Unique permissions of a web, list, item, folder or file, as PnP's `<pnp:Security
 * BreakRoleInheritance CopyRoleAssignments>` with its `<pnp:RoleAssignment Principal RoleDefinition>`s.
 */
export interface TenantPermissions {
  /** false: the object stops inheriting (needed for `copy` and `assignments` below the root web). Default true. */
  inherit?: boolean;
  /** Keep the assignments it inherited, and add `assignments` to them. Default false: only `assignments`. */
  copy?: boolean;
  assignments?: TenantRoleAssignment[];
}

export interface TenantRoleAssignment {
  /** A UPN, a directory group id or display name, a site group title (`Dev Members`), `Everyone` or `Everyone except external users`, or a claims login. */
  principal: string;
  /** A permission level by name (`Read`, `Contribute`, `Edit`, `Design`, `Full Control`) or role definition id. */
  role: string | number;
}

/** A folder of a list: its path, or its path with unique permissions. */
export type TenantFolder = string | { path: string; permissions?: TenantPermissions };

export const folderPath = (folder: TenantFolder): string => (typeof folder === 'string' ? folder : folder.path);

/** A subweb: below the root web or another subweb, with lists and subwebs of its own. */
export interface TenantWeb {
  /** The URL segment below its parent: `projects` → `/sites/dev/projects`. */
  url: string;
  title: string;
  description?: string;
  contentTypes?: TenantContentType[];
  /** Site columns of this web, for its lists and its subwebs'. */
  siteColumns?: TenantField[];
  lists?: TenantList[];
  webs?: TenantWeb[];
  permissions?: TenantPermissions;
}

/** A site's root web and every subweb, parents first, with each one's JSON pointer in the file. */
export function* websOf(site: { lists?: TenantList[]; webs?: TenantWeb[] }, pointer: string): Generator<{ def: { lists?: TenantList[]; webs?: TenantWeb[] }; pointer: string }> {
  yield { def: site, pointer };
  for (const [index, web] of (site.webs ?? []).entries()) yield* websOf(web, `${pointer}/webs/${index}`);
}

/** 100 generic list, 101 document library, 103 links, 104 announcements, 105 contacts, 106 events, 107 tasks. */
export type TenantListTemplate = 100 | 101 | 103 | 104 | 105 | 106 | 107;

export interface TenantList {
  /** `Documents` (any case) is the site's own library, which every site has: listed, it gains what the entry states. */
  title: string;
  /** Default 100 (101 for `Documents`). */
  template?: TenantListTemplate;
  description?: string;
  /** Relative to the site, e.g. `Lists/Tasks`. */
  url?: string;
  hidden?: boolean;
  /** Rating settings (SharePoint's `Ratings_VotingExperience`): the list gains the six rating fields (domain/ratings.ts). */
  ratings?: 'Ratings' | 'Likes';
  /** Site columns (of the list's web or a parent web) the list uses, by internal name; added before `fields`. */
  siteColumns?: string[];
  fields?: TenantField[];
  /** Item N (1-based) gets ID N. */
  items?: TenantItem[];
  /** Paths inside the list (`Reports/2024`); the folders above are made too. After the items. */
  folders?: TenantFolder[];
  /** Document libraries (template 101) only. After the folders. */
  files?: TenantDocument[];
  /** Views besides the default one. */
  views?: TenantView[];
  /** Content types bound to the list, by name or id (a built-in type or one of the web's). */
  contentTypes?: string[];
  permissions?: TenantPermissions;
}

export interface TenantView {
  title: string;
  /** Internal names or titles; default: the default view's columns. */
  fields?: string[];
  /** CAML inside <Query>. */
  query?: string;
  rowLimit?: number;
  /** Make it the default view. */
  default?: boolean;
}

/** A site content type: a child of Item with a new id unless `id` (a child id of a type the web offers) is given. */
export interface TenantContentType {
  name: string;
  id?: string;
  description?: string;
  group?: string;
}

/** A file of a library: where, what bytes, and (as an item) field values and history. */
export type TenantDocument = TenantItem & {
  /** Inside the library: `Reports/2024/q1.txt`. */
  path: string;
  content: TenantContent;
};

/** Exactly one: text (UTF-8), base64, or a file relative to the tenant file's folder (and inside it). */
export type TenantContent = { text: string } | { base64: string } | { file: string };

export type TenantFieldType =
  | 'Text' | 'Note' | 'Number' | 'Currency' | 'Integer' | 'Boolean' | 'DateTime'
  | 'Choice' | 'MultiChoice' | 'URL' | 'User' | 'UserMulti' | 'Lookup' | 'LookupMulti' | 'Guid' | 'Calculated';

export interface TenantField {
  /** Internal name: `^[A-Za-z_][A-Za-z0-9_]{0,31}$`, not a built-in name. */
  name: string;
  /** Display name; default = name. */
  title?: string;
  type: TenantFieldType;
  required?: boolean;
  indexed?: boolean;
  /** Choice, MultiChoice. */
  choices?: string[];
  /** Title of a list in the same site; required for Lookup, LookupMulti. */
  lookupList?: string;
  /** Default `Title`. */
  lookupField?: string;
  /** In the same form as an item value. */
  default?: unknown;
  /** Text; default 255. */
  maxLength?: number;
  /** Note. */
  richText?: boolean;
  /** DateTime, and Calculated with outputType DateTime. */
  dateOnly?: boolean;
  /** Number, Currency, Integer. */
  min?: number;
  max?: number;
  /** Site columns only: web/fields' group. */
  group?: string;
  /** Calculated (required): the formula, checked as SharePoint checks it. */
  formula?: string;
  /** Calculated: default Text. */
  outputType?: 'Text' | 'Number' | 'Currency' | 'DateTime' | 'Boolean';
}

/** Field values by internal name, plus the item's history. */
export type TenantItem = Record<string, unknown> & {
  /** UPN. */
  author?: string;
  /** UPN. */
  editor?: string;
  /** ISO 8601 with a timezone. */
  created?: string;
  modified?: string;
  /** Unique permissions of the item (`permissions` is no field name). */
  permissions?: TenantPermissions;
};
