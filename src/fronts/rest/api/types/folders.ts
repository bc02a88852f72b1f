// Folders of a list or library, and the folders of a web above its lists' root folders
// (issue #11): addressed by URL, by UniqueId or by name below a folder; listed, added, renamed,
// moved, copied, recycled and deleted; their parent, property bag and storage metrics.
//
// A list's root folder is `{ kind: 'folder', path: '' }`. What lies between a web and its
// lists' root folders (the web's own root folder, `Lists`, `_catalogs`) holds no items: those
// are `webFolder`s, made from the lists' URLs.

import { requireInFolder } from '../authorize-on.ts';
import { viewableChildren } from '../item-visibility.ts';
import { createHash } from 'node:crypto';
import { joinPath, segments, splitPath } from '../../../../domain/documents.ts';
import { documentAt } from '../../../../services/document-paths.ts';
import { fail } from '../../../../domain/errors.ts';
import type { Item, List, Web } from '../../../../domain/model.ts';
import type { Argument } from '../../../../odata/path.ts';
import { errors } from '../../../../wire/errors.ts';
import type { Entity } from '../../../../wire/values.ts';
import { boolProp, readEntityBody, readMethodBody, readParameters, stringProp } from '../body.ts';
import type { ApiContext } from '../context.ts';
import { folderEntity, resourcePathValue } from '../entities.ts';
import { noContent, ok, type Outcome, voidResult } from '../outcome.ts';
import type { Resource, ResourceType } from '../resource.ts';
import {booleanArgument, locate, pathLink, pathOf, propertyBag, target, urlArgument, urlOf, voidAction} from './documents-shared.ts';
import { destinationOf, resourcePathProp } from './move-copy.ts';
import { emptyOk, entityCollection, singleEntity, stringArgument } from './shared.ts';
import { contentTypeOrder } from './content-types.ts';
import { projectedEntity } from '../expand.ts';
import { folderNavigations } from './folder-expand.ts';
import { formsAt, isFormsPath } from './forms-folder.ts';

type FolderResource = { kind: 'folder'; list: List; path: string };
type FoldersResource = { kind: 'folders'; list: List; dir: string };
type WebFolderResource = { kind: 'webFolder'; web: Web; path: string };

/** The folder at a URL: a list's folder, a web folder above the lists, the `$select=Exists` probe's answer, or a missing folder. */
export async function folderAt(web: Web, url: string, ctx: ApiContext): Promise<Resource | Outcome> {
  const found = await documentAt(ctx.store, web, url);
  if (found && !found.item) return { kind: 'folder', list: found.list, path: '' };
  if (found?.item?.place.folder) return { kind: 'folder', list: found.list, path: found.path };
  if (!found) {
    const webPath = await webFolderPath(web, url, ctx);
    if (webPath !== undefined) return { kind: 'webFolder', web, path: webPath };
    const forms = await formsAt(web, url, ctx, 'folder');
    if (forms) return forms;
  }
  // A folder probed with `$select=Exists` alone answers Exists false rather than 404 (CONFIRMED;
  // a file never does), and the CLI's `folder add` relies on it.
  const select = ctx.query.select;
  if (select?.length === 1 && select[0]!.length === 1 && select[0]![0]!.toLowerCase() === 'exists') {
    return ok({ kind: 'entity', metadataName: 'SP.Folder', entity: { type: 'SP.Folder', props: [['Exists', false]] } });
  }
  // Not there: resolved lazily, as SharePoint does (missing-folder.ts).
  return { kind: 'missingFolder', url };
}

export function subfolderEntity(list: List, item: Item, ctx: ApiContext, itemCount: number): Entity {
  return folderShape(urlOf(list, pathOf(item)), item.place.name ?? '', itemCount, item.guid, item.created, item.modified, ctx);
}

function folderShape(url: string, name: string, itemCount: number, uniqueId: string, created: string, modified: string, ctx: ApiContext): Entity {
  const link = pathLink('Folder', url);
  return {
    type: 'SP.Folder', id: `${ctx.apiUrl}${link}`, editLink: link,
    deferred: ['Files', 'ListItemAllFields', 'ParentFolder', 'Properties', 'StorageMetrics', 'Folders'],
    props: [
      ['Exists', true], ['ExistsAllowThrowForPolicyFailures', true], ['ExistsWithException', true], ['IsWOPIEnabled', false],
      ['ItemCount', itemCount], ['Name', name], ['ProgID', null], ['ServerRelativePath', resourcePathValue(url)], ['ServerRelativeUrl', url],
      ['TimeCreated', created], ['TimeLastModified', modified], ['UniqueId', uniqueId], ['WelcomePage', ''],
    ],
  };
}

