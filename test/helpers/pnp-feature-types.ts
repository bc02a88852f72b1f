// Type-level only, as pnp-types.ts: @pnp/sp's features augment `../webs/types` and
// `../sites/types` (extensionless paths nodenext cannot resolve); restated here.

import type { IFeatures } from '@pnp/sp/features/types.js';

declare module '@pnp/sp/webs/types.js' {
  interface IWeb {
    readonly features: IFeatures;
  }
}

declare module '@pnp/sp/sites/types.js' {
  interface ISite {
    readonly features: IFeatures;
  }
}
