// Site columns (a web's fields, `web/fields`): their rules. A web lists its own columns, the
// root web SharePoint's built-in ones too; a web may use its own and its parents' columns
// (`availablefields`). Internal names are unique among the columns a web can use (a clash is
// numbered, as in lists); an explicit id (createfieldasxml's `ID`) is unique in the site
// collection; a lookup points at a list of the column's web; built-in columns are read only.

import { fail } from '../domain/errors.ts';
import type { FieldOptions, NewField, SiteColumn, Web } from '../domain/model.ts';
import { builtInSiteColumns } from '../domain/site-columns.ts';
import { dependentLookupDefinition } from '../domain/fields.ts';
import type { StoreReader, Store } from '../store/store.ts';
import { applyFieldChanges, checkCalculated, formulaChange, uniqueInternalName, type FieldChanges } from './fields.ts';

/** The columns `web/fields` lists: the web's own, after SharePoint's built-in ones on a root web. */
export async function webColumns(store: Pick<StoreReader, 'siteColumns'>, web: Web): Promise<SiteColumn[]> {
  const own = await store.siteColumns.of(web);
  return web.parentId === null ? [...builtInSiteColumns(web.id), ...own] : own;
}

/** The columns a web may use (`web/availablefields`): its own and every parent's, up to the root's built-in ones. */
export async function availableColumns(store: Pick<StoreReader, 'siteColumns' | 'sites'>, web: Web): Promise<SiteColumn[]> {
  const chain: Web[] = [];
  for (let w: Web | undefined = web; w; w = w.parentId === null ? undefined : await store.sites.web(w.parentId)) chain.unshift(w);
  const out: SiteColumn[] = [];
  for (const w of chain) out.push(...await webColumns(store, w));
  return out;
}

export class SiteColumnService {
  constructor(private readonly store: Store) {}

  async add(web: Web, definition: NewField): Promise<SiteColumn> {
    if (!definition.title.trim()) throw fail.badArgument('The field title must not be empty.');
    const lookupList = definition.options.lookupListId;
    if (lookupList && !(await this.store.lists.byId(web.id, lookupList))) throw fail.listNotFoundById();
    return this.store.transaction(async (tx) => {
      const usable = await availableColumns(tx, web);
      if (definition.id) {
        const webs = await tx.sites.websOf(web.siteId);
        for (const w of webs) {
          const clash = (await webColumns(tx, w)).find((c) => c.id === definition.id);
          if (clash) throw fail.fieldAlreadyExists(clash.internalName);
        }
      }
      return tx.siteColumns.add(web, { ...checkCalculated(definition, usable), internalName: uniqueInternalName(definition.internalName, usable) });
    });
  }

  /** `web/fields/adddependentlookupfield`: the primary is one of the columns the web may use. */
  async addDependentLookup(web: Web, displayName: string, primaryId: string, showField: string): Promise<SiteColumn> {
    const primary = (await availableColumns(this.store, web)).find((c) => c.id === primaryId);
    return this.add(web, dependentLookupDefinition(primary, displayName, showField));
  }

  async update(column: SiteColumn, changes: FieldChanges): Promise<SiteColumn> {
    if (column.builtIn) throw fail.badArgument(`The field '${column.internalName}' cannot be changed.`);
    const web = await this.store.sites.web(column.webId);
    const usable = web ? await availableColumns(this.store, web) : [];
    const options: FieldOptions = applyFieldChanges(column.options, formulaChange(column, changes, usable));
    return this.store.siteColumns.update(column, {
      title: changes.title, required: changes.required, indexed: changes.indexed, hidden: changes.hidden, options,
    });
  }

  async delete(column: SiteColumn): Promise<void> {
    if (column.builtIn) throw fail.badArgument(`The field '${column.internalName}' cannot be deleted.`);
    await this.store.siteColumns.delete(column);
  }
}
