// Site collections and their webs.

import type { Site, Web } from '../domain/model.ts';

export interface NewSite {
  url: string;
  title: string;
  description: string;
  now: string;
}

export interface SiteRepository {
  /** A site collection with its root web. */
  create(site: NewSite): Promise<{ site: Site; web: Web }>;
  /** Every site collection, by URL in code-point order. */
  all(): Promise<Site[]>;
  /** By server-relative URL, ignoring case and a trailing slash. */
  byUrl(url: string): Promise<Site | undefined>;
  web(id: string): Promise<Web | undefined>;
}
