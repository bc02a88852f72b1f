// Type-level only, as pnp-file-types.ts: @pnp/sp's comments feature augments `../items/types`
// (an extensionless path nodenext cannot resolve), so `item.comments`, `item.rate` and the item likes are
// restated here against a specifier that resolves.

import type { IComments, ILikeData, RatingValues } from '@pnp/sp/comments/types.js';

declare module '@pnp/sp/items/types.js' {
  interface IItem {
    readonly comments: IComments;
    rate(rating: RatingValues): Promise<number>;
    like(): Promise<void>;
    unlike(): Promise<void>;
    getLikedBy(): Promise<ILikeData[]>;
  }
}

// SP.List's DisableCommenting, which SharePoint Online has and PnPjs's IListInfo does not name.
declare module '@pnp/sp/lists/types.js' {
  interface IListInfo {
    DisableCommenting: boolean;
  }
}
