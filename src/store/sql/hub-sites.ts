// Hub sites on SQL: read by the hub endpoints and HubSiteData only, so not cached (a hub
// registered through another instance is seen at once).

import type { HubSiteRepository, HubSiteRow } from '../hub-sites.ts';
import type { SqlSession } from './session.ts';

const COLUMNS = ['site_id', 'title', 'description', 'logo_url', 'version', 'registered', 'registered_by'] as const;

function rowToHub(r: Record<string, unknown>): HubSiteRow {
  return {
    siteId: String(r.site_id), title: String(r.title), description: r.description == null ? null : String(r.description),
    logoUrl: r.logo_url == null ? null : String(r.logo_url), version: Number(r.version), registered: String(r.registered),
    registeredBy: Number(r.registered_by),
  };
}

export class SqlHubSites implements HubSiteRepository {
  constructor(private readonly s: SqlSession) {}

  async all(): Promise<HubSiteRow[]> {
    const rows = await this.s.db.selectFrom('hub_sites').select([...COLUMNS]).orderBy('registered').orderBy('site_id').execute();
    return rows.map(rowToHub);
  }

  async get(siteId: string): Promise<HubSiteRow | undefined> {
    const row = await this.s.db.selectFrom('hub_sites').select([...COLUMNS]).where('site_id', '=', siteId).executeTakeFirst();
    return row ? rowToHub(row) : undefined;
  }

  add(hub: HubSiteRow): Promise<boolean> {
    // One statement: two requests registering the same site at once make one hub, and the second is told it is one.
    return this.s.write([], async ({ db }) => {
      const result = await db.insertInto('hub_sites').values({
        site_id: hub.siteId, title: hub.title, description: hub.description, logo_url: hub.logoUrl, version: hub.version,
        registered: hub.registered, registered_by: hub.registeredBy,
      }).onConflict((oc) => oc.column('site_id').doNothing()).executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
    });
  }

  remove(siteId: string): Promise<boolean> {
    return this.s.write([], async ({ db }) => {
      const removed = Number((await db.deleteFrom('hub_sites').where('site_id', '=', siteId).executeTakeFirst()).numDeletedRows) > 0;
      // A hub unregistered takes its sites out of it (SharePoint: they are no longer associated).
      if (removed) await db.deleteFrom('hub_site_joins').where('hub_site_id', '=', siteId).execute();
      return removed;
    });
  }

  async joinedHub(siteId: string): Promise<string | undefined> {
    const row = await this.s.db.selectFrom('hub_site_joins').select('hub_site_id').where('site_id', '=', siteId).executeTakeFirst();
    return row ? String(row.hub_site_id) : undefined;
  }

  join(siteId: string, hubSiteId: string | null, joined: string): Promise<void> {
    return this.s.write([], async ({ db }) => {
      await db.deleteFrom('hub_site_joins').where('site_id', '=', siteId).execute();
      if (hubSiteId !== null) await db.insertInto('hub_site_joins').values({ site_id: siteId, hub_site_id: hubSiteId, joined }).execute();
    });
  }

  setLogo(siteId: string, logoUrl: string | null): Promise<boolean> {
    return this.s.write([], async ({ db }) => {
      const result = await db.updateTable('hub_sites').set((eb) => ({ logo_url: logoUrl, version: eb('version', '+', 1) }))
        .where('site_id', '=', siteId).executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    });
  }
}
