// What the file, folder and attachment types share: addressing arguments, URLs and links,
// the request's streamed body, and SharePoint's answer to a void action.

import { decodeUrlText, joinPath, placePath, splitPath, urlInList } from '../../../../domain/documents.ts';
import { requireInFolder } from '../authorize-on.ts';
import { fail } from '../../../../domain/errors.ts';
import type { Item, List, Web } from '../../../../domain/model.ts';
import type { PermissionKind } from '../../../../domain/permissions.ts';
import { argumentLiteral, type Argument } from '../../../../odata/path.ts';
import { locate as locateDocument } from '../../../../services/document-paths.ts';
import type { ApiContext } from '../context.ts';
import { ok, voidResult, type Outcome } from '../outcome.ts';
import type { BodyKind, MethodDef, Resource } from '../resource.ts';
import { argument, singleEntity, stringArgument } from './shared.ts';

/** A file's or folder's server-relative URL. */
export const urlOf = (list: List, path: string): string => urlInList(list.serverRelativeUrl, path);
export const pathOf = (item: Item): string => placePath(item.place);

/** The list holding `url` and the path inside it (services/document-paths.ts). */
export const locate = (web: Web, url: string, ctx: ApiContext) => locateDocument(ctx.store, web, url);

/** No bytes: an empty file or chunk. */
export async function* nothing(): AsyncGenerator<Uint8Array> { /* empty */ }
/** The request's streamed body, or no bytes when it has none. */
export const bodyOf = (ctx: ApiContext): AsyncIterable<Uint8Array> => ctx.bodyStream ?? nothing();

/** `…Url('…')` arguments are URLs (percent-decoded); `…Path(decodedurl='…')` ones are already decoded. */
export function urlArgument(args: Argument[], decoded: boolean): string {
  const text = stringArgument(args, decoded ? 'decodedurl' : 'serverrelativeurl', 'url', 'strurl', 'newurl', 'strnewurl');
  return decoded ? text : decodeUrlText(text);
}

export function booleanArgument(args: Argument[], name: string): boolean {
  const literal = argumentLiteral(argument(args, name));
  return literal?.type === 'boolean' ? literal.value : literal?.type === 'string' ? literal.value.toLowerCase() === 'true' : false;
}

/** `Web/GetFileByServerRelativePath(decodedurl='…')` (or Folder): where an entity's odata.id and editLink point. */
export const pathLink = (kind: 'File' | 'Folder', url: string): string => `Web/Get${kind}ByServerRelativePath(decodedurl='${url.replace(/'/g, "''")}')`;

/** Where an add names its new file or folder: a path below the collection's folder, or a server-relative URL. */
export async function target(r: { list: List; dir: string }, url: string, ctx: ApiContext): Promise<{ list: List; path: string }> {
  const found = url.startsWith('/') ? await locate(ctx.web, url, ctx) : { list: r.list, path: joinPath(r.dir, url) };
  if (!found) throw fail.folderNotFound(url);
  // The resolver checked the collection's folder; a path or URL naming another folder needs that one's.
  const { dir } = splitPath(found.path);
  if (found.list.rowId !== r.list.rowId || dir.toLowerCase() !== r.dir.toLowerCase()) await requireInFolder(found.list, dir, 'AddListItems', ctx);
  return found;
}

/**
 * A file's or folder's property bag (SP.PropertyValues) at `link`: spemu stores no properties of
 * its own, so it holds only what SharePoint always sets (`props`).
 */
export function propertyBag(link: string, ctx: ApiContext, props: Array<[string, string]>): Outcome {
  return singleEntity({ type: 'SP.PropertyValues', id: `${ctx.apiUrl}${link}`, editLink: link, props }, 'SP.PropertyValues', ctx);
}

/** An action that answers as a void action does; it takes no body unless `body` says which. */
export function voidAction<R extends Resource>(methodName: string, permission: PermissionKind, run: (r: R, args: Argument[], ctx: ApiContext) => Promise<void>, body: BodyKind = 'none'): MethodDef<R> {
  return { kind: 'action', permission, body, async invoke(r, args, ctx) { await run(r, args, ctx); return voidResult(methodName); } };
}

