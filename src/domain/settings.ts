// Names of the workspace settings (the store's key/value table) that several layers read:
// the tenant loader writes them, authentication and the CLI read them.

/** The tenant file's name, as loaded. */
export const TENANT_NAME_KEY = 'tenant.name';
/** A hash of the loaded tenant file: a different seed is refused, not merged. */
export const TENANT_HASH_KEY = 'tenant.hash';
/** The tenant's id (the 401 challenge's realm, claims logins). */
export const TENANT_ID_KEY = 'tenant.id';
export const TENANT_FILE_KEY = 'tenant.file';
/** The host names the tenant file names (a JSON array), which a new seed may change without a reset. */
export const TENANT_HOSTS_KEY = 'tenant.hosts';

/** A site's first owner, recorded by the tenant loader: the default author of what it loads. */
export const siteDefaultUserKey = (siteId: string) => `site.defaultUser.${siteId}`;
/** The tenant file's app registrations as stored (identity/apps.ts: secrets hashed), rewritten by every seed. */
export const TENANT_APPS_KEY = 'tenant.apps';
/** The tenant file's trusted token issuers as stored (identity/trusted-issuers.ts), rewritten by every seed. */
export const TENANT_TRUSTED_ISSUERS_KEY = 'tenant.trustedIssuers';
/** UPNs (lower case, a JSON array) of the tenant file's users with `accountEnabled: false`. */
export const TENANT_DISABLED_USERS_KEY = 'tenant.disabledUsers';
/** `pending` while existing root webs still owe their Web Part Gallery (migration 0030), then `done`. */
export const WEB_PART_GALLERY_KEY = 'repair.web-part-gallery';
