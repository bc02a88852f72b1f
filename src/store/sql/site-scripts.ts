// Site scripts on SQL. Read by their own calls only, so not cached: every instance sharing the
// database sees a write at once.

import { sql } from 'kysely';
import type { SiteScript, SiteScriptPatch, SiteScriptRepository } from '../site-scripts.ts';
import type { SqlSession } from './session.ts';

const COLUMNS = ['id', 'title', 'description', 'content', 'version', 'created', 'modified'] as const;

function fromRow(r: Record<string, unknown>): SiteScript {
  return {
    id: String(r.id), title: String(r.title), description: r.description === null ? null : String(r.description),
    content: String(r.content), version: Number(r.version), created: String(r.created), modified: String(r.modified),
  };
}

export class SqlSiteScripts implements SiteScriptRepository {
  constructor(private readonly s: SqlSession) {}

  async all(): Promise<SiteScript[]> {
    const rows = await this.s.db.selectFrom('site_scripts').select([...COLUMNS]).orderBy('position').orderBy('id').execute();
    return rows.map(fromRow);
  }

  async get(id: string): Promise<SiteScript | undefined> {
    const row = await this.s.db.selectFrom('site_scripts').select([...COLUMNS]).where('id', '=', id).executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  async add(script: SiteScript): Promise<void> {
    await this.s.db.insertInto('site_scripts').values({
      ...script,
      position: sql`(select coalesce(max(position), -1) + 1 from site_scripts)`,
    }).execute();
  }

  update(id: string, patch: SiteScriptPatch): Promise<SiteScript | undefined> {
    return this.s.transaction(async (s) => {
      const result = await s.db.updateTable('site_scripts').set({ ...patch }).where('id', '=', id).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return undefined;
      const row = await s.db.selectFrom('site_scripts').select([...COLUMNS]).where('id', '=', id).executeTakeFirstOrThrow();
      return fromRow(row);
    });
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.s.db.deleteFrom('site_scripts').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
