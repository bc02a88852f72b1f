// Type-level only, as pnp-types.ts: @pnp/sp's views feature augments `../lists/types`
// (an extensionless path nodenext cannot resolve), so `list.views`, `list.defaultView` and
// `list.getView` are restated here against a specifier that resolves.

import type { IView, IViews } from '@pnp/sp/views/types.js';

declare module '@pnp/sp/lists/types.js' {
  interface IList {
    readonly views: IViews;
    readonly defaultView: IView;
    getView(id: string): IView;
  }
}
