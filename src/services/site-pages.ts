// Modern pages (SP.Publishing.SitePage) over the document machinery: a page is an .aspx file
// in Site Pages whose item holds its content (domain/site-pages.ts). Creating one places the
// file checked out to its author under a placeholder name; its first save names it from its
// title; publishing checks it in (publishing the draft where the library has minor versions)
// and stamps FirstPublishedDate, turning PromoteOnPublish into news. Every operation is one
// unit of work: a refused step leaves the page as it was.

import { DomainError, fail } from '../domain/errors.ts';
import type { Field, Item, List, StoredValue } from '../domain/model.ts';
import { pageTemplate, TEMPLATE_FILE_TYPES } from '../domain/page-templates.ts';
import {
  CLIENT_SIDE_APPLICATION_ID, isUntitledPageName, numberedPageName, PAGE_FIELD, PAGE_LAYOUT_TYPES, pageFileNameFromTitle,
  PROMOTED_STATE, sitePagesFields, untitledPageName,
} from '../domain/site-pages.ts';
import { toStoredValue, ValueError } from '../domain/values.ts';
import { makesMinorVersions } from '../domain/versions.ts';
import { SITE_PAGES_TEMPLATE } from '../domain/templates.ts';
import { newContentModeration } from '../domain/moderation.ts';
import type { BlobRef } from '../store/blobs.ts';
import type { Store } from '../store/store.ts';
import type { Actor } from './actor.ts';
import { DocumentService } from './documents.ts';
import { CHECK_IN_TYPE, PublishingService } from './publishing.ts';

/** What `savepage` may change, as the client sent it (wire names read by the front). */
export interface PageContent {
  Title?: unknown;
  CanvasContent1?: unknown;
  LayoutWebpartsContent?: unknown;
  Description?: unknown;
  TopicHeader?: unknown;
  BannerImageUrl?: unknown;
  /** Site user ids, worked out by the front from the byline's login names. */
  authorIds?: number[] | undefined;
}

/** The most a page's canvas or title area may hold (SharePoint's multi-line text limit is far above what pages use). */
const MAX_CONTENT_LENGTH = 4 * 1024 * 1024;

export class SitePageService {
  constructor(private readonly store: Store, private readonly actor: Actor) {}

