// Content types: which a web and a list have, and their life. A web offers the built-in
// types, its own and its parent webs' (a subweb sees what its parents define); a list has
// its own copy of its template's type (and Folder), as SharePoint gives every list, plus the
// types bound to it with addAvailableContentType, each a child of the type it copies.

import { randomUUID } from 'node:crypto';
import {
  BUILT_IN_CONTENT_TYPES, childContentTypeId, inheritsFrom, normaliseContentTypeId, type ContentType,
} from '../domain/content-types.ts';
import { fail } from '../domain/errors.ts';
import type { List, Web } from '../domain/model.ts';
import { listContentTypeId, templateInfo } from '../domain/templates.ts';
import type { ContentTypePatch } from '../store/content-types.ts';
import type { Store, StoreReader } from '../store/store.ts';

type Reader = Pick<StoreReader, 'sites' | 'lists' | 'contentTypes'>;

export interface NewContentTypeInput {
  id: string;
  name: string;
  description: string;
  group: string;
}

/** The types a web offers: built in, then its parents' own, then its own. */
export async function webContentTypes(store: Reader, web: Web): Promise<ContentType[]> {
  const chain: Web[] = [];
  for (let at: Web | undefined = web; at; at = at.parentId ? await store.sites.web(at.parentId) : undefined) chain.unshift(at);
  const own = await Promise.all(chain.map((w) => store.contentTypes.of({ kind: 'web', webId: w.id })));
  return [...BUILT_IN_CONTENT_TYPES, ...own.flat()];
}

/** A list's types: its copy of its template's type, Folder's copy, then the ones bound to it. */
export async function listContentTypes(store: Reader, list: List): Promise<ContentType[]> {
  const parent = BUILT_IN_CONTENT_TYPES.find((t) => t.id === templateInfo(list.baseTemplate).parentContentTypeId) ?? BUILT_IN_CONTENT_TYPES[1]!;
  const folder = BUILT_IN_CONTENT_TYPES.find((t) => t.id === '0x0120')!;
  const scope = { kind: 'list' as const, listRowId: list.rowId };
  return [
    { ...parent, id: listContentTypeId(list.baseTemplate, list.id), scope },
    { ...folder, id: childContentTypeId('0x0120', list.id), hidden: list.baseType !== 1, scope },
    ...await store.contentTypes.of(scope),
  ];
}

export class ContentTypeService {
  constructor(private readonly store: Store) {}

  /**
   * A new site content type in `web`, named uniquely there. SharePoint's REST API ignores the
   * Id a client sends and makes a child of Item with a new GUID (pnp/pnpjs#457,
   * pnp/cli-microsoft365#550, pnp/pnpjs#3367); so does spemu.
   */
  async create(web: Web, input: NewContentTypeInput): Promise<ContentType> {
    if (normaliseContentTypeId(input.id) === undefined) throw fail.badArgument(`"${input.id}" is not a content type id.`);
    const name = input.name.trim();
    if (!name) throw fail.badArgument('The content type needs a name.');
    const offered = await webContentTypes(this.store, web);
    if (offered.some((t) => t.name.toLowerCase() === name.toLowerCase())) throw fail.contentTypeExists(name);
    const parent = offered.find((t) => t.id === '0x01')!;
    const id = childContentTypeId(parent.id, randomUUID());
    const type = { id, name, description: input.description, group: input.group || 'Custom Content Types', hidden: false, readOnly: false, sealed: false, fieldLinks: parent.fieldLinks };
    if (!(await this.store.contentTypes.add({ kind: 'web', webId: web.id }, type))) throw fail.contentTypeExists(name);
    return { ...type, scope: { kind: 'web', webId: web.id } };
  }

