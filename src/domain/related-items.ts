// Related items (SP.RelatedItemManager): links from a list item to other items or documents.
// SharePoint keeps an item's links in its own hidden `RelatedItems` field, as JSON text:
// `[{"ItemId":3,"WebId":"…","ListId":"…"}]`. Tasks lists (template 107) are born with that
// field; a list without it holds no links. Reading the text is lenient (a value a client wrote
// by hand that does not parse holds no links), writing it is exact.

import type { NewField, StoredValue } from './model.ts';

export const TASKS_TEMPLATE = 107;
export const RELATED_ITEMS_FIELD = 'RelatedItems';
/** SharePoint's well-known id of the field (SPBuiltInFieldId.RelatedItems). */
export const RELATED_ITEMS_FIELD_ID = 'd2a04afc-9a05-48c8-a7fa-fa98f9496141';
/** How many links GetPageOneRelatedItems answers (INFERRED, docs/compatibility.md). */
export const RELATED_ITEMS_PAGE_ONE = 4;

/** One link: the item it points at, by its web's and list's ids (lower-case, no braces). */
export interface RelatedLink {
  itemId: number;
  webId: string;
  listId: string;
}

/** The field Tasks lists are born with: hidden multi-line text holding the links' JSON. */
export function relatedItemsField(): NewField {
  return {
    internalName: RELATED_ITEMS_FIELD, title: 'Related Items', kind: 'Note', id: RELATED_ITEMS_FIELD_ID,
    required: false, indexed: false, hidden: true, options: {},
  };
}

const bareGuid = (text: string): string => text.trim().replace(/^\{(.*)\}$/, '$1').toLowerCase();

/** The links a field value holds, in order; a value that is not the JSON array SharePoint writes holds none. */
export function parseLinks(value: StoredValue | undefined): RelatedLink[] {
  if (typeof value !== 'string' || !value.trim()) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  const links: RelatedLink[] = [];
  for (const entry of parsed) {
    const e = entry as { ItemId?: unknown; WebId?: unknown; ListId?: unknown } | null;
    if (!e || typeof e !== 'object') continue;
    const itemId = typeof e.ItemId === 'string' ? Number(e.ItemId) : e.ItemId;
    if (typeof itemId !== 'number' || !Number.isSafeInteger(itemId) || itemId <= 0) continue;
    if (typeof e.WebId !== 'string' || typeof e.ListId !== 'string') continue;
    links.push({ itemId, webId: bareGuid(e.WebId), listId: bareGuid(e.ListId) });
  }
  return links;
}

/** The field value for `links`: SharePoint's JSON array, or null when there are none. */
export function formatLinks(links: readonly RelatedLink[]): string | null {
  if (links.length === 0) return null;
  return JSON.stringify(links.map((l) => ({ ItemId: l.itemId, WebId: l.webId, ListId: l.listId })));
}

export const sameLink = (a: RelatedLink, b: RelatedLink): boolean =>
  a.itemId === b.itemId && a.listId === bareGuid(b.listId) && a.webId === bareGuid(b.webId);

/** `links` with `link` added at the end; a link that is there already is not added twice. */
export const withLink = (links: readonly RelatedLink[], link: RelatedLink): RelatedLink[] =>
  links.some((l) => sameLink(l, link)) ? [...links] : [...links, { ...link, webId: bareGuid(link.webId), listId: bareGuid(link.listId) }];

/** `links` without `link` (a link that is not there: unchanged). */
export const withoutLink = (links: readonly RelatedLink[], link: RelatedLink): RelatedLink[] =>
  links.filter((l) => !sameLink(l, link));