/** The item of a folder (not the root folder: a list's root folder is no item). */
export async function folderItem(r: FolderResource, ctx: ApiContext): Promise<Item> {
  const { dir, name } = splitPath(r.path);
  const item = name ? await ctx.store.documents.at(r.list, await ctx.store.fields.of(r.list), dir, name) : undefined;
  if (!item?.place.folder) throw fail.folderNotFound(urlOf(r.list, r.path));
  return item;
}

/** A read-only entity reached by navigation (Properties, StorageMetrics). */
const readOnly = (read: (ctx: ApiContext) => Promise<Outcome>): Resource => ({ kind: 'readOnly', read });

/** SP.StorageMetrics of the files below a folder: CONFIRMED property names (SharePoint REST reference). */
async function storageMetrics(list: List, path: string, ctx: ApiContext): Promise<Outcome> {
  const m = await ctx.store.documents.metrics(list, path);
  const link = `${pathLink('Folder', urlOf(list, path))}/StorageMetrics`;
  return singleEntity({
    type: 'SP.StorageMetrics', id: `${ctx.apiUrl}${link}`, editLink: link,
    props: [['LastModified', m.lastModified ?? list.created], ['TotalFileCount', String(m.files)],
      ['TotalFileStreamSize', String(m.bytes)], ['TotalSize', String(m.bytes)]],
  }, 'SP.StorageMetrics', ctx);
}

/**
 * A folder's property bag: spemu keeps none of its own, so it is empty but for what SharePoint
 * always has, and in a list's folders the list's id (`vti_listname`, `{GUID}` upper-case), which
 * PnPjs's column defaults read to find the library of a folder, and in its root folder its rating
 * settings when it has some.
 */
async function folderProperties(url: string, ctx: ApiContext, list?: List): Promise<Outcome> {
  const props: Array<[string, string]> = [['vti_x005f_isbrowsable', '1']];
  if (list) props.push(['vti_x005f_listname', `{${list.id.toUpperCase()}}`]);
  // A list's rating settings live in its root folder's bag (domain/ratings.ts), `_` escaped as in every key.
  if (list?.ratingExperience && url.toLowerCase() === list.serverRelativeUrl.toLowerCase()) props.push(['Ratings_x005f_VotingExperience', list.ratingExperience]);
  return propertyBag(`${pathLink('Folder', url)}/Properties`, ctx, props);
}