  /**
   * A new page (POST sitepages/pages): `Untitled_N.aspx`, checked out to the actor, with its
   * layout and news state. `library` is the web's Site Pages library.
   */
  async create(library: List, input: { layout: unknown; promotedState: unknown }): Promise<Item> {
    const layout = input.layout ?? 'Article';
    if (typeof layout !== 'string' || !PAGE_LAYOUT_TYPES.some((l) => l.toLowerCase() === layout.toLowerCase())) {
      throw fail.badArgument(`The page layout type '${String(layout)}' is not valid.`);
    }
    const promoted = input.promotedState ?? PROMOTED_STATE.notPromoted;
    if (promoted !== 0 && promoted !== 1 && promoted !== 2) throw fail.badArgument(`The promoted state '${String(promoted)}' is not valid (0, 1 or 2).`);
    const content = Buffer.from(pageTemplate(TEMPLATE_FILE_TYPES.clientSidePage), 'utf8');
    // The bytes are stored before the unit of work that names them.
    const blob = await this.store.blobs.put(bytesOf(content), { limit: content.length, tooLarge: () => fail.bodyTooLarge(content.length) });
    // Two creates at once may pick the same free name: the second finds it taken under the
    // list's lock and tries again with the next one.
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.place(library, blob, canonicalLayout(layout), promoted);
      } catch (e) {
        if (!(e instanceof DomainError && e.reason === 'fileExists') || attempt >= 5) throw e;
      }
    }
  }

  private place(library: List, blob: BlobRef, layout: string, promoted: number): Promise<Item> {
    return this.store.transaction(async (tx) => {
      const fields = await ensurePageFields(tx, library);
      let name = '';
      for (let n = 1; ; n++) {
        name = untitledPageName(n);
        if (!(await tx.documents.at(library, fields, '', name))) break;
      }
      const { item } = await tx.documents.putFile(library, fields, {
        dir: '', name, actorId: this.actor.userId, now: this.actor.now(), blob, overwrite: false,
        values: { [PAGE_FIELD.layoutType]: layout, [PAGE_FIELD.promotedState]: promoted, [PAGE_FIELD.applicationId]: CLIENT_SIDE_APPLICATION_ID },
      });
      if (!(await tx.documents.setCheckOut(library, item.id, { holder: this.actor.userId, expected: null, now: this.actor.now(), actorId: this.actor.userId }))) {
        throw fail.fileNotFound(name);
      }
      return (await tx.items.get(library, fields, item.id))!;
    });
  }

  /** checkoutpage: the page held by the actor (again, if it already is). */
  async checkOut(list: List, item: Item): Promise<void> {
    await new DocumentService(this.store, this.actor).checkOut(list, item);
  }

  /**
   * savepage (and savepageasdraft, `draft`): the page's content written, the page checked out
   * to the actor first if nobody holds it. A page never saved and still under its placeholder
   * name takes its name from its title. A draft save then checks the page in as a minor version.
   */
  async save(list: List, item: Item, content: PageContent, draft: boolean): Promise<Item> {
    return this.store.transaction(async (tx) => {
      const fields = await ensurePageFields(tx, list);
      const documents = new DocumentService(tx, this.actor);
      await documents.requireWritable(list, item);
      if (item.file?.checkedOutBy == null) await documents.checkOut(list, item);
      // New content waits for approval again in a library with content approval, as any item's does.
      const values = { ...pageValues(fields, content), ...newContentModeration(list) };
      const updated = await tx.items.update(list, fields, item.id, { values, actorId: this.actor.userId, now: this.actor.now() }, null);
      if (updated === undefined || updated === 'conflict') throw fail.itemNotFound();
      let page = updated;
      const title = typeof content.Title === 'string' ? content.Title : undefined;
      const named = title === undefined ? undefined : pageFileNameFromTitle(title);
      if (named && page.place.name && isUntitledPageName(page.place.name) && page.values[PAGE_FIELD.firstPublished] == null) {
        page = await documents.rename(list, page, await freePageName(tx, list, fields, page, named));
      }
      if (draft) {
        await new PublishingService(tx, this.actor).checkIn(list, (await tx.items.get(list, fields, page.id))!, '', CHECK_IN_TYPE.minor);
      }
      return (await tx.items.get(list, fields, page.id))!;
    });
  }

  /**
   * publish: the actor's check-out ends with a major check-in (which publishes the draft in a
   * library with minor versions; a draft not held is published); the first publication stamps
   * FirstPublishedDate and makes a PromoteOnPublish page news. A page already published and not
   * held is left as it is.
   */
  async publish(list: List, item: Item): Promise<Item> {
    return this.store.transaction(async (tx) => {
      const fields = await ensurePageFields(tx, list);
      await new DocumentService(tx, this.actor).requireWritable(list, item);
      // The publication's own values first, so the version the check-in makes holds them.
      const stamp: Record<string, StoredValue> = {};
      if (item.values[PAGE_FIELD.firstPublished] == null) stamp[PAGE_FIELD.firstPublished] = this.actor.now();
      if (Number(item.values[PAGE_FIELD.promotedState]) === PROMOTED_STATE.promoteOnPublish) stamp[PAGE_FIELD.promotedState] = PROMOTED_STATE.promoted;
      if (Object.keys(stamp).length) await this.writeQuietly(tx, list, fields, item, stamp);
      const current = (await tx.items.get(list, fields, item.id))!;
      const publishing = new PublishingService(tx, this.actor);
      if (current.file?.checkedOutBy != null) {
        await publishing.checkIn(list, current, '', CHECK_IN_TYPE.major);
      } else if (makesMinorVersions(list) && current.minorVersion > 0) {
        await publishing.publish(list, current, '');
      }
      return (await tx.items.get(list, fields, item.id))!;
    });
  }

  /** discardPage: the actor's check-out undone, the content as it was at the last check-in. */
  async discard(list: List, item: Item): Promise<void> {
    await new DocumentService(this.store, this.actor).undoCheckOut(list, item);
  }

  /** promoteToNews / demoteFromNews: the page's news state (promoting a page never published stamps its publication date). */
  async setPromoted(list: List, item: Item, promoted: boolean): Promise<void> {
    await this.store.transaction(async (tx) => {
      const fields = await ensurePageFields(tx, list);
      await new DocumentService(tx, this.actor).requireWritable(list, item);
      const values: Record<string, StoredValue> = { [PAGE_FIELD.promotedState]: promoted ? PROMOTED_STATE.promoted : PROMOTED_STATE.notPromoted };
      if (promoted && item.values[PAGE_FIELD.firstPublished] == null) values[PAGE_FIELD.firstPublished] = this.actor.now();
      await this.writeQuietly(tx, list, fields, item, values);
    });
  }

  /** SetCommentsDisabled(bool): the page's own comment setting (a library without the setting refuses). */
  async setCommentsDisabled(list: List, id: number, disabled: boolean): Promise<void> {
    if (list.baseTemplate !== SITE_PAGES_TEMPLATE) throw fail.badArgument('Comments can be turned off only for pages of a Site Pages library.');
    await this.store.transaction(async (tx) => {
      const fields = await ensurePageFields(tx, list);
      const item = await tx.items.get(list, fields, id);
      if (!item) throw fail.itemNotFound();
      await this.writeQuietly(tx, list, fields, item, { [PAGE_FIELD.commentFlags]: disabled ? '1' : null });
    });
  }

  /** A page-state write that is not new content: the item's values, as the actor, now. */
  private async writeQuietly(store: Store, list: List, fields: Field[], item: Item, values: Record<string, StoredValue>): Promise<void> {
    const done = await store.items.update(list, fields, item.id, { values, actorId: this.actor.userId, now: this.actor.now() }, null);
    if (done === undefined || done === 'conflict') throw fail.itemNotFound();
  }
}

