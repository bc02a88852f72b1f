// Helpers the resource types share: collection responses for fixed-shape entities and key
// arguments.

import { argumentLiteral, type Argument } from '../../../../odata/path.ts';
import { errors } from '../../../../wire/errors.ts';
import type { Entity } from '../../../../wire/values.ts';
import type { ApiContext } from '../context.ts';
import { selectProps } from '../entities.ts';
import { filterEntities, orderEntities } from '../memory-filter.ts';
import { ok, type Outcome } from '../outcome.ts';

/** A collection of fixed-shape entities with `$filter`, `$orderby`, `$skip`, `$top`, `$select` applied. */
export function entityCollection(entities: Entity[], metadataName: string, ctx: ApiContext): Outcome {
  const { filter, filterText, orderBy, skip, top, select } = ctx.query;
  let result = orderEntities(filterEntities(entities, filter, filterText ?? ''), orderBy);
  if (skip) result = result.slice(skip);
  if (top !== undefined) result = result.slice(0, top);
  return ok({ kind: 'entitySet', metadataName, entities: result.map((e) => selectProps(e, select)) });
}

export function singleEntity(entity: Entity, metadataName: string, ctx: ApiContext): Outcome {
  const headers = entity.etag ? { ETag: entity.etag } : undefined;
  return ok({ kind: 'entity', metadataName, entity: selectProps(entity, ctx.query.select) }, headers);
}

export function argument(args: Argument[], ...names: string[]): Argument['value'] | undefined {
  if (args.length === 1 && args[0]!.name === undefined) return args[0]!.value;
  const lower = names.map((n) => n.toLowerCase());
  return args.find((a) => a.name !== undefined && lower.includes(a.name.toLowerCase()))?.value;
}

export function stringArgument(args: Argument[], ...names: string[]): string {
  const literal = argumentLiteral(argument(args, ...names));
  if (!literal || (literal.type !== 'string' && literal.type !== 'guid')) throw errors.resourceNotFound();
  return literal.value;
}

/** A GUID key as clients send it (`'{A1B2…}'` or `'a1b2…'`) → the lower-case bare form ids are stored in. */
export const guidText = (text: string): string => text.trim().replace(/^\{(.*)\}$/, '$1').toLowerCase();

export function integerArgument(args: Argument[], ...names: string[]): number {
  const literal = argumentLiteral(argument(args, ...names));
  if (literal?.type === 'number' && Number.isInteger(literal.value) && literal.value >= 0) return literal.value;
  if (literal?.type === 'string' && /^\d+$/.test(literal.value)) return Number(literal.value);
  throw errors.resourceNotFound();
}

export const emptyOk = (): Outcome => ({ status: 200 });
