// Item writes as SharePoint's forms make them (ValidateUpdateListItem,
// AddValidateUpdateItemUsingPath): every field's text is read and checked on its own, and
// the answer says, field by field, whether it was accepted. If any field fails, nothing is
// written (SharePoint saves the item only when every value is valid). The history fields
// (Author, Editor, Created, Modified) may be set this way; `bNewDocumentUpdate` updates the
// item in place, without a new version.

import { fail, DomainError } from '../domain/errors.ts';
import { findFieldByNameOrTitle } from '../domain/fields.ts';
import { FormValueError, readFormValue } from '../domain/form-values.ts';
import type { Field, Item, List, Site, StoredValue } from '../domain/model.ts';
import { toStoredValue, ValueError } from '../domain/values.ts';
import { resolveLogin } from '../identity/logins.ts';
import type { Store } from '../store/store.ts';
import type { Actor } from './actor.ts';
import { checkRequired } from './items.ts';
import { PrincipalService } from './principals.ts';

export interface FormValueInput {
  FieldName: string;
  FieldValue: string;
}

/** SP.ListItemFormUpdateValue: one field's outcome. */
export interface FormResult {
  ErrorCode: number;
  ErrorMessage: string | null;
  FieldName: string;
  FieldValue: string;
  HasException: boolean;
  ItemId: number;
}

/** SharePoint's code for a field value its form refuses (CLI mocks of SharePoint Online). */
const FIELD_ERROR = -2146232832;
const HISTORY = new Set(['Author', 'Editor', 'Created', 'Modified']);

interface ReadForm {
  values: Record<string, StoredValue>;
  history: { authorId?: number; editorId?: number; created?: string; modified?: string };
  results: FormResult[];
  failed: boolean;
}

export class FormUpdateService {
  constructor(private readonly store: Store, private readonly actor: Actor) {}

  /** ValidateUpdateListItem on item `id`. */
  async update(site: Site, list: List, id: number, input: FormValueInput[], options: { inPlace: boolean }): Promise<FormResult[]> {
    const fields = await this.store.fields.of(list);
    if (!(await this.store.items.get(list, fields, id))) throw fail.itemNotFound();
    const form = await this.read(site, fields, input, id);
    if (form.failed) return form.results;
    checkRequired(fields, form.values, false);
    const result = await this.store.items.update(list, fields, id, {
      values: form.values, actorId: form.history.editorId ?? this.actor.userId, now: this.actor.now(),
      modified: form.history.modified, created: form.history.created, authorId: form.history.authorId, inPlace: options.inPlace,
    }, null);
    if (!result || result === 'conflict') throw fail.itemNotFound();
    return form.results;
  }

  /** AddValidateUpdateItemUsingPath: a new item (or, `folderName`, a folder) at the list's root or in a folder. */
  async add(site: Site, list: List, input: FormValueInput[], place: { dir: string; folderName?: string | undefined }): Promise<FormResult[]> {
    const fields = await this.store.fields.of(list);
    const form = await this.read(site, fields, input, 0);
    if (form.failed) return form.results;
    let item: Item;
    const now = this.actor.now();
    if (place.folderName !== undefined) {
      item = await this.store.documents.createFolder(list, fields, {
        dir: place.dir, name: place.folderName, actorId: form.history.editorId ?? this.actor.userId, now, values: form.values,
        ...(form.history.authorId !== undefined ? { authorId: form.history.authorId } : {}), ...(form.history.created ? { created: form.history.created } : {}),
      });
    } else {
      if (place.dir) throw fail.badArgument('spemu adds items with AddValidateUpdateItemUsingPath at the root of a list only; folders may be made anywhere.');
      checkRequired(fields, form.values, true);
      item = await this.store.items.create(list, fields, {
        values: form.values, actorId: form.history.editorId ?? this.actor.userId, now,
        modified: form.history.modified, created: form.history.created, authorId: form.history.authorId,
      });
    }
    return [...form.results, { ErrorCode: 0, ErrorMessage: null, FieldName: 'Id', FieldValue: String(item.id), HasException: false, ItemId: 0 }];
  }

  /** Each field's text read on its own; people resolved (and made site users) as the form would. */
  private async read(site: Site, fields: Field[], input: FormValueInput[], itemId: number): Promise<ReadForm> {
    const form: ReadForm = { values: {}, history: {}, results: [], failed: false };
    for (const { FieldName: name, FieldValue: text } of input) {
      const outcome = (error: string | null): FormResult => ({
        ErrorCode: error === null ? 0 : FIELD_ERROR, ErrorMessage: error, FieldName: name, FieldValue: text, HasException: error !== null, ItemId: itemId,
      });
      try {
        const field = fields.find((f) => f.internalName === name) ?? findFieldByNameOrTitle(fields, name);
        if (!field) throw new FormValueError(`Column '${name}' does not exist. It may have been deleted by another user.`);
        const read = readFormValue(field, text);
        let raw: unknown = read.kind === 'value' ? read.raw : undefined;
        if (read.kind === 'people') {
          const ids = [...read.ids];
          for (const login of read.logins) ids.push(await this.person(site, login));
          raw = field.kind === 'User' ? ids[0] ?? null : ids;
        }
        if (HISTORY.has(field.internalName)) {
          if (field.internalName === 'Author' || field.internalName === 'Editor') {
            if (typeof raw !== 'number') throw new FormValueError(`${field.title} needs one person.`);
            form.history[field.internalName === 'Author' ? 'authorId' : 'editorId'] = raw;
          } else {
            if (typeof raw !== 'string') throw new FormValueError(`${field.title} needs a date.`);
            form.history[field.internalName === 'Created' ? 'created' : 'modified'] = raw;
          }
        } else {
          if (field.readOnly) throw new FormValueError(`The field '${field.internalName}' is read-only.`);
          form.values[field.internalName] = toStoredValue(field, raw);
        }
        form.results.push(outcome(null));
      } catch (e) {
        if (!(e instanceof FormValueError || e instanceof ValueError || (e instanceof DomainError && e.kind === 'notFound'))) throw e;
        form.failed = true;
        form.results.push(outcome(e.message));
      }
    }
    return form;
  }

  private async person(site: Site, login: string): Promise<number> {
    const who = await resolveLogin(this.store, login);
    if (!who) throw new FormValueError(`The user or group "${login}" could not be found.`);
    return (await new PrincipalService(this.store, this.actor).ensure(site, who)).id;
  }
}
