// Site collections and webs on SQL. Both are read on every request (the URL names the site),
// so both are cached; a new site drops the URL look-ups (a miss may have been cached).

import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Site, Web } from '../../domain/model.ts';
import type { NewSite, NewWeb, SiteRepository, WebPatch } from '../sites.ts';
import { binaryCollation } from './flavour.ts';
import { rowToSite, rowToWeb, urlKey } from './rows.ts';
import type { SqlSession } from './session.ts';

export class SqlSites implements SiteRepository {
  constructor(private readonly s: SqlSession) {}

  create(input: NewSite): Promise<{ site: Site; web: Web }> {
    return this.s.metadataWrite([['sites']], async ({ db }) => {
      // (A new site has no webs cached: `websOf` of an unknown site is never asked.)
      const site: Site = { id: randomUUID(), url: input.url, title: input.title, rootWebId: randomUUID(), created: input.now };
      await db.insertInto('sites').values({
        id: site.id, url: site.url, url_key: urlKey(site.url), title: site.title, root_web_id: site.rootWebId, created: site.created,
      }).execute();
      const web: Web = {
        id: site.rootWebId, siteId: site.id, parentId: null, serverRelativeUrl: site.url, title: input.title,
        description: input.description, created: input.now, lastItemModified: input.now, webTemplate: 'STS', language: 1033, siteLogoUrl: null, properties: {},
      };
      await db.insertInto('webs').values({
        id: web.id, site_id: web.siteId, parent_id: null, server_relative_url: web.serverRelativeUrl, url_key: urlKey(web.serverRelativeUrl),
        title: web.title, description: web.description, created: web.created, last_item_modified: web.lastItemModified,
        web_template: web.webTemplate, language: web.language,
      }).execute();
      return { site, web };
    });
  }

  async all(): Promise<Site[]> {
    const rows = await this.s.db.selectFrom('sites').selectAll().orderBy(sql`url_key${sql.raw(binaryCollation(this.s.flavour))}`).execute();
    return rows.map(rowToSite);
  }

  byUrl(url: string): Promise<Site | undefined> {
    const key = urlKey(url);
    return this.s.cached('sites', key, async () => {
      const row = await this.s.db.selectFrom('sites').selectAll().where('url_key', '=', key).executeTakeFirst();
      return row ? rowToSite(row) : undefined;
    });
  }

  web(id: string): Promise<Web | undefined> {
    return this.s.cached('webs', id, async () => {
      const row = await this.s.db.selectFrom('webs').selectAll().where('id', '=', id).executeTakeFirst();
      return row ? rowToWeb(row) : undefined;
    });
  }

  websOf(siteId: string): Promise<Web[]> {
    return this.s.cached('siteWebs', siteId, async () => {
      const rows = await this.s.db.selectFrom('webs').selectAll().where('site_id', '=', siteId)
        .orderBy(sql`url_key${sql.raw(binaryCollation(this.s.flavour))}`).execute();
      return rows.map(rowToWeb);
    });
  }

  createWeb(input: NewWeb): Promise<Web> {
    return this.s.metadataWrite([['siteWebs', input.siteId]], async ({ db }) => {
      const web: Web = {
        id: randomUUID(), siteId: input.siteId, parentId: input.parentId, serverRelativeUrl: input.serverRelativeUrl, title: input.title,
        description: input.description, created: input.now, lastItemModified: input.now, webTemplate: input.webTemplate, language: input.language, siteLogoUrl: null, properties: {},
      };
      await db.insertInto('webs').values({
        id: web.id, site_id: web.siteId, parent_id: web.parentId, server_relative_url: web.serverRelativeUrl, url_key: urlKey(web.serverRelativeUrl),
        title: web.title, description: web.description, created: web.created, last_item_modified: web.lastItemModified,
        web_template: web.webTemplate, language: web.language,
      }).execute();
      return web;
    });
  }

  updateWeb(web: Web, patch: WebPatch): Promise<Web> {
    const set: Record<string, unknown> = {};
    if (patch.title !== undefined) set.title = patch.title;
    if (patch.description !== undefined) set.description = patch.description;
    if (patch.siteLogoUrl !== undefined) set.site_logo_url = patch.siteLogoUrl;
    return this.s.metadataWrite([['webs', web.id], ['siteWebs', web.siteId]], async ({ db }) => {
      if (patch.properties !== undefined) {
        // Merged with what is stored inside the write, so two callers' keys never undo each other.
        const stored = await db.selectFrom('webs').select('properties').where('id', '=', web.id).executeTakeFirst();
        const merged: Record<string, string> = stored?.properties ? JSON.parse(stored.properties) : {};
        for (const [key, value] of Object.entries(patch.properties)) {
          if (value === null) delete merged[key]; else merged[key] = value;
        }
        set.properties = Object.keys(merged).length > 0 ? JSON.stringify(merged) : null;
      }
      if (Object.keys(set).length > 0) await db.updateTable('webs').set(set).where('id', '=', web.id).execute();
      const row = await db.selectFrom('webs').selectAll().where('id', '=', web.id).executeTakeFirstOrThrow();
      return rowToWeb(row);
    });
  }

  async deleteWeb(web: Web): Promise<void> {
    await this.s.metadataWrite([['webs', web.id], ['siteWebs', web.siteId], ['lists', web.id], ['siteColumns', web.id], ['roleAssignments', web.siteId]], async ({ db }) => {
      await db.deleteFrom('content_types').where('scope', '=', `web:${web.id}`).execute();
      await db.deleteFrom('navigation_nodes').where('web_id', '=', web.id).execute();
      await db.deleteFrom('feature_states').where('holder', '=', `web:${web.id}`).execute();
      await db.deleteFrom('user_custom_actions').where('holder', '=', `web:${web.id}`).execute();
      await db.deleteFrom('role_assignments').where('site_id', '=', web.siteId).where('scope', '=', `web:${web.id}`).execute();
      await db.deleteFrom('unique_scopes').where('site_id', '=', web.siteId).where('scope', '=', `web:${web.id}`).execute();
      await db.deleteFrom('webs').where('id', '=', web.id).execute();
    });
  }
}
