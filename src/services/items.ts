// List items: their rules. Required fields must have a value after every write; a write with
// an If-Match applies only to the version it names (checked by the store in the write's own
// statement, so two racing writers cannot both win); a gone item is `notFound`.

import { newContentModeration } from '../domain/moderation.ts';
import { fail } from '../domain/errors.ts';
import type { Field, Item, List, StoredValue } from '../domain/model.ts';
import type { Store } from '../store/store.ts';
import type { Actor } from './actor.ts';
import { expectedVersion, mismatch, type Conditions } from './conditions.ts';

export type ItemValues = Record<string, StoredValue>;

export class ItemService {
  constructor(private readonly store: Store, private readonly actor: Actor) {}

  async create(list: List, fields: Field[], values: ItemValues): Promise<Item> {
    checkRequired(fields, values, true);
    return this.store.items.create(list, fields, { values, actorId: this.actor.userId, now: this.actor.now() });
  }

  /** Applies `values`; the item as it was becomes a past version (with versioning on) in the same transaction. */
  async update(list: List, fields: Field[], id: number, values: ItemValues, conditions: Conditions): Promise<Item> {
    checkRequired(fields, values, false);
    // In a library with content approval a changed item waits for approval again, as new content does.
    const write = { values: { ...values, ...newContentModeration(list) }, actorId: this.actor.userId, now: this.actor.now() };
    const result = await this.store.items.update(list, fields, id, write, expectedVersion(conditions));
    if (result === undefined) throw fail.itemNotFound();
    if (result === 'conflict') throw await this.conflict(list, fields, id, conditions);
    return result;
  }

  async delete(list: List, fields: Field[], id: number, conditions: Conditions): Promise<void> {
    const result = await this.store.items.delete(list, fields, id, expectedVersion(conditions), this.actor.now());
    if (result === undefined) throw fail.itemNotFound();
    if (result === 'conflict') throw await this.conflict(list, fields, id, conditions);
  }

  /** Moves the item (with its past versions) to the recycle bin; the bin entry's id. */
  async recycle(list: List, fields: Field[], id: number): Promise<string> {
    const binId = await this.store.items.recycle(list, fields, id, this.actor.userId, this.actor.now());
    if (!binId) throw fail.itemNotFound();
    return binId;
  }

  /** A new item id no item added later gets (ReserveListItemId). */
  reserveId(list: List): Promise<number> {
    return this.store.items.reserveId(list);
  }

  /** The failure for a lost race or a stale If-Match, naming the version that is current now. */
  private async conflict(list: List, fields: Field[], id: number, conditions: Conditions): Promise<Error> {
    const current = await this.store.items.get(list, fields, id);
    return current ? mismatch(conditions, current.version) : fail.itemNotFound();
  }
}

/**
 * Required custom fields must have a value after the write: on create, present and not
 * empty; on update, not emptied. The built-in Title is not checked: SharePoint lets API
 * clients leave it empty (see docs/compatibility.md).
 */
export function checkRequired(fields: Field[], values: ItemValues, creating: boolean): void {
  for (const field of fields) {
    if (!field.required || field.builtIn) continue;
    const present = field.internalName in values;
    const v = values[field.internalName];
    const empty = v === null || v === '' || v === undefined;
    if ((creating && (!present || empty)) || (!creating && present && empty)) {
      throw fail.validationFailed(`List data validation failed. The field '${field.title}' is required.`);
    }
  }
}