  /**
   * A site content type with the id provisioning code gives it (CSOM and tenant files can;
   * REST cannot): a child of a type the web offers, not yet there; without an id, as `create`.
   */
  async define(web: Web, input: Omit<NewContentTypeInput, 'id'> & { id?: string | undefined }): Promise<ContentType> {
    if (input.id === undefined) return this.create(web, { ...input, id: '0x01' });
    const id = normaliseContentTypeId(input.id);
    if (!id || id === '0x') throw fail.badArgument(`"${input.id}" is not a content type id.`);
    const name = input.name.trim();
    const offered = await webContentTypes(this.store, web);
    if (offered.some((t) => t.id === id || t.name.toLowerCase() === name.toLowerCase())) throw fail.contentTypeExists(name);
    const parent = offered.filter((t) => id.startsWith(t.id) && t.id !== id).sort((a, b) => b.id.length - a.id.length)[0];
    if (!parent || !isChildId(id, parent.id)) throw fail.badArgument(`The parent of content type ${id} is not a type the web offers.`);
    const type = { id, name, description: input.description, group: input.group || 'Custom Content Types', hidden: false, readOnly: false, sealed: false, fieldLinks: parent.fieldLinks };
    if (!(await this.store.contentTypes.add({ kind: 'web', webId: web.id }, type))) throw fail.contentTypeExists(name);
    return { ...type, scope: { kind: 'web', webId: web.id } };
  }

  /** Binds a copy of a type the web offers to a list (addAvailableContentType), by id or (tenant files) by name. */
  async addToListByName(web: Web, list: List, nameOrId: string): Promise<ContentType> {
    const byName = (await webContentTypes(this.store, web)).find((t) => t.name.toLowerCase() === nameOrId.toLowerCase());
    return this.addToList(web, list, byName?.id ?? nameOrId);
  }

  /** Binds a copy of a type the web offers to a list (addAvailableContentType). */
  async addToList(web: Web, list: List, contentTypeId: string): Promise<ContentType> {
    const id = normaliseContentTypeId(contentTypeId);
    const source = id === undefined ? undefined : (await webContentTypes(this.store, web)).find((t) => t.id === id);
    if (!source) throw fail.contentTypeNotFound();
    const existing = await listContentTypes(this.store, list);
    if (existing.some((t) => t.name.toLowerCase() === source.name.toLowerCase())) throw fail.contentTypeExists(source.name);
    const type = { ...source, id: childContentTypeId(source.id, randomUUID()), hidden: false, readOnly: false, sealed: false };
    const { scope: _, ...row } = type;
    await this.store.contentTypes.add({ kind: 'list', listRowId: list.rowId }, row);
    return { ...row, scope: { kind: 'list', listRowId: list.rowId } };
  }

  /** Name, description, group, hidden: on a type defined in this web or bound to this list; built-in and default ones are not spemu's to change. */
  async update(type: ContentType, changes: ContentTypePatch): Promise<ContentType> {
    if (type.scope.kind === 'builtIn' || type.sealed) throw fail.contentTypeReadOnly(type.name);
    if (changes.name !== undefined && !changes.name.trim()) throw fail.badArgument('The content type needs a name.');
    const updated = await this.store.contentTypes.update(type.scope, type.id, changes);
    if (!updated) throw fail.contentTypeReadOnly(type.name);
    return updated;
  }

  async delete(web: Web, type: ContentType): Promise<void> {
    if (type.scope.kind === 'builtIn') throw fail.contentTypeReadOnly(type.name);
    if (type.scope.kind === 'web') {
      // In use: a list of this web or below holds a copy of it.
      for (const w of await this.store.sites.websOf(web.siteId)) {
        for (const list of await this.store.lists.inWeb(w.id)) {
          if ((await this.store.contentTypes.of({ kind: 'list', listRowId: list.rowId })).some((t) => inheritsFrom(t.id, type.id))) throw fail.contentTypeInUse(type.name);
        }
      }
    }
    if (!(await this.store.contentTypes.delete(type.scope, type.id))) throw fail.contentTypeReadOnly(type.name);
  }
}

/** Whether `id` is a direct child of `parent`: two more hex digits, or `00` and a GUID's 32. */
function isChildId(id: string, parent: string): boolean {
  const rest = id.slice(parent.length);
  return /^[0-9A-F]{2}$/.test(rest) && rest !== '00' || /^00[0-9A-F]{32}$/.test(rest);
}
