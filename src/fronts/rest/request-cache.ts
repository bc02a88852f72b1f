// Every cache of the REST front's request pipeline, in one place (issue #13). A request's
// URL is parsed, and what it addresses planned, once per distinct URL rather than once per
// request; only what depends on who asks (authentication, the permission check) and on the
// data (the rows) runs every time.
//
// - parsed: what a URL says, as pure syntax — the site path, the `/_api` path's segments,
//   the OData query options and aliases, the request URL object. Nothing in it depends on
//   data, so it is never invalidated; it is bounded (LRU) since URLs are the client's.
// - dialects: the dialect an `Accept` and `OData-Version` pair negotiate (pure, bounded).
// - absoluteUrls: a server-relative path resolved against an API root (pure, bounded).
// - derived: what is made from one record of the store's read cache (a field's SP.Field
//   entity), kept with that record object while the store generation stands (a
//   GenerationMemo: domain/generation-memo.ts; nothing kept inside a transaction).
// - planned: what a URL resolves to that depends on metadata — the web a site path names, an
//   item projection's plan, and a GET's route (the resource its path addresses and the checks
//   on the way: resolve.ts `Route`) — stamped with the store's generation (store.ts) and used only
//   while that has not moved, i.e. until any cached metadata is invalidated (a write here, or
//   another instance's change seen by `sync`). Never an authorization outcome: the
//   permission check runs on every request, for the user who sends it.
// - compiled: what is compiled from an item plan — its writer per dialect (api/item-writer.ts),
//   its expansions grouped by target list — held by the plan object, so dropped exactly when the
//   plan is (the generation moved, or the plan was never kept).
//
// Cached values are shared by the requests that read them: they are frozen, or treated as
// read-only by every handler.

import type { PathSegment } from '../../odata/path.ts';
import { negotiateDialect, type Dialect } from '../../wire/dialect.ts';
import type { QueryOptions } from './api/context.ts';
import { GenerationMemo } from '../../domain/generation-memo.ts';

/**
 * A bounded map that forgets what is not used: beyond `limit`, the oldest entry goes unless it
 * was read since it was last considered (then it is kept as the newest, once: "second
 * chance"), so a hit costs a flag, not a reordering.
 */
export class Lru<V> {
  private readonly entries = new Map<string, { value: V; used: boolean }>();
  constructor(private readonly limit: number) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    entry.used = true;
    return entry.value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, used: false });
    while (this.entries.size > this.limit) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      if (entry.used) { entry.used = false; this.entries.set(oldest, entry); }
    }
  }

  get size(): number { return this.entries.size; }
}

/** What a request URL says, parsed once: pure syntax, the same for every request that sends it. */
export interface ParsedRequest {
  /** The site path, decoded (`/sites/dev`). */
  sitePath: string;
  /** The path below `/_api/` as sent (still encoded). */
  apiPath: string;
  segments: readonly PathSegment[];
  query: QueryOptions;
  /** Absolute URL of the request as sent: read only (paging links, CAML overrides). */
  requestUrl: URL;
}

/** Parsed URLs, by origin, method and URL; never invalidated (pure syntax), at most 1,000 of at most 2 KiB each. */
const parsed = new Lru<ParsedRequest>(1_000);
/** Longer URLs (filters of hundreds of terms, up to 1 MiB) are parsed each time: 1,000 of them would hold too much. */
export const CACHED_URL_LENGTH = 2_048;

/** `parse` runs only on a miss; what it throws (a 400 for bad syntax) is thrown again, not cached. */
export function parsedRequest(origin: string, method: string, url: string, parse: () => ParsedRequest): ParsedRequest {
  if (url.length > CACHED_URL_LENGTH) return deepFreeze(parse());
  const key = `${origin} ${method} ${url}`;
  let entry = parsed.get(key);
  if (!entry) parsed.set(key, (entry = deepFreeze(parse())));
  return entry;
}

/** Negotiated dialects by `Accept` and `OData-Version`; never invalidated (pure), at most 200. */
const dialects = new Lru<{ dialect: Dialect | undefined }>(200);

export function cachedDialect(accept: string | undefined, odataVersion: string | undefined): Dialect | undefined {
  const key = `${accept ?? ''}\u0000${odataVersion ?? ''}`;
  let entry = dialects.get(key);
  if (!entry) dialects.set(key, (entry = { dialect: negotiateDialect(accept, odataVersion) }));
  return entry.dialect;
}

/** Absolute URLs of server-relative paths below an API root; never invalidated (pure: URL resolution), at most 1,000. */
const absoluteUrls = new Lru<string>(1_000);

/** `serverRelative` resolved against `apiUrl` (an entity's `odata.id`, its Url), trailing slash dropped; parsed once per pair. */
export function cachedAbsoluteUrl(apiUrl: string, serverRelative: string): string {
  if (serverRelative.length > CACHED_URL_LENGTH) return absolute(apiUrl, serverRelative);
  const key = `${apiUrl}\u0000${serverRelative}`;
  let url = absoluteUrls.get(key);
  if (url === undefined) absoluteUrls.set(key, (url = absolute(apiUrl, serverRelative)));
  return url;
}

