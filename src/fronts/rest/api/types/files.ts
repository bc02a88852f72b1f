// Files and folders of a list or library (issue #11): addressed by server-relative URL or
// path from the web, or from a list's root folder; listed, created, read and written. The
// bytes stream both ways: an upload is the request itself (`body: 'stream'`), a download a
// stream of the blob.

import { fileEtag, joinPath, placePath, splitPath, urlInList, webRelativeUrl } from '../../../../domain/documents.ts';
import { documentById, locate as locateDocument } from '../../../../services/document-paths.ts';
import { fail } from '../../../../domain/errors.ts';
import type { Item, List, Web } from '../../../../domain/model.ts';
import type { Entity } from '../../../../wire/values.ts';
import type { ApiContext } from '../context.ts';
import { folderEntity, resourcePathValue } from '../entities.ts';
import { noContent, ok, type Outcome } from '../outcome.ts';
import type { MethodDef, Resource, ResourceType } from '../resource.ts';
import type { PermissionKind } from '../../../../domain/permissions.ts';
import { argument, emptyOk, entityCollection, guidText, integerArgument, singleEntity, stringArgument } from './shared.ts';
import { argumentLiteral, type Argument } from '../../../../odata/path.ts';
import { uiVersionOf, versionId, versionLabel } from '../../../../domain/versions.ts';

type FolderResource = { kind: 'folder'; list: List; path: string };
type FilesResource = { kind: 'files'; list: List; dir: string };
type FoldersResource = { kind: 'folders'; list: List; dir: string };
type FileResource = { kind: 'file'; list: List; item: Item };
type FileContentResource = { kind: 'fileContent'; list: List; item: Item };

/** A file's or folder's server-relative URL. */
const urlOf = (list: List, path: string): string => urlInList(list.serverRelativeUrl, path);
const pathOf = (item: Item): string => placePath(item.place);

/** The list holding `url` and the path inside it (services/document-paths.ts). */
export const locate = (web: Web, url: string, ctx: ApiContext) => locateDocument(ctx.store, web, url);

/** No bytes: an empty file or chunk. */
async function* nothing(): AsyncGenerator<Uint8Array> { /* empty */ }
/** The request's streamed body, or no bytes when it has none. */
const bodyOf = (ctx: ApiContext): AsyncIterable<Uint8Array> => ctx.bodyStream ?? nothing();

/** `…Url('…')` arguments are URLs (percent-decoded); `…Path(decodedurl='…')` ones are already decoded. */
function urlArgument(args: Argument[], decoded: boolean): string {
  const text = stringArgument(args, decoded ? 'decodedurl' : 'serverrelativeurl', 'url', 'strurl');
  if (decoded) return text;
  try { return decodeURIComponent(text); } catch { return text; }
}

function booleanArgument(args: Argument[], name: string): boolean {
  const literal = argumentLiteral(argument(args, name));
  return literal?.type === 'boolean' ? literal.value : literal?.type === 'string' ? literal.value.toLowerCase() === 'true' : false;
}

async function folderAt(web: Web, url: string, ctx: ApiContext): Promise<FolderResource | Outcome> {
  const found = await locate(web, url, ctx);
  if (found && !found.path) return { kind: 'folder', list: found.list, path: '' };
  const { dir, name } = splitPath(found?.path ?? '');
  const item = found && name ? await ctx.store.documents.at(found.list, await ctx.store.fields.of(found.list), dir, name) : undefined;
  if (item?.place.folder) return { kind: 'folder', list: found!.list, path: pathOf(item) };
  // A folder probed with `$select=Exists` alone answers Exists false rather than 404 (CONFIRMED;
  // a file never does), and the CLI's `folder add` relies on it.
  const select = ctx.query.select;
  if (select?.length === 1 && select[0]!.length === 1 && select[0]![0]!.toLowerCase() === 'exists') {
    return ok({ kind: 'entity', metadataName: 'SP.Folder', entity: { type: 'SP.Folder', props: [['Exists', false]] } });
  }
  throw fail.folderNotFound(url);
}

