// Items with unique permissions the caller may not view are left out of every query of a
// list: their ids (known from the cached role assignments, never a query per item) become a
// condition of the query itself, so paging and counts stay right.

import type { List } from '../../../domain/model.ts';
import { grants } from '../../../domain/permissions.ts';
import { hiddenItemIds } from '../../../identity/effective-permissions.ts';
import type { Expression } from '../../../query/ast.ts';
import type { ApiContext } from './context.ts';

/** `filter` narrowed to the items the caller may view. */
export async function visibleOnly(filter: Expression | undefined, list: List, ctx: ApiContext): Promise<Expression | undefined> {
  if ((await ctx.store.roleAssignments.scopes(ctx.site.id)).size === 0) return filter;
  const hidden = await hiddenItemIds(ctx.store, ctx.site, ctx.principal, ctx.web, list, (mask) => grants(mask, 'ViewListItems'));
  if (hidden.length === 0) return filter;
  const excluded: Expression = { kind: 'not', operand: hidden.map((id): Expression => ({
    kind: 'compare', op: 'eq', left: { kind: 'member', path: ['ID'] }, right: { kind: 'literal', type: 'number', value: id, raw: String(id) },
  })).reduce((left, right) => ({ kind: 'logical', op: 'or', left, right })) };
  return filter ? { kind: 'logical', op: 'and', left: filter, right: excluded } : excluded;
}