export const folderType: ResourceType<FolderResource> = {
  permissions: { delete: 'DeleteListItems', update: 'EditListItems' },
  navigation: {
    files: async (r) => ({ kind: 'files', list: r.list, dir: r.path }),
    folders: async (r) => ({ kind: 'folders', list: r.list, dir: r.path }),
    listitemallfields: async (r, ctx) => (r.path
      ? { kind: 'item', list: r.list, id: (await folderItem(r, ctx)).id }
      // A list's root folder has no item: SharePoint answers null (PnPjs's getItem relies on it).
      : readOnly(async () => voidResult('ListItemAllFields'))),
    parentfolder: async (r, ctx) => {
      if (r.path) return { kind: 'folder', list: r.list, path: splitPath(r.path).dir };
      const web = (await ctx.store.sites.web(r.list.webId)) ?? ctx.web;
      return { kind: 'webFolder', web, path: splitPath(webRelative(web, r.list.serverRelativeUrl)).dir };
    },
    properties: async (r) => readOnly((ctx) => folderProperties(urlOf(r.list, r.path), ctx, r.list)),
    storagemetrics: async (r) => readOnly((ctx) => storageMetrics(r.list, r.path, ctx)),
  },
  methods: {
    addsubfolderusingpath: voidAction('AddSubFolderUsingPath', 'AddListItems', async (r, _args, ctx) => {
      const leaf = resourcePathProp(readMethodBody(ctx), 'leafPath');
      await ctx.services.documents.createFolder(r.list, joinPath(r.path, leaf));
    }, 'json'),
    recycle: {
      kind: 'action', permission: 'DeleteListItems', body: 'none',
      async invoke(r, _args, ctx) {
        if (!r.path) throw errors.badArgument('The root folder of a list cannot be recycled.');
        return ok({ kind: 'primitive', methodName: 'Recycle', edmType: 'Edm.Guid', value: await ctx.services.documents.recycleFolder(r.list, r.path) });
      },
    },
    deletewithparameters: voidAction('DeleteWithParameters', 'DeleteListItems', async (r, _args, ctx) => {
      const parameters = readParameters(ctx, 'SP.FolderDeleteParameters');
      await ctx.services.documents.deleteFolder(r.list, r.path, { ifEmpty: boolProp(parameters, 'DeleteIfEmpty') ?? false });
    }, 'json'),
    moveto: voidAction('MoveTo', 'DeleteListItems', (r, args, ctx) => transferFolder('move', r, args, ctx, false)),
    movetousingpath: voidAction('MoveToUsingPath', 'DeleteListItems', (r, args, ctx) => transferFolder('move', r, args, ctx, true), 'json'),
    copytousingpath: voidAction('CopyToUsingPath', 'AddListItems', (r, args, ctx) => transferFolder('copy', r, args, ctx, true), 'json'),
  },
  async get(r, ctx) {
    const item = r.path ? await folderItem(r, ctx) : undefined;
    const entity = item
      ? subfolderEntity(r.list, item, ctx, await ctx.store.documents.count(r.list, r.path))
      : folderEntity((await ctx.store.lists.withCounters([r.list]))[0]!, ctx);
    // The content types a new item here may be, in order (the list's; no folder orders its own: UniqueContentTypeOrder null).
    const withOrder = { ...entity, props: [...entity.props, ['ContentTypeOrder', await contentTypeOrder(r.list, ctx)], ['UniqueContentTypeOrder', null]] as typeof entity.props };
    return projectedEntity(withOrder, folderNavigations(r.list, r.path, item, ctx), 'SP.Folder', ctx);
  },
  /** MERGE: a new Name renames the folder (a list's root folder keeps its name: the list's URL is not renamed here). */
  async update(r, ctx) {
    const props = readEntityBody(ctx, 'SP.Folder');
    for (const key of Object.keys(props)) if (key !== 'Name') throw errors.badArgument(`spemu does not set the property '${key}' of SP.Folder.`);
    const name = stringProp(props, 'Name');
    if (!r.path) {
      if (name !== undefined && name !== r.list.serverRelativeUrl.split('/').pop()) throw errors.badArgument('The root folder of a list cannot be renamed.');
      return noContent();
    }
    const item = await folderItem(r, ctx);
    if (name !== undefined && name !== item.place.name) {
      await ctx.services.documents.rename(r.list, item, name);
    }
    return noContent();
  },
  async delete(r, ctx) {
    await ctx.services.documents.deleteFolder(r.list, r.path);
    return emptyOk();
  },
};

/**
 * Folder.moveTo(newurl='…') names its destination in the URL; MoveToUsingPath and
 * CopyToUsingPath in the body (`newPath`, and `bOverWrite` for a copy).
 */
async function transferFolder(kind: 'move' | 'copy', r: FolderResource, args: Argument[], ctx: ApiContext, inBody: boolean): Promise<void> {
  if (!r.path) throw errors.badArgument('The root folder of a list cannot be moved or copied.');
  const body = inBody ? readMethodBody(ctx) : undefined;
  const url = body ? resourcePathProp(body, 'newPath') : urlArgument(args, false);
  const overwrite = body ? boolProp(body, 'bOverWrite') === true : false;
  await ctx.services.documents.transfer(kind, r.list, await folderItem(r, ctx), await destinationOf(url, ctx), { overwrite });
}

/** `folders/add(url)`; `addUsingPath(DecodedUrl, overwrite)` answers an existing folder as it is when overwrite is on (SharePoint keeps it and its contents). */
async function addFolder(r: FoldersResource, args: Argument[], ctx: ApiContext, decoded: boolean): Promise<Outcome> {
  return addFolderAt(await target(r, urlArgument(args, decoded), ctx), decoded && booleanArgument(args, 'overwrite'), ctx);
}

