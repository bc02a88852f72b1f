// Type-level only, as pnp-comment-types.ts: @pnp/sp's clientside-pages and page comments augment
// `../webs/types` and `../clientside-pages/types` (extensionless paths nodenext cannot resolve),
// so the web's page methods and a page's comment methods are restated against specifiers that resolve.

import type { IComment, ICommentInfo, ILikedByInformation } from '@pnp/sp/comments/types.js';
import type { ClientsidePageLayoutType, IClientsidePage, IClientsidePageComponent, PromotedState } from '@pnp/sp/clientside-pages/types.js';

declare module '@pnp/sp/webs/types.js' {
  interface IWeb {
    getClientsideWebParts(): Promise<IClientsidePageComponent[]>;
    addClientsidePage(pageName: string, title?: string, PageLayoutType?: ClientsidePageLayoutType, promotedState?: PromotedState): Promise<IClientsidePage>;
    loadClientsidePage(path: string): Promise<IClientsidePage>;
  }
}

declare module '@pnp/sp/clientside-pages/types.js' {
  interface IClientsidePage {
    addComment(info: string | Partial<ICommentInfo>): Promise<IComment & ICommentInfo>;
    getCommentById(id: string | number): Promise<IComment & ICommentInfo>;
    clearComments(): Promise<boolean>;
    getComments(): Promise<ICommentInfo[]>;
    like(): Promise<void>;
    unlike(): Promise<void>;
    getLikedByInformation(): Promise<ILikedByInformation>;
    enableComments(): Promise<unknown>;
    disableComments(): Promise<unknown>;
  }
}
