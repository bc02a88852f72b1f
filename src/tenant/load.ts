// Loads a validated tenant file into an empty store: sites with their User Information
// List, a Documents library, the lists with their fields, the items with the history
// (author, editor, created, modified) the file states, and libraries' folders and files
// (documents.ts).

import { RATING_FIELDS } from '../domain/ratings.ts';
import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname, resolve } from 'node:path';
import { hashPassword } from '../identity/passwords.ts';
import type { SiteRole } from '../store/directory.ts';
import type { Field, List, NewField, Site, StoredValue, Web } from '../domain/model.ts';
import { urlPrefix } from '../domain/names.ts';
import { createListWithFields } from '../services/lists.ts';
import { kindFromTypeName } from '../domain/field-kinds.ts';
import { normaliseDateTime, toStoredValue } from '../domain/values.ts';
import { DEFAULT_LIBRARY, DOCUMENT_LIBRARY_TEMPLATE, SITE_PAGES_TEMPLATE, USER_INFO_LIST_TEMPLATE } from '../domain/templates.ts';
import { createWebPartGallery } from '../services/web-part-gallery.ts';
import type { Store } from '../store/store.ts';
import type { ItemWrite } from '../store/items.ts';
import { siteDefaultUserKey, TENANT_APPS_KEY, TENANT_DISABLED_USERS_KEY, TENANT_TRUSTED_ISSUERS_KEY, TENANT_FILE_KEY, TENANT_HASH_KEY, TENANT_HOSTS_KEY, TENANT_ID_KEY, TENANT_NAME_KEY } from '../domain/settings.ts';
import type { TenantContentType, TenantField, TenantFile, TenantList, TenantSite, TenantWeb } from './types.ts';
import { availableColumns } from '../services/site-columns.ts';
import { ContentTypeService } from '../services/content-types.ts';
import { ViewService } from '../services/views.ts';
import { seedQuickLaunch } from '../services/navigation.ts';
import { loadProjectDataSection } from './projectdata.ts';
import { loadPermissions } from './permissions.ts';
import { loadDocuments, putContents, type Contents } from './documents.ts';
import { directoryPrincipal, ensureSiteUser, SYSTEM_ACCOUNT_ID, userLogin } from '../identity/site-users.ts';
import { HOME_PAGE } from '../domain/page-templates.ts';
import { homePageValues } from '../domain/site-pages.ts';
import { registerApps, withoutAppSecrets, type RegisteredApp } from '../identity/apps.ts';
import { registerIssuers, type TrustedIssuer } from '../identity/trusted-issuers.ts';
import type { BlobRef } from '../store/blobs.ts';



/**
 * A stable fingerprint of the tenant file, to tell "already loaded" from "a different tenant".
 * The host names are left out: they say how the tenant is reached, not what it holds, so a
 * seed that changes only them is taken (`storeTenantHosts`), not refused.
 */
export function tenantHash(tenant: TenantFile): string {
  const { hosts, ...named } = tenant.tenant;
  // Apps and trusted issuers are left out like host names: who may get tokens, not what the tenant holds.
  const { apps, trustedIssuers, ...withoutApps } = tenant;
  const content = { ...(apps === undefined && trustedIssuers === undefined ? tenant : withoutApps), ...(hosts === undefined ? {} : { tenant: named }) };
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}

/** Records the tenant file's app registrations (secrets hashed, certificate files read) and trusted token issuers. */
export async function storeTenantApps(store: Pick<Store, 'settings'>, tenant: TenantFile, baseDir: string): Promise<void> {
  await store.settings.set(TENANT_APPS_KEY, JSON.stringify(await tenantApps(tenant, baseDir)));
  await store.settings.set(TENANT_TRUSTED_ISSUERS_KEY, JSON.stringify(await tenantIssuers(tenant, baseDir)));
}

async function tenantIssuers(tenant: TenantFile, baseDir: string): Promise<TrustedIssuer[]> {
  const issuers = [];
  for (const i of tenant.trustedIssuers ?? []) {
    const pem = 'pem' in i.certificate ? i.certificate.pem : await readFile(resolve(baseDir, i.certificate.file), 'utf8');
    issuers.push({ issuerId: i.issuerId, ...(i.name === undefined ? {} : { name: i.name }), pem });
  }
  return registerIssuers(issuers);
}