async function fileAt(web: Web, url: string, ctx: ApiContext): Promise<FileResource> {
  const found = await locate(web, url, ctx);
  const { dir, name } = splitPath(found?.path ?? '');
  const item = found && name ? await ctx.store.documents.at(found.list, await ctx.store.fields.of(found.list), dir, name) : undefined;
  if (!found || !item || item.place.folder) throw fail.fileNotFound(url);
  return { kind: 'file', list: found.list, item };
}

/** The file or folder of the web whose UniqueId is the argument. */
const byUniqueId = (web: Web, args: Argument[], ctx: ApiContext) => documentById(ctx.store, web, guidText(stringArgument(args, 'uniqueid', 'id')));

/** The web's methods that address files and folders (added to the web type). */
export const webFileMethods: NonNullable<ResourceType<{ kind: 'web'; web: Web }>['methods']> = {
  getfolderbyserverrelativeurl: { kind: 'function', invoke: (r, args, ctx) => folderAt(r.web, urlArgument(args, false), ctx) },
  getfolderbyserverrelativepath: { kind: 'function', invoke: (r, args, ctx) => folderAt(r.web, urlArgument(args, true), ctx) },
  getfilebyserverrelativeurl: { kind: 'function', invoke: (r, args, ctx) => fileAt(r.web, urlArgument(args, false), ctx) },
  getfilebyserverrelativepath: { kind: 'function', invoke: (r, args, ctx) => fileAt(r.web, urlArgument(args, true), ctx) },
  getfilebyid: {
    kind: 'function',
    async invoke(r, args, ctx) {
      const found = await byUniqueId(r.web, args, ctx);
      if (!found || found.item.place.folder) throw fail.fileNotFoundById();
      return { kind: 'file', list: found.list, item: found.item };
    },
  },
  getfolderbyid: {
    kind: 'function',
    async invoke(r, args, ctx) {
      const found = await byUniqueId(r.web, args, ctx);
      if (!found?.item.place.folder) throw fail.folderNotFound(stringArgument(args, 'uniqueid', 'id'));
      return { kind: 'folder', list: found.list, path: pathOf(found.item) };
    },
  },
};

// ---- entities

/** `Web/GetFileByServerRelativePath(decodedurl='…')` (or Folder): where an entity's odata.id and editLink point. */
const pathLink = (kind: 'File' | 'Folder', url: string): string => `Web/Get${kind}ByServerRelativePath(decodedurl='${url.replace(/'/g, "''")}')`;

function subfolderEntity(list: List, item: Item, ctx: ApiContext, itemCount: number): Entity {
  const url = urlOf(list, pathOf(item));
  const link = pathLink('Folder', url);
  return {
    type: 'SP.Folder', id: `${ctx.apiUrl}${link}`, editLink: link,
    deferred: ['Files', 'ListItemAllFields', 'ParentFolder', 'Properties', 'StorageMetrics', 'Folders'],
    props: [
      ['Exists', true], ['IsWOPIEnabled', false], ['ItemCount', itemCount], ['Name', item.place.name ?? ''],
      ['ProgID', null], ['ServerRelativePath', resourcePathValue(url)], ['ServerRelativeUrl', url], ['TimeCreated', item.created],
      ['TimeLastModified', item.modified], ['UniqueId', item.guid], ['WelcomePage', ''],
    ],
  };
}

