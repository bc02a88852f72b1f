// Site collections and webs on SQL. Both are read on every request (the URL names the site),
// so both are cached; a new site drops the URL look-ups (a miss may have been cached).

import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Site, Web } from '../../domain/model.ts';
import type { NewSite, SiteRepository } from '../sites.ts';
import { binaryCollation } from './flavour.ts';
import { rowToSite, rowToWeb, urlKey } from './rows.ts';
import type { SqlSession } from './session.ts';

export class SqlSites implements SiteRepository {
  constructor(private readonly s: SqlSession) {}

  create(input: NewSite): Promise<{ site: Site; web: Web }> {
    return this.s.metadataWrite([['sites']], async ({ db }) => {
      const site: Site = { id: randomUUID(), url: input.url, title: input.title, rootWebId: randomUUID(), created: input.now };
      await db.insertInto('sites').values({
        id: site.id, url: site.url, url_key: urlKey(site.url), title: site.title, root_web_id: site.rootWebId, created: site.created,
      }).execute();
      const web: Web = {
        id: site.rootWebId, siteId: site.id, parentId: null, serverRelativeUrl: site.url, title: input.title,
        description: input.description, created: input.now, lastItemModified: input.now, webTemplate: 'STS', language: 1033,
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
}
