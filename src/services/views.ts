// List views: their rules and their life. A view's columns name fields of its list (or
// SharePoint's computed link columns), by internal name or title; its row limit is 1 to
// 5000; its query is well-formed CAML; a list always has exactly one default view, which
// cannot be deleted (make another view the default first).

import { validateXml } from '../query/caml/xml.ts';
import { fail } from '../domain/errors.ts';
import { findFieldByNameOrTitle } from '../domain/fields.ts';
import type { List } from '../domain/model.ts';
import { COMPUTED_VIEW_FIELDS, MAX_ROW_LIMIT, viewPageUrl, type View, type ViewPatch } from '../domain/views.ts';
import type { Store } from '../store/store.ts';

export interface ViewInput {
  title: string;
  personal?: boolean | undefined;
  defaultView?: boolean | undefined;
  hidden?: boolean | undefined;
  rowLimit?: number | undefined;
  paged?: boolean | undefined;
  scope?: number | undefined;
  query?: string | undefined;
  /** Column names (internal names or titles); absent: the default view's columns. */
  fields?: string[] | undefined;
}

export class ViewService {
  constructor(private readonly store: Store) {}

  async create(list: List, input: ViewInput): Promise<View> {
    const title = checkTitle(input.title);
    const existing = await this.store.views.of(list);
    const base = existing.find((v) => v.defaultView);
    const taken = new Set(existing.map((v) => v.serverRelativeUrl.toLowerCase()));
    return this.store.views.create(list, {
      title, serverRelativeUrl: viewPageUrl(list, title, (url) => taken.has(url)),
      defaultView: input.defaultView ?? false, hidden: input.hidden ?? false, personal: input.personal ?? false,
      rowLimit: checkRowLimit(input.rowLimit ?? 30), paged: input.paged ?? true, scope: checkScope(input.scope ?? 0),
      query: checkQuery(input.query ?? ''),
      fields: input.fields === undefined ? base?.fields ?? [] : await this.columns(list, input.fields),
    });
  }

  async update(list: List, view: View, changes: ViewPatch): Promise<View> {
    if (changes.defaultView === false && view.defaultView) throw fail.badArgument('A list needs a default view: make another view the default instead.');
    const patch: ViewPatch = {
      ...changes,
      ...(changes.title !== undefined ? { title: checkTitle(changes.title) } : {}),
      ...(changes.rowLimit !== undefined ? { rowLimit: checkRowLimit(changes.rowLimit) } : {}),
      ...(changes.scope !== undefined ? { scope: checkScope(changes.scope) } : {}),
      ...(changes.query !== undefined ? { query: checkQuery(changes.query) } : {}),
      ...(changes.fields !== undefined ? { fields: await this.columns(list, changes.fields) } : {}),
    };
    return this.found(await this.store.views.update(list, view.id, patch));
  }

  async delete(list: List, view: View): Promise<void> {
    if (view.defaultView) throw fail.badArgument('The default view of a list cannot be deleted.');
    if (!(await this.store.views.delete(list, view.id))) throw fail.viewNotFound();
  }

  /** SetViewXml: the view's query, columns, row limit and scope from a `<View>` element. */
  async setXml(list: List, view: View, xml: string): Promise<View> {
    const parsed = parseViewXml(xml);
    return this.update(list, view, parsed);
  }

  async addField(list: List, view: View, name: string): Promise<View> {
    const [internal] = await this.columns(list, [name]);
    if (view.fields.some((f) => f.toLowerCase() === internal!.toLowerCase())) return view;
    return this.found(await this.store.views.update(list, view.id, { fields: [...view.fields, internal!] }));
  }

  async moveField(list: List, view: View, name: string, index: number): Promise<View> {
    const at = view.fields.findIndex((f) => f.toLowerCase() === name.toLowerCase());
    if (at < 0) throw fail.badArgument(`The column ${name} is not in the view.`);
    if (!Number.isInteger(index) || index < 0 || index >= view.fields.length) throw fail.badArgument(`The index ${index} is outside the view's columns.`);
    const fields = view.fields.filter((_, i) => i !== at);
    fields.splice(index, 0, view.fields[at]!);
    return this.found(await this.store.views.update(list, view.id, { fields }));
  }

