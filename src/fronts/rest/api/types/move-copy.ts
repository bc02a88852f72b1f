// Moving and copying files and folders: `SP.MoveCopyUtil`'s static methods (what PnPjs's
// moveByPath/copyByPath and the CLI call), and where the older File.moveTo/copyTo and
// Folder.moveTo name their destination. The work is DocumentService.transfer's.

import { decodeUrlText, isWithin, segments, splitPath } from '../../../../domain/documents.ts';
import { requireInFolder, requireOnItem } from '../authorize-on.ts';
import { fail } from '../../../../domain/errors.ts';
import type { List } from '../../../../domain/model.ts';
import type { Argument } from '../../../../odata/path.ts';
import { documentAt } from '../../../../services/document-paths.ts';
import { errors } from '../../../../wire/errors.ts';
import { boolProp, readMethodBody, stringProp, type Properties } from '../body.ts';
import type { ApiContext } from '../context.ts';
import type { ResourceType } from '../resource.ts';
import { booleanArgument, locate, voidAction } from './documents-shared.ts';
import { integerArgument } from './shared.ts';

/** `{ DecodedUrl: '…' }` (an SP.ResourcePath) or a plain string, as bodies name paths. */
export function resourcePathProp(props: Properties, name: string): string {
  const key = Object.keys(props).find((k) => k.toLowerCase() === name.toLowerCase());
  const value = key === undefined ? undefined : props[key];
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object') {
    const decoded = Object.entries(value as Properties).find(([k]) => k.toLowerCase() === 'decodedurl')?.[1];
    if (typeof decoded === 'string') return decoded;
  }
  throw errors.badArgument(`The parameter ${name} is required.`);
}

/** The list and path a destination URL (absolute, server-relative or relative to the web) names, in this request's site. */
export async function destinationOf(url: string, ctx: ApiContext): Promise<{ list: List; path: string }> {
  const path = /^https?:\/\//i.test(url) ? decodeUrlText(new URL(url).pathname) : url;
  if (path.startsWith('/') && !isWithin(segments(path).join('/'), segments(ctx.site.url).join('/'))) throw fail.crossSiteTransfer();
  const found = await locate(ctx.web, path, ctx);
  if (!found || !found.path) throw fail.folderNotFound(url);
  // What arrives is added to the destination's folder: the caller must be able to add there.
  await requireInFolder(found.list, splitPath(found.path).dir, 'AddListItems', ctx);
  return found;
}

/** The file or folder a source URL names (for MoveCopyUtil), with what it must be. */
async function sourceOf(url: string, kind: 'file' | 'folder', ctx: ApiContext) {
  const found = await documentAt(ctx.store, ctx.web, url);
  if (!found?.item || found.item.place.folder !== (kind === 'folder')) {
    throw kind === 'file' ? fail.fileNotFound(url) : fail.folderNotFound(url);
  }
  return { list: found.list, item: found.item };
}

/** MoveCopyOptions as SharePoint takes them (KeepBoth, ResetAuthorAndCreatedOnCopy, RetainEditorAndModifiedOnMove, …). */
function optionsOf(body: Properties, args: Argument[]) {
  const options = (body.options && typeof body.options === 'object' ? body.options : {}) as Properties;
  return {
    overwrite: booleanArgument(args, 'overwrite') || boolProp(body, 'overwrite') === true,
    keepBoth: boolProp(options, 'KeepBoth') ?? false,
    keepAuthor: !(boolProp(options, 'ResetAuthorAndCreatedOnCopy') ?? true),
    keepEditor: boolProp(options, 'RetainEditorAndModifiedOnMove') ?? false,
  };
}

type Util = { kind: 'moveCopyUtil' };

/** One of MoveCopyUtil's methods: `byPath` ones take srcPath/destPath (SP.ResourcePath), the others srcUrl/destUrl. */
function utilMethod(name: string, kind: 'move' | 'copy', what: 'file' | 'folder', byPath: boolean) {
  return voidAction<Util>(name, kind === 'move' ? 'DeleteListItems' : 'AddListItems', async (_r, args, ctx) => {
    const body = readMethodBody(ctx);
    const src = byPath ? resourcePathProp(body, 'srcPath') : stringProp(body, 'srcUrl');
    const dest = byPath ? resourcePathProp(body, 'destPath') : stringProp(body, 'destUrl');
    if (!src || !dest) throw errors.badArgument('srcUrl and destUrl are required.');
    const source = await sourceOf(src, what, ctx);
    // The source by its own permissions (the method's check was on the web): read to copy, deleted to move.
    await requireOnItem(source.list, source.item, kind === 'move' ? 'DeleteListItems' : 'ViewListItems', ctx);
    await ctx.services.documents.transfer(kind, source.list, source.item, await destinationOf(dest, ctx), optionsOf(body, args));
  }, 'json');
}

export const moveCopyUtilType: ResourceType<Util> = {
  methods: {
    copyfile: utilMethod('CopyFile', 'copy', 'file', false),
    movefile: utilMethod('MoveFile', 'move', 'file', false),
    copyfilebypath: utilMethod('CopyFileByPath', 'copy', 'file', true),
    movefilebypath: utilMethod('MoveFileByPath', 'move', 'file', true),
    copyfolder: utilMethod('CopyFolder', 'copy', 'folder', false),
    movefolder: utilMethod('MoveFolder', 'move', 'folder', false),
    copyfolderbypath: utilMethod('CopyFolderByPath', 'copy', 'folder', true),
    movefolderbypath: utilMethod('MoveFolderByPath', 'move', 'folder', true),
  },
};

/** MoveOperations of File.moveTo: 1 = overwrite (SP.MoveOperations). */
export const moveFlagsOverwrite = (args: Argument[]): boolean => {
  const has = args.some((a) => a.name?.toLowerCase() === 'flags' || a.name?.toLowerCase() === 'moveoperations');
  return has ? (integerArgument(args, 'flags', 'moveoperations') & 1) === 1 : false;
};
