// An item's past versions: any can be deleted but the current one, which is the item itself
// (deleting that is deleting the item).

import { fail } from '../domain/errors.ts';
import type { List } from '../domain/model.ts';
import { versionIdOf } from '../domain/versions.ts';
import type { Store } from '../store/store.ts';

export class VersionService {
  constructor(private readonly store: Store) {}

  /** Deletes the past version `versionId` (512 × major + minor) of the item; never the current one. */
  async delete(list: List, id: number, versionId: number): Promise<void> {
    const fields = await this.store.fields.of(list);
    const current = await this.store.items.get(list, fields, id);
    if (!current) throw fail.itemNotFound();
    if (versionId === versionIdOf(current)) throw fail.currentVersionDelete();
    if (!(await this.store.versions.delete(list, id, versionId))) throw fail.versionNotFound();
  }
}
