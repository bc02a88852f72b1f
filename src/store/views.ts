// List views.

import type { List } from '../domain/model.ts';
import type { NewView, View, ViewPatch } from '../domain/views.ts';

export interface ViewRepository {
  /** A list's views: the default first, then in the order they were made. */
  of(list: List): Promise<View[]>;
  /** Adds a view; one marked default takes that mark from the list's other views. */
  create(list: List, view: NewView): Promise<View>;
  /** Changes a view; made default, it takes that mark from the others. Undefined if it is gone. */
  update(list: List, id: string, patch: ViewPatch): Promise<View | undefined>;
  /** False if there was none. */
  delete(list: List, id: string): Promise<boolean>;
}
