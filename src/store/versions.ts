// Items' past versions (SP.ListItemVersion). They are written by ItemRepository.update in
// the same unit of work as the update that supersedes them; this repository reads and
// deletes them.

import type { Item, List } from '../domain/model.ts';

export interface VersionRepository {
  /**
   * An item's past versions, newest first: the item as it was before each update that moved
   * it to a new version. The current version is the item itself.
   */
  of(list: List, id: number): Promise<Item[]>;
  /** Deletes one past version; false if there is none with that VersionId (512 × major + minor). */
  delete(list: List, id: number, versionId: number): Promise<boolean>;
}
