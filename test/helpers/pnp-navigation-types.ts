// Type-level only, as pnp-types.ts: @pnp/sp's navigation feature augments `../webs/types` and
// `../fi` (extensionless paths nodenext cannot resolve), so `web.navigation` and
// `sp.navigation` are restated here against specifiers that resolve.

import type { INavigation, INavigationService } from '@pnp/sp/navigation/types.js';

declare module '@pnp/sp/webs/types.js' {
  interface IWeb {
    readonly navigation: INavigation;
  }
}

declare module '@pnp/sp/fi.js' {
  interface SPFI {
    readonly navigation: INavigationService;
  }
}
