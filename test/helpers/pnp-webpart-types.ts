// Type-level only, as pnp-file-types.ts: @pnp/sp's webparts and clientside-pages features
// augment `../files/types` and `../webs/types` (extensionless paths nodenext cannot resolve), so
// `file.getLimitedWebPartManager` and `web.getClientsideWebParts` are restated here against
// specifiers that resolve.

import type { ILimitedWebPartManager, WebPartsPersonalizationScope } from '@pnp/sp/webparts/types.js';
import type { IClientsidePageComponent } from '@pnp/sp/clientside-pages/types.js';

declare module '@pnp/sp/files/types.js' {
  interface IFile {
    getLimitedWebPartManager(scope?: WebPartsPersonalizationScope): ILimitedWebPartManager;
  }
}

declare module '@pnp/sp/webs/types.js' {
  interface IWeb {
    getClientsideWebParts(): Promise<IClientsidePageComponent[]>;
  }
}
