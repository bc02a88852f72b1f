// Type-level only, as pnp-types.ts: @pnp/sp 4.x's sharing feature augments
// `declare module "../items/types"` (and folders, files, webs), which nodenext resolution
// drops. This restates it against specifiers that resolve. The feature itself loads by
// side-effect import in the tests.

import type { ISharedFuncs, ISharingEmailData, ISharingResult, SharingRole } from '@pnp/sp/sharing/types.js';

interface ShareWith {
  shareWith(loginNames: string | string[], role?: SharingRole, requireSignin?: boolean, emailData?: ISharingEmailData): Promise<ISharingResult>;
}

declare module '@pnp/sp/items/types.js' {
  interface IItem extends ISharedFuncs, ShareWith {}
}
declare module '@pnp/sp/folders/types.js' {
  interface IFolder extends ISharedFuncs, ShareWith {}
}
declare module '@pnp/sp/files/types.js' {
  interface IFile extends ISharedFuncs, ShareWith {}
}

export {};
