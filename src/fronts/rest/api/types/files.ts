// Files and folders of a list or library (issue #11): addressed by server-relative URL or
// path from the web, or from a list's root folder; listed, created, read and written. The
// bytes stream both ways: an upload is the request itself (`body: 'stream'`), a download a
// stream of the blob.

import { requireOnItem } from '../authorize-on.ts';
import { viewableChildren } from '../item-visibility.ts';
import { decodeUrlText, fileEtag, splitPath, webRelativeUrl } from '../../../../domain/documents.ts';
import { isTemplateFileType, pageTemplate } from '../../../../domain/page-templates.ts';
import { CHECK_IN_TYPE, type CheckInType } from '../../../../services/publishing.ts';
import { documentAt, documentById } from '../../../../services/document-paths.ts';
import { fail } from '../../../../domain/errors.ts';
import type { Item, List, Web } from '../../../../domain/model.ts';
import type { Entity } from '../../../../wire/values.ts';
import type { ApiContext } from '../context.ts';
import { resourcePathValue } from '../entities.ts';
import { noContent, ok, type Outcome, voidResult } from '../outcome.ts';
import type { ResourceOf, ResourceType } from '../resource.ts';
import { argument, emptyOk, entityCollection, guidText, integerArgument, singleEntity, stringArgument } from './shared.ts';
import type { Argument } from '../../../../odata/path.ts';
import {bodyOf, booleanArgument, nothing, pathLink, pathOf, propertyBag, target, urlArgument, urlOf, voidAction} from './documents-shared.ts';
import { folderAt, webFolderById } from './folders.ts';
import { formsAt } from './forms-folder.ts';
import { destinationOf, moveFlagsOverwrite } from './move-copy.ts';
import { siteUserById } from './principals.ts';
import { getLimitedWebPartManager } from './web-parts.ts';
import { isVersionId, versionIdOf, versionIdOfLabel, versionLabelOf } from '../../../../domain/versions.ts';

type FilesResource = { kind: 'files'; list: List; dir: string };
type FileResource = { kind: 'file'; list: List; item: Item };
type FileContentResource = { kind: 'fileContent'; list: List; item: Item };

async function fileAt(web: Web, url: string, ctx: ApiContext): Promise<FileResource | ResourceOf<'formsFile'>> {
  const found = await documentAt(ctx.store, web, url);
  if (!found) {
    // A library's Forms folder holds files that are no items (its column defaults).
    const forms = await formsAt(web, url, ctx, 'file');
    if (forms?.kind === 'formsFile') return forms;
  }
  if (!found?.item || found.item.place.folder) throw fail.fileNotFound(url);
  return { kind: 'file', list: found.list, item: found.item };
}

/** The file or folder of the web whose UniqueId is the argument. */
const byUniqueId = (web: Web, args: Argument[], ctx: ApiContext) => documentById(ctx.store, web, guidText(stringArgument(args, 'uniqueid', 'id')));

/** The web's methods that address files and folders (added to the web type). */
export const webFileMethods: NonNullable<ResourceType<{ kind: 'web'; web: Web }>['methods']> = {
  getfolderbyserverrelativeurl: { kind: 'function', invoke: (r, args, ctx) => folderAt(r.web, urlArgument(args, false), ctx) },
  getfolderbyserverrelativepath: { kind: 'function', invoke: (r, args, ctx) => folderAt(r.web, urlArgument(args, true), ctx) },
  getfilebyserverrelativeurl: { kind: 'function', invoke: (r, args, ctx) => fileAt(r.web, urlArgument(args, false), ctx) },
  getfilebyserverrelativepath: { kind: 'function', invoke: (r, args, ctx) => fileAt(r.web, urlArgument(args, true), ctx) },
  /** `getFileByUrl('…')`: an absolute or server-relative URL (PnPjs prefixes it with `!@p1::`, which names no alias here). */
  getfilebyurl: {
    kind: 'function',
    invoke: (r, args, ctx) => fileAt(r.web, stringArgument(args, 'fileurl', 'url').replace(/^!@p\d+::/, ''), ctx),
  },
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
      if (found?.item.place.folder) return { kind: 'folder', list: found.list, path: pathOf(found.item) };
      // A list's root folder has the list's id as its UniqueId; the web's own folders a name-based one.
      const id = guidText(stringArgument(args, 'uniqueid', 'id'));
      const list = found ? undefined : await ctx.store.lists.byId(r.web.id, id);
      const folder = list ? { kind: 'folder' as const, list, path: '' } : await webFolderById(r.web, id, ctx);
      if (!folder) throw fail.folderNotFound(id);
      return folder;
    },
  },
};

