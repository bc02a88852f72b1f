// Site scripts (SiteScriptUtility): tenant-wide, so only a SharePoint administrator
// (identity/tenant-admins.ts) creates, changes or deletes one; anyone signed in to a site reads
// them. The JSON is checked as SharePoint checks it at upload (domain/site-scripts.ts) and kept
// as the text it came as. A new script is version 0 until an update names another.

import { randomUUID } from 'node:crypto';
import type { Principal } from '../domain/model.ts';
import { fail } from '../domain/errors.ts';
import { checkSiteScript } from '../domain/site-scripts.ts';
import { requireSharePointAdmin } from '../identity/tenant-admins.ts';
import type { SiteScript, SiteScriptPatch } from '../store/site-scripts.ts';
import type { Store } from '../store/store.ts';
import type { Actor } from './actor.ts';

export interface SiteScriptChanges {
  title?: string | undefined;
  description?: string | undefined;
  content?: string | undefined;
  version?: number | undefined;
}

export class SiteScriptService {
  constructor(private readonly store: Store, private readonly actor: Actor) {}

  async create(caller: Principal, title: string, description: string | null, content: string): Promise<SiteScript> {
    await requireSharePointAdmin(this.store, caller);
    checkSiteScript(content);
    const now = this.actor.now();
    const script: SiteScript = { id: randomUUID(), title, description, content, version: 0, created: now, modified: now };
    await this.store.siteScripts.add(script);
    return script;
  }

  async update(caller: Principal, id: string, changes: SiteScriptChanges): Promise<SiteScript> {
    await requireSharePointAdmin(this.store, caller);
    if (changes.content !== undefined) checkSiteScript(changes.content);
    // What the update names; the rest stays (SharePoint's updateInfo: every property but Id optional).
    const patch: SiteScriptPatch = { modified: this.actor.now() };
    if (changes.title !== undefined) patch.title = changes.title;
    if (changes.description !== undefined) patch.description = changes.description;
    if (changes.content !== undefined) patch.content = changes.content;
    if (changes.version !== undefined) patch.version = changes.version;
    const updated = await this.store.siteScripts.update(id, patch);
    if (!updated) throw fail.siteScriptNotFound();
    return updated;
  }

  async delete(caller: Principal, id: string): Promise<void> {
    await requireSharePointAdmin(this.store, caller);
    if (!(await this.store.siteScripts.delete(id))) throw fail.siteScriptNotFound();
  }
}
