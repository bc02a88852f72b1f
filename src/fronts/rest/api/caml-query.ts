// A CAML view query (query/caml/) made into the item query `$filter` uses: the same syntax tree,
// sort keys and lookups, the same list view threshold, the same SQL compiler. What only CAML
// has is added here: its exact field names (SharePoint's error for any other), its folder
// scope as conditions on the document columns, and its errors in SharePoint's words.

import { FIELD_KINDS } from '../../../domain/field-kinds.ts';
import type { Field, List } from '../../../domain/model.ts';
import type { Expression } from '../../../query/ast.ts';
import { CamlError } from '../../../query/caml/errors.ts';
import { parseCamlView, type CamlView } from '../../../query/caml/parse.ts';
import type { SortKey } from '../../../store/store.ts';
import { errors } from '../../../wire/errors.ts';
import type { ApiContext } from './context.ts';
import { lookupTarget, type LookupTarget } from './item-projection.ts';
import { checkThreshold, memberHeads } from './threshold.ts';

/** Item columns CAML can name that are no field of the list (`$filter`'s compiler knows them too). */
const DOCUMENT_COLUMNS = new Set(['FileLeafRef', 'FileRef', 'FileDirRef', 'FSObjType', 'UniqueId']);

export interface CamlItemQuery {
  view: CamlView;
  filter?: Expression | undefined;
  orderBy: SortKey[];
  lookups: Map<string, LookupTarget>;
}

export interface CamlOptions {
  /** FolderServerRelativeUrl: the folder the scope starts from (default: the list's root). */
  folder?: string | undefined;
  /** A condition and-ed to the `<Where>` (RenderListDataAsStream's FilterField1/FilterValue1). */
  extra?: Expression | undefined;
  /** A sort that replaces the `<OrderBy>` (RenderListDataAsStream's SortField/SortDir). */
  sort?: { name: string; descending: boolean } | undefined;
}

/** Parses `viewXml` and binds it to the list; SharePoint's errors for what it cannot run. */
export async function camlItemQuery(list: List, fields: Field[], viewXml: string, options: CamlOptions, ctx: ApiContext): Promise<CamlItemQuery> {
  const byName = new Map(fields.map((f) => [f.internalName, f]));
  let view: CamlView;
  try {
    view = parseCamlView(viewXml, {
      userId: ctx.principal.userId, now: ctx.now(),
      shownFieldOf: (name) => {
        const field = byName.get(name);
        const reference = field && FIELD_KINDS[field.kind].reference;
        if (!reference) return undefined;
        return reference === 'user' ? 'Title' : field.options.lookupField ?? 'Title';
      },
    });
  } catch (e) {
    throw e instanceof CamlError ? camlError(e) : e;
  }
  // SharePoint reads CAML's names exactly: a name the list does not have fails the whole query.
  if (options.sort) view.orderBy = [{ name: options.sort.name, ascending: !options.sort.descending }];
  const where = both(view.where, options.extra);
  for (const name of [...memberHeads(where), ...view.orderBy.map((o) => o.name)]) {
    if (!byName.has(name) && !DOCUMENT_COLUMNS.has(name)) throw errors.camlFieldTypes();
  }
  const lookups = new Map<string, LookupTarget>();
  for (const name of lookupHeads(where)) {
    const target = await lookupTarget(byName.get(name)!, list, ctx);
    if (target) lookups.set(name, target);
  }
  const orderBy = view.orderBy.flatMap((o): SortKey[] => {
    const field = byName.get(o.name);
    // Document columns (FileLeafRef) are no sort key spemu has: those items keep ID order.
    return field && FIELD_KINDS[field.kind].queryable ? [{ field, descending: !o.ascending }] : [];
  }).filter((k) => k.field.internalName !== 'ID' || k.descending);
  const filter = both(where, scopeCondition(list, view, options.folder));
  await checkThreshold(ctx, list, fields, where, orderBy);
  return { view, filter, orderBy, lookups };
}

/** A `<Where>` of a view's stored query (`<Where>…</Where><OrderBy>…`), as a whole view. */
export const viewXmlOf = (query: string, scope: number, rowLimit?: number): string =>
  `<View Scope="${['Default', 'Recursive', 'RecursiveAll', 'FilesOnly'][scope] ?? 'Default'}"><Query>${query}</Query>${
    rowLimit ? `<RowLimit>${rowLimit}</RowLimit>` : ''}</View>`;

function camlError(e: CamlError) {
  switch (e.reason) {
    case 'invalidQuery': return errors.camlFieldTypes();
    case 'unsupported': return errors.notImplemented(`CAML ${e.message}`);
    case 'tooComplex': return errors.badArgument('The query is too complex.');
    default: return errors.camlMalformed();
  }
}

/** Fields a filter reaches into (`Ref/Title`): their targets are joined by the compiler. */
function lookupHeads(node: Expression | undefined): Set<string> {
  const out = new Set<string>();
  const stack: Expression[] = node ? [node] : [];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.kind === 'member' && n.path.length > 1) out.add(n.path[0]!);
    else if (n.kind === 'compare' || n.kind === 'logical') stack.push(n.left, n.right);
    else if (n.kind === 'not') stack.push(n.operand);
    else if (n.kind === 'call') stack.push(...n.args);
  }
  return out;
}

const both = (a: Expression | undefined, b: Expression | undefined): Expression | undefined =>
  a && b ? { kind: 'logical', op: 'and', left: a, right: b } : a ?? b;

const text = (value: string): Expression => ({ kind: 'literal', type: 'string', value });
const member = (name: string): Expression => ({ kind: 'member', path: [name] });
const filesOnly: Expression = { kind: 'compare', op: 'eq', left: member('FSObjType'), right: { kind: 'literal', type: 'number', value: 0, raw: '0' } };

/**
 * The items a view's scope reads, from the folder given (or the list's root): the folder's own
 * items and folders by default, only its files (FilesOnly), every item below it but no folders
 * (Recursive), or everything below it (RecursiveAll).
 */
function scopeCondition(list: List, view: CamlView, folder: string | undefined): Expression | undefined {
  const root = list.serverRelativeUrl.replace(/\/+$/, '');
  const url = (folder ?? root).replace(/\/+$/, '');
  const atRoot = url.toLowerCase() === root.toLowerCase();
  const inFolder: Expression = { kind: 'compare', op: 'eq', left: member('FileDirRef'), right: text(url) };
  // Below the folder: in it, or in a folder whose path starts with it and a slash.
  const below: Expression | undefined = atRoot ? undefined : {
    kind: 'logical', op: 'or', left: inFolder, right: { kind: 'call', name: 'startswith', args: [member('FileDirRef'), text(`${url}/`)] },
  };
  switch (view.scope) {
    case 'Default': return inFolder;
    case 'FilesOnly': return both(inFolder, filesOnly);
    case 'Recursive': return both(below, filesOnly);
    case 'RecursiveAll': return below;
  }
}
