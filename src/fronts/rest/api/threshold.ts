// SharePoint Online's list view threshold, for every query language the same: on a list with
// more items than the threshold, a query that filters or sorts on anything but indexed columns
// and ID is refused. `$filter` and CAML reach here with the same syntax tree and sort keys.

import { findField } from '../../../domain/fields.ts';
import type { Field, List } from '../../../domain/model.ts';
import type { Expression } from '../../../query/ast.ts';
import type { SortKey } from '../../../store/store.ts';
import { errors } from '../../../wire/errors.ts';
import type { ApiContext } from './context.ts';

/** The first name of every member a filter reads (`Author/Title` → Author). */
export function memberHeads(node: Expression | undefined, out: Set<string> = new Set()): Set<string> {
  // An explicit stack: filters can be thousands of levels deep.
  const stack: Expression[] = node ? [node] : [];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.kind === 'member') out.add(n.path[0]!);
    else if (n.kind === 'compare' || n.kind === 'logical') stack.push(n.left, n.right);
    else if (n.kind === 'not') stack.push(n.operand);
    else if (n.kind === 'call') stack.push(...n.args);
  }
  return out;
}

/**
 * Refuses a query not served by an index on a list over the threshold. Members that are no
 * field (FileDirRef, FSObjType: folder scopes) are columns every item table indexes.
 */
export async function checkThreshold(ctx: ApiContext, list: List, fields: Field[], filter: Expression | undefined, keys: SortKey[]): Promise<void> {
  const limit = ctx.settings.listViewThreshold;
  if (limit <= 0) return;
  const used = [...memberHeads(filter)].map((name) => findField(fields, name)?.field);
  const unindexed = [...used, ...keys.map((k) => k.field)].some((field) => field && field.internalName !== 'ID' && !field.indexed);
  // Only a query that is not served by an index is judged by the list's size, read as it is now.
  if (unindexed && (await ctx.store.lists.withCounters([list]))[0]!.itemCount > limit) throw errors.listViewThreshold();
}
