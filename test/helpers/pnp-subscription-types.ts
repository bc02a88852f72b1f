// Type-level only, as pnp-types.ts: @pnp/sp's subscriptions augment `../lists/types`
// (an extensionless path nodenext cannot resolve).

import type { ISubscriptions } from '@pnp/sp/subscriptions/types.js';

declare module '@pnp/sp/lists/types.js' {
  interface IList { readonly subscriptions: ISubscriptions }
}
