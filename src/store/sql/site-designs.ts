// Site designs on SQL. Read by their own calls only, so not cached: every instance sharing the
// database sees a write at once.

import { sql } from 'kysely';
import type { ActionOutcome, SiteDesign, SiteDesignPatch, SiteDesignPrincipal, SiteDesignRepository, SiteDesignRun } from '../site-designs.ts';
import type { SqlSession } from './session.ts';

const COLUMNS = ['id', 'title', 'web_template', 'site_script_ids', 'description', 'preview_image_url', 'preview_image_alt_text',
  'thumbnail_url', 'is_default', 'design_package_id', 'version', 'created', 'modified'] as const;
const RUN_COLUMNS = ['id', 'design_id', 'design_title', 'design_version', 'site_id', 'web_id', 'invoked_by', 'start_time', 'actions'] as const;

const text = (v: unknown): string | null => (v === null || v === undefined ? null : String(v));

function fromRow(r: Record<string, unknown>): SiteDesign {
  return {
    id: String(r.id), title: String(r.title), webTemplate: String(r.web_template), siteScriptIds: JSON.parse(String(r.site_script_ids)) as string[],
    description: text(r.description), previewImageUrl: text(r.preview_image_url), previewImageAltText: text(r.preview_image_alt_text),
    thumbnailUrl: text(r.thumbnail_url), isDefault: Number(r.is_default) === 1, designPackageId: String(r.design_package_id),
    version: Number(r.version), created: String(r.created), modified: String(r.modified),
  };
}

function toRow(d: Partial<SiteDesign>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  if (d.title !== undefined) row.title = d.title;
  if (d.webTemplate !== undefined) row.web_template = d.webTemplate;
  if (d.siteScriptIds !== undefined) row.site_script_ids = JSON.stringify(d.siteScriptIds);
  if (d.description !== undefined) row.description = d.description;
  if (d.previewImageUrl !== undefined) row.preview_image_url = d.previewImageUrl;
  if (d.previewImageAltText !== undefined) row.preview_image_alt_text = d.previewImageAltText;
  if (d.thumbnailUrl !== undefined) row.thumbnail_url = d.thumbnailUrl;
  if (d.isDefault !== undefined) row.is_default = d.isDefault ? 1 : 0;
  if (d.designPackageId !== undefined) row.design_package_id = d.designPackageId;
  if (d.version !== undefined) row.version = d.version;
  if (d.created !== undefined) row.created = d.created;
  if (d.modified !== undefined) row.modified = d.modified;
  return row;
}

function runFromRow(r: Record<string, unknown>): SiteDesignRun {
  return {
    id: String(r.id), designId: String(r.design_id), designTitle: String(r.design_title), designVersion: Number(r.design_version),
    siteId: String(r.site_id), webId: String(r.web_id), invokedBy: String(r.invoked_by), startTime: String(r.start_time),
    actions: JSON.parse(String(r.actions)) as ActionOutcome[],
  };
}

export class SqlSiteDesigns implements SiteDesignRepository {
  constructor(private readonly s: SqlSession) {}

  async all(): Promise<SiteDesign[]> {
    return (await this.s.db.selectFrom('site_designs').select([...COLUMNS]).orderBy('position').orderBy('id').execute()).map(fromRow);
  }

  async get(id: string): Promise<SiteDesign | undefined> {
    const row = await this.s.db.selectFrom('site_designs').select([...COLUMNS]).where('id', '=', id).executeTakeFirst();
    return row ? fromRow(row) : undefined;
  }

  async add(design: SiteDesign): Promise<void> {
    await this.s.db.insertInto('site_designs').values({
      id: design.id, ...toRow(design), position: sql`(select coalesce(max(position), -1) + 1 from site_designs)`,
    }).execute();
  }

  update(id: string, patch: SiteDesignPatch): Promise<SiteDesign | undefined> {
    return this.s.transaction(async (s) => {
      const result = await s.db.updateTable('site_designs').set(toRow(patch)).where('id', '=', id).executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) return undefined;
      return fromRow(await s.db.selectFrom('site_designs').select([...COLUMNS]).where('id', '=', id).executeTakeFirstOrThrow());
    });
  }

  delete(id: string): Promise<boolean> {
    return this.s.transaction(async (s) => {
      await s.db.deleteFrom('site_design_rights').where('design_id', '=', id).execute();
      return Number((await s.db.deleteFrom('site_designs').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0;
    });
  }

  async rights(id: string): Promise<SiteDesignPrincipal[]> {
    const rows = await this.s.db.selectFrom('site_design_rights').select(['principal_name', 'display_name', 'rights'])
      .where('design_id', '=', id).orderBy('principal_name').execute();
    return rows.map((r) => ({ principalName: String(r.principal_name), displayName: String(r.display_name), rights: Number(r.rights) }));
  }

  grant(id: string, principals: SiteDesignPrincipal[]): Promise<void> {
    return this.s.transaction(async (s) => {
      for (const p of principals) {
        await s.db.insertInto('site_design_rights').values({ design_id: id, principal_name: p.principalName, display_name: p.displayName, rights: p.rights })
          .onConflict((oc) => oc.columns(['design_id', 'principal_name']).doUpdateSet({ display_name: p.displayName, rights: p.rights })).execute();
      }
    });
  }

  revoke(id: string, principalNames: string[]): Promise<void> {
    return this.s.transaction(async (s) => {
      for (const name of principalNames) await s.db.deleteFrom('site_design_rights').where('design_id', '=', id).where('principal_name', '=', name).execute();
    });
  }

  async addRun(run: SiteDesignRun): Promise<void> {
    await this.s.db.insertInto('site_design_runs').values({
      id: run.id, design_id: run.designId, design_title: run.designTitle, design_version: run.designVersion, site_id: run.siteId,
      web_id: run.webId, invoked_by: run.invokedBy, start_time: run.startTime, actions: JSON.stringify(run.actions),
      position: sql`(select coalesce(max(position), -1) + 1 from site_design_runs)`,
    }).execute();
  }

  async runs(webId: string, designId?: string): Promise<SiteDesignRun[]> {
    let query = this.s.db.selectFrom('site_design_runs').select([...RUN_COLUMNS]).where('web_id', '=', webId);
    if (designId !== undefined) query = query.where('design_id', '=', designId);
    return (await query.orderBy('position', 'desc').execute()).map(runFromRow);
  }

  async run(id: string): Promise<SiteDesignRun | undefined> {
    const row = await this.s.db.selectFrom('site_design_runs').select([...RUN_COLUMNS]).where('id', '=', id).executeTakeFirst();
    return row ? runFromRow(row) : undefined;
  }
}
