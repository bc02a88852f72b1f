// `$expand` and `$select` over fixed-shape entities with navigation properties (a role
// assignment's Member and RoleDefinitionBindings): one level of expansion, or two where a
// navigation says what its entities have (`RoleAssignments/Member` on a list), with `$select`
// reaching into what was expanded (`Member/Title`). A name of a property the entity already
// has (`$expand=HasUniqueRoleAssignments`, as CLI for Microsoft 365 sends it) expands nothing.

import { errors } from '../../../wire/errors.ts';
import type { Entity } from '../../../wire/values.ts';
import type { ApiContext } from './context.ts';
import { selectProps } from './entities.ts';
import { filterEntities, orderEntities } from './memory-filter.ts';
import { ok, type Outcome } from './outcome.ts';

/** A navigation property that may be expanded: its link (relative to `/_api/`) and what it holds. */
export interface Navigation {
  link: string;
  load: () => Promise<Entity | Entity[] | null>;
  /** The navigations each loaded entity has in turn, for a second level (`RoleAssignments/Member`); none without. */
  nested?: { names: readonly string[]; of: (loaded: Entity) => Record<string, Navigation> };
}

const findName = (names: Iterable<string>, name: string) => [...names].find((k) => k.toLowerCase() === name.toLowerCase());

/** The names `$expand` asks for, each checked against what the entity has, with the second-level names below each. */
function expandedNames(ctx: ApiContext, entity: Entity, available: Record<string, Navigation>): Map<string, string[]> {
  const names = new Map<string, string[]>();
  for (const path of ctx.query.expand) {
    const [head, sub, ...deeper] = path;
    if (!head) continue;
    const known = findName(Object.keys(available), head);
    if (!known) {
      if (sub === undefined && entity.props.some(([k]) => k.toLowerCase() === head.toLowerCase())) continue;
      throw errors.unknownSelectProperty(path.join('/'));
    }
    const nested = names.get(known) ?? [];
    names.set(known, nested);
    if (sub === undefined) continue;
    const child = available[known]!.nested && findName(available[known]!.nested!.names, sub);
    if (!child || deeper.length) throw errors.unknownSelectProperty(path.join('/'));
    if (!nested.includes(child)) nested.push(child);
  }
  return names;
}

/** One loaded entity with its second-level expansions, then `$select`'s paths below it applied. */
async function expandNested(e: Entity, nav: Navigation, children: string[], inner: string[][] | undefined): Promise<Entity> {
  if (!children.length) return inner?.length ? selectProps(e, inner) : e;
  const available = nav.nested!.of(e);
  const props = [...e.props];
  for (const name of children) {
    const child = available[name]!;
    let value = await child.load();
    const deeper = inner?.filter((p) => p[0]?.toLowerCase() === name.toLowerCase() && p.length > 1).map((p) => p.slice(1));
    if (deeper?.length && value !== null) value = Array.isArray(value) ? value.map((x) => selectProps(x, deeper)) : selectProps(value, deeper);
    props.push([name, { kind: 'expanded', navigationLink: child.link, value }]);
  }
  const expanded = { ...e, props, deferred: e.deferred?.filter((d) => !children.includes(d)) };
  return inner?.length ? selectProps(expanded, inner, new Set(children)) : expanded;
}

/** The entity with the navigation properties `$expand` names, then `$select` applied at each level. */
export async function projectEntity(entity: Entity, available: Record<string, Navigation>, ctx: ApiContext): Promise<Entity> {
  const names = expandedNames(ctx, entity, available);
  const select = ctx.query.select;
  const props = [...entity.props];
  for (const [name, children] of names) {
    const nav = available[name]!;
    let value = await nav.load();
    const inner = select?.filter((p) => p[0]?.toLowerCase() === name.toLowerCase() && p.length > 1).map((p) => p.slice(1));
    if (value !== null && (children.length || inner?.length)) {
      if (Array.isArray(value)) {
        const each: Entity[] = [];
        // One at a time: the loads read the store, which a request uses as one session.
        for (const e of value) each.push(await expandNested(e, nav, children, inner));
        value = each;
      } else {
        value = await expandNested(value, nav, children, inner);
      }
    }
    props.push([name, { kind: 'expanded', navigationLink: nav.link, value }]);
  }
  return selectProps({ ...entity, props }, select, new Set(names.keys()));
}

/** A collection of such entities: `$filter`, `$orderby`, `$skip` and `$top` first, then expansion and `$select`. */
export async function projectedCollection(
  entities: Entity[], navigations: (e: Entity) => Record<string, Navigation>, metadataName: string, ctx: ApiContext,
): Promise<Outcome> {
  const { filter, filterText, orderBy, skip, top } = ctx.query;
  let result = orderEntities(filterEntities(entities, filter, filterText ?? ''), orderBy);
  if (skip) result = result.slice(skip);
  if (top !== undefined) result = result.slice(0, top);
  const projected: Entity[] = [];
  for (const e of result) projected.push(await projectEntity(e, navigations(e), ctx));
  return ok({ kind: 'entitySet', metadataName, entities: projected });
}

/** A single such entity. */
export async function projectedEntity(entity: Entity, available: Record<string, Navigation>, metadataName: string, ctx: ApiContext): Promise<Outcome> {
  const projected = await projectEntity(entity, available, ctx);
  return ok({ kind: 'entity', metadataName, entity: projected }, entity.etag ? { ETag: entity.etag } : undefined);
}
