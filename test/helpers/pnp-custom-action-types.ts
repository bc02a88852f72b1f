// Type-level only, as pnp-types.ts: @pnp/sp's user custom actions augment `../webs/types`,
// `../sites/types` and `../lists/types` (extensionless paths nodenext cannot resolve).

import type { IUserCustomActions } from '@pnp/sp/user-custom-actions/types.js';

declare module '@pnp/sp/webs/types.js' {
  interface IWeb { readonly userCustomActions: IUserCustomActions }
}
declare module '@pnp/sp/sites/types.js' {
  interface ISite { readonly userCustomActions: IUserCustomActions }
}
declare module '@pnp/sp/lists/types.js' {
  interface IList { readonly userCustomActions: IUserCustomActions }
}
