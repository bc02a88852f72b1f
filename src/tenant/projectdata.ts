// The tenant file's `projectData` section: checked with the rest of the file (every problem
// with its JSON pointer), then loaded into the store with the sites.

import type { Site } from '../domain/model.ts';
import type { Store } from '../store/store.ts';
import { builtInSet } from '../domain/projectdata/catalogue.ts';
import type { EdmType } from '../domain/projectdata/model.ts';
import { currentSet } from '../services/projectdata.ts';
import { sectionOptions, sectionSets, typeRows, withCustom } from '../domain/projectdata/rows.ts';

export interface SectionProblem {
  /** JSON pointer tokens below the site's section: ['Tasks', 3, 'TaskFinishDate']. */
  tokens: Array<string | number>;
  message: string;
}

/** Everything wrong with one site's section: unknown sets, rows without keys, values of the wrong type, duplicate keys. */
export function sectionProblems(section: Record<string, unknown>): SectionProblem[] {
  const problems: SectionProblem[] = [];
  for (const { name, rows, declared } of sectionSets(section)) {
    const set = builtInSet(name);
    if (!set) {
      problems.push({ tokens: [name], message: `"${name}" is not a ProjectData entity set` });
      continue;
    }
    if (!Array.isArray(rows)) continue; // the JSON Schema reports it
    const typed = typeRows(set, rows, declared);
    for (const p of typed.problems) problems.push({ tokens: p.property ? [name, p.row, p.property] : [name, p.row], message: p.message });
    const seen = new Map<string, number>();
    typed.rows.forEach((row, index) => {
      const key = set.key.map((k) => String(row[k])).join('\u0000');
      const first = seen.get(key);
      if (first !== undefined) problems.push({ tokens: [name, index], message: `duplicate key (${set.key.join(', ')}): also row ${first}` });
      else seen.set(key, index);
    });
  }
  return problems;
}

/** Makes `site` a PWA site and writes its rows; runs inside the tenant load's transaction. */
export async function loadProjectDataSection(store: Store, site: Site, section: Record<string, unknown>): Promise<void> {
  await store.projectData.setOptions(site.id, sectionOptions(section));
  for (const { name, rows, declared } of sectionSets(section)) {
    const builtIn = builtInSet(name);
    if (!builtIn || !Array.isArray(rows)) continue;
    const set = await currentSet(store, site, name);
    const typed = typeRows(set, rows, declared as Record<string, EdmType>);
    if (typed.problems.length > 0) throw new Error(`projectData ${site.url} ${name}: ${typed.problems[0]!.message}`);
    if (typed.added.length > 0) await store.projectData.addCustomProperties(site.id, name, typed.added);
    const complete = withCustom(set, typed.added);
    for (let at = 0; at < typed.rows.length; at += 1000) await store.projectData.upsertRows(site.id, complete, typed.rows.slice(at, at + 1000));
  }
}
