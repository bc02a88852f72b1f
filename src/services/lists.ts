// Lists: their rules (a title, a supported template, no two lists of one title in a web, no
// two at one URL) and their life. Creating a list is more than a row: its item table, the
// built-in fields and the template's fields come into being together, in one transaction.

import { fail } from '../domain/errors.ts';
import type { List, Web } from '../domain/model.ts';
import { urlPrefix } from '../domain/names.ts';
import { MODERATION_STATUS, MODERATION_STATUS_FIELD, moderationFields } from '../domain/moderation.ts';
import { builtInFields, CATALOGS, entityTypeNameForUrl, isKnownTemplate, newListLocation, templateFields, USER_INFO_LIST_TEMPLATE } from '../domain/templates.ts';
import type { Store } from '../store/store.ts';
import { defaultViewOf } from '../domain/views.ts';
import { expectedVersion, mismatch, requireCurrent, type Conditions } from './conditions.ts';
import type { Actor } from './actor.ts';

export interface ListInput {
  title: string;
  description: string;
  baseTemplate: number;
  hidden?: boolean | undefined;
  enableVersioning?: boolean | undefined;
  /** Content approval (document libraries only). */
  enableModeration?: boolean | undefined;
  /** Minor versions (document libraries only; they turn versioning on). */
  enableMinorVersions?: boolean | undefined;
  /** SP.List DisableCommenting. */
  disableCommenting?: boolean | undefined;
  /** Root folder relative to the web; derived from the title when absent. */
  relativeUrl?: string;
}

export interface ListChanges {
  title?: string | undefined;
  description?: string | undefined;
  hidden?: boolean | undefined;
  enableVersioning?: boolean | undefined;
  enableModeration?: boolean | undefined;
  enableMinorVersions?: boolean | undefined;
  disableCommenting?: boolean | undefined;
}

/** A library a site makes on first use, at a fixed URL (Site Assets, Site Pages). */
export interface FixedLibrary { title: string; relativeUrl: string; baseTemplate: number }

/** The User Information List's template: the site's, never a client's to make. */
const USER_INFO_TEMPLATE = 112;

export class ListService {
  constructor(private readonly store: Store, private readonly actor: Actor) {}

  /** A new list in `web` (templates spemu knows, but the User Information List's). */
  async create(web: Web, input: ListInput): Promise<List> {
    const title = checkTitle(input.title);
    // Catalogs (the User Information List, the Web Part Gallery) are the site's, made with it.
    if (!isKnownTemplate(input.baseTemplate) || input.baseTemplate === USER_INFO_TEMPLATE || CATALOGS[input.baseTemplate]) {
      throw fail.badArgument(`The list template ${input.baseTemplate} is not supported by spemu.`);
    }
    if (await this.store.lists.byTitle(web.id, title)) throw fail.listAlreadyExists();
    return this.store.transaction(async (tx) => {
      const list = await createListWithFields(tx, web, { ...input, title }, this.actor.now());
      if (!input.enableModeration && !input.enableMinorVersions && !input.disableCommenting) return list;
      return applySettings(tx, list, {
        enableModeration: input.enableModeration, enableMinorVersions: input.enableMinorVersions, disableCommenting: input.disableCommenting,
      }, this.actor.now());
    });
  }

  async update(list: List, changes: ListChanges, conditions: Conditions): Promise<List> {
    requireCurrent(conditions, list.version);
    const title = changes.title === undefined ? undefined : checkTitle(changes.title);
    if (title !== undefined && title.toLowerCase() !== list.title.toLowerCase()) {
      if (await this.store.lists.byTitle(list.webId, title)) throw fail.listAlreadyExists();
    }
    return this.store.transaction(async (tx) => applySettings(tx, list, { ...changes, title }, this.actor.now(), (updated) => requireUnchanged(conditions, list, updated)));
  }

  async delete(list: List, conditions: Conditions): Promise<void> {
    requireCurrent(conditions, list.version);
    if (expectedVersion(conditions) === null) return this.store.lists.delete(list);
    // Conditional: the version moved by a write of our own first, checked, then the delete, in one transaction (see requireUnchanged).
    await this.store.transaction(async (tx) => {
      requireUnchanged(conditions, list, await tx.lists.update(list, {}, this.actor.now()));
      await tx.lists.delete(list);
    });
  }

  /** Sends the list to the recycle bin, whole (restored as it was); the bin entry's id. */
  recycle(list: List): Promise<string> {
    return this.store.recycleBin.recycleList(list, this.actor.userId, this.actor.now());
  }

