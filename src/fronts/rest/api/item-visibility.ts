// Items the caller may not view are left out of every query of a list: who sees what (known
// from the cached role assignments and, where the list has items with unique permissions, one
// read of those items; never a query per item) becomes a condition of the query itself, so
// paging and counts stay right. An item's own unique permissions decide first, then those of
// the nearest folder holding it (by FileDirRef), then the list's.

import type { List, Principal } from '../../../domain/model.ts';
import { grants } from '../../../domain/permissions.ts';
import { itemVisibility, isAtOrBelow, isVisible, type ItemVisibility } from '../../../identity/effective-permissions.ts';
import type { Expression } from '../../../query/ast.ts';
import type { ApiContext } from './context.ts';
import { GenerationMemo } from '../../../domain/generation-memo.ts';

/**
 * Who may view what of each list, and that as a condition, per principal object while the
 * store's generation stands: the same keeping as effective permissions (effective-permissions.ts
 * `knownMasks`; one caller's principal, everything it rests on cached metadata), so a member's
 * repeat query of a list with unique items works neither out again. Never shared across callers.
 */
interface ViewRule { rule: ItemVisibility | undefined; condition: Expression | undefined }
const keptRules = new GenerationMemo<Principal, number, ViewRule>(200);

async function viewRule(list: List, ctx: ApiContext): Promise<ViewRule> {
  const generation = ctx.store.generation();
  const hit = keptRules.get(ctx.principal, generation, list.rowId);
  if (hit) return hit;
  const rule = await itemVisibility(ctx.store, ctx.site, ctx.principal, ctx.web, list, (mask) => grants(mask, 'ViewListItems'));
  // Shared by the caller's later requests: frozen, as the parsed query it is joined to is.
  const made: ViewRule = Object.freeze({ rule, condition: rule && deepFreeze(visibleCondition(rule, list)) });
  keptRules.keep(ctx.principal, generation, ctx.store.generation(), list.rowId, made);
  return made;
}

/** `filter` narrowed to the items the caller may view. */
export async function visibleOnly(filter: Expression | undefined, list: List, ctx: ApiContext): Promise<Expression | undefined> {
  if ((await ctx.store.roleAssignments.scopes(ctx.site.id)).size === 0) return filter;
  const visible = (await viewRule(list, ctx)).condition;
  if (!visible) return filter;
  return filter ? { kind: 'logical', op: 'and', left: filter, right: visible } : visible;
}

const or = (terms: Expression[]): Expression | undefined =>
  terms.length === 0 ? undefined : terms.reduce((left, right) => ({ kind: 'logical', op: 'or', left, right }));
const and = (terms: Expression[]): Expression | undefined =>
  terms.length === 0 ? undefined : terms.reduce((left, right) => ({ kind: 'logical', op: 'and', left, right }));
const not = (operand: Expression | undefined): Expression | undefined => operand && { kind: 'not', operand };
const text = (value: string): Expression => ({ kind: 'literal', type: 'string', value });
const idIn = (ids: number[]): Expression | undefined => or(ids.map((id): Expression => ({
  kind: 'compare', op: 'eq', left: { kind: 'member', path: ['ID'] }, right: { kind: 'literal', type: 'number', value: id, raw: String(id) },
})));
/** Nothing matches (no item has ID 0). */
const NONE: Expression = { kind: 'compare', op: 'eq', left: { kind: 'member', path: ['ID'] }, right: { kind: 'literal', type: 'number', value: 0, raw: '0' } };

/** Items inside the folder at `path` (relative to the list's root), at any depth: by FileDirRef. */
function inside(list: List, path: string): Expression {
  const url = `${list.serverRelativeUrl}/${path}`;
  return {
    kind: 'logical', op: 'or',
    left: { kind: 'compare', op: 'eq', left: { kind: 'member', path: ['FileDirRef'] }, right: text(url) },
    right: { kind: 'call', name: 'startswith', args: [{ kind: 'member', path: ['FileDirRef'] }, text(`${url}/`)] },
  };
}

/**
 * The condition an item the rule lets the caller view meets (undefined: every item). Its own
 * scope first: `ID in visible`, and none of the unique ones otherwise. Then where it is: inside
 * a viewable unique folder but no hidden one below it, or (the list viewable) inside no hidden
 * folder — the nearest unique folder holding an item decides, and the folders holding one item
 * are nested, so this is that rule.
 */
export function visibleCondition(rule: ItemVisibility, list: List): Expression | undefined {
  const hidden = rule.folders.filter((f) => !f.visible);
  const below = (path: string) => hidden.filter((h) => h.path.length > path.length && isAtOrBelow(h.path, path));
  const places: Expression[] = [];
  if (rule.inherited) places.push(not(or(hidden.map((h) => inside(list, h.path)))) ?? { kind: 'not', operand: NONE });
  for (const f of rule.folders.filter((g) => g.visible)) {
    places.push(and([inside(list, f.path), ...below(f.path).map((h) => ({ kind: 'not', operand: inside(list, h.path) }) as Expression)])!);
  }
  // The common case (no folder scopes, the list viewable): every item but the hidden ones.
  if (rule.inherited && hidden.length === 0) return not(idIn(rule.hiddenIds));
  const own = idIn(rule.visibleIds);
  const byPlace = or(places);
  const unique = idIn([...rule.visibleIds, ...rule.hiddenIds]);
  const rest = byPlace && (unique ? and([{ kind: 'not', operand: unique }, byPlace]) : byPlace);
  return or([own, rest].filter((e): e is Expression => e !== undefined)) ?? NONE;
}

/**
 * What of one folder's children (a Files or Folders listing, read whole) the caller may view.
 * They share their folder, so where they are says the same for all of them: the rule is
 * applied to the page read, with no read of its own.
 */
export async function viewableChildren<T extends { id: number; place: { dir: string } }>(items: T[], list: List, ctx: ApiContext): Promise<T[]> {
  if ((await ctx.store.roleAssignments.scopes(ctx.site.id)).size === 0) return items;
  const { rule } = await viewRule(list, ctx);
  return rule ? items.filter((item) => isVisible(rule, item.id, item.place.dir)) : items;
}

function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  for (const v of Object.values(value)) deepFreeze(v);
  return Object.freeze(value);
}