async function addFolderAt(found: { list: List; path: string }, keepExisting: boolean, ctx: ApiContext, status = 200): Promise<Outcome> {
  const { dir, name } = splitPath(found.path);
  const existing = keepExisting ? await ctx.store.documents.at(found.list, await ctx.store.fields.of(found.list), dir, name) : undefined;
  const item = existing?.place.folder ? existing : await ctx.services.documents.createFolder(found.list, found.path);
  const outcome = singleEntity(subfolderEntity(found.list, item, ctx, 0), 'SP.Folder', ctx);
  return { ...outcome, status };
}

export const foldersType: ResourceType<FoldersResource> = {
  async key(r, args, ctx) {
    const name = stringArgument(args, 'url');
    const item = await ctx.store.documents.at(r.list, await ctx.store.fields.of(r.list), r.dir, name);
    if (!item && isFormsPath(r.list, joinPath(r.dir, name))) return { kind: 'formsFolder', list: r.list };
    if (!item?.place.folder) throw fail.folderNotFound(urlOf(r.list, joinPath(r.dir, name)));
    return { kind: 'folder', list: r.list, path: pathOf(item) };
  },
  async get(r, ctx) {
    const fields = await ctx.store.fields.of(r.list);
    const page = await ctx.store.documents.children(r.list, fields, r.dir, { kind: 'folder', top: 5000 });
    const entities: Entity[] = [];
    for (const item of await viewableChildren(page.items, r.list, ctx)) entities.push(subfolderEntity(r.list, item, ctx, await ctx.store.documents.count(r.list, pathOf(item))));
    return entityCollection(entities, 'SP.ApiData.Folders', ctx);
  },
  methods: {
    add: { kind: 'action', permission: 'AddListItems', body: 'none', invoke: (r, args, ctx) => addFolder(r, args, ctx, false) },
    addusingpath: { kind: 'action', permission: 'AddListItems', body: 'none', invoke: (r, args, ctx) => addFolder(r, args, ctx, true) },
  },
};

// ---- the folders of a web above its lists

const webRelative = (web: Web, url: string): string => segments(url).slice(segments(web.serverRelativeUrl).length).join('/');
const webUrl = (web: Web, path: string): string => `/${[...segments(web.serverRelativeUrl), ...segments(path)].join('/')}`;

