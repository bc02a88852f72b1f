// Test harness: a real spemu on an ephemeral port, over an in-memory (or file) SQLite
// database, seeded with the demo tenant or a given one. No layer of ours is mocked.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startServer, type ServerOptions } from '../../src/index.ts';

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
 * A spemu on a free port over an in-memory database. Requests without credentials act as
 * the seed's first owner unless the caller passes `anonymousUser: undefined` explicitly
 * (then they get SharePoint's 401, as from `spemu` itself).
 */
export async function startTestServer(options: ServerOptions = {}): Promise<TestServer> {
  const seed = options.seed ?? DEMO_TENANT;
  const anonymousUser = 'anonymousUser' in options ? options.anonymousUser : firstOwner(seed);
  const server = await startServer({ db: ':memory:', port: 0, logLevel: 'silent', seed: DEMO_TENANT, ...options, anonymousUser });
  return {
    url: server.url,
    site: (path = '/sites/dev') => `${server.url}${path === '/' ? '' : path}`,
    close: () => server.close(),
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
