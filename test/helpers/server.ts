// Test harness: a real spemu on an ephemeral port, over an in-memory (or file) SQLite
// database or, with SPEMU_TEST_DB=postgres, a fresh PostgreSQL database of the test cluster
// (postgres.ts), seeded with the demo tenant or a given one. No layer of ours is mocked.

import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startServer, type ServerOptions } from '../../src/index.ts';
import { sharedCluster, testBackend } from './postgres.ts';

export const DEMO_TENANT = fileURLToPath(new URL('../../demo/tenant.json', import.meta.url));

export interface TestServer {
  url: string;
  /** Absolute URL of a site: `site('/sites/dev')`. */
  site(path?: string): string;
  close(): Promise<void>;
}

/**
 * The seed's first site owner who is a user: who requests without credentials act as in
 * tests (the `anonymousUser` option), as every request did before authentication existed.
 */
export function firstOwner(seed: string | object = DEMO_TENANT): string | undefined {
  const tenant = (typeof seed === 'string' ? JSON.parse(readFileSync(seed, 'utf8')) : seed) as {
    users?: Array<{ upn: string }>; sites?: Array<{ owners?: string[] }>;
  };
  const upns = new Set((tenant.users ?? []).map((u) => u.upn.toLowerCase()));
  for (const site of tenant.sites ?? []) {
    const owner = (site.owners ?? []).find((o) => upns.has(o.toLowerCase()));
    if (owner) return owner;
  }
  return undefined;
}

/**
 * Where a test server keeps its data: `:memory:` on the SQLite leg; on the PostgreSQL leg a
 * new database, dropped again by `drop()`.
 */
export async function testDatabase(): Promise<{ db: string; drop(): Promise<void> }> {
  if (testBackend() === 'sqlite') return { db: ':memory:', drop: async () => {} };
  const cluster = await sharedCluster();
  const db = await cluster.createDatabase();
  return { db, drop: () => cluster.dropDatabase(db) };
}

/**
 * A database two test servers can share (`shared: true`, as `--workers` runs them): a SQLite
 * file in a temporary folder on the SQLite leg (an in-memory one cannot be shared), a new
 * PostgreSQL database on the other; `drop()` removes it.
 */
export async function sharedTestDatabase(prefix: string): Promise<{ db: string; drop(): Promise<void> }> {
  if (testBackend() === 'postgres') return testDatabase();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { db: join(dir, 'shared.db'), drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * `count` test servers sharing one database (`shared: true`, as `--workers` or several instances
 * on PostgreSQL run them) and one token secret, so a token made for one is good on the others;
 * `close()` stops them and drops the database.
 */
export async function startSharedInstances(prefix: string, count = 2, options: ServerOptions = {}): Promise<{ servers: TestServer[]; tokenSecret: string; close(): Promise<void> }> {
  const database = await sharedTestDatabase(prefix);
  const tokenSecret = randomBytes(32).toString('base64url');
  const servers: TestServer[] = [];
  const close = async () => {
    for (const s of servers.reverse()) await s.close();
    await database.drop();
  };
  try {
    for (let i = 0; i < count; i++) servers.push(await startTestServer({ db: database.db, shared: true, tokenSecret, ...options }));
  } catch (e) {
    await close();
    throw e;
  }
  return { servers: [...servers], tokenSecret, close };
}

/**
 * A spemu on a free port over an in-memory database (or a fresh PostgreSQL one). Requests without credentials act as
 * the seed's first owner unless the caller passes `anonymousUser: undefined` explicitly
 * (then they get SharePoint's 401, as from `spemu` itself).
 */
export async function startTestServer(options: ServerOptions = {}): Promise<TestServer> {
  const seed = options.seed ?? DEMO_TENANT;
  const anonymousUser = 'anonymousUser' in options ? options.anonymousUser : firstOwner(seed);
  const database = options.db === undefined ? await testDatabase() : { db: options.db, drop: async () => {} };
  // Without a workspace folder, an in-memory database's secret lasts a process; a PostgreSQL
  // test server gets one of its own the same way, rather than a ./.spemu folder.
  const perServerSecret = database.db !== ':memory:' && options.data === undefined && options.tokenSecret === undefined
    ? { tokenSecret: randomBytes(32).toString('base64url') } : {};
  let server;
  try {
    server = await startServer({ db: database.db, port: 0, logLevel: 'silent', seed: DEMO_TENANT, ...perServerSecret, ...options, anonymousUser });
  } catch (e) {
    await database.drop();
    throw e;
  }
  const running = server;
  return {
    url: running.url,
    site: (path = '/sites/dev') => `${running.url}${path === '/' ? '' : path}`,
    close: async () => {
      try { await running.close(); } finally { await database.drop(); }
    },
  };
}

/**
 * A test server for the enclosing `describe`: started in a `before()` and closed in an `after()`,
 * both registered where this is called (node:test runs hooks in registration order, so a
 * `before` registered after this one sees the server). Read `.server` inside tests and hooks.
 * Options computed from other values can be given as a function, called in the `before()`.
 */
export function useTestServer(options?: ServerOptions | (() => ServerOptions | Promise<ServerOptions>)): { readonly server: TestServer } {
  let running: TestServer | undefined;
  before(async () => {
    running = await startTestServer(typeof options === 'function' ? await options() : options);
  });
  after(async () => { await running?.close(); });
  return {
    get server(): TestServer {
      if (!running) throw new Error('useTestServer: the test server is not started yet; read `.server` inside a test or hook, not while the describe block is being defined');
      return running;
    },
  };
}

/** A small tenant for tests that need a known, minimal starting point. */
export function minimalTenant(extra: { lists?: unknown[] } = {}) {
  return {
    tenant: { name: 'fabrikam' },
    users: [
      { upn: 'olivia@fabrikam.onmicrosoft.com', displayName: 'Olivia Owner', firstName: 'Olivia', lastName: 'Owner', email: 'olivia@fabrikam.com', password: 'pw-olivia' },
      { upn: 'mark@fabrikam.onmicrosoft.com', displayName: 'Mark Member', firstName: 'Mark', lastName: 'Member', email: 'mark@fabrikam.com', password: 'pw-mark' },
    ],
    sites: [{ url: '/sites/test', title: 'Test', owners: ['olivia@fabrikam.onmicrosoft.com'], members: ['mark@fabrikam.onmicrosoft.com'], lists: extra.lists ?? [] }],
  };
}
