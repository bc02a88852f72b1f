// A Store decorator that keeps metadata in memory: sites, webs, lists, fields and
// settings are read on every request but change rarely. Every write through this store
// clears what it can have changed; item writes drop their list's record (ItemCount and
// LastItemModifiedDate change with them). Items themselves are never cached.
//
// The cache is per process. It is exact while this process is the database's only writer,
// which is the SQLite deployment. Several instances on one PostgreSQL database share an
// invalidation signal instead (`shared`): every metadata write bumps a counter in the same
// transaction, and `sync()` (once per request) reads it and drops everything when another
// instance moved it. List records (ItemCount, LastItemModifiedDate change with every item
// write on any instance) are then not cached at all.

import type { Field, Item, List, Site, Web } from '../domain/model.ts';
import type { Directory, DirectoryGroup, DirectoryUser, Photo, SiteRole } from './directory.ts';
import type { PdEntitySet, PdProperty, PdRow } from '../domain/projectdata/model.ts';
import type { PdQuery, PdSiteOptions, ProjectDataStore } from './projectdata.ts';
import type {
  FieldPatch, ItemPage, ItemQuery, ItemWrite, ListPatch, NewField, NewList, Store,
} from './store.ts';

/** Reads through `map`, keeping what `load` returns unless the cache was cleared meanwhile. */
async function readThrough<K, V>(cache: { generation: number }, map: Map<K, V>, key: K, load: () => Promise<V>): Promise<V> {
  if (map.has(key)) return map.get(key) as V;
  const generation = cache.generation;
  const value = await load();
  if (generation === cache.generation) map.set(key, value);
  return value;
}

/**
 * Directory reads the authentication stage makes on every request (the user, the site's
 * roles, the user's groups), kept until any directory write. Photos pass through.
 */
class CachedDirectory implements Directory {
  /** Bumped by clear(): a load that began before a clear must not store what it read. */
  /** Bumped by clear(): a value loaded across a clear may be stale and is not kept. */
  generation = 0;
  private users = new Map<string, DirectoryUser | undefined>();
  private groups = new Map<string, DirectoryGroup | undefined>();
  private memberships = new Map<string, DirectoryGroup[]>();
  private roles = new Map<string, SiteRole[]>();

  constructor(private readonly inner: Directory) {}

  clear(): void {
    this.generation++;
    this.users.clear();
    this.groups.clear();
    this.memberships.clear();
    this.roles.clear();
  }

  private async write(change: () => Promise<void>): Promise<void> {
    try { await change(); } finally { this.clear(); }
  }

  addUser(user: DirectoryUser, passwordHash: string | null) { return this.write(() => this.inner.addUser(user, passwordHash)); }
  addGroup(group: DirectoryGroup, members: string[]) { return this.write(() => this.inner.addGroup(group, members)); }
  findUser(upnOrEmail: string) { return readThrough(this, this.users, upnOrEmail.toLowerCase(), () => this.inner.findUser(upnOrEmail)); }
  listUsers() { return this.inner.listUsers(); }
  passwordHash(upn: string) { return this.inner.passwordHash(upn); }
  findGroup(idOrName: string) { return readThrough(this, this.groups, idOrName.toLowerCase(), () => this.inner.findGroup(idOrName)); }
  groupMembers(groupId: string) { return this.inner.groupMembers(groupId); }
  groupsOf(upn: string) { return readThrough(this, this.memberships, upn.toLowerCase(), () => this.inner.groupsOf(upn)); }
  setProfileProperty(upn: string, name: string, value: string | string[]) { return this.write(() => this.inner.setProfileProperty(upn, name, value)); }
  setSiteRoles(siteId: string, roles: SiteRole[]) { return this.write(() => this.inner.setSiteRoles(siteId, roles)); }
  siteRoles(siteId: string) { return readThrough(this, this.roles, siteId, () => this.inner.siteRoles(siteId)); }
  getPhoto(upn: string): Promise<Photo | undefined> { return this.inner.getPhoto(upn); }
  setPhoto(upn: string, photo: Photo) { return this.inner.setPhoto(upn, photo); }
}

/**
 * ProjectData's per-site options and schema, read on every feed request, kept until any
 * ProjectData metadata write here or (shared mode) a metadata write of another instance.
 * Rows pass through.
 */
