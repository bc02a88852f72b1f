// Webs below a site collection's root web (subwebs): their rules and their life. A new web
// is a record and the libraries a team site starts with (Documents, Site Assets, Site
// Pages), made in one transaction; deleting one takes its lists, with their items, files
// and versions, in one transaction too. Users, groups and permissions are the site
// collection's: a subweb inherits them (unique permissions on a web are not modelled yet).

import { nameProblem } from '../domain/documents.ts';
import { fail } from '../domain/errors.ts';
import type { Web } from '../domain/model.ts';
import { urlPrefix } from '../domain/names.ts';
import { SITE_PAGES_TEMPLATE, TEAM_SITE_LIBRARIES } from '../domain/templates.ts';
import type { Store } from '../store/store.ts';
import type { Actor } from './actor.ts';
import { createListWithFields } from './lists.ts';
import { seedQuickLaunch } from './navigation.ts';
import { HOME_PAGE } from '../domain/page-templates.ts';
import { homePageValues } from '../domain/site-pages.ts';

export interface WebInput {
  /** The new web's URL segment below its parent (`project-x`). */
  url: string;
  title: string;
  description: string;
  /** `STS`, `STS#0`, `STS#3`: a team site (the templates spemu provisions). */
  webTemplate: string;
  language: number;
  useSamePermissionsAsParentSite: boolean;
}

export interface WebChanges {
  title?: string | undefined;
  description?: string | undefined;
  /** SP.Web.SiteLogoUrl; an empty one (or null) resets it to SharePoint's default, none. */
  siteLogoUrl?: string | null | undefined;
}

/** Team site templates, with or without a configuration number: what `webs.add` makes by default. */
const TEAM_SITE = /^STS(#[0-9]+)?$/i;
/** Characters a web's URL may not hold besides those no file name may (`#`, `%`, `&`, `~` and braces), nor a leading `_` (`_api`, `_layouts`, `_catalogs`). */
const URL_UNSAFE = /[#%&~{}]|^_/;

export class WebService {
  constructor(private readonly store: Store, private readonly actor: Actor) {}

  /** A subweb of `parent`, with the libraries a team site starts with. */
  async create(parent: Web, input: WebInput): Promise<Web> {
    const leaf = input.url.trim();
    const problem = nameProblem(leaf) ?? (URL_UNSAFE.test(leaf) ? 'The name contains a character that is not allowed.' : undefined);
    if (problem) throw fail.badArgument(`The URL "${input.url}" of the new web is not valid: ${problem}`);
    if (!input.title.trim()) throw fail.badArgument('The title of the new web must not be empty.');
    if (!TEAM_SITE.test(input.webTemplate)) throw fail.webTemplateNotSupported(`The web template "${input.webTemplate}"`);
    if (!input.useSamePermissionsAsParentSite) throw fail.webTemplateNotSupported('A subweb with unique permissions (UseSamePermissionsAsParentSite=false)');
    const url = `${urlPrefix(parent.serverRelativeUrl)}/${leaf}`;
    const now = this.actor.now();
    // Site Pages' Home.aspx: its bytes are put before the unit of work that names them.
    const homePage = await this.store.blobs.put(once(Buffer.from(HOME_PAGE.content, 'utf8')), { limit: 1 << 20, tooLarge: () => new Error('home page') });
    return this.store.transaction(async (tx) => {
      const taken = (await tx.sites.websOf(parent.siteId)).some((w) => w.serverRelativeUrl.toLowerCase() === url.toLowerCase())
        // A list's folders and the web's URL may not overlap: either would hide the other.
        || (await tx.lists.inWeb(parent.id)).some((l) => isWithinUrl(url, l.serverRelativeUrl) || isWithinUrl(l.serverRelativeUrl, url));
      if (taken) throw fail.webUrlInUse(url);
      const web = await tx.sites.createWeb({
        siteId: parent.siteId, parentId: parent.id, serverRelativeUrl: url, title: input.title, description: input.description,
        webTemplate: input.webTemplate.split('#')[0]!.toUpperCase(), language: input.language, now,
      });
      for (const library of TEAM_SITE_LIBRARIES) {
        const list = await createListWithFields(tx, web, { ...library, description: '' }, now);
        if (library.baseTemplate === SITE_PAGES_TEMPLATE) {
          await tx.documents.putFile(list, await tx.fields.of(list), { dir: '', name: HOME_PAGE.name, actorId: this.actor.userId, now, blob: homePage, overwrite: false, values: { Title: HOME_PAGE.title, ...homePageValues(now) } });
        }
      }
      await seedQuickLaunch(tx.navigation, web);
      return web;
    });
  }

  async update(web: Web, changes: WebChanges): Promise<Web> {
    if (changes.title !== undefined && !changes.title.trim()) throw fail.badArgument('The title of a web must not be empty.');
    const siteLogoUrl = changes.siteLogoUrl === undefined ? undefined : changes.siteLogoUrl?.trim() || null;
    // One metadata write, as for Title: the web's cached record drops here and on every other instance.
    return this.store.sites.updateWeb(web, { title: changes.title, description: changes.description, siteLogoUrl });
  }

  /**
   * Sets (a string) or removes (null) entries of the web's property bag, all in one write. A
   * stored entry named as one of the `vti_` ones spemu derives (its groups, its language) is
   * read in its place.
   */
  async setProperties(web: Web, changes: Readonly<Record<string, string | null>>): Promise<Web> {
    for (const key of Object.keys(changes)) {
      if (!key.trim()) throw fail.badArgument('The property name must not be empty.');
      // The stored bag is a plain JSON object: assigning this key would set its prototype and
      // drop the entry, a write reported as done that never was.
      if (key === '__proto__') throw fail.badArgument(`The property name '${key}' is not supported by spemu.`);
    }
    if (Object.keys(changes).length === 0) return web;
    return this.store.sites.updateWeb(web, { properties: changes });
  }

  /** Deletes a web without subwebs, with its lists and everything in them. */
  async delete(web: Web): Promise<void> {
    if (web.parentId === null) throw fail.rootWebDelete();
    await this.store.transaction(async (tx) => {
      if ((await tx.sites.websOf(web.siteId)).some((w) => w.parentId === web.id)) throw fail.webHasSubwebs(web.serverRelativeUrl);
      // What its recycle bin holds goes too (a recycled list is in no look-up of the web's lists).
      const binned = (await tx.recycleBin.of(web.siteId)).filter((e) => e.webId === web.id);
      await tx.recycleBin.purge(web.siteId, binned.map((e) => e.id));
      for (const list of await tx.lists.inWeb(web.id)) await tx.lists.delete(list);
      await tx.sites.deleteWeb(web);
    });
  }
}

/** Whether `url` is `container` or below it, ignoring case. */
function isWithinUrl(url: string, container: string): boolean {
  const u = url.toLowerCase();
  const c = container.toLowerCase();
  return u === c || u.startsWith(`${c}/`);
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}
