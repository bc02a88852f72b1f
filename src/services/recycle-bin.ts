// The recycle bin's writes: restoring entries, moving them to the second stage, deleting them
// for good. Which entries a caller may touch (their own, a manager's, a site collection
// administrator's) is the front's to decide before it asks; each call is one unit of work, so a
// restore of several entries that fails on one restores none.

import { fail } from '../domain/errors.ts';
import type { RecycleBinEntry } from '../store/recycle-bin.ts';
import type { Store } from '../store/store.ts';
import type { Actor } from './actor.ts';

export class RecycleBinService {
  constructor(private readonly store: Store, private readonly actor: Actor) {}

  async restore(entries: readonly RecycleBinEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.store.transaction(async (tx) => {
      for (const entry of entries) await tx.recycleBin.restore(entry, this.actor.userId, this.actor.now());
    });
  }

  /** To the second stage; an entry there already is refused (as SharePoint's InvalidOperationException). */
  async moveToSecondStage(siteId: string, entries: readonly RecycleBinEntry[]): Promise<void> {
    if (entries.some((e) => e.itemState !== 1)) throw fail.recycleBinItemNotFirstStage();
    await this.store.recycleBin.moveToSecondStage(siteId, entries.map((e) => e.id));
  }

  async purge(siteId: string, entries: readonly RecycleBinEntry[]): Promise<void> {
    await this.store.recycleBin.purge(siteId, entries.map((e) => e.id));
  }
}
