// An unmodified @pnp/sp 4.x client for a spemu site, set up as a Node application would.

import { spfi, DefaultHeaders, DefaultInit, type SPFI } from '@pnp/sp';
import { BrowserFetch, DefaultParse, InjectHeaders } from '@pnp/queryable';
// @pnp/sp has no exports map: Node ESM needs the explicit index.js of each feature.
import '@pnp/sp/webs/index.js';
import '@pnp/sp/lists/index.js';
import '@pnp/sp/items/index.js';
import '@pnp/sp/fields/index.js';

export function pnpFor(siteUrl: string, headers: Record<string, string> = {}): SPFI {
  return spfi(siteUrl).using(DefaultHeaders(), DefaultInit(), BrowserFetch(), DefaultParse(), InjectHeaders(headers));
}