class CachedProjectData implements ProjectDataStore {
  generation = 0;
  private optionsBySite = new Map<string, PdSiteOptions | undefined>();
  private schemas = new Map<string, PdEntitySet[]>();

  constructor(private readonly inner: ProjectDataStore) {}

  clear(): void {
    this.generation++;
    this.optionsBySite.clear();
    this.schemas.clear();
  }

  options(siteId: string) { return readThrough(this, this.optionsBySite, siteId, () => this.inner.options(siteId)); }
  async setOptions(siteId: string, options: PdSiteOptions) { try { await this.inner.setOptions(siteId, options); } finally { this.clear(); } }
  schema(siteId: string) { return readThrough(this, this.schemas, siteId, () => this.inner.schema(siteId)); }
  async addCustomProperties(siteId: string, setName: string, properties: PdProperty[]) {
    try { await this.inner.addCustomProperties(siteId, setName, properties); } finally { this.clear(); }
  }
  upsertRows(siteId: string, set: PdEntitySet, rows: PdRow[]) { return this.inner.upsertRows(siteId, set, rows); }
  query(siteId: string, query: PdQuery) { return this.inner.query(siteId, query); }
  importMarks(siteId: string) { return this.inner.importMarks(siteId); }
  addImportMark(siteId: string, mark: string) { return this.inner.addImportMark(siteId, mark); }
}

export class CachedStore implements Store {
  private sites = new Map<string, Site | undefined>();
  private webs = new Map<string, Web | undefined>();
  private listsByWeb = new Map<string, List[]>();
  private fields = new Map<number, Field[]>();
  private settings = new Map<string, string | undefined>();

  readonly directory: CachedDirectory;
  readonly projectData: CachedProjectData;
  /** Bumped by clear(): a value loaded across a clear may be stale and is not kept. */
  generation = 0;
  /** The metadata counter as of the last sync (shared mode). */
  private knownVersion: number | undefined;

  /**
   * `shared`: other instances write to the same database (PostgreSQL): call `sync()` at the
   * start of every request, and list records are read from the database every time.
   */
  constructor(private readonly inner: Store, private readonly shared = false) {
    this.directory = new CachedDirectory(inner.directory);
    this.projectData = new CachedProjectData(inner.projectData);
  }

  /** Drops the cache if another instance changed metadata since the last call (shared mode; one cheap query). */
  async sync(): Promise<void> {
    if (!this.shared || !this.inner.metadataVersion) return;
    const version = await this.inner.metadataVersion();
    if (version !== this.knownVersion) {
      this.clear();
      this.knownVersion = version;
    }
  }

  /** Forgets all metadata: after schema changes, and after any transaction that wrote. */
  clear(): void {
    this.generation++;
    this.directory.clear();
    this.projectData.clear();
    this.sites.clear();
    this.webs.clear();
    this.listsByWeb.clear();
    this.fields.clear();
    this.settings.clear();
  }

  private async listsOf(webId: string): Promise<List[]> {
    if (this.shared) return this.inner.getLists(webId);
    return readThrough(this, this.listsByWeb, webId, () => this.inner.getLists(webId));
  }

  /** Writes inside a transaction bypass the cache; whatever happens, the cache is cleared after. */
  async transaction<T>(fn: (store: Store) => Promise<T>): Promise<T> {
    try {
      return await this.inner.transaction(fn);
    } finally {
      this.clear();
    }
  }

  close(): Promise<void> { return this.inner.close(); }
  lockList(list: List): Promise<void> { return this.inner.lockList(list); }
  metadataVersion(): Promise<number> { return this.inner.metadataVersion?.() ?? Promise.resolve(0); }

  getSetting(key: string): Promise<string | undefined> {
    return readThrough(this, this.settings, key, () => this.inner.getSetting(key));
  }
  async setSetting(key: string, value: string): Promise<void> {
    await this.inner.setSetting(key, value);
    this.settings.delete(key);
  }

  async createSite(site: { url: string; title: string; description: string; now: string }) {
    try { return await this.inner.createSite(site); } finally { this.clear(); }
  }
  listSites(): Promise<Site[]> { return this.inner.listSites(); }
  getSiteByUrl(url: string): Promise<Site | undefined> {
    return readThrough(this, this.sites, url.toLowerCase(), () => this.inner.getSiteByUrl(url));
  }
  getWeb(id: string): Promise<Web | undefined> {
    return readThrough(this, this.webs, id, () => this.inner.getWeb(id));
  }