export function fileEntity(list: List, item: Item, ctx: ApiContext): Entity {
  const url = urlOf(list, pathOf(item));
  const link = pathLink('File', url);
  const etag = fileEtag(item);
  return {
    type: 'SP.File', id: `${ctx.apiUrl}${link}`, editLink: link, etag,
    deferred: ['Author', 'CheckedOutByUser', 'EffectiveInformationRightsManagementSettings', 'InformationRightsManagementSettings',
      'ListItemAllFields', 'LockedByUser', 'ModifiedBy', 'Properties', 'VersionEvents', 'VersionExpirationReport', 'Versions'],
    props: [
      ['CheckInComment', item.file?.checkInComment ?? ''], ['CheckOutType', item.file?.checkedOutBy ? 0 : 2],
      ['ContentTag', `{${item.guid.toUpperCase()}},${item.version},${item.version}`], ['CustomizedPageStatus', 0], ['ETag', etag],
      ['Exists', true], ['ExistsAllowThrowForPolicyFailures', true], ['ExistsWithException', true], ['IrmEnabled', false],
      ['Length', String(item.file?.size ?? 0)], ['Level', item.file?.checkedOutBy ? 255 : 1], ['LinkingUri', null], ['LinkingUrl', ''],
      ['MajorVersion', item.uiVersion], ['MinorVersion', 0], ['Name', item.place.name ?? ''], ['ServerRelativePath', resourcePathValue(url)],
      ['ServerRelativeUrl', url], ['TimeCreated', item.created], ['TimeLastModified', item.modified], ['Title', item.values.Title ?? null],
      ['UIVersion', item.uiVersion * 512], ['UIVersionLabel', versionLabel(item.uiVersion)], ['UniqueId', item.guid],
    ],
  };
}

const fileOutcome = (list: List, item: Item, ctx: ApiContext): Outcome => singleEntity(fileEntity(list, item, ctx), 'SP.File', ctx);

// ---- resource types

const navigationOfFolder = {
  files: async (r: { list: List; path: string }): Promise<Resource> => ({ kind: 'files', list: r.list, dir: r.path }),
  folders: async (r: { list: List; path: string }): Promise<Resource> => ({ kind: 'folders', list: r.list, dir: r.path }),
};

export const folderType: ResourceType<FolderResource> = {
  permissions: { delete: 'DeleteListItems' },
  navigation: {
    ...navigationOfFolder,
    listitemallfields: async (r, ctx) => ({ kind: 'item', list: r.list, id: (await folderItem(r, ctx)).id }),
  },
  async delete(r, ctx) {
    await ctx.services.documents.deleteFolder(r.list, r.path);
    return emptyOk();
  },
  async get(r, ctx) {
    if (!r.path) return singleEntity(folderEntity((await ctx.store.lists.withCounters([r.list]))[0]!, ctx), 'SP.Folder', ctx);
    const fields = await ctx.store.fields.of(r.list);
    const { dir, name } = splitPath(r.path);
    const item = await ctx.store.documents.at(r.list, fields, dir, name);
    if (!item) throw fail.folderNotFound(urlOf(r.list, r.path));
    return singleEntity(subfolderEntity(r.list, item, ctx, await ctx.store.documents.count(r.list, r.path)), 'SP.Folder', ctx);
  },
};

/** The root folder of a list (list/RootFolder) is a folder too. */
export const rootFolderNavigation = {
  files: async (r: { list: List }): Promise<Resource> => ({ kind: 'files', list: r.list, dir: '' }),
  folders: async (r: { list: List }): Promise<Resource> => ({ kind: 'folders', list: r.list, dir: '' }),
};

/** Where an add names its new file or folder: a path below the collection's folder, or a server-relative URL. */
async function target(r: { list: List; dir: string }, url: string, ctx: ApiContext): Promise<{ list: List; path: string }> {
  const found = url.startsWith('/') ? await locate(ctx.web, url, ctx) : { list: r.list, path: joinPath(r.dir, url) };
  if (!found) throw fail.folderNotFound(url);
  return found;
}

async function addFile(r: FilesResource, args: Argument[], ctx: ApiContext, decoded: boolean): Promise<Outcome> {
  const overwrite = booleanArgument(args, 'overwrite');
  const found = await target(r, urlArgument(args, decoded), ctx);
  const { item } = await ctx.services.documents.putFile(found.list, found.path, bodyOf(ctx), { overwrite });
  return fileOutcome(found.list, item, ctx);
}

/** `folders/add(url)`; `addUsingPath(DecodedUrl, overwrite)` answers an existing folder as it is when overwrite is on (SharePoint keeps it and its contents). */
async function addFolder(r: FoldersResource, args: Argument[], ctx: ApiContext, decoded: boolean): Promise<Outcome> {
  const found = await target(r, urlArgument(args, decoded), ctx);
  const { dir, name } = splitPath(found.path);
  const existing = decoded && booleanArgument(args, 'overwrite')
    ? await ctx.store.documents.at(found.list, await ctx.store.fields.of(found.list), dir, name) : undefined;
  const item = existing?.place.folder ? existing : await ctx.services.documents.createFolder(found.list, found.path);
  return singleEntity(subfolderEntity(found.list, item, ctx, 0), 'SP.Folder', ctx);
}

