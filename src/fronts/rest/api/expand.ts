// `$expand` and `$select` over fixed-shape entities with navigation properties (a role
// assignment's Member and RoleDefinitionBindings): one level of expansion, with `$select`
// reaching into what was expanded (`Member/Title`).

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
}

/** The names `$expand` asks for, each checked against what the entity has (one level only). */
function expandedNames(ctx: ApiContext, available: Record<string, Navigation>): string[] {
  const names: string[] = [];
  for (const path of ctx.query.expand) {
    const [head] = path;
    if (!head) continue;
    const known = Object.keys(available).find((k) => k.toLowerCase() === head.toLowerCase());
    if (!known || path.length > 1) throw errors.unknownSelectProperty(path.join('/'));
    if (!names.includes(known)) names.push(known);
  }
  return names;
}

/** The entity with the navigation properties `$expand` names, then `$select` applied at both levels. */
export async function projectEntity(entity: Entity, available: Record<string, Navigation>, ctx: ApiContext): Promise<Entity> {
  const names = expandedNames(ctx, available);
  const select = ctx.query.select;
  const props = [...entity.props];
  for (const name of names) {
    const nav = available[name]!;
    let value = await nav.load();
    const inner = select?.filter((p) => p[0]?.toLowerCase() === name.toLowerCase() && p.length > 1).map((p) => p.slice(1));
    if (inner?.length && value !== null) {
      value = Array.isArray(value) ? value.map((e) => selectProps(e, inner)) : selectProps(value, inner);
    }
    props.push([name, { kind: 'expanded', navigationLink: nav.link, value }]);
  }
  return selectProps({ ...entity, props }, select, new Set(names));
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
