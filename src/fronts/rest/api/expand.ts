// `$expand` and `$select` over fixed-shape entities with navigation properties (a role
// assignment's Member and RoleDefinitionBindings, a folder's Folders and Files): one level of
// expansion, or more where a navigation says what its entities expand (`RoleAssignments/Member`
// on a list, `Folders/ListItemAllFields` on a folder), with `$select` reaching into what was
// expanded (`Member/Title`, `Folders/ListItemAllFields/Id`). A name of a property the entity
// already has (`$expand=HasUniqueRoleAssignments`, as CLI for Microsoft 365 sends it) expands nothing.

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
  /**
   * What each loaded entity may expand in turn, for a deeper `$expand` (`Folders/ListItemAllFields`,
   * as sppull asks a folder; `RoleAssignments/Member` on a list); without it, one level only.
   */
  nested?: (entity: Entity) => Record<string, Navigation>;
}

/** What an entity may expand when `$expand` names nothing: nothing is looked up in it. */
export const NO_NAVIGATIONS: Readonly<Record<string, Navigation>> = Object.freeze({});

/** The names `$expand` asks for at this level, each checked against what the entity has; their deeper paths by name. */
function expandedNames(entity: Entity, expand: string[][], available: Record<string, Navigation>): Map<string, string[][]> {
  const names = new Map<string, string[][]>();
  for (const path of expand) {
    const [head, ...rest] = path;
    if (!head) continue;
    const known = Object.keys(available).find((k) => k.toLowerCase() === head.toLowerCase());
    if (!known) {
      // A property the entity has already (not a navigation) expands nothing, as SharePoint answers.
      if (rest.length === 0 && entity.props.some(([k]) => k.toLowerCase() === head.toLowerCase())) continue;
      throw errors.unknownSelectProperty(path.join('/'));
    }
    if (rest.length > 0 && !available[known]!.nested) throw errors.unknownSelectProperty(path.join('/'));
    const deeper = names.get(known) ?? [];
    if (rest.length) deeper.push(rest);
    names.set(known, deeper);
  }
  return names;
}

/** `$select` paths below an expanded property (`Member/Title` → `Title`); undefined when none names it. */
const below = (select: string[][] | undefined, name: string): string[][] | undefined => {
  const inner = select?.filter((p) => p[0]?.toLowerCase() === name.toLowerCase() && p.length > 1).map((p) => p.slice(1));
  return inner?.length ? inner : undefined;
};

async function project(entity: Entity, available: Record<string, Navigation>, expand: string[][], select: string[][] | undefined): Promise<Entity> {
  const names = expandedNames(entity, expand, available);
  const props = [...entity.props];
  for (const [name, deeper] of names) {
    const nav = available[name]!;
    const inner = below(select, name);
    const one = (e: Entity) => project(e, nav.nested?.(e) ?? {}, deeper, inner);
    const value = await nav.load();
    let projected: Entity | Entity[] | null = null;
    if (Array.isArray(value)) {
      projected = [];
      // One at a time: the loads read the store, which a request uses as one session.
      for (const e of value) projected.push(await one(e));
    } else if (value !== null) {
      projected = await one(value);
    }
    props.push([name, { kind: 'expanded', navigationLink: nav.link, value: projected }]);
  }
  const deferred = entity.deferred?.filter((d) => !names.has(d));
  return selectProps({ ...entity, props, ...(entity.deferred ? { deferred } : {}) }, select, new Set(names.keys()));
}

/** The entity with the navigation properties `$expand` names, then `$select` applied at every level. */
export async function projectEntity(entity: Entity, available: Record<string, Navigation>, ctx: ApiContext): Promise<Entity> {
  return project(entity, available, ctx.query.expand, ctx.query.select);
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
  // Without `$expand` no entity's navigations are looked at: none are made.
  const expanding = ctx.query.expand.length > 0;
  for (const e of result) projected.push(await projectEntity(e, expanding ? navigations(e) : NO_NAVIGATIONS, ctx));
  return ok({ kind: 'entitySet', metadataName, entities: projected });
}

/** A single such entity. */
export async function projectedEntity(entity: Entity, available: Record<string, Navigation>, metadataName: string, ctx: ApiContext): Promise<Outcome> {
  const projected = await projectEntity(entity, available, ctx);
  return ok({ kind: 'entity', metadataName, entity: projected }, entity.etag ? { ETag: entity.etag } : undefined);
}