async function tenantApps(tenant: TenantFile, baseDir: string): Promise<RegisteredApp[]> {
  const definitions = [];
  for (const app of tenant.apps ?? []) {
    const pems: string[] = [];
    for (const c of app.certificates ?? []) pems.push('pem' in c ? c.pem : await readFile(resolve(baseDir, c.file), 'utf8'));
    definitions.push({ ...app, certificates: pems });
  }
  return registerApps(tenant.tenant.name, definitions);
}

/** Records the tenant file's host names (none: an empty list). */
export async function storeTenantHosts(store: Pick<Store, 'settings'>, tenant: TenantFile): Promise<void> {
  await store.settings.set(TENANT_HOSTS_KEY, JSON.stringify((tenant.tenant.hosts ?? []).map((h) => h.toLowerCase())));
}

/** The host names the loaded tenant is reached by; empty when it names none. */
export async function tenantHosts(store: Pick<Store, 'settings'>): Promise<string[]> {
  const stored = await store.settings.get(TENANT_HOSTS_KEY);
  return stored ? JSON.parse(stored) as string[] : [];
}


/** Items of a tenant file's list inserted per statement batch (items.createMany). */
const ITEMS_PER_BATCH = 5_000;

/** A site's users by the names the tenant file uses, each given a User Information List row on first use. */
class SiteUsers {
  private readonly ids = new Map<string, number>();
  constructor(private readonly store: Store, private readonly site: Site, private readonly now: string) {}

  async ensure(name: string, siteAdmin = false): Promise<number> {
    const known = this.ids.get(name.toLowerCase());
    if (known !== undefined) return known;
    const who = await directoryPrincipal(this.store, name);
    if (!who) throw new Error(`the tenant file names '${name}', who is neither a user nor a group`);
    const row = await ensureSiteUser(this.store, this.site, who, { siteAdmin, now: this.now });
    this.ids.set(name.toLowerCase(), row.id);
    return row.id;
  }
}

