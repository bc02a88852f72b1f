// Hub sites: registering a site collection as a hub and unregistering it, and the hub logo
// setsitelogo sets. Who may do so is the resource model's business (the front declares it);
// the rules here are SharePoint's: a site collection is a hub once, a hub is what is removed.

import { fail } from '../domain/errors.ts';
import type { Site } from '../domain/model.ts';
import type { HubSiteRow } from '../store/hub-sites.ts';
import type { Store, StoreReader } from '../store/store.ts';
import type { Actor } from './actor.ts';

/** SP.SiteLogoType: what setsitelogo sets. */
export const SITE_LOGO_TYPES = { WebLogo: 0, HubLogo: 1, HeaderBackground: 2, GlobalNavLogo: 3 } as const;

const EMPTY_GUID = '00000000-0000-0000-0000-000000000000';

/** The hub a site collection is in: the hub it is (a hub is in itself), else the one it joined, or undefined. */
export async function hubOf(store: Pick<StoreReader, 'hubSites'>, site: Site): Promise<HubSiteRow | undefined> {
  const own = await store.hubSites.get(site.id);
  if (own) return own;
  const joined = await store.hubSites.joinedHub(site.id);
  return joined === undefined ? undefined : store.hubSites.get(joined);
}

export class HubSiteService {
  constructor(private readonly store: Store, private readonly actor: Actor) {}

  /** Makes the site collection a hub, titled as its root web is now; refused when it is one. */
  async register(site: Site): Promise<HubSiteRow> {
    const root = await this.store.sites.web(site.rootWebId);
    const row: HubSiteRow = {
      siteId: site.id, title: root?.title ?? site.title, description: null, logoUrl: null, version: 1,
      registered: this.actor.now(), registeredBy: this.actor.userId,
    };
    if (!(await this.store.hubSites.add(row))) throw fail.hubSiteAlready();
    return row;
  }

  /**
   * JoinHubSite: the site collection joins the hub (leaving any other), or, given the empty
   * GUID, leaves its hub (nothing to do when it is in none). The hub's theme and navigation
   * are not copied: HubSiteData reads them from the hub each time. spemu's hubs never ask
   * for join approval (RequiresJoinApproval false), so a join takes effect at once.
   */
  async join(site: Site, hubSiteId: string): Promise<void> {
    if (hubSiteId === EMPTY_GUID) {
      await this.store.hubSites.join(site.id, null, this.actor.now());
      return;
    }
    if (!(await this.store.hubSites.get(hubSiteId))) throw fail.hubSiteNotFound();
    // A hub is in its own hub; hubs associate with each other otherwise (ParentHubSiteId), not by joining.
    if (await this.store.hubSites.get(site.id)) throw fail.hubSiteCannotJoin();
    await this.store.hubSites.join(site.id, hubSiteId, this.actor.now());
  }

  /** The site collection is a hub no more; refused when it is none. */
  async unregister(site: Site): Promise<void> {
    if (!(await this.store.hubSites.remove(site.id))) throw fail.hubSiteNotFound();
  }

  /**
   * setsitelogo's HubLogo: the hub's LogoUrl (an absolute URL; '' resets it); refused, as
   * UnRegisterHubSite is, where the site collection is no hub. A WebLogo is the web's
   * (WebService.update); HeaderBackground and GlobalNavLogo are not kept (docs/compatibility.md).
   */
  async setLogo(site: Site, logoUrl: string): Promise<void> {
    if (!(await this.store.hubSites.setLogo(site.id, logoUrl.trim() || null))) throw fail.hubSiteNotFound();
  }
}
