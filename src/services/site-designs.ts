// Site designs (SiteScriptUtility): tenant-wide, so only a SharePoint administrator
// (identity/tenant-admins.ts) creates, changes, deletes one or grants who sees it. A design with
// no rights granted is seen by everyone; once granted, by the principals granted (and the
// administrators). Applying one runs its site scripts' actions against a web
// (site-script-actions.ts) and records the run with each action's outcome.

import { randomUUID } from 'node:crypto';
import { fail } from '../domain/errors.ts';
import type { Principal, Site, Web } from '../domain/model.ts';
import { isSharePointAdmin, requireSharePointAdmin } from '../identity/tenant-admins.ts';
import type { ActionOutcome, SiteDesign, SiteDesignPatch, SiteDesignPrincipal, SiteDesignRun } from '../store/site-designs.ts';
import type { Store, StoreReader } from '../store/store.ts';
import type { Actor } from './actor.ts';
import { SiteScriptActionRunner, type ActionResult, type FieldXmlReader } from './site-script-actions.ts';

export const EMPTY_GUID = '00000000-0000-0000-0000-000000000000';
/** SiteDesignPrincipal's one right: View. */
export const VIEW_RIGHT = 1;

export type SiteDesignInput = Omit<SiteDesign, 'id' | 'created' | 'modified' | 'version'> & { version?: number | undefined };
export type SiteDesignChanges = Partial<Omit<SiteDesign, 'id' | 'created' | 'modified'>>;

const USER_CLAIM = 'i:0#.f|membership|';
const GROUP_CLAIM = 'c:0t.c|tenant|';

/** Whether the caller may see the design: no rights granted (everyone), an administrator, or granted (directly or through a group). */
export async function canSeeDesign(store: Pick<StoreReader, 'siteDesigns' | 'sites' | 'directory'>, caller: Principal, design: SiteDesign): Promise<boolean> {
  const rights = await store.siteDesigns.rights(design.id);
  if (rights.length === 0 || await isSharePointAdmin(store, caller)) return true;
  if (caller.upn === null) return false;
  const names = new Set([`${USER_CLAIM}${caller.upn.toLowerCase()}`, ...(await store.directory.groupsOf(caller.upn)).map((g) => `${GROUP_CLAIM}${g.id.toLowerCase()}`)]);
  return rights.some((r) => names.has(r.principalName));
}

/** One run's outcomes flattened: its action results with their script and position. */
export interface AppliedDesign { run: SiteDesignRun; results: ActionResult[] }

export class SiteDesignService {
  constructor(private readonly store: Store, private readonly actor: Actor) {}

  async create(caller: Principal, input: SiteDesignInput): Promise<SiteDesign> {
    await requireSharePointAdmin(this.store, caller);
    await this.checkScripts(input.siteScriptIds);
    const now = this.actor.now();
    const design: SiteDesign = { ...input, id: randomUUID(), version: input.version ?? 1, created: now, modified: now };
    await this.store.siteDesigns.add(design);
    return design;
  }

  async update(caller: Principal, id: string, changes: SiteDesignChanges): Promise<SiteDesign> {
    await requireSharePointAdmin(this.store, caller);
    if (changes.siteScriptIds !== undefined) await this.checkScripts(changes.siteScriptIds);
    const patch: SiteDesignPatch = { modified: this.actor.now() };
    for (const [key, value] of Object.entries(changes)) if (value !== undefined) (patch as Record<string, unknown>)[key] = value;
    const updated = await this.store.siteDesigns.update(id, patch);
    if (!updated) throw fail.siteDesignNotFound();
    return updated;
  }

  async delete(caller: Principal, id: string): Promise<void> {
    await requireSharePointAdmin(this.store, caller);
    if (!(await this.store.siteDesigns.delete(id))) throw fail.siteDesignNotFound();
  }

