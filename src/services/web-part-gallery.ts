// The site collection's Web Part Gallery (`_catalogs/wp`, template 113), which `web.getCatalog(113)`
// answers with: made with every new site's root web, and added to the root webs of workspaces
// made before that, once, when migration 0030 has marked them as owing it.

import type { List, Web } from '../domain/model.ts';
import { WEB_PART_GALLERY_KEY } from '../domain/settings.ts';
import { CATALOGS, WEB_PART_CATALOG_TEMPLATE } from '../domain/templates.ts';
import type { Store } from '../store/store.ts';
import { createListWithFields } from './lists.ts';

/** The gallery of a new root web, hidden as SharePoint's. */
export function createWebPartGallery(store: Store, web: Web, now: string): Promise<List> {
  return createListWithFields(store, web, {
    title: CATALOGS[WEB_PART_CATALOG_TEMPLATE]!.title, description: '', baseTemplate: WEB_PART_CATALOG_TEMPLATE, hidden: true, enableVersioning: false,
  }, now);
}

/** Adds the gallery to every root web without one, if migration 0030 left that owed; returns how many it added. */
export async function addOwedWebPartGalleries(store: Store, now: string): Promise<number> {
  if ((await store.settings.get(WEB_PART_GALLERY_KEY)) !== 'pending') return 0;
  return store.transaction(async (tx) => {
    let added = 0;
    for (const site of await tx.sites.all()) {
      const root = await tx.sites.web(site.rootWebId);
      if (!root || (await tx.lists.inWeb(root.id)).some((l) => l.baseTemplate === WEB_PART_CATALOG_TEMPLATE)) continue;
      await createWebPartGallery(tx, root, now);
      added++;
    }
    await tx.settings.set(WEB_PART_GALLERY_KEY, 'done');
    return added;
  });
}