/** The page fields a library lacks (one made before spemu knew pages) added, in the caller's unit of work. */
export async function ensurePageFields(store: Store, list: List): Promise<Field[]> {
  let fields = await store.fields.of(list);
  const missing = sitePagesFields().filter((f) => !fields.some((have) => have.internalName.toLowerCase() === f.internalName.toLowerCase()));
  if (missing.length === 0) return fields;
  for (const field of missing) await store.fields.add(list, field);
  fields = await store.fields.of(list);
  return fields;
}

/** `name`, or `name` numbered (`Page1.aspx`, …) when another file has it. */
async function freePageName(store: Store, list: List, fields: Field[], self: Item, name: string): Promise<string> {
  for (let n = 0; ; n++) {
    const candidate = numberedPageName(name, n);
    const taken = await store.documents.at(list, fields, self.place.dir, candidate);
    if (!taken || taken.guid === self.guid) return candidate;
  }
}

/** The item values `savepage` writes, each checked as its field's values are (a bad one: 400, nothing written). */
function pageValues(fields: Field[], content: PageContent): Record<string, StoredValue> {
  const out: Record<string, StoredValue> = {};
  const put = (internalName: string, value: unknown, wire: string) => {
    if (value === undefined) return;
    const field = fields.find((f) => f.internalName === internalName);
    if (!field) return;
    if (typeof value === 'string' && value.length > MAX_CONTENT_LENGTH) throw fail.badArgument(`The value of '${wire}' is too long.`);
    try {
      out[internalName] = toStoredValue(field, value);
    } catch (e) {
      if (e instanceof ValueError) throw fail.badArgument(`The value of '${wire}' is not valid: ${e.message}`);
      throw e;
    }
  };
  put('Title', content.Title, 'Title');
  put(PAGE_FIELD.canvas, content.CanvasContent1, 'CanvasContent1');
  put(PAGE_FIELD.layoutParts, content.LayoutWebpartsContent, 'LayoutWebpartsContent');
  put(PAGE_FIELD.description, content.Description, 'Description');
  put(PAGE_FIELD.topicHeader, content.TopicHeader, 'TopicHeader');
  // The banner is a URL field: a server-relative or absolute URL, '' or null for none.
  put(PAGE_FIELD.banner, content.BannerImageUrl, 'BannerImageUrl');
  if (content.authorIds !== undefined) out[PAGE_FIELD.authorByline] = content.authorIds.length ? JSON.stringify(content.authorIds) : null;
  return out;
}

/** A layout as SharePoint spells it, whatever case the client used. */
const canonicalLayout = (layout: string): string => PAGE_LAYOUT_TYPES.find((l) => l.toLowerCase() === layout.toLowerCase()) ?? layout;

async function* bytesOf(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}