// ---- entities

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
      ['MajorVersion', item.uiVersion], ['MinorVersion', item.minorVersion], ['Name', item.place.name ?? ''], ['ServerRelativePath', resourcePathValue(url)],
      ['ServerRelativeUrl', url], ['TimeCreated', item.created], ['TimeLastModified', item.modified], ['Title', item.values.Title ?? null],
      ['UIVersion', versionIdOf(item)], ['UIVersionLabel', versionLabelOf(item)], ['UniqueId', item.guid],
    ],
  };
}

const fileOutcome = (list: List, item: Item, ctx: ApiContext): Outcome => singleEntity(fileEntity(list, item, ctx), 'SP.File', ctx);

// ---- resource types

async function addFile(r: FilesResource, args: Argument[], ctx: ApiContext, decoded: boolean): Promise<Outcome> {
  const overwrite = booleanArgument(args, 'overwrite');
  const found = await target(r, urlArgument(args, decoded), ctx);
  if (overwrite) await mayReplace(found, ctx);
  const { item } = await ctx.services.documents.putFile(found.list, found.path, bodyOf(ctx), { overwrite });
  return fileOutcome(found.list, item, ctx);
}

/** Replacing a file that is there changes it: Edit Items on the file itself (it may have permissions of its own). */
async function mayReplace(found: { list: List; path: string }, ctx: ApiContext): Promise<void> {
  if ((await ctx.store.roleAssignments.scopes(ctx.site.id)).size === 0) return;
  const { dir, name } = splitPath(found.path);
  const existing = await ctx.store.documents.at(found.list, await ctx.store.fields.of(found.list), dir, name);
  if (existing && !existing.place.folder) await requireOnItem(found.list, existing, 'EditListItems', ctx);
}

/**
 * `addTemplateFile(urloffile='…',templatefiletype=n)`: a new page made from a template
 * (StandardPage 0, WikiPage 1, FormPage 2, ClientSidePage 3), at a path below the folder or a
 * server-relative URL (PnPjs's test puts it in Site Pages through the Documents' files).
 */