export const filesType: ResourceType<FilesResource> = {
  async key(r, args, ctx) {
    const name = stringArgument(args, 'url');
    const item = await ctx.store.documents.at(r.list, await ctx.store.fields.of(r.list), r.dir, name);
    if (!item || item.place.folder) throw fail.fileNotFoundById();
    return { kind: 'file', list: r.list, item };
  },
  async get(r, ctx) {
    const page = await ctx.store.documents.children(r.list, await ctx.store.fields.of(r.list), r.dir, { kind: 'file', top: 5000 });
    return entityCollection(page.items.map((i) => fileEntity(r.list, i, ctx)), 'SP.ApiData.Files', ctx);
  },
  methods: {
    add: { kind: 'action', permission: 'AddListItems', body: 'stream', invoke: (r, args, ctx) => addFile(r, args, ctx, false) },
    addusingpath: { kind: 'action', permission: 'AddListItems', body: 'stream', invoke: (r, args, ctx) => addFile(r, args, ctx, true) },
    /**
     * The file of that name, or a stub for it: CLI for Microsoft 365 starts chunked uploads with
     * `GetByPathOrAddStub(…)/StartUpload(…)`. Resolving writes nothing (a GET never does); the
     * stub's StartUpload makes the empty file first.
     */
    getbypathoraddstub: {
      kind: 'function',
      async invoke(r, args, ctx) {
        const found = await target(r, urlArgument(args, true), ctx);
        const { dir, name } = splitPath(found.path);
        const existing = await ctx.store.documents.at(found.list, await ctx.store.fields.of(found.list), dir, name);
        if (existing && !existing.place.folder) return { kind: 'file', list: found.list, item: existing };
        return { kind: 'fileStub', list: found.list, path: found.path };
      },
    },
  },
};

export const foldersType: ResourceType<FoldersResource> = {
  async key(r, args, ctx) {
    const name = stringArgument(args, 'url');
    const item = await ctx.store.documents.at(r.list, await ctx.store.fields.of(r.list), r.dir, name);
    if (!item?.place.folder) throw fail.folderNotFound(urlOf(r.list, joinPath(r.dir, name)));
    return { kind: 'folder', list: r.list, path: pathOf(item) };
  },
  async get(r, ctx) {
    const fields = await ctx.store.fields.of(r.list);
    const page = await ctx.store.documents.children(r.list, fields, r.dir, { kind: 'folder', top: 5000 });
    const entities: Entity[] = [];
    for (const item of page.items) entities.push(subfolderEntity(r.list, item, ctx, await ctx.store.documents.count(r.list, pathOf(item))));
    return entityCollection(entities, 'SP.ApiData.Folders', ctx);
  },
  methods: {
    add: { kind: 'action', permission: 'AddListItems', body: 'none', invoke: (r, args, ctx) => addFolder(r, args, ctx, false) },
    addusingpath: { kind: 'action', permission: 'AddListItems', body: 'none', invoke: (r, args, ctx) => addFolder(r, args, ctx, true) },
  },
};

/** What SharePoint answers a void action (checkout, checkin, …): 200 `{"odata.null":true}` (CONFIRMED, recorded SPO responses). */
const voidResult = (methodName: string): Outcome => ok({ kind: 'primitive', methodName, edmType: 'Edm.Null', value: null });

/** An action on a file that takes no body and answers as a void action does. */
function voidAction<R extends Resource>(methodName: string, permission: PermissionKind, run: (r: R, args: Argument[], ctx: ApiContext) => Promise<void>): MethodDef<R> {
  return { kind: 'action', permission, body: 'none', async invoke(r, args, ctx) { await run(r, args, ctx); return voidResult(methodName); } };
}

