// Hub sites: site collections registered as hubs (SP.HubSite), one row each.

export interface HubSiteRow {
  /** The hub's site collection id: SP.HubSite's ID and SiteId. */
  siteId: string;
  title: string;
  description: string | null;
  /** Absolute URL, or null: none set. */
  logoUrl: string | null;
  /** The ETag's number: 1 when registered, one more per change. */
  version: number;
  registered: string;
  registeredBy: number;
}

export interface HubSiteRepository {
  /** Every hub, in registration order. */
  all(): Promise<HubSiteRow[]>;
  get(siteId: string): Promise<HubSiteRow | undefined>;
  /** Adds the hub; false (and nothing written) when its site collection is one already. */
  add(row: HubSiteRow): Promise<boolean>;
  /** Removes the hub, and every site collection's join to it; false when there was none. */
  remove(siteId: string): Promise<boolean>;
  /** The id of the hub a site collection joined (site/JoinHubSite), or undefined. */
  joinedHub(siteId: string): Promise<string | undefined>;
  /** Joins the site collection to the hub (another join replaced), or leaves its hub (`hubSiteId` null). */
  join(siteId: string, hubSiteId: string | null, joined: string): Promise<void>;
  /** Sets its logo and bumps its version; false when there is no such hub. */
  setLogo(siteId: string, logoUrl: string | null): Promise<boolean>;
}
