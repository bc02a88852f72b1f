// Type-level only. @pnp/sp 4.x adds `sp.web`, `web.lists`, `list.items`, … by augmenting
// `declare module "../fi"` and the like: extensionless paths that TypeScript's nodenext
// resolution cannot find, so the augmentations are silently dropped (skipLibCheck hides the
// error). This restates them against specifiers that resolve. No runtime effect: the
// features themselves are loaded by pnp.ts's side-effect imports.

import type { IWeb } from '@pnp/sp/webs/types.js';
import type { IList, ILists } from '@pnp/sp/lists/types.js';
import type { IItems } from '@pnp/sp/items/types.js';
import type { IFields } from '@pnp/sp/fields/types.js';

declare module '@pnp/sp/fi.js' {
  interface SPFI {
    readonly web: IWeb;
  }
}

declare module '@pnp/sp/webs/types.js' {
  interface IWeb {
    readonly lists: ILists;
    readonly fields: IFields;
    readonly availablefields: IFields;
    getList(listRelativeUrl: string): IList;
    getCatalog(type: number): Promise<IList>;
  }
}

declare module '@pnp/sp/lists/types.js' {
  interface IList {
    readonly items: IItems;
    readonly fields: IFields;
  }
}

export {};