/** Stable per tenant and user, so a reload gives the same object ids and photo URLs. */
function stableId(tenant: TenantFile, upn: string): { objectId: string; puid: string } {
  const h = createHash('sha256').update(`${tenant.tenant.name}\n${upn.toLowerCase()}`).digest('hex');
  const objectId = `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  return { objectId, puid: `1003${h.slice(32, 44)}` };
}

const IMAGE_TYPES: Record<string, string> = { '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.bmp': 'image/bmp', '.gif': 'image/gif' };

/** Users, groups and photos: the directory every site draws its people from. */
async function loadDirectory(store: Store, tenant: TenantFile, baseDir: string, now: string): Promise<void> {
  for (const user of tenant.users) {
    await store.directory.addUser({
      upn: user.upn, displayName: user.displayName, firstName: user.firstName ?? null, lastName: user.lastName ?? null,
      email: user.email ?? null, jobTitle: user.jobTitle ?? null, department: user.department ?? null,
      profile: user.profile ?? {}, ...stableId(tenant, user.upn),
    }, user.password ? await hashPassword(user.password) : null);
    if (user.picture) {
      const contentType = IMAGE_TYPES[extname(user.picture).toLowerCase()] ?? 'application/octet-stream';
      await store.directory.setPhoto(user.upn, { contentType, bytes: await readFile(resolve(baseDir, user.picture)), updated: now });
    }
  }
  for (const group of tenant.groups ?? []) {
    await store.directory.addGroup({ id: group.id, displayName: group.displayName, kind: group.kind ?? 'security', mail: null }, group.members ?? []);
  }
}

/** Site roles name users by UPN and groups by id or name; the directory keeps ids. */
function siteRoles(tenant: TenantFile, site: TenantSite): SiteRole[] {
  const principal = (name: string) =>
    (tenant.groups ?? []).find((g) => g.id.toLowerCase() === name.toLowerCase() || g.displayName === name)?.id ?? name;
  return [
    ...(site.owners ?? []).map((p) => ({ role: 'owner' as const, principal: principal(p) })),
    ...(site.members ?? []).map((p) => ({ role: 'member' as const, principal: principal(p) })),
    ...(site.visitors ?? []).map((p) => ({ role: 'visitor' as const, principal: principal(p) })),
  ];
}

/** Site Assets and Site Pages (template 119), which a new team site has besides Documents. */
const STANDARD_LIBRARIES = [
  { title: 'Site Assets', baseTemplate: 101, relativeUrl: 'SiteAssets' },
  { title: 'Site Pages', baseTemplate: SITE_PAGES_TEMPLATE, relativeUrl: 'SitePages' },
];

/** `baseDir` is where relative paths in the file (pictures, file contents) are resolved. */
export async function loadTenant(store: Store, tenant: TenantFile, now: string, baseDir = process.cwd()): Promise<void> {
  // Files' bytes first: blobs are put outside the unit of work that names them.
  const contents = await putContents(store, tenant, baseDir);
  const homePage = await store.blobs.put(once(Buffer.from(HOME_PAGE.content, 'utf8')), { limit: HOME_PAGE.content.length * 4, tooLarge: () => new Error('home page') });
  // Hashing secrets takes a moment each: done before the unit of work.
  const apps = await tenantApps(tenant, baseDir);
  const issuers = await tenantIssuers(tenant, baseDir);
  await store.transaction(async (tx) => {
    await tx.settings.set(TENANT_NAME_KEY, tenant.tenant.name);
    await tx.settings.set(TENANT_HASH_KEY, tenantHash(tenant));
    await tx.settings.set(TENANT_ID_KEY, tenant.tenant.id?.toLowerCase() ?? randomUUID());
    // Never the apps' secrets in clear.
    await tx.settings.set(TENANT_FILE_KEY, JSON.stringify(withoutAppSecrets(tenant)));
    await storeTenantHosts(tx, tenant);
    await tx.settings.set(TENANT_APPS_KEY, JSON.stringify(apps));
    await tx.settings.set(TENANT_TRUSTED_ISSUERS_KEY, JSON.stringify(issuers));
    await tx.settings.set(TENANT_DISABLED_USERS_KEY, JSON.stringify(tenant.users.filter((u) => u.accountEnabled === false).map((u) => u.upn.toLowerCase())));
    await loadDirectory(tx, tenant, baseDir, now);
    for (const site of tenant.sites) {
      const created = await loadSite(tx, site, now, contents, homePage);
      await tx.directory.setSiteRoles(created.id, siteRoles(tenant, site));
      const projectData = Object.entries(tenant.projectData ?? {}).find(([url]) => url.toLowerCase() === site.url.toLowerCase());
      if (projectData) await loadProjectDataSection(tx, created, projectData[1]);
    }
  });
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** `homePage`: the blob of Site Pages' Home.aspx, put before the load's unit of work. */
async function loadSite(store: Store, def: TenantSite, now: string, contents: Contents, homePage: BlobRef): Promise<Site> {
  const { site, web } = await store.sites.create({ url: def.url, title: def.title, description: def.description ?? '', now });
  await createListWithFields(store, web, { title: 'User Information List', description: '', baseTemplate: USER_INFO_LIST_TEMPLATE, hidden: true, enableVersioning: false }, now);
  // The site collection's web part gallery (`web.getCatalog(113)`), hidden as SharePoint's.
  await createWebPartGallery(store, web, now);
  const users = new SiteUsers(store, site, now);
  // Owners, members and visitors become the site's users in that order, before any item.
  const owners = def.owners ?? [];
  for (const name of owners) await users.ensure(name, true);
  for (const name of [...(def.members ?? []), ...(def.visitors ?? [])]) await users.ensure(name);
  const actor = owners[0] ? await users.ensure(owners[0], true) : SYSTEM_ACCOUNT_ID;
  await store.settings.set(siteDefaultUserKey(site.id), JSON.stringify({ userId: actor, loginName: owners[0] ? userLogin(owners[0]) : 'SHAREPOINT\\system' }));
  await loadWeb(store, web, def, { now, contents, users, actor, homePage });
  // Unique permissions last, when every object they name exists.
  await loadPermissions(store, site, web, def, now);
  return site;
}

interface WebLoad {
  now: string;
  contents: Contents;
  users: SiteUsers;
  /** Who the file's items were made by when they name nobody: the site's first owner. */
  actor: number;
  /** The blob of Site Pages' Home.aspx, which every web's Site Pages holds. */
  homePage: BlobRef;
}

/** A web's libraries and lists (with fields, items, folders and files), then its subwebs, each the same way. */
async function loadWeb(store: Store, web: Web, def: { lists?: TenantList[]; webs?: TenantWeb[]; contentTypes?: TenantContentType[]; siteColumns?: TenantField[] }, load: WebLoad): Promise<void> {
  const { now, contents, users, actor, homePage } = load;
  await seedQuickLaunch(store.navigation, web);
  // The web's own content types first: its lists may bind them.
  const contentTypes = new ContentTypeService(store);
  for (const type of def.contentTypes ?? []) {
    await contentTypes.define(web, { name: type.name, id: type.id, description: type.description ?? '', group: type.group ?? '' });
  }
  // The Documents library every site has; an entry of that title in `lists` adds to it.
  const isDefaultLibrary = (l: { title: string }) => l.title.toLowerCase() === DEFAULT_LIBRARY.title.toLowerCase();
  const library = (def.lists ?? []).find(isDefaultLibrary);
  const documents = await createListWithFields(store, web, {
    title: DEFAULT_LIBRARY.title, description: library?.description ?? '', baseTemplate: DOCUMENT_LIBRARY_TEMPLATE,
    relativeUrl: DEFAULT_LIBRARY.relativeUrl, ...(library?.hidden ? { hidden: true } : {}),
  }, now);
  // Site Assets and Site Pages too, unless the tenant file defines a list of that title or URL itself.
  const declared = (def.lists ?? []).flatMap((l) => [l.title.toLowerCase(), (l.url ?? '').toLowerCase()]);
  for (const standard of STANDARD_LIBRARIES) {
    if (declared.includes(standard.title.toLowerCase()) || declared.includes(standard.relativeUrl.toLowerCase())) continue;
    const library = await createListWithFields(store, web, { ...standard, description: '' }, now);
    // A new SharePoint site's Site Pages holds its home page, item 1.
    if (standard.baseTemplate === SITE_PAGES_TEMPLATE) {
      await store.documents.putFile(library, await store.fields.of(library), { dir: '', name: HOME_PAGE.name, actorId: actor, now, blob: homePage, overwrite: false, values: { Title: HOME_PAGE.title, ...homePageValues(now) } });
    }
  }
  const lists = new Map<string, List>();
  for (const l of def.lists ?? []) {
    lists.set(l.title.toLowerCase(), isDefaultLibrary(l) ? documents : await createListWithFields(store, web, {
      title: l.title, description: l.description ?? '', baseTemplate: l.template ?? 100, hidden: l.hidden ?? false,
      ...(l.url ? { relativeUrl: l.url } : {}),
    }, now));
  }
  // Site columns and fields after all lists exist, so a lookup may point at a list defined later in the file.
  const lookupTarget = (f: TenantField) => (f.lookupList ? lists.get(f.lookupList.toLowerCase()) : undefined);
  for (const column of def.siteColumns ?? []) await store.siteColumns.add(web, tenantField(column, lookupTarget(column)));
  const usable = def.siteColumns?.length || (def.lists ?? []).some((l) => l.siteColumns?.length) ? await availableColumns(store, web) : [];
  for (const l of def.lists ?? []) {
    const list = lists.get(l.title.toLowerCase())!;
    // A site column a list uses keeps its id there, as SharePoint adds one.
    for (const name of l.siteColumns ?? []) {
      const column = usable.find((c) => !c.builtIn && c.internalName.toLowerCase() === name.toLowerCase())!;
      await store.fields.add(list, {
        internalName: column.internalName, title: column.title, kind: column.kind, required: column.required, indexed: column.indexed,
        hidden: column.hidden, options: column.options, id: column.id,
      });
    }
    for (const f of l.fields ?? []) await store.fields.add(list, tenantField(f, lookupTarget(f)));
    if (l.ratings) await store.comments.setRatingExperience(list, l.ratings, RATING_FIELDS);
  }
  for (const l of def.lists ?? []) {
    const list = (await store.lists.byRowId(lists.get(l.title.toLowerCase())!.rowId))!;
    const fields = await store.fields.of(list);
    // In batches: one multi-row insert per batch rather than a statement per item.
    let batch: ItemWrite[] = [];
    for (const item of l.items ?? []) {
      const { author, editor, created, modified, permissions: _permissions, ...rest } = item;
      const values: Record<string, StoredValue> = {};
      for (const [name, raw] of Object.entries(rest)) {
        const field = fields.find((f) => f.internalName === name)!;
        values[name] = await fixtureValue(field, raw, users);
      }
      const authorId = author ? await users.ensure(author) : actor;
      const editorId = editor ? await users.ensure(editor) : authorId;
      batch.push({
        values, actorId: editorId, authorId, now,
        created: created ? normaliseDateTime(created) : undefined,
        modified: modified ? normaliseDateTime(modified) : created ? normaliseDateTime(created) : undefined,
      });
      if (batch.length === ITEMS_PER_BATCH) { await store.items.createMany(list, fields, batch); batch = []; }
    }
    if (batch.length) await store.items.createMany(list, fields, batch);
    await loadDocuments(store, list, l, contents, { actorId: actor, now, user: (upn) => users.ensure(upn), value: (field, raw) => fixtureValue(field, raw, users) });
    for (const type of l.contentTypes ?? []) await contentTypes.addToListByName(web, list, type);
    const views = new ViewService(store);
    for (const v of l.views ?? []) {
      await views.create(list, { title: v.title, fields: v.fields, query: v.query, rowLimit: v.rowLimit, defaultView: v.default });
    }
  }
  for (const sub of def.webs ?? []) {
    const child = await store.sites.createWeb({
      siteId: web.siteId, parentId: web.id, serverRelativeUrl: `${urlPrefix(web.serverRelativeUrl)}/${sub.url}`, title: sub.title,
      description: sub.description ?? '', webTemplate: 'STS', language: web.language, now,
    });
    await loadWeb(store, child, sub, load);
  }
}

/** A tenant file's field (a list's or a site column) as a new field; `target` is a lookup's list. */
function tenantField(f: TenantField, target: List | undefined): NewField {
  const calculated = f.type === 'Calculated' && f.formula !== undefined
    ? { formula: f.formula.trim().startsWith('=') ? f.formula.trim() : `=${f.formula.trim()}`, outputType: f.outputType ?? 'Text' as const } : {};
  return {
    internalName: f.name, title: f.title ?? f.name, kind: kindFromTypeName(f.type)!, required: f.required ?? false, indexed: f.indexed ?? false, hidden: false,
    options: {
      ...(f.choices ? { choices: f.choices } : {}), ...(target ? { lookupListId: target.id, lookupField: f.lookupField ?? 'Title' } : {}),
      ...(f.maxLength !== undefined ? { maxLength: f.maxLength } : {}), ...(f.richText ? { richText: true } : {}),
      ...(f.dateOnly ? { dateOnly: true } : {}), ...(f.min !== undefined ? { min: f.min } : {}), ...(f.max !== undefined ? { max: f.max } : {}),
      ...(f.group ? { group: f.group } : {}), ...calculated,
    },
  };
}

/** User fields name people by UPN in a tenant file; everything else is a REST value already. */
async function fixtureValue(field: Field, raw: unknown, users: SiteUsers): Promise<StoredValue> {
  if (field.kind === 'User' && typeof raw === 'string') return toStoredValue(field, await users.ensure(raw));
  if (field.kind === 'UserMulti' && Array.isArray(raw)) {
    const ids: number[] = [];
    for (const upn of raw) ids.push(await users.ensure(String(upn)));
    return toStoredValue(field, ids);
  }
  return toStoredValue(field, raw);
}