export const fileType: ResourceType<FileResource> = {
  permissions: { delete: 'DeleteListItems' },
  navigation: {
    $value: async (r) => ({ kind: 'fileContent', list: r.list, item: r.item }),
    listitemallfields: async (r) => ({ kind: 'item', list: r.list, id: r.item.id }),
    versions: async (r) => ({ kind: 'fileVersions', list: r.list, item: r.item }),
  },
  methods: {
    startupload: {
      kind: 'action', permission: 'EditListItems', body: 'stream',
      async invoke(r, args, ctx) {
        const offset = await ctx.services.documents.startUpload(r.list, r.item, uploadIdOf(args), bodyOf(ctx));
        return int64('StartUpload', offset);
      },
    },
    continueupload: {
      kind: 'action', permission: 'EditListItems', body: 'stream',
      async invoke(r, args, ctx) {
        const offset = await ctx.services.documents.continueUpload(r.list, r.item, uploadIdOf(args), integerArgument(args, 'fileoffset'), bodyOf(ctx));
        return int64('ContinueUpload', offset);
      },
    },
    finishupload: {
      kind: 'action', permission: 'EditListItems', body: 'stream',
      async invoke(r, args, ctx) {
        const item = await ctx.services.documents.finishUpload(r.list, r.item, uploadIdOf(args), integerArgument(args, 'fileoffset'), bodyOf(ctx));
        return fileOutcome(r.list, item, ctx);
      },
    },
    cancelupload: voidAction('CancelUpload', 'EditListItems', (_r, args, ctx) => ctx.services.documents.cancelUpload(uploadIdOf(args))),
    checkout: voidAction('CheckOut', 'EditListItems', (r, _args, ctx) => ctx.services.documents.checkOut(r.list, r.item)),
    checkin: voidAction('CheckIn', 'EditListItems', (r, args, ctx) =>
      ctx.services.documents.checkIn(r.list, r.item, argument(args, 'comment') === undefined ? '' : stringArgument(args, 'comment'))),
    undocheckout: voidAction('UndoCheckOut', 'EditListItems', (r, _args, ctx) => ctx.services.documents.undoCheckOut(r.list, r.item)),
    recycle: {
      kind: 'action', permission: 'DeleteListItems', body: 'none',
      async invoke(r, _args, ctx) {
        await ctx.services.documents.requireWritable(r.list, r.item);
        const id = await ctx.services.items.recycle(r.list, await ctx.store.fields.of(r.list), r.item.id);
        return ok({ kind: 'primitive', methodName: 'Recycle', edmType: 'Edm.Guid', value: id });
      },
    },
  },
  get: async (r, ctx) => fileOutcome(r.list, r.item, ctx),
  async delete(r, ctx) {
    await ctx.services.documents.requireWritable(r.list, r.item);
    await ctx.services.items.delete(r.list, await ctx.store.fields.of(r.list), r.item.id, ctx.conditions);
    return emptyOk();
  },
};

const uploadIdOf = (args: Argument[]): string => guidText(stringArgument(args, 'uploadid'));
/** An offset as SharePoint answers it: Edm.Int64, written as a string. */
const int64 = (methodName: string, value: number): Outcome => ok({ kind: 'primitive', methodName, edmType: 'Edm.Int64', value: String(value) });

export const fileStubType: ResourceType<{ kind: 'fileStub'; list: List; path: string }> = {
  get: async (r) => { throw fail.fileNotFound(urlOf(r.list, r.path)); },
  methods: {
    startupload: {
      kind: 'action', permission: 'AddListItems', body: 'stream',
      async invoke(r, args, ctx) {
        const { item } = await ctx.services.documents.putFile(r.list, r.path, nothing(), { overwrite: false });
        return int64('StartUpload', await ctx.services.documents.startUpload(r.list, item, uploadIdOf(args), bodyOf(ctx)));
      },
    },
  },
};

// ---- file versions: the past versions the library kept, each with the content it had

