// Type-level only, as pnp-types.ts: @pnp/sp's files and folders features augment
// `../webs/types` and `../folders/types` (extensionless paths nodenext cannot resolve), so
// `web.getFileBy…`, `web.getFolderBy…` and `folder.files` are restated here against
// specifiers that resolve.

import type { IFile, IFiles } from '@pnp/sp/files/types.js';
import type { IFolder, IFolders } from '@pnp/sp/folders/types.js';

declare module '@pnp/sp/webs/types.js' {
  interface IWeb {
    readonly folders: IFolders;
    readonly rootFolder: IFolder;
    getFolderByServerRelativePath(folderRelativeUrl: string): IFolder;
    getFolderById(uniqueId: string): IFolder;
    getFileByServerRelativePath(fileRelativeUrl: string): IFile;
    getFileById(uniqueId: string): IFile;
    getFileByUrl(fileUrl: string): IFile;
  }
}

declare module '@pnp/sp/folders/types.js' {
  interface IFolder {
    readonly files: IFiles;
  }
}

declare module '@pnp/sp/lists/types.js' {
  interface IList {
    readonly rootFolder: IFolder;
  }
}

declare module '@pnp/sp/items/types.js' {
  interface IItem {
    readonly file: IFile;
    readonly folder: IFolder;
  }
}

declare module '@pnp/sp/items/types.js' {
  interface IItem {
    readonly attachmentFiles: import('@pnp/sp/attachments/types.js').IAttachments;
  }
}