async function addTemplateFile(r: FilesResource, args: Argument[], ctx: ApiContext): Promise<Outcome> {
  const type = integerArgument(args, 'templatefiletype');
  if (!isTemplateFileType(type)) throw fail.badArgument(`The template file type ${type} is not valid.`);
  const found = await target(r, decodeUrlText(stringArgument(args, 'urloffile')), ctx);
  const content = Buffer.from(pageTemplate(type), 'utf8');
  const { item } = await ctx.services.documents.putFile(found.list, found.path, (async function* () { yield content; })(), { overwrite: false });
  return fileOutcome(found.list, item, ctx);
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
    return entityCollection((await viewableChildren(page.items, r.list, ctx)).map((i) => fileEntity(r.list, i, ctx)), 'SP.ApiData.Files', ctx);
  },
  methods: {
    add: { kind: 'action', permission: 'AddListItems', body: 'stream', invoke: (r, args, ctx) => addFile(r, args, ctx, false) },
    addusingpath: { kind: 'action', permission: 'AddListItems', body: 'stream', invoke: (r, args, ctx) => addFile(r, args, ctx, true) },
    addtemplatefile: { kind: 'action', permission: 'AddListItems', body: 'none', invoke: addTemplateFile },
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

// Reading a file or its bytes needs View Items on it (the Open that Limited Access gives a user
// who was let into something else of the site is not enough); its past versions, View Versions.
export const fileType: ResourceType<FileResource> = {
  permissions: { get: 'ViewListItems', delete: 'DeleteListItems' },
  navigation: {
    $value: async (r) => ({ kind: 'fileContent', list: r.list, item: r.item }),
    listitemallfields: async (r) => ({ kind: 'item', list: r.list, id: r.item.id }),
    versions: async (r) => ({ kind: 'fileVersions', list: r.list, item: r.item }),
    /** Who holds the file checked out (a site user), or null. */
    checkedoutbyuser: async (r, ctx) => (r.item.file?.checkedOutBy != null
      ? { kind: 'siteUser', user: await siteUserById(ctx, r.item.file.checkedOutBy) }
      : { kind: 'readOnly', read: async () => voidResult('CheckedOutByUser') }),
    /** The file's property bag: spemu keeps no properties of a file, so it is empty. */
    properties: async (r) => ({ kind: 'readOnly', read: async (ctx) => propertyBag(`${pathLink('File', urlOf(r.list, pathOf(r.item)))}/Properties`, ctx, []) }),
    /** Who holds a co-authoring lock: nobody ever (spemu keeps no such locks), so null, as SharePoint answers an unlocked file. */
    lockedbyuser: async () => ({ kind: 'readOnly', read: async () => voidResult('LockedByUser') }),
  },
  methods: {
    getlimitedwebpartmanager: getLimitedWebPartManager,
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
    checkin: voidAction('CheckIn', 'EditListItems', (r, args, ctx) => ctx.services.publishing.checkIn(r.list, r.item, commentOf(args), checkInTypeOf(args))),
    undocheckout: voidAction('UndoCheckOut', 'EditListItems', (r, _args, ctx) => ctx.services.documents.undoCheckOut(r.list, r.item)),
    publish: voidAction('Publish', 'EditListItems', (r, args, ctx) => ctx.services.publishing.publish(r.list, r.item, commentOf(args))),
    unpublish: voidAction('UnPublish', 'EditListItems', (r, args, ctx) => ctx.services.publishing.unpublish(r.list, r.item, commentOf(args))),
    approve: voidAction('Approve', 'ApproveItems', (r, args, ctx) => ctx.services.publishing.moderate(r.list, r.item, 'approve', commentOf(args))),
    deny: voidAction('Deny', 'ApproveItems', (r, args, ctx) => ctx.services.publishing.moderate(r.list, r.item, 'deny', commentOf(args))),
    moveto: voidAction('MoveTo', 'DeleteListItems', async (r, args, ctx) => {
      const to = await destinationOf(urlArgument(args.filter((a) => a.name?.toLowerCase() !== 'flags'), false), ctx);
      await ctx.services.documents.transfer('move', r.list, r.item, to, { overwrite: moveFlagsOverwrite(args) });
    }),
    copyto: voidAction('CopyTo', 'AddListItems', async (r, args, ctx) => {
      const to = await destinationOf(urlArgument(args.filter((a) => a.name?.toLowerCase() !== 'boverwrite'), false), ctx);
      await ctx.services.documents.transfer('copy', r.list, r.item, to, { overwrite: booleanArgument(args, 'boverwrite') });
    }),
    deletewithparameters: voidAction('DeleteWithParameters', 'DeleteListItems', async (r, _args, ctx) => {
      await ctx.services.documents.requireWritable(r.list, r.item);
      await ctx.services.items.delete(r.list, await ctx.store.fields.of(r.list), r.item.id, ctx.conditions);
    }),
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

/** `checkintype=n` (SP.CheckinType: minor 0, major 1, overwrite 2); major when it is not given, as PnPjs defaults. */
function checkInTypeOf(args: Argument[]): CheckInType {
  if (argument(args, 'checkintype') === undefined) return CHECK_IN_TYPE.major;
  const type = integerArgument(args, 'checkintype');
  if (type !== 0 && type !== 1 && type !== 2) throw fail.badArgument(`The check-in type ${type} is not valid.`);
  return type;
}

/** A `comment='…'` argument, '' when it is not given. */
const commentOf = (args: Argument[]): string => (argument(args, 'comment') === undefined ? '' : stringArgument(args, 'comment'));
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
  const id = versionIdOf(version);
  const link = `${pathLink('File', urlOf(r.list, pathOf(r.item)))}/Versions(${id})`;
  const size = version.file?.size ?? 0;
  return {
    type: 'SP.FileVersion', id: `${ctx.apiUrl}${link}`, editLink: link, deferred: ['CreatedBy'],
    props: [
      ['CheckInComment', version.file?.checkInComment ?? ''], ['Created', version.modified], ['ID', id], ['IsCurrentVersion', false],
      ['Length', String(size)], ['Size', size],
      // Relative to the web, as SharePoint gives it: `_vti_history/512/Shared Documents/a.txt`.
      ['Url', `_vti_history/${id}/${webRelativeUrl(ctx.web.serverRelativeUrl, urlOf(r.list, pathOf(r.item)))}`],
      ['VersionLabel', versionLabelOf(version)],
    ],
  };
}

const pastVersions = async (r: { list: List; item: Item }, ctx: ApiContext): Promise<Item[]> =>
  (await ctx.store.versions.of(r.list, r.item.id)).filter((v) => v.file !== undefined);

/** `versionlabel='2.0'` (or `'1.3'`, a draft): the VersionId it names. */
function labelArgument(args: Argument[]): number {
  const id = versionIdOfLabel(stringArgument(args, 'versionlabel', 'label'));
  if (id === undefined) throw fail.versionNotFound();
  return id;
}

/** `vid=513`: a VersionId. */
function versionIdArgument(args: Argument[], ...names: string[]): number {
  const id = integerArgument(args, ...names);
  if (!isVersionId(id)) throw fail.versionNotFound();
  return id;
}

export const fileVersionsType: ResourceType<{ kind: 'fileVersions'; list: List; item: Item }> = {
  permissions: { get: 'ViewVersions' },
  async key(r, args, ctx) {
    const id = versionIdArgument(args, 'id', 'versionid');
    const version = (await pastVersions(r, ctx)).find((v) => versionIdOf(v) === id);
    if (!version) throw fail.versionNotFound();
    return { kind: 'fileVersion', list: r.list, item: r.item, version };
  },
  get: async (r, ctx) => entityCollection((await pastVersions(r, ctx)).map((v) => fileVersionEntity(r, v, ctx)), 'SP.ApiData.FileVersions', ctx),
  methods: {
    deletebyid: voidAction('DeleteById', 'DeleteVersions', async (r, args, ctx) => {
      await ctx.services.versions.delete(r.list, r.item.id, versionIdArgument(args, 'vid'));
    }),
    deletebylabel: voidAction('DeleteByLabel', 'DeleteVersions', async (r, args, ctx) => {
      await ctx.services.versions.delete(r.list, r.item.id, labelArgument(args));
    }),
    // RecycleByID / RecycleByLabel: spemu's recycle bin holds items, not versions, so the version
    // is deleted as DeleteById does (docs/compatibility.md).
    recyclebyid: voidAction('RecycleByID', 'DeleteVersions', async (r, args, ctx) => {
      await ctx.services.versions.delete(r.list, r.item.id, versionIdArgument(args, 'vid'));
    }),
    recyclebylabel: voidAction('RecycleByLabel', 'DeleteVersions', async (r, args, ctx) => {
      await ctx.services.versions.delete(r.list, r.item.id, labelArgument(args));
    }),
    deleteall: voidAction('DeleteAll', 'DeleteVersions', async (r, _args, ctx) => {
      for (const v of await pastVersions(r, ctx)) await ctx.services.versions.delete(r.list, r.item.id, versionIdOf(v));
    }),
    restorebylabel: voidAction('RestoreByLabel', 'EditListItems', async (r, args, ctx) => {
      await ctx.services.documents.restoreVersion(r.list, r.item, labelArgument(args));
    }),
  },
};

export const fileVersionType: ResourceType<{ kind: 'fileVersion'; list: List; item: Item; version: Item }> = {
  permissions: { get: 'ViewVersions', delete: 'DeleteVersions' },
  navigation: {
    $value: async (r) => ({ kind: 'fileVersionContent', list: r.list, item: r.version }),
  },
  get: async (r, ctx) => singleEntity(fileVersionEntity(r, r.version, ctx), 'SP.FileVersion', ctx),
  async delete(r, ctx) {
    await ctx.services.versions.delete(r.list, r.item.id, versionIdOf(r.version));
    return emptyOk();
  },
};

/** The bytes of a file, or of one of its past versions, streamed from its blob. */
async function contentOf(r: { list: List; item: Item }, ctx: ApiContext): Promise<Outcome> {
  const stream = r.item.file ? await ctx.store.blobs.open(r.item.file.blobId) : undefined;
  if (!stream) throw fail.fileNotFound(urlOf(r.list, pathOf(r.item)));
  return { kind: 'bytes', status: 200, body: stream, contentType: 'application/octet-stream', length: r.item.file!.size, etag: fileEtag(r.item) };
}

export const fileContentType: ResourceType<FileContentResource> = {
  permissions: { get: 'ViewListItems', update: 'EditListItems' },
  bodies: { update: 'stream' },
  get: contentOf,
  async update(r, ctx) {
    await ctx.services.documents.putFile(r.list, pathOf(r.item), bodyOf(ctx), { overwrite: true, conditions: ctx.conditions });
    return noContent();
  },
};

/** A past version's bytes: read only (a PUT answers 405, as on any resource without it). */
export const fileVersionContentType: ResourceType<{ kind: 'fileVersionContent'; list: List; item: Item }> = { permissions: { get: 'ViewVersions' }, get: contentOf };
