// Related items: adding and removing a link on an item (SP.RelatedItemManager's AddSingleLink*,
// DeleteSingleLink). A link lives in the source item's hidden `RelatedItems` field
// (domain/related-items.ts), so it needs that field: a list without one is refused with
// SharePoint's ArgumentException (INFERRED, docs/compatibility.md) — except a Tasks list made
// before spemu gave Tasks lists the field, which gets it now, as SharePoint's always has it.
//
// A link changes only that field, in place: no new version, Modified and Modified By kept
// (owshiddenversion moves, so an etag read before no longer matches). The read and the write
// are one compare-and-set on the item's version, retried when another write came between,
// so two links added at once both stay.

import { fail } from '../domain/errors.ts';
import type { Field, List } from '../domain/model.ts';
import {
  formatLinks, parseLinks, RELATED_ITEMS_FIELD, relatedItemsField, TASKS_TEMPLATE, withLink, withoutLink, type RelatedLink,
} from '../domain/related-items.ts';
import type { Store } from '../store/store.ts';
import type { Actor } from './actor.ts';

/** Writes racing on one item: after this many lost compare-and-sets the last one's failure stands. */
const ATTEMPTS = 8;

export class RelatedItemService {
  constructor(private readonly store: Store, private readonly actor: Actor) {}

  /** Adds a link from item `id` of `list` to `target` (kept once however often it is added). */
  link(list: List, id: number, target: RelatedLink): Promise<void> {
    return this.change(list, id, (links) => withLink(links, target));
  }

  /** Removes the link from item `id` of `list` to `target`; one that is not there is no error. */
  unlink(list: List, id: number, target: RelatedLink): Promise<void> {
    return this.change(list, id, (links) => withoutLink(links, target));
  }

  /** Whether items of `list` can hold links (a Tasks list always can: it gets the field when it first needs it). */
  async canHoldLinks(list: List): Promise<boolean> {
    return list.baseTemplate === TASKS_TEMPLATE || (await this.store.fields.of(list)).some((f) => f.internalName === RELATED_ITEMS_FIELD);
  }

  private async change(list: List, id: number, edit: (links: RelatedLink[]) => RelatedLink[]): Promise<void> {
    const fields = await this.fieldsWithLinks(list);
    for (let attempt = 1; ; attempt++) {
      const item = await this.store.items.get(list, fields, id);
      if (!item) throw fail.itemNotFound();
      const before = parseLinks(item.values[RELATED_ITEMS_FIELD]);
      const after = edit(before);
      if (formatLinks(after) === formatLinks(before)) return;
      const write = {
        values: { [RELATED_ITEMS_FIELD]: formatLinks(after) },
        // In place, as the item's last editor at its last Modified: only the links change.
        actorId: item.editorId, modified: item.modified, now: this.actor.now(), inPlace: true,
      };
      const result = await this.store.items.update(list, fields, id, write, item.version);
      if (result === undefined) throw fail.itemNotFound();
      if (result !== 'conflict') return;
      if (attempt >= ATTEMPTS) throw fail.etagMismatch(`"${item.version}"`, `"${item.version + 1}"`);
    }
  }

  /** The list's fields, with `RelatedItems` among them; refused where the list cannot hold links. */
  private async fieldsWithLinks(list: List): Promise<Field[]> {
    const fields = await this.store.fields.of(list);
    if (fields.some((f) => f.internalName === RELATED_ITEMS_FIELD)) return fields;
    if (list.baseTemplate !== TASKS_TEMPLATE) throw fail.badArgument('Value does not fall within the expected range.');
    await this.store.transaction(async (tx) => {
      if (!(await tx.fields.of(list)).some((f) => f.internalName === RELATED_ITEMS_FIELD)) await tx.fields.add(list, relatedItemsField());
    });
    return this.store.fields.of(list);
  }
}
