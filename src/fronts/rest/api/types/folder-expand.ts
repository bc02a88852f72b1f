// What a folder may `$expand`: its Folders and Files, each with its ListItemAllFields, and its own
// ListItemAllFields — the folder walk sppull makes in one request per folder
// (`$expand=Folders,Files,Folders/ListItemAllFields,Files/ListItemAllFields`).

import { viewableChildren } from '../item-visibility.ts';
import type { Item, List } from '../../../../domain/model.ts';
import type { Entity } from '../../../../wire/values.ts';
import type { ApiContext } from '../context.ts';
import type { Navigation } from '../expand.ts';
import { planItemProjection, renderItems } from '../item-projection.ts';
import { pathLink, pathOf, urlOf } from './documents-shared.ts';
import { fileEntity } from './files.ts';
import { subfolderEntity } from './folders.ts';

/** The item behind a file or folder in its default projection (what `…/ListItemAllFields` answers). */
async function itemEntity(list: List, item: Item, ctx: ApiContext): Promise<Entity> {
  const plain = { ...ctx, query: { ...ctx.query, select: undefined, selectText: undefined, expand: [] } };
  const [entity] = await renderItems(await planItemProjection(list, await ctx.store.fields.of(list), plain), [item], plain);
  return entity!;
}

/** `ListItemAllFields` of a file or folder that is an item; a list's root folder has none (null). */
const listItemOf = (list: List, url: string, item: Item | undefined, ctx: ApiContext): Navigation => ({
  link: `${url}/ListItemAllFields`,
  load: async () => (item ? itemEntity(list, item, ctx) : null),
});

/** The navigations a folder of `list` at `path` (its item, if it is no root folder) expands. */
export function folderNavigations(list: List, path: string, item: Item | undefined, ctx: ApiContext): Record<string, Navigation> {
  const link = pathLink('Folder', urlOf(list, path));
  const children = async (kind: 'folder' | 'file') =>
    viewableChildren((await ctx.store.documents.children(list, await ctx.store.fields.of(list), path, { kind, top: 5000 })).items, list, ctx);
  // The item behind each entity listed, for its own ListItemAllFields.
  const itemOf = new WeakMap<Entity, Item>();
  const nested = (e: Entity): Record<string, Navigation> => ({ ListItemAllFields: listItemOf(list, e.editLink ?? '', itemOf.get(e), ctx) });
  return {
    Folders: {
      link: `${link}/Folders`,
      nested,
      load: async () => {
        const entities: Entity[] = [];
        for (const child of await children('folder')) {
          const entity = subfolderEntity(list, child, ctx, await ctx.store.documents.count(list, pathOf(child)));
          itemOf.set(entity, child);
          entities.push(entity);
        }
        return entities;
      },
    },
    Files: {
      link: `${link}/Files`,
      nested,
      load: async () => (await children('file')).map((child) => {
        const entity = fileEntity(list, child, ctx);
        itemOf.set(entity, child);
        return entity;
      }),
    },
    ListItemAllFields: listItemOf(list, link, item, ctx),
  };
}