  /** Grants View to each principal (a UPN, an email, a user's alias, or a group's name or id); all found or nothing granted. */
  async grant(caller: Principal, id: string, names: string[]): Promise<void> {
    await requireSharePointAdmin(this.store, caller);
    if (!(await this.store.siteDesigns.get(id))) throw fail.siteDesignNotFound();
    const principals: SiteDesignPrincipal[] = [];
    for (const name of names) principals.push(await this.principal(name));
    await this.store.siteDesigns.grant(id, principals);
  }

  async revoke(caller: Principal, id: string, names: string[]): Promise<void> {
    await requireSharePointAdmin(this.store, caller);
    if (!(await this.store.siteDesigns.get(id))) throw fail.siteDesignNotFound();
    const principals: string[] = [];
    for (const name of names) principals.push((await this.principal(name)).principalName);
    await this.store.siteDesigns.revoke(id, principals);
  }

  /**
   * Runs the design's site scripts, in order, against `web` and records the run. The caller's
   * right to change the web is the front's to check; a design it may not see is not found.
   */
  async apply(caller: Principal, invokedBy: string, designId: string, site: Site, web: Web, fieldXml?: FieldXmlReader): Promise<AppliedDesign> {
    const design = await this.store.siteDesigns.get(designId);
    if (!design || !(await canSeeDesign(this.store, caller, design))) throw fail.siteDesignNotFound();
    const runner = new SiteScriptActionRunner(this.store, this.actor, site, web, caller, fieldXml);
    const started = Date.now();
    const results: ActionResult[] = [];
    const actions: ActionOutcome[] = [];
    for (const [scriptIndex, scriptId] of design.siteScriptIds.entries()) {
      // A script deleted since the design named it runs nothing (SharePoint's designs keep the id).
      const script = await this.store.siteScripts.get(scriptId);
      if (!script) continue;
      const scriptActions = (JSON.parse(script.content.replace(/^\uFEFF/, '')) as { actions: Array<Record<string, unknown>> }).actions;
      let actionIndex = 0;
      for (const action of scriptActions) {
        for (const result of await runner.run(action)) {
          results.push(result);
          actions.push({
            siteScriptId: script.id, siteScriptTitle: script.title, siteScriptIndex: scriptIndex, actionIndex: actionIndex++,
            title: result.title, outcome: result.outcome, outcomeText: result.outcomeText, lastModified: String(Date.now()),
          });
        }
      }
    }
    const run: SiteDesignRun = {
      id: randomUUID(), designId: design.id, designTitle: design.title, designVersion: design.version, siteId: site.id, webId: web.id,
      invokedBy, startTime: String(started), actions,
    };
    await this.store.siteDesigns.addRun(run);
    return { run, results };
  }

  /** ExecuteSiteScriptAction: one action (with its subactions) against the web; nothing recorded. */
  executeAction(caller: Principal, site: Site, web: Web, action: Record<string, unknown>, fieldXml?: FieldXmlReader): Promise<ActionResult[]> {
    return new SiteScriptActionRunner(this.store, this.actor, site, web, caller, fieldXml).run(action);
  }

  private async checkScripts(ids: string[]): Promise<void> {
    for (const id of ids) if (!(await this.store.siteScripts.get(id))) throw fail.siteScriptNotFound();
  }

  /** A principal name as GrantSiteDesignRights takes it: "alias" or "alias@domain", a user or a mail-enabled group. */
  private async principal(name: string): Promise<SiteDesignPrincipal> {
    const wanted = name.trim().replace(/^i:0#\.f\|membership\|/i, '');
    const user = wanted.includes('@') ? await this.store.directory.findUser(wanted)
      : (await this.store.directory.listUsers()).find((u) => u.upn.split('@')[0]!.toLowerCase() === wanted.toLowerCase());
    if (user) return { principalName: `${USER_CLAIM}${user.upn.toLowerCase()}`, displayName: user.displayName, rights: VIEW_RIGHT };
    const group = await this.store.directory.findGroup(wanted);
    if (group) return { principalName: `${GROUP_CLAIM}${group.id.toLowerCase()}`, displayName: group.displayName, rights: VIEW_RIGHT };
    throw fail.siteDesignPrincipalNotFound(name);
  }
}