const absolute = (apiUrl: string, serverRelative: string) => new URL(serverRelative, apiUrl).href.replace(/\/$/, '');

/**
 * Values made from a record the store's read cache holds (a field definition: the same object
 * while its entry stands), by the record and a key naming whatever else they are made from,
 * while the store generation stands; at most 16 keys per record (origins, owners). Read-only.
 */
const derived = new GenerationMemo<object, string, unknown>(16);

/** `make(record, ...args)`, kept with `record` for `key` under the store's current generation (none inside a transaction). */
export function derivedFrom<R extends object, A extends unknown[], T>(
  store: { generation(): number }, record: R, key: string, make: (record: R, ...args: A) => T, ...args: A
): T {
  // A key as long as a huge URL is made each time, not held (as long URLs above).
  if (key.length > CACHED_URL_LENGTH) return make(record, ...args);
  const generation = store.generation();
  const hit = derived.get(record, generation, key) as T | undefined;
  if (hit !== undefined) return hit;
  const value = make(record, ...args);
  derived.keep(record, generation, store.generation(), key, value);
  return value;
}

/** Something a store's metadata decides, with the store generation it was made at. */
interface Planned { generation: number; value: unknown }

/**
 * Metadata-dependent plans per store (tests run several servers in one process), by kind and
 * key; valid while the store's generation has not moved, at most 1,000 per store.
 */
const planned = new WeakMap<object, Lru<Planned>>();

/**
 * The plan `make` builds for `key` under the store's current metadata, made again once that
 * moved. A store inside a transaction has no generation (NaN): nothing is kept.
 */
export async function plannedFor<T>(store: { generation(): number }, key: string, make: () => Promise<T>): Promise<T> {
  // A key as long as a huge `$select` is made each time, not held (as long URLs above).
  if (key.length > CACHED_URL_LENGTH) return make();
  let plans = planned.get(store);
  if (!plans) planned.set(store, (plans = new Lru<Planned>(1_000)));
  const generation = store.generation();
  const hit = plans.get(key);
  if (hit && hit.generation === generation) return hit.value as T;
  const value = await make();
  // Kept only if nothing was invalidated while it was made (else it may mix old and new metadata).
  if (!Number.isNaN(generation) && store.generation() === generation) plans.set(key, { generation, value });
  return value;
}

/**
 * A GET's route kept for its origin and URL (keepRoute), under the store's current metadata:
 * the plan kept for `route <origin> <url>`, with the last route found per store remembered by
 * its origin and URL, so the same URL again (a client polling) is two string comparisons
 * rather than a key made and hashed. Stamped like every plan: gone once the generation moves.
 */
export function knownRoute<T>(store: { generation(): number }, origin: string, url: string): T | undefined {
  const last = lastRoutes.get(store);
  if (last && last.url === url && last.origin === origin && last.planned.generation === store.generation()) return last.planned.value as T;
  const key = `route ${origin} ${url}`;
  const hit = planned.get(store)?.get(key);
  if (!hit || hit.generation !== store.generation()) return undefined;
  lastRoutes.set(store, { origin, url, planned: hit });
  return hit.value as T;
}

/** Keeps a GET's route for its origin and URL, made under metadata at `generation`: a plan that can only be known once a request has been served (pipeline.ts). */
export function keepRoute(store: { generation(): number }, origin: string, url: string, generation: number, value: unknown): void {
  keepPlanned(store, `route ${origin} ${url}`, generation, value);
}

/** The last route knownRoute found, per store. */
const lastRoutes = new WeakMap<object, { origin: string; url: string; planned: Planned }>();

/** Keeps `value` for `key`, made under metadata at `generation`: only if that still stands (as plannedFor). */
export function keepPlanned(store: { generation(): number }, key: string, generation: number, value: unknown): void {
  if (key.length > CACHED_URL_LENGTH || Number.isNaN(generation) || store.generation() !== generation) return;
  let plans = planned.get(store);
  if (!plans) planned.set(store, (plans = new Lru<Planned>(1_000)));
  plans.set(key, { generation, value });
}

/** What is compiled from an item plan (its writer per dialect, its expansion groups), by plan object: dropped with the plan, i.e. once the store generation moves. */
const compiled = new WeakMap<object, Map<string, unknown>>();

/** What `make` compiles from `plan` under `key`, made once per plan object (undefined too: a shape a writer cannot write is not tried again). */
export function compiledFor<T>(plan: object, key: string, make: () => T): T {
  let byKey = compiled.get(plan);
  if (!byKey) compiled.set(plan, (byKey = new Map()));
  if (byKey.has(key)) return byKey.get(key) as T;
  const value = make();
  byKey.set(key, value);
  return value;
}

/** Freezes a parsed request's plain data (objects and arrays; a URL and Maps are left as they are). */
function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value) || value instanceof URL || value instanceof Map) return value;
  for (const v of Object.values(value)) deepFreeze(v);
  return Object.freeze(value);
}
