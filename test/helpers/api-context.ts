// The REST front's ApiContext without a server, for unit tests of what runs below the
// pipeline (the resolver, projections, paging): a real SQLite store in a temp dir (as the
// server has it: the metadata cache over the SQL store), seeded with a tenant file, a real
// principal from the shared authorize stage, and the query string parsed as the front does.

import { randomBytes } from 'node:crypto';
import { after, before } from 'node:test';
import type { ApiContext, ApiSettings } from '../../src/fronts/rest/api/context.ts';
import { resolve, type Plan, type Verb } from '../../src/fronts/rest/api/resolve.ts';
import { parseRequestQuery } from '../../src/fronts/rest/query-options.ts';
import type { Site, Web } from '../../src/domain/model.ts';
import { parseApiPath } from '../../src/odata/path.ts';
import { createAuthenticator } from '../../src/pipeline/authenticate.ts';
import { rawQueryOf } from '../../src/pipeline/request.ts';
import type { SqlStore } from '../../src/store/sql/sql-store.ts';
import { loadTenant } from '../../src/tenant/load.ts';
import { NO_CONDITIONS } from '../../src/services/conditions.ts';
import { Services } from '../../src/services/services.ts';
import { validateTenant } from '../../src/tenant/validate.ts';
import { openStoreBackend } from './store-backend.ts';

export const ORIGIN = 'http://spemu.test';
/** The server's own defaults (src/index.ts). */
export const DEFAULT_SETTINGS: ApiSettings = { listViewThreshold: 5000, defaultPageSize: 100, maxPageSize: 5000 };
const NOW = '2026-01-02T03:04:05Z';

export interface ApiFixture {
  store: SqlStore;
  site: Site;
  web: Web;
  /**
   * A context for `path` below the site's `/_api/` (with its query string, as sent), acting as
   * `upn` (default: the tenant's first user). `settings` overrides the server's defaults.
   */
  context(path: string, options?: { upn?: string; settings?: Partial<ApiSettings> }): Promise<ApiContext>;
  /** Resolves `path` as the pipeline does: parsed with its aliases, walked to a plan. */
  plan(path: string, verb?: Verb, options?: { upn?: string; ifMatch?: string }): Promise<{ plan: Plan; ctx: ApiContext }>;
  close(): Promise<void>;
}

/**
 * A fixture for the enclosing file or `describe`: opened in a `before()`, closed in an
 * `after()` registered where this is called. Read `.api` inside tests and hooks.
 */
export function useApiFixture(tenant: Parameters<typeof openApiFixture>[0], sitePath?: string): { readonly api: ApiFixture } {
  let fixture: ApiFixture | undefined;
  before(async () => { fixture = await openApiFixture(tenant, sitePath); });
  after(async () => { await fixture?.close(); });
  return {
    get api(): ApiFixture {
      if (!fixture) throw new Error('useApiFixture: read `.api` inside a test or hook');
      return fixture;
    },
  };
}

/** Seeds `tenant` (a tenant file as an object) into a fresh SQLite store; `sitePath` names the site the contexts address. */
export async function openApiFixture(tenant: { users: Array<{ upn: string }> }, sitePath = '/sites/test'): Promise<ApiFixture> {
  const backend = await openStoreBackend('sqlite');
  // The store with its read cache, as the server runs it.
  const store = backend.store;
  await loadTenant(store, validateTenant(tenant), NOW);
  const site = await store.sites.byUrl(sitePath);
  if (!site) throw new Error(`openApiFixture: no site ${sitePath}`);
  const web = (await store.sites.web(site.rootWebId))!;
  const authenticator = createAuthenticator({
    store, secret: randomBytes(32), mode: 'strict', basicAuth: false, requireDigest: false, digestTimeoutSeconds: 1800, clock: () => new Date(NOW),
  });

  async function context(path: string, options: { upn?: string; ifMatch?: string; settings?: Partial<ApiSettings> } = {}): Promise<ApiContext> {
    const upn = options.upn ?? tenant.users[0]!.upn;
    const user = await store.directory.findUser(upn);
    if (!user) throw new Error(`openApiFixture: no user ${upn}`);
    const principal = await authenticator.authorize(site!, { user, via: 'bearer' });
    const requestUrl = new URL(`${ORIGIN}${site!.url}/_api/${path}`);
    return {
      store, services: new Services(store, { userId: principal.userId, now: () => NOW }),
      conditions: options.ifMatch === undefined ? NO_CONDITIONS : { ifMatch: options.ifMatch },
      site: site!, web, principal, query: parseRequestQuery(rawQueryOf(path)).options,
      settings: { ...DEFAULT_SETTINGS, ...options.settings }, body: undefined, verboseBody: false,
      now: () => NOW, requestUrl, apiUrl: `${ORIGIN}${site!.url}/_api/`,
    };
  }

  async function plan(path: string, verb: Verb = 'GET', options: { upn?: string; ifMatch?: string } = {}) {
    const ctx = await context(path, options);
    const [apiPath = ''] = path.split('?', 1);
    const segments = parseApiPath(apiPath, parseRequestQuery(rawQueryOf(path)).aliases);
    return { plan: await resolve(segments, verb, ctx), ctx };
  }

  return { store, site, web, context, plan, close: () => store.close() };
}
