// Sharing links on SQL: read only by the sharing endpoints and a link's own URL, so not cached.

import type { SharingLinkRepository, SharingLinkRow } from '../sharing-links.ts';
import type { SqlSession } from './session.ts';

const COLUMNS = ['share_id', 'site_id', 'scope', 'kind', 'token', 'expiration', 'created', 'created_by', 'modified', 'modified_by'] as const;

function rowToLink(r: Record<string, unknown>): SharingLinkRow {
  return {
    shareId: String(r.share_id), siteId: String(r.site_id), scope: String(r.scope), kind: Number(r.kind), token: String(r.token),
    expiration: r.expiration == null ? null : String(r.expiration), created: String(r.created), createdBy: Number(r.created_by),
    modified: String(r.modified), modifiedBy: Number(r.modified_by),
  };
}

export class SqlSharingLinks implements SharingLinkRepository {
  constructor(private readonly s: SqlSession) {}

  async of(siteId: string, scope: string): Promise<SharingLinkRow[]> {
    const rows = await this.s.db.selectFrom('sharing_links').select([...COLUMNS]).where('site_id', '=', siteId).where('scope', '=', scope).orderBy('kind').execute();
    return rows.map(rowToLink);
  }

  async byToken(token: string): Promise<SharingLinkRow | undefined> {
    const row = await this.s.db.selectFrom('sharing_links').select([...COLUMNS]).where('token', '=', token).executeTakeFirst();
    return row ? rowToLink(row) : undefined;
  }

  async put(link: SharingLinkRow): Promise<void> {
    // One statement, so two requests making the same kind of link at once keep one (the first's ShareId and token).
    await this.s.write([], ({ db }) => db.insertInto('sharing_links').values({
      share_id: link.shareId, site_id: link.siteId, scope: link.scope, kind: link.kind, token: link.token, expiration: link.expiration,
      created: link.created, created_by: link.createdBy, modified: link.modified, modified_by: link.modifiedBy,
    }).onConflict((oc) => oc.columns(['site_id', 'scope', 'kind'])
      .doUpdateSet({ expiration: link.expiration, modified: link.modified, modified_by: link.modifiedBy })).execute());
  }

  remove(siteId: string, scope: string, kind: number, shareId?: string): Promise<number> {
    return this.s.write([], async ({ db }) => {
      let q = db.deleteFrom('sharing_links').where('site_id', '=', siteId).where('scope', '=', scope).where('kind', '=', kind);
      if (shareId !== undefined) q = q.where('share_id', '=', shareId);
      return Number((await q.executeTakeFirst()).numDeletedRows);
    });
  }

  async removeAll(siteId: string, scope: string): Promise<void> {
    await this.s.write([], ({ db }) => db.deleteFrom('sharing_links').where('site_id', '=', siteId).where('scope', '=', scope).execute());
  }
}
