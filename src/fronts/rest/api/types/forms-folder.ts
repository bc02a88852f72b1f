// A document library's `Forms` folder: in SharePoint a real folder of the library that is no
// list item (its forms and `client_LocationBasedDefaults.html`, the column defaults per folder
// that PnPjs's column-defaults reads and writes). spemu answers it by URL
// (`GetFolderByServerRelativePath('…/Lib/Forms')`, `rootFolder/folders('Forms')`) and keeps the
// files written into it (services/forms-files.ts); it is never listed among the library's
// folders or items, as SharePoint lists it only in the root folder's Folders (docs/compatibility.md).

import { segments, splitPath } from '../../../../domain/documents.ts';
import { fail } from '../../../../domain/errors.ts';
import type { List, Web } from '../../../../domain/model.ts';
import { formsFileEtag, hasFormsFolder } from '../../../../services/forms-files.ts';
import type { FormsFile } from '../../../../store/forms-files.ts';
import type { Entity } from '../../../../wire/values.ts';
import type { Argument } from '../../../../odata/path.ts';
import type { ApiContext } from '../context.ts';
import { nameBasedGuid } from '../name-based-guid.ts';
import { resourcePathValue } from '../entities.ts';
import { noContent, type Outcome, voidResult } from '../outcome.ts';
import type { ResourceOf, ResourceType } from '../resource.ts';
import {bodyOf, booleanArgument, locate, pathLink, propertyBag, urlArgument} from './documents-shared.ts';
import { emptyOk, entityCollection, singleEntity, stringArgument } from './shared.ts';

type FormsFolder = ResourceOf<'formsFolder'>;
type FormsFiles = ResourceOf<'formsFiles'>;
type FormsFileResource = ResourceOf<'formsFile'>;

const FORMS = 'Forms';
const formsUrl = (list: List): string => `${list.serverRelativeUrl}/${FORMS}`;
const fileUrl = (list: List, file: FormsFile): string => `${formsUrl(list)}/${file.name}`;

