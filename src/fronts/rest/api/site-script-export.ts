// A site script made from what a web or a list is (GetSiteScriptFromList, GetSiteScriptFromWeb):
// the JSON SharePoint writes, `createSPList` with the list's description, its own columns as
// `addSPFieldXml` (lookups as `addSPLookupFieldXml` naming their list) and its public views as
// `addSPView`, then an `addNavLink` where the web's quick launch links to the list. What spemu
// does not export (content types, column formatting, the web's theme, branding, regional and
// sharing settings) is listed in docs/compatibility.md "Site scripts".

import type { List, Web } from '../../../domain/model.ts';
import { urlPrefix } from '../../../domain/names.ts';
import { decodeUrlText } from '../../../domain/documents.ts';
import type { StoreReader } from '../../../store/store.ts';
import { schemaXml } from './entities.ts';

const SCHEMA = 'https://developer.microsoft.com/json-schemas/sp/site-design-script-actions.schema.json';

type Action = Record<string, unknown>;
type Reader = Pick<StoreReader, 'fields' | 'views' | 'lists' | 'navigation'>;

/** The script's text: SharePoint's overall shape, indented. */
export const scriptText = (actions: Action[]): string =>
  JSON.stringify({ $schema: SCHEMA, actions, bindata: {}, version: 1 }, null, 2);

/** A server-relative URL relative to its web (`Lists/Tasks/AllItems.aspx`). */
const webRelative = (web: Web, url: string): string => url.slice(urlPrefix(web.serverRelativeUrl).length).replace(/^\//, '');

/** The actions that make `list` again: its `createSPList`, and its quick launch link when `navLink` and there is one. */
export async function listActions(store: Reader, web: Web, list: List, navLink: boolean): Promise<Action[]> {
  const subactions: Action[] = [];
  if (list.description) subactions.push({ verb: 'setDescription', description: list.description });
  for (const field of await store.fields.of(list)) {
    if (field.builtIn) continue;
    const lookupList = field.options.lookupListId ? await store.lists.byId(web.id, field.options.lookupListId) : undefined;
    subactions.push(lookupList
      ? { verb: 'addSPLookupFieldXml', schemaXml: schemaXml(field), targetListName: lookupList.title }
      : { verb: 'addSPFieldXml', schemaXml: schemaXml(field) });
  }
  const views = (await store.views.of(list)).filter((v) => !v.hidden && !v.personal);
  for (const view of views) {
    subactions.push({
      verb: 'addSPView', name: view.title, viewFields: view.fields, query: view.query, rowLimit: view.rowLimit, isPaged: view.paged,
      makeDefault: view.defaultView, ...(view.scope ? { scope: view.scope } : {}), formatterJSON: '',
    });
  }
  const actions: Action[] = [{ verb: 'createSPList', listName: list.title, templateType: list.baseTemplate, subactions }];
  if (navLink) {
    const root = list.serverRelativeUrl.toLowerCase();
    const node = (await store.navigation.all(web.id, 'quicklaunch')).find((n) => {
      const path = n.external ? '' : decodeUrlText(n.url.replace(/^https?:\/\/[^/]+/i, '').split('?')[0]!).toLowerCase();
      return path === root || path.startsWith(`${root}/`);
    });
    const target = views.find((v) => v.defaultView)?.serverRelativeUrl ?? list.serverRelativeUrl;
    if (node) actions.push({ verb: 'addNavLink', url: webRelative(web, target), displayName: node.title, isWebRelative: true });
  }
  return actions;
}