/** The web folder a URL names (a prefix of some list's URL, or the web itself), as a web-relative path. */
async function webFolderPath(web: Web, url: string, ctx: ApiContext): Promise<string | undefined> {
  const path = webRelative(web, /^https?:\/\//i.test(url) ? new URL(url).pathname : url.startsWith('/') ? url : webUrl(web, url));
  if (!path) return '';
  const prefix = `${path.toLowerCase()}/`;
  const lists = await ctx.store.lists.inWeb(web.id);
  const match = lists.find((l) => `${webRelative(web, l.serverRelativeUrl).toLowerCase()}/`.startsWith(prefix));
  return match ? segments(webRelative(web, match.serverRelativeUrl)).slice(0, segments(path).length).join('/') : undefined;
}

/** What a web folder holds: list root folders and web folders one level below it, by name. */
async function webFolderChildren(web: Web, path: string, ctx: ApiContext): Promise<Map<string, Resource>> {
  const depth = segments(path).length;
  const children = new Map<string, Resource>();
  for (const list of await ctx.store.lists.inWeb(web.id)) {
    const parts = segments(webRelative(web, list.serverRelativeUrl));
    if (parts.length <= depth || parts.slice(0, depth).join('/').toLowerCase() !== path.toLowerCase()) continue;
    const name = parts[depth]!;
    if (parts.length === depth + 1) children.set(name.toLowerCase(), { kind: 'folder', list, path: '' });
    else if (!children.has(name.toLowerCase())) children.set(name.toLowerCase(), { kind: 'webFolder', web, path: parts.slice(0, depth + 1).join('/') });
  }
  return children;
}

/** A stable UniqueId for a web folder (it is no item): a name-based GUID of the web and the path. */
function webFolderId(web: Web, path: string): string {
  const h = createHash('sha1').update(`${web.id}/${path.toLowerCase()}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

async function webFolderEntity(web: Web, path: string, ctx: ApiContext): Promise<Entity> {
  const children = await webFolderChildren(web, path, ctx);
  return folderShape(webUrl(web, path), segments(path).at(-1) ?? '', children.size, webFolderId(web, path), web.created, web.lastItemModified, ctx);
}

/** The web folder whose UniqueId is `id` (see webFolderId), if any: the web's root or a folder above its lists. */
export async function webFolderById(web: Web, id: string, ctx: ApiContext): Promise<Resource | undefined> {
  const paths = new Set<string>(['']);
  for (const list of await ctx.store.lists.inWeb(web.id)) {
    const parts = segments(webRelative(web, list.serverRelativeUrl));
    for (let n = 1; n < parts.length; n++) paths.add(parts.slice(0, n).join('/'));
  }
  for (const path of paths) if (webFolderId(web, path) === id) return { kind: 'webFolder', web, path };
  return undefined;
}

async function webFolderEntities(web: Web, path: string, ctx: ApiContext): Promise<Entity[]> {
  const entities: Entity[] = [];
  for (const child of (await webFolderChildren(web, path, ctx)).values()) {
    if (child.kind === 'webFolder') entities.push(await webFolderEntity(web, child.path, ctx));
    else if (child.kind === 'folder') entities.push(folderEntity((await ctx.store.lists.withCounters([child.list]))[0]!, ctx));
  }
  return entities;
}

/** A folder named below a web folder: a server-relative URL, or a name or path below it. */
async function folderBelowWeb(web: Web, path: string, url: string, ctx: ApiContext): Promise<{ list: List; path: string }> {
  const full = url.startsWith('/') ? url : webUrl(web, joinPath(path, url));
  const found = await locate(web, full, ctx);
  if (!found || !found.path) throw fail.folderNotFound(full);
  // The resolver checked the web; the folder it goes in has its own permissions.
  await requireInFolder(found.list, splitPath(found.path).dir, 'AddListItems', ctx);
  return found;
}

export const webFolderType: ResourceType<WebFolderResource> = {
  navigation: {
    folders: async (r) => ({ kind: 'webFolders', web: r.web, path: r.path }),
    files: async (r) => readOnly(async (ctx) => entityCollection([], 'SP.ApiData.Files', ctx)),
    parentfolder: async (r) => {
      if (!r.path) throw fail.folderNotFound(r.web.serverRelativeUrl);
      return { kind: 'webFolder', web: r.web, path: splitPath(r.path).dir };
    },
    properties: async (r) => readOnly((ctx) => folderProperties(webUrl(r.web, r.path), ctx)),
    listitemallfields: async () => readOnly(async () => voidResult('ListItemAllFields')),
  },
  get: async (r, ctx) => singleEntity(await webFolderEntity(r.web, r.path, ctx), 'SP.Folder', ctx),
};

export const webFoldersType: ResourceType<{ kind: 'webFolders'; web: Web; path: string }> = {
  permissions: { create: 'AddListItems' },
  async key(r, args, ctx) {
    const name = stringArgument(args, 'url');
    const child = (await webFolderChildren(r.web, r.path, ctx)).get(name.toLowerCase());
    if (!child) throw fail.folderNotFound(webUrl(r.web, joinPath(r.path, name)));
    return child;
  },
  get: async (r, ctx) => entityCollection(await webFolderEntities(r.web, r.path, ctx), 'SP.ApiData.Folders', ctx),
  methods: {
    add: { kind: 'action', permission: 'AddListItems', body: 'none', invoke: async (r, args, ctx) => addFolderAt(await folderBelowWeb(r.web, r.path, urlArgument(args, false), ctx), false, ctx) },
    addusingpath: {
      kind: 'action', permission: 'AddListItems', body: 'none',
      invoke: async (r, args, ctx) => addFolderAt(await folderBelowWeb(r.web, r.path, urlArgument(args, true), ctx), booleanArgument(args, 'overwrite'), ctx),
    },
  },
  /** POST web/folders with an SP.Folder body naming its ServerRelativeUrl: 201 and the new folder. */
  async create(r, ctx) {
    const url = stringProp(readEntityBody(ctx, 'SP.Folder'), 'ServerRelativeUrl');
    if (!url) throw errors.badArgument('ServerRelativeUrl is required.');
    return addFolderAt(await folderBelowWeb(r.web, r.path, url, ctx), false, ctx, 201);
  },
};
