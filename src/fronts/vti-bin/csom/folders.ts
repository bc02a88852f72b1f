// SP.Folder by Web.GetFolderByServerRelativeUrl, in a list or library (its root folder or a
// folder in it), and its property bag (SP.Folder.Properties): read only, as REST serves it —
// what SharePoint always has there (vti_isbrowsable, vti_listname, a list's rating setting in
// its root folder). spemu stores no folder properties, so writing them (SetFieldValue), and
// folders above a web's lists, are not served.

import { fail } from '../../../domain/errors.ts';
import type { List, Web } from '../../../domain/model.ts';
import { grants } from '../../../domain/permissions.ts';
import { effectivePermissions } from '../../../identity/effective-permissions.ts';
import { documentAt, locate } from '../../../services/document-paths.ts';
import { csomErrors } from './errors.ts';
import { CsomObject, guidValue, remember, webIdentity, type CsomContext, type PropertyValue } from './objects.ts';

export async function folderAt(ctx: CsomContext, web: Web, url: string): Promise<FolderObject> {
  if (!(await locate(ctx.store, web, url))) throw csomErrors.notImplemented('folders outside a list or library');
  const found = await documentAt(ctx.store, web, url);
  if (!found || (found.item && !found.item.place.folder)) throw fail.folderNotFound(url);
  // As a list is reached (lists.ts): Open on the list holding it.
  if (!grants(await effectivePermissions(ctx.store, ctx.site, ctx.principal, { kind: 'list', web, list: found.list }), 'Open')) throw fail.accessDenied();
  const path = found.path;
  const uniqueId = found.item ? found.item.guid : found.list.id;
  return remember(ctx, `web:${web.id}:folder:${uniqueId}`, () => new FolderObject(web, found.list, path, uniqueId));
}

export class FolderObject extends CsomObject {
  readonly typeName = 'SP.Folder';
  #properties: FolderProperties | undefined;
  constructor(readonly web: Web, readonly list: List, readonly path: string, readonly uniqueId: string) { super(); }

  get serverRelativeUrl(): string { return this.path ? `${this.list.serverRelativeUrl}/${this.path}` : this.list.serverRelativeUrl; }

  override identity(ctx: CsomContext) { return `${webIdentity(ctx, this.web)}:folder:${this.uniqueId}`; }
  override defaultProperties() { return ['Name', 'ServerRelativeUrl', 'UniqueId']; }

  override async get(name: string): Promise<PropertyValue | undefined> {
    switch (name) {
      case 'Name': return this.serverRelativeUrl.split('/').pop() ?? '';
      case 'ServerRelativeUrl': return this.serverRelativeUrl;
      case 'UniqueId': return guidValue(this.uniqueId);
      case 'Properties': return (this.#properties ??= new FolderProperties(this));
      default: return undefined;
    }
  }
}

class FolderProperties extends CsomObject {
  readonly typeName = 'SP.PropertyValues';
  constructor(private readonly folder: FolderObject) { super(); }

  override allFields(): Promise<Record<string, unknown>> {
    const { list, path } = this.folder;
    const fields: Record<string, unknown> = { vti_isbrowsable: '1', vti_listname: `{${list.id.toUpperCase()}}` };
    if (!path && list.ratingExperience) fields.Ratings_VotingExperience = list.ratingExperience;
    return Promise.resolve(fields);
  }

  override async get(name: string): Promise<PropertyValue | undefined> {
    const fields = await this.allFields();
    return Object.hasOwn(fields, name) ? fields[name] as string : null;
  }
}