function fileVersionEntity(r: { list: List; item: Item }, version: Item, ctx: ApiContext): Entity {
  const id = versionId(version.uiVersion);
  const link = `${pathLink('File', urlOf(r.list, pathOf(r.item)))}/Versions(${id})`;
  const size = version.file?.size ?? 0;
  return {
    type: 'SP.FileVersion', id: `${ctx.apiUrl}${link}`, editLink: link, deferred: ['CreatedBy'],
    props: [
      ['CheckInComment', version.file?.checkInComment ?? ''], ['Created', version.modified], ['ID', id], ['IsCurrentVersion', false],
      ['Length', String(size)], ['Size', size],
      // Relative to the web, as SharePoint gives it: `_vti_history/512/Shared Documents/a.txt`.
      ['Url', `_vti_history/${id}/${webRelativeUrl(ctx.web.serverRelativeUrl, urlOf(r.list, pathOf(r.item)))}`],
      ['VersionLabel', versionLabel(version.uiVersion)],
    ],
  };
}

const pastVersions = async (r: { list: List; item: Item }, ctx: ApiContext): Promise<Item[]> =>
  (await ctx.store.versions.of(r.list, r.item.id)).filter((v) => v.file !== undefined);

export const fileVersionsType: ResourceType<{ kind: 'fileVersions'; list: List; item: Item }> = {
  async key(r, args, ctx) {
    const uiVersion = uiVersionOf(integerArgument(args, 'id', 'versionid'));
    const version = (await pastVersions(r, ctx)).find((v) => v.uiVersion === uiVersion);
    if (!version) throw fail.versionNotFound();
    return { kind: 'fileVersion', list: r.list, item: r.item, version };
  },
  get: async (r, ctx) => entityCollection((await pastVersions(r, ctx)).map((v) => fileVersionEntity(r, v, ctx)), 'SP.ApiData.FileVersions', ctx),
  methods: {
    deletebyid: voidAction('DeleteById', 'DeleteVersions', async (r, args, ctx) => {
      const uiVersion = uiVersionOf(integerArgument(args, 'vid'));
      if (uiVersion === undefined) throw fail.versionNotFound();
      await ctx.services.versions.delete(r.list, r.item.id, uiVersion);
    }),
  },
};

export const fileVersionType: ResourceType<{ kind: 'fileVersion'; list: List; item: Item; version: Item }> = {
  permissions: { delete: 'DeleteVersions' },
  navigation: {
    $value: async (r) => ({ kind: 'fileVersionContent', list: r.list, item: r.version }),
  },
  get: async (r, ctx) => singleEntity(fileVersionEntity(r, r.version, ctx), 'SP.FileVersion', ctx),
  async delete(r, ctx) {
    await ctx.services.versions.delete(r.list, r.item.id, r.version.uiVersion);
    return emptyOk();
  },
};

/** The item of a folder (not the root folder: a list's root folder is no item). */
async function folderItem(r: FolderResource, ctx: ApiContext): Promise<Item> {
  const { dir, name } = splitPath(r.path);
  const item = name ? await ctx.store.documents.at(r.list, await ctx.store.fields.of(r.list), dir, name) : undefined;
  if (!item) throw fail.folderNotFound(urlOf(r.list, r.path));
  return item;
}

/** The bytes of a file, or of one of its past versions, streamed from its blob. */
async function contentOf(r: { list: List; item: Item }, ctx: ApiContext): Promise<Outcome> {
  const stream = r.item.file ? await ctx.store.blobs.open(r.item.file.blobId) : undefined;
  if (!stream) throw fail.fileNotFound(urlOf(r.list, pathOf(r.item)));
  return { kind: 'bytes', status: 200, body: stream, contentType: 'application/octet-stream', length: r.item.file!.size, etag: fileEtag(r.item) };
}

export const fileContentType: ResourceType<FileContentResource> = {
  permissions: { update: 'EditListItems' },
  bodies: { update: 'stream' },
  get: contentOf,
  async update(r, ctx) {
    await ctx.services.documents.putFile(r.list, pathOf(r.item), bodyOf(ctx), { overwrite: true });
    return noContent();
  },
};

/** A past version's bytes: read only (a PUT answers 405, as on any resource without it). */
export const fileVersionContentType: ResourceType<{ kind: 'fileVersionContent'; list: List; item: Item }> = { get: contentOf };
