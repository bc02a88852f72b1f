// Test harness: a real spemu on an ephemeral port, over an in-memory (or file) SQLite
// database, seeded with the demo tenant or a given one. No layer of ours is mocked.

import { fileURLToPath } from 'node:url';
import { startServer, type ServerOptions } from '../../src/index.ts';

export const DEMO_TENANT = fileURLToPath(new URL('../../demo/tenant.json', import.meta.url));

export interface TestServer {
  url: string;
  /** Absolute URL of a site: `site('/sites/dev')`. */
  site(path?: string): string;
  close(): Promise<void>;
}

export async function startTestServer(options: ServerOptions = {}): Promise<TestServer> {
  const server = await startServer({ db: ':memory:', port: 0, logLevel: 'silent', seed: DEMO_TENANT, ...options });
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
