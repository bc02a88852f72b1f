// Type-level only, as pnp-types.ts: @pnp/sp's hubsites feature augments `../sites/types`,
// `../webs/types` and `../fi` (extensionless paths nodenext cannot resolve), so
// `site.registerHubSite`, `web.hubSiteData` and `sp.hubSites` are restated here, with the lists
// feature's `web.defaultDocumentLibrary`, which PnPjs's setSiteLogo test uploads its logo into.

import type { IHubSites, IHubSiteWebData } from '@pnp/sp/hubsites/types.js';
import type { IList } from '@pnp/sp/lists/types.js';

declare module '@pnp/sp/sites/types.js' {
  interface ISite {
    joinHubSite(siteId: string): Promise<void>;
    registerHubSite(): Promise<void>;
    unRegisterHubSite(): Promise<void>;
  }
}

declare module '@pnp/sp/webs/types.js' {
  interface IWeb {
    hubSiteData(forceRefresh?: boolean): Promise<IHubSiteWebData>;
    syncHubSiteTheme(): Promise<void>;
    readonly defaultDocumentLibrary: IList;
  }
}

declare module '@pnp/sp/fi.js' {
  interface SPFI {
    readonly hubSites: IHubSites;
  }
}
