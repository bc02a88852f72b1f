// Type-level only, as pnp-file-types.ts: @pnp/sp's recycle-bin feature augments `../webs/types`
// and `../sites/types` (extensionless paths nodenext cannot resolve), so `web.recycleBin` and
// `site.recycleBin` are restated here against specifiers that resolve.

import type { IRecycleBin } from '@pnp/sp/recycle-bin/types.js';

declare module '@pnp/sp/webs/types.js' {
  interface IWeb {
    readonly recycleBin: IRecycleBin;
  }
}

declare module '@pnp/sp/sites/types.js' {
  interface ISite {
    readonly recycleBin: IRecycleBin;
  }
}
