// Type-level only, as pnp-types.ts: @pnp/sp's related-items and lists features augment
// `../webs/types` (an extensionless path nodenext cannot resolve), so `web.relatedItems` and
// `web.defaultDocumentLibrary` are restated here against specifiers that resolve.

import type { IRelatedItemManager } from '@pnp/sp/related-items/types.js';
import type { IList } from '@pnp/sp/lists/types.js';

declare module '@pnp/sp/webs/types.js' {
  interface IWeb {
    readonly relatedItems: IRelatedItemManager;
    readonly defaultDocumentLibrary: IList;
  }
}

export {};
