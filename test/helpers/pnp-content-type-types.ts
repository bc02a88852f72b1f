// Type-level only, as pnp-types.ts: @pnp/sp's content-types feature augments `../webs/types`,
// `../lists/types` and `../items/types` (extensionless paths nodenext cannot resolve), so
// `web.contentTypes`, `list.contentTypes` and `item.contentType` are restated here against
// specifiers that resolve.

import type { IContentType, IContentTypes } from '@pnp/sp/content-types/types.js';

declare module '@pnp/sp/webs/types.js' {
  interface IWeb {
    readonly contentTypes: IContentTypes;
  }
}

declare module '@pnp/sp/lists/types.js' {
  interface IList {
    readonly contentTypes: IContentTypes;
  }
}

declare module '@pnp/sp/items/types.js' {
  interface IItem {
    readonly contentType: IContentType;
  }
}
