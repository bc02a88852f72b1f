// Past versions on SQL: one row per item and version, keyed by its VersionId (512 × major +
// minor; the `ui_version` column), in the snapshot format
// (snapshots.ts). `keep` is called by the item repository inside the update's own unit of
// work, so a version exists exactly when the update that superseded it committed. A past
// version of a file holds a reference to the content it had (blobs.ts): dropping the version
// releases it.

import type { Item, List } from '../../domain/model.ts';
import { MAJOR_VERSION_LIMIT, VERSION_ID_STEP, versionIdOf } from '../../domain/versions.ts';
import type { VersionRepository } from '../versions.ts';
import { decodeItemSnapshot, encodeItemSnapshot } from './snapshots.ts';
import type { SqlSession } from './session.ts';
import { SqlBlobs } from './blobs.ts';

export class SqlVersions implements VersionRepository {
  constructor(private readonly s: SqlSession) {}

  async of(list: List, id: number): Promise<Item[]> {
    if (!Number.isSafeInteger(id)) return [];
    const rows = await this.s.db.selectFrom('item_versions').select('data')
      .where('list_row_id', '=', list.rowId).where('item_id', '=', id).orderBy('ui_version', 'desc').execute();
    return rows.map((r) => decodeItemSnapshot(String(r.data)));
  }

  async delete(list: List, id: number, versionId: number): Promise<boolean> {
    if (!Number.isSafeInteger(id) || !Number.isSafeInteger(versionId)) return false;
    return this.s.transaction(async (s) => {
      const dropped = await s.db.deleteFrom('item_versions')
        .where('list_row_id', '=', list.rowId).where('item_id', '=', id).where('ui_version', '=', versionId).returning('data').execute();
      await new SqlVersions(s).release(dropped);
      return dropped.length > 0;
    });
  }

  /** Stores `before` as a past version and drops what falls beyond the list's version limit. Inside a unit of work only. */
  async keep(list: List, before: Item): Promise<void> {
    const data = encodeItemSnapshot(before);
    const key = versionIdOf(before);
    // A version stored again under the same number (the current one deleted and re-made) gives up what it held.
    await this.release(await this.s.db.selectFrom('item_versions').select('data')
      .where('list_row_id', '=', list.rowId).where('item_id', '=', before.id).where('ui_version', '=', key).execute());
    await this.s.db.insertInto('item_versions')
      .values({ list_row_id: list.rowId, item_id: before.id, ui_version: key, data })
      .onConflict((oc) => oc.columns(['list_row_id', 'item_id', 'ui_version']).doUpdateSet({ data }))
      .execute();
    // The current version (at most the next major) counts towards the limit: what is of a major
    // number `MAJOR_VERSION_LIMIT` or more below it goes, with its drafts.
    await this.release(await this.s.db.deleteFrom('item_versions').where('list_row_id', '=', list.rowId).where('item_id', '=', before.id)
      .where('ui_version', '<', (before.uiVersion + 2 - MAJOR_VERSION_LIMIT) * VERSION_ID_STEP).returning('data').execute());
  }

  /** Drops all of an item's past versions (the item is deleted). Inside a unit of work only. */
  async dropAll(list: List, id: number): Promise<void> {
    await this.release(await this.s.db.deleteFrom('item_versions').where('list_row_id', '=', list.rowId).where('item_id', '=', id)
      .returning('data').execute());
  }

  /** Drops every past version of a list's items (the list is deleted). Inside a unit of work only. */
  async dropList(list: List): Promise<void> {
    await this.release(await this.s.db.deleteFrom('item_versions').where('list_row_id', '=', list.rowId).returning('data').execute());
  }

  /** The content references of dropped versions of files, released. */
  private async release(rows: Array<{ data: unknown }>): Promise<void> {
    const blobs = new SqlBlobs(this.s, this.s.options.bytes);
    for (const row of rows) {
      const file = decodeItemSnapshot(String(row.data)).file;
      if (file) await blobs.release(file.blobId);
    }
  }
}