  async createList(web: Web, list: NewList, now: string): Promise<List> {
    try { return await this.inner.createList(web, list, now); } finally { this.clear(); }
  }
  getLists(webId: string): Promise<List[]> { return this.listsOf(webId); }
  async getListById(webId: string, id: string): Promise<List | undefined> {
    if (this.shared) return this.inner.getListById(webId, id);
    const lower = id.toLowerCase();
    return (await this.listsOf(webId)).find((l) => l.id === lower);
  }
  async getListByTitle(webId: string, title: string): Promise<List | undefined> {
    if (this.shared) return this.inner.getListByTitle(webId, title);
    const lower = title.toLowerCase();
    return (await this.listsOf(webId)).find((l) => l.title.toLowerCase() === lower);
  }
  async getListByUrl(webId: string, serverRelativeUrl: string): Promise<List | undefined> {
    if (this.shared) return this.inner.getListByUrl(webId, serverRelativeUrl);
    const key = serverRelativeUrl.toLowerCase().replace(/\/+$/, '') || '/';
    return (await this.listsOf(webId)).find((l) => l.serverRelativeUrl.toLowerCase() === key);
  }
  getListByRowId(rowId: number): Promise<List | undefined> { return this.inner.getListByRowId(rowId); }
  async updateList(list: List, patch: ListPatch, now: string): Promise<List> {
    try { return await this.inner.updateList(list, patch, now); } finally { this.clear(); }
  }
  async deleteList(list: List): Promise<void> {
    try { await this.inner.deleteList(list); } finally { this.clear(); }
  }

  getFields(list: List): Promise<Field[]> {
    return readThrough(this, this.fields, list.rowId, () => this.inner.getFields(list));
  }
  async addField(list: List, field: NewField): Promise<Field> {
    try { return await this.inner.addField(list, field); } finally { this.clear(); }
  }
  async updateField(list: List, field: Field, patch: FieldPatch): Promise<Field> {
    try { return await this.inner.updateField(list, field, patch); } finally { this.clear(); }
  }
  async deleteField(list: List, field: Field): Promise<void> {
    try { await this.inner.deleteField(list, field); } finally { this.clear(); }
  }

  queryItems(list: List, fields: Field[], query: ItemQuery): Promise<ItemPage> { return this.inner.queryItems(list, fields, query); }
  getItem(list: List, fields: Field[], id: number, load?: Field[]): Promise<Item | undefined> { return this.inner.getItem(list, fields, id, load); }
  getItems(list: List, fields: Field[], ids: number[], load?: Field[]): Promise<Item[]> { return this.inner.getItems(list, fields, ids, load); }

  /** Item writes change their list's ItemCount and dates: drop that web's list records. */
  private async itemWrite<T>(list: List, write: () => Promise<T>): Promise<T> {
    try { return await write(); } finally { this.listsByWeb.delete(list.webId); }
  }
  createItem(list: List, fields: Field[], write: ItemWrite): Promise<Item> {
    return this.itemWrite(list, () => this.inner.createItem(list, fields, write));
  }
  updateItem(list: List, fields: Field[], id: number, write: ItemWrite, expectedVersion: number | null) {
    return this.itemWrite(list, () => this.inner.updateItem(list, fields, id, write, expectedVersion));
  }
  deleteItem(list: List, fields: Field[], id: number, expectedVersion: number | null, now: string) {
    return this.itemWrite(list, () => this.inner.deleteItem(list, fields, id, expectedVersion, now));
  }
  recycleItem(list: List, fields: Field[], id: number, actorId: number, now: string) {
    return this.itemWrite(list, () => this.inner.recycleItem(list, fields, id, actorId, now));
  }
  getItemVersions(list: List, id: number): Promise<Item[]> { return this.inner.getItemVersions(list, id); }
  deleteItemVersion(list: List, id: number, uiVersion: number): Promise<boolean> { return this.inner.deleteItemVersion(list, id, uiVersion); }
  reserveItemId(list: List): Promise<number> { return this.inner.reserveItemId(list); }
}
