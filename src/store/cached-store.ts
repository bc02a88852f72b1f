// A Store decorator that keeps metadata in memory: sites, webs, lists, fields and
// settings are read on every request but change rarely. Every write through this store
// clears what it can have changed; item writes drop their list's record (ItemCount and
// LastItemModifiedDate change with them). Items themselves are never cached.
//
// The cache is per process. It is exact while this process is the database's only writer,
// which is the SQLite deployment. Several instances on one database need a shared
// invalidation signal, which the PostgreSQL backend adds.

import type { Field, Item, List, Site, Web } from '../domain/model.ts';
import type {
  FieldPatch, ItemPage, ItemQuery, ItemWrite, ListPatch, NewField, NewList, Store,
} from './store.ts';

export class CachedStore implements Store {
  private sites = new Map<string, Site | undefined>();
  private webs = new Map<string, Web | undefined>();
  private listsByWeb = new Map<string, List[]>();
  private fields = new Map<number, Field[]>();
  private settings = new Map<string, string | undefined>();

  constructor(private readonly inner: Store) {}

  /** Directory reads are per request and cheap; they are not cached. */
  get directory() { return this.inner.directory; }

  /** Forgets all metadata: after schema changes, and after any transaction that wrote. */
  clear(): void {
    this.sites.clear();
    this.webs.clear();
    this.listsByWeb.clear();
    this.fields.clear();
    this.settings.clear();
  }

  private async memo<K, V>(map: Map<K, V>, key: K, load: () => Promise<V>): Promise<V> {
    if (map.has(key)) return map.get(key) as V;
    const value = await load();
    map.set(key, value);
    return value;
  }

  private async listsOf(webId: string): Promise<List[]> {
    return this.memo(this.listsByWeb, webId, () => this.inner.getLists(webId));
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

  getSetting(key: string): Promise<string | undefined> {
    return this.memo(this.settings, key, () => this.inner.getSetting(key));
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
    return this.memo(this.sites, url.toLowerCase(), () => this.inner.getSiteByUrl(url));
  }
  getWeb(id: string): Promise<Web | undefined> {
    return this.memo(this.webs, id, () => this.inner.getWeb(id));
  }

  async createList(web: Web, list: NewList, now: string): Promise<List> {
    try { return await this.inner.createList(web, list, now); } finally { this.clear(); }
  }
  getLists(webId: string): Promise<List[]> { return this.listsOf(webId); }
  async getListById(webId: string, id: string): Promise<List | undefined> {
    const lower = id.toLowerCase();
    return (await this.listsOf(webId)).find((l) => l.id === lower);
  }
  async getListByTitle(webId: string, title: string): Promise<List | undefined> {
    const lower = title.toLowerCase();
    return (await this.listsOf(webId)).find((l) => l.title.toLowerCase() === lower);
  }
  async getListByUrl(webId: string, serverRelativeUrl: string): Promise<List | undefined> {
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
    return this.memo(this.fields, list.rowId, () => this.inner.getFields(list));
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
}
