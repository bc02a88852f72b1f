// An item's past versions: any can be deleted but the current one, which is the item itself
// (deleting that is deleting the item).

import { fail } from '../domain/errors.ts';
import type { List } from '../domain/model.ts';
import type { Store } from '../store/store.ts';

export class VersionService {
  constructor(private readonly store: Store) {}

  async delete(list: List, id: number, uiVersion: number): Promise<void> {
    const fields = await this.store.fields.of(list);
    const current = await this.store.items.get(list, fields, id);
    if (!current) throw fail.itemNotFound();
    if (uiVersion === current.uiVersion) throw fail.currentVersionDelete();
    if (!(await this.store.versions.delete(list, id, uiVersion))) throw fail.versionNotFound();
  }
}
