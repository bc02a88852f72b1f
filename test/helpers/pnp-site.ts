// A test server for the enclosing `describe` and an unmodified PnPjs client for one of its
// sites, as a Node application would set it up: the start of most PnPjs test files.

import { before } from 'node:test';
import type { SPFI } from '@pnp/sp';
import { pnpFor } from './pnp.ts';
import { useTestServer, type TestServer } from './server.ts';

export interface PnpSite {
  readonly server: TestServer;
  /** The site's absolute URL (`http://127.0.0.1:<port>/sites/dev`). */
  readonly site: string;
  /** PnPjs for the site, sending no credentials: it acts as the test server's anonymous user (the seed's first owner by default). */
  readonly sp: SPFI;
}

/**
 * useTestServer (started in a `before()`, closed in an `after()`) and PnPjs for the site at
 * `path`, made in a `before()` registered right after the server's. Read the properties
 * inside tests and hooks, not while the describe block is being defined.
 */
export function usePnpSite(path = '/sites/dev', options?: Parameters<typeof useTestServer>[0]): PnpSite {
  const spemu = useTestServer(options);
  let client: { site: string; sp: SPFI } | undefined;
  before(() => {
    const site = spemu.server.site(path);
    client = { site, sp: pnpFor(site) };
  });
  const made = () => {
    if (!client) throw new Error('usePnpSite: read `.site` and `.sp` inside a test or hook');
    return client;
  };
  return {
    get server() { return spemu.server; },
    get site() { return made().site; },
    get sp() { return made().sp; },
  };
}
