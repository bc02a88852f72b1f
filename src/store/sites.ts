// Site collections and their webs.

import type { Site, Web } from '../domain/model.ts';

export interface NewSite {
  url: string;
  title: string;
  description: string;
  now: string;
}

/** A web below another one (a subweb); its URL is server-relative, under its parent's. */
export interface NewWeb {
  siteId: string;
  parentId: string;
  serverRelativeUrl: string;
  title: string;
  description: string;
  webTemplate: string;
  language: number;
  now: string;
}

export interface WebPatch {
  title?: string | undefined;
  description?: string | undefined;
  /** null: no logo (SharePoint's default). */
  siteLogoUrl?: string | null | undefined;
  /** Property bag entries to set (a string) or remove (null), merged with the stored ones. */
  properties?: Readonly<Record<string, string | null>> | undefined;
}

export interface SiteRepository {
  /** A site collection with its root web. */
  create(site: NewSite): Promise<{ site: Site; web: Web }>;
  /** Every site collection, by URL in code-point order. */
  all(): Promise<Site[]>;
  /** By server-relative URL, ignoring case and a trailing slash. */
  byUrl(url: string): Promise<Site | undefined>;
  web(id: string): Promise<Web | undefined>;
  /** Every web of a site collection, the root web among them, by URL in code-point order. */
  websOf(siteId: string): Promise<Web[]>;
  createWeb(web: NewWeb): Promise<Web>;
  updateWeb(web: Web, patch: WebPatch): Promise<Web>;
  /** Removes the web's record; its lists (and their tables) must be gone already. */
  deleteWeb(web: Web): Promise<void>;
}