  async removeField(list: List, view: View, name: string): Promise<View> {
    const fields = view.fields.filter((f) => f.toLowerCase() !== name.toLowerCase());
    if (fields.length === view.fields.length) throw fail.badArgument(`The column ${name} is not in the view.`);
    return this.found(await this.store.views.update(list, view.id, { fields }));
  }

  async removeAllFields(list: List, view: View): Promise<View> {
    return this.found(await this.store.views.update(list, view.id, { fields: [] }));
  }

  /** Column names as internal names: a field of the list by internal name or title, or a computed link column. */
  private async columns(list: List, names: string[]): Promise<string[]> {
    const fields = await this.store.fields.of(list);
    return names.map((name) => {
      const computed = COMPUTED_VIEW_FIELDS.find((c) => c.toLowerCase() === name.toLowerCase());
      if (computed) return computed;
      const field = findFieldByNameOrTitle(fields, name);
      if (!field) throw fail.badArgument(`Column '${name}' does not exist. It may have been deleted by another user.`);
      return field.internalName;
    });
  }

  private found(view: View | undefined): View {
    if (!view) throw fail.viewNotFound();
    return view;
  }
}

function checkTitle(title: string): string {
  const trimmed = title.trim();
  if (!trimmed) throw fail.badArgument('The view needs a title.');
  if (trimmed.length > 255) throw fail.badArgument('The title of a view is at most 255 characters.');
  return trimmed;
}

function checkRowLimit(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_ROW_LIMIT) throw fail.badArgument(`RowLimit must be a whole number from 1 to ${MAX_ROW_LIMIT}.`);
  return limit;
}

function checkScope(scope: number): number {
  if (![0, 1, 2, 3].includes(scope)) throw fail.badArgument('Scope must be 0 (default), 1 (Recursive), 2 (RecursiveAll) or 3 (FilesOnly).');
  return scope;
}

/** A view's query: the CAML inside `<Query>`, well-formed (its elements are compiled when the view is read). */
function checkQuery(query: string): string {
  const inner = query.trim().replace(/^<Query>([\s\S]*)<\/Query>$/i, '$1').trim();
  if (inner && validateXml(`<Query>${inner}</Query>`) !== true) throw fail.badArgument('The view query is not well-formed CAML.');
  return inner;
}

const SCOPES: Record<string, number> = { recursive: 1, recursiveall: 2, filesonly: 3 };

/** The parts of a `<View>` element spemu keeps: Query, ViewFields, RowLimit (and Paged), the Scope attribute. */
function parseViewXml(xml: string): ViewPatch {
  const text = xml.trim();
  if (validateXml(text) !== true || !/^<View[\s>/]/.test(text)) throw fail.badArgument('viewXml must be a well-formed <View> element.');
  const patch: ViewPatch = {};
  const query = /<Query>([\s\S]*?)<\/Query>|<Query\s*\/>/.exec(text);
  if (query) patch.query = (query[1] ?? '').trim();
  const viewFields = /<ViewFields>([\s\S]*?)<\/ViewFields>|<ViewFields\s*\/>/.exec(text);
  if (viewFields) patch.fields = [...(viewFields[1] ?? '').matchAll(/<FieldRef\b[^>]*\bName=["']([^"']+)["']/g)].map((m) => m[1]!);
  const rowLimit = /<RowLimit\b([^>]*)>\s*(\d+)\s*<\/RowLimit>/.exec(text);
  if (rowLimit) {
    patch.rowLimit = Number(rowLimit[2]);
    const paged = /\bPaged=["'](TRUE|FALSE)["']/i.exec(rowLimit[1]!);
    if (paged) patch.paged = paged[1]!.toUpperCase() === 'TRUE';
  }
  const scope = /^<View\b[^>]*\bScope=["']([A-Za-z]+)["']/.exec(text);
  if (scope) patch.scope = SCOPES[scope[1]!.toLowerCase()] ?? 0;
  return patch;
}