  /** The library at its fixed URL, made if it is not there (re-checked inside the transaction, so racing calls make one). */
  async ensureLibrary(web: Web, library: FixedLibrary): Promise<List> {
    const url = `${urlPrefix(web.serverRelativeUrl)}/${library.relativeUrl}`;
    return this.store.transaction(async (tx) => {
      const existing = await tx.lists.byUrl(web.id, url);
      if (existing) return existing;
      if (await tx.lists.byTitle(web.id, library.title)) throw fail.listAlreadyExists();
      return createListWithFields(tx, web, { ...library, description: '' }, this.actor.now());
    });
  }
}

/**
 * A conditional list write, checked again inside its transaction: `requireCurrent` above read the
 * version from the (cached) record, which another request or instance may be replacing at the same
 * moment. The update moves the version by one under the list's locks (the metadata counter, then
 * the row), so it is the one after the If-Match's only if nothing else wrote between; otherwise
 * the throw rolls the write back (as items' `where version = ?` refuses theirs).
 */
function requireUnchanged(conditions: Conditions, before: List, updated: List): void {
  if (expectedVersion(conditions) !== null && updated.version !== before.version + 1) throw mismatch(conditions, updated.version - 1);
}

function checkTitle(title: string | undefined): string {
  if (title === undefined || title.trim() === '') throw fail.badArgument('The list title must not be empty.');
  if (title.length > 255) throw fail.badArgument('The list title must not be longer than 255 characters.');
  return title;
}

/**
 * A list's settings changed, inside the caller's transaction. Minor versions are a library's
 * (SharePoint refuses them elsewhere) and need versioning: turning them on turns versioning on,
 * turning versioning off turns them off. Content approval is built for files: a list that is
 * no library cannot have it here; turned on, the list gains its fields.
 */
async function applySettings(tx: Store, list: List, changes: ListChanges, now: string, check?: (updated: List) => void): Promise<List> {
  const library = list.baseType === 1;
  if (changes.enableMinorVersions === true && !library) throw fail.minorVersionsNotSupported();
  const moderationOn = changes.enableModeration === true && !list.enableModeration;
  if (moderationOn && !library) throw fail.moderationOfListItems();
  const patch = { ...changes };
  if (changes.enableMinorVersions === true) patch.enableVersioning = true;
  if (changes.enableVersioning === false) patch.enableMinorVersions = false;
  const updated = await tx.lists.update(list, patch, now);
  check?.(updated);
  return moderationOn ? withModerationFields(tx, updated) : updated;
}

/**
 * Content approval turned on: the list gains its two fields (once: turned off and on again, it
 * keeps them) and what is in it counts as approved, as SharePoint treats content that was there.
 */
async function withModerationFields(store: Store, list: List): Promise<List> {
  const fields = await store.fields.of(list);
  for (const field of moderationFields()) {
    if (!fields.some((f) => f.internalName === field.internalName)) await store.fields.add(list, field);
  }
  const withNew = await store.fields.of(list);
  await store.documents.setModeration(list, withNew, 'undecided', { [MODERATION_STATUS_FIELD]: MODERATION_STATUS.approved });
  return (await store.lists.byRowId(list.rowId))!;
}

/** The list, its built-in fields and its template's fields, in one transaction (also how the tenant loader makes lists). */
export async function createListWithFields(store: Store, web: Web, input: ListInput, now: string): Promise<List> {
  return store.transaction(async (tx) => {
    const location = newListLocation(input.title, input.baseTemplate);
    const wanted = input.relativeUrl ?? location.relativeUrl;
    let relativeUrl = wanted;
    // Two lists may not share a URL: SharePoint numbers the newcomer (Tasks, Tasks1, …).
    const base = urlPrefix(web.serverRelativeUrl);
    for (let n = 1; await tx.lists.byUrl(web.id, `${base}/${relativeUrl}`); n++) relativeUrl = `${wanted}${n}`;
    // The entity type name comes from the root folder's URL ("Shared Documents" → Shared_x0020_Documents), not the title.
    const entityTypeName = input.baseTemplate === USER_INFO_LIST_TEMPLATE && relativeUrl === location.relativeUrl
      ? location.entityTypeName : entityTypeNameForUrl(relativeUrl);
    const list = await tx.lists.create(web, {
      title: input.title, description: input.description, baseTemplate: input.baseTemplate, relativeUrl, entityTypeName,
      hidden: input.hidden ?? false, enableVersioning: input.enableVersioning ?? true,
    }, now);
    for (const field of [...builtInFields(), ...templateFields(input.baseTemplate)]) await tx.fields.add(list, field);
    await tx.views.create(list, defaultViewOf(list));
    return (await tx.lists.byRowId(list.rowId))!;
  });
}
