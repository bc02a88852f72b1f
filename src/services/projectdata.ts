// ProjectData operations shared by the tenant loader and the importer.

import type { Site } from '../domain/model.ts';
import type { PdEntitySet } from '../domain/projectdata/model.ts';
import type { Store } from '../store/store.ts';

/** The set as the store knows it now, custom properties included. */
export async function currentSet(store: Store, site: Site, name: string): Promise<PdEntitySet> {
  const set = (await store.projectData.schema(site.id)).find((s) => s.name === name);
  if (!set) throw new Error(`no ProjectData entity set ${name}`);
  return set;
}