/** The library's Forms folder when `path` (inside the list) names it, and no folder of that name was made there. */
export function isFormsPath(list: List, path: string): boolean {
  return hasFormsFolder(list) && segments(path).length === 1 && path.replace(/\//g, '').toLowerCase() === 'forms';
}

/** What a URL names in a library's Forms folder: the folder, or a file in it (undefined: nothing there, or not a Forms path). */
export async function formsAt(web: Web, url: string, ctx: ApiContext, want: 'folder' | 'file'): Promise<FormsFolder | FormsFileResource | undefined> {
  const found = await locate(web, url, ctx);
  if (!found) return undefined;
  if (want === 'folder') return isFormsPath(found.list, found.path) ? { kind: 'formsFolder', list: found.list } : undefined;
  const { dir, name } = splitPath(found.path);
  if (!isFormsPath(found.list, dir)) return undefined;
  const file = await formsFile(found.list, name, ctx);
  return file ? { kind: 'formsFile', list: found.list, file } : undefined;
}

async function formsFile(list: List, name: string, ctx: ApiContext): Promise<FormsFile | undefined> {
  return (await ctx.store.formsFiles.of(list)).find((f) => f.name.toLowerCase() === name.toLowerCase());
}

/** A stable UniqueId for the Forms folder (it is no item): a name-based GUID of the list's. */
function formsFolderId(list: List): string {
  return nameBasedGuid(`${list.id}/forms`);
}

function formsFolderEntity(list: List, files: FormsFile[], ctx: ApiContext): Entity {
  const url = formsUrl(list);
  const link = pathLink('Folder', url);
  const modified = files.reduce((latest, f) => (f.modified > latest ? f.modified : latest), list.created);
  return {
    type: 'SP.Folder', id: `${ctx.apiUrl}${link}`, editLink: link,
    deferred: ['Files', 'ListItemAllFields', 'ParentFolder', 'Properties', 'StorageMetrics', 'Folders'],
    props: [
      ['Exists', true], ['ExistsAllowThrowForPolicyFailures', true], ['ExistsWithException', true], ['IsWOPIEnabled', false],
      ['ItemCount', files.length], ['Name', FORMS], ['ProgID', null], ['ServerRelativePath', resourcePathValue(url)], ['ServerRelativeUrl', url],
      ['TimeCreated', list.created], ['TimeLastModified', modified], ['UniqueId', formsFolderId(list)], ['WelcomePage', ''],
    ],
  };
}

function formsFileEntity(list: List, file: FormsFile, ctx: ApiContext): Entity {
  const url = fileUrl(list, file);
  const link = pathLink('File', url);
  const etag = formsFileEtag(file);
  return {
    type: 'SP.File', id: `${ctx.apiUrl}${link}`, editLink: link, etag,
    deferred: ['Author', 'CheckedOutByUser', 'ListItemAllFields', 'LockedByUser', 'ModifiedBy', 'Properties', 'Versions'],
    props: [
      ['CheckInComment', ''], ['CheckOutType', 2], ['ContentTag', `{${file.uniqueId.toUpperCase()}},${file.version},${file.version}`],
      ['CustomizedPageStatus', 0], ['ETag', etag], ['Exists', true], ['ExistsAllowThrowForPolicyFailures', true], ['ExistsWithException', true],
      ['IrmEnabled', false], ['Length', String(file.content.byteLength)], ['Level', 1], ['LinkingUri', null], ['LinkingUrl', ''],
      ['MajorVersion', file.version], ['MinorVersion', 0], ['Name', file.name], ['ServerRelativePath', resourcePathValue(url)], ['ServerRelativeUrl', url],
      ['TimeCreated', file.created], ['TimeLastModified', file.modified], ['Title', null], ['UIVersion', 512 * file.version],
      ['UIVersionLabel', `${file.version}.0`], ['UniqueId', file.uniqueId],
    ],
  };
}

/** `files/add(url='…',overwrite=true)` and `addUsingPath(DecodedUrl='…')`: a name in the Forms folder (or a URL naming one there). */
async function addFormsFile(r: FormsFiles, args: Argument[], ctx: ApiContext, decoded: boolean): Promise<Outcome> {
  const url = urlArgument(args, decoded);
  let name = url;
  if (url.includes('/')) {
    const found = await locate(ctx.web, url, ctx);
    const { dir, name: leaf } = splitPath(found?.path ?? '');
    if (!found || found.list.rowId !== r.list.rowId || !isFormsPath(found.list, dir)) throw fail.folderNotFound(url);
    name = leaf;
  }
  const file = await ctx.services.formsFiles.put(r.list, name, bodyOf(ctx), { overwrite: booleanArgument(args, 'overwrite') });
  return singleEntity(formsFileEntity(r.list, file, ctx), 'SP.File', ctx);
}

export const formsFolderType: ResourceType<FormsFolder> = {
  permissions: { get: 'ViewListItems' },
  navigation: {
    files: async (r) => ({ kind: 'formsFiles', list: r.list }),
    folders: async () => ({ kind: 'readOnly', read: async (ctx) => entityCollection([], 'SP.ApiData.Folders', ctx) }),
    parentfolder: async (r) => ({ kind: 'folder', list: r.list, path: '' }),
    // Not an item: null, as a list's root folder answers.
    listitemallfields: async () => ({ kind: 'readOnly', read: async () => voidResult('ListItemAllFields') }),
    properties: async (r) => ({
      kind: 'readOnly',
      read: async (ctx) => propertyBag(`${pathLink('Folder', formsUrl(r.list))}/Properties`, ctx, [['vti_x005f_isbrowsable', '1'], ['vti_x005f_listname', `{${r.list.id.toUpperCase()}}`]]),
    }),
  },
  get: async (r, ctx) => singleEntity(formsFolderEntity(r.list, await ctx.store.formsFiles.of(r.list), ctx), 'SP.Folder', ctx),
};

export const formsFilesType: ResourceType<FormsFiles> = {
  permissions: { get: 'ViewListItems' },
  async key(r, args, ctx) {
    const file = await formsFile(r.list, stringArgument(args, 'url'), ctx);
    if (!file) throw fail.fileNotFoundById();
    return { kind: 'formsFile', list: r.list, file };
  },
  get: async (r, ctx) => entityCollection((await ctx.store.formsFiles.of(r.list)).map((f) => formsFileEntity(r.list, f, ctx)), 'SP.ApiData.Files', ctx),
  methods: {
    // The column defaults are a library setting: writing the Forms folder takes Manage Lists (docs/compatibility.md).
    add: { kind: 'action', permission: 'ManageLists', body: 'stream', invoke: (r, args, ctx) => addFormsFile(r, args, ctx, false) },
    addusingpath: { kind: 'action', permission: 'ManageLists', body: 'stream', invoke: (r, args, ctx) => addFormsFile(r, args, ctx, true) },
  },
};

export const formsFileType: ResourceType<FormsFileResource> = {
  permissions: { get: 'ViewListItems', delete: 'ManageLists' },
  navigation: {
    $value: async (r) => ({ kind: 'formsFileContent', list: r.list, file: r.file }),
    properties: async (r) => ({ kind: 'readOnly', read: async (ctx) => propertyBag(`${pathLink('File', fileUrl(r.list, r.file))}/Properties`, ctx, []) }),
    listitemallfields: async () => ({ kind: 'readOnly', read: async () => voidResult('ListItemAllFields') }),
  },
  get: async (r, ctx) => singleEntity(formsFileEntity(r.list, r.file, ctx), 'SP.File', ctx),
  async delete(r, ctx) {
    await ctx.services.formsFiles.delete(r.list, r.file.name);
    return emptyOk();
  },
};

export const formsFileContentType: ResourceType<ResourceOf<'formsFileContent'>> = {
  permissions: { get: 'ViewListItems', update: 'ManageLists' },
  bodies: { update: 'stream' },
  get: async (r) => ({ kind: 'bytes', status: 200, body: Buffer.from(r.file.content), contentType: 'application/octet-stream', etag: formsFileEtag(r.file) }),
  async update(r, ctx) {
    await ctx.services.formsFiles.put(r.list, r.file.name, bodyOf(ctx), { overwrite: true });
    return noContent();
  },
};
