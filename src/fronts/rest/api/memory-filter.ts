// `$filter` and `$orderby` over small, fixed-shape collections held in memory (a web's
// lists, a list's fields). List items never come here: they are filtered in the database.

import type { Expression, Literal } from '../../../query/ast.ts';
import type { OrderByItem } from '../../../odata/query.ts';
import { errors } from '../../../wire/errors.ts';
import { EdmDouble, type Entity, type Value } from '../../../wire/values.ts';

type Scalar = string | number | boolean | null;

function scalar(v: Value | undefined): Scalar {
  if (v === undefined || v === null) return null;
  if (v instanceof EdmDouble) return v.value;
  if (typeof v === 'object') return null;
  return v;
}

function literalValue(l: Literal): Scalar {
  return l.type === 'null' ? null : l.type === 'number' ? l.value : l.type === 'boolean' ? l.value : l.value;
}

function compare(a: Scalar, b: Scalar): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? -1 : 1;
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0;
  if (typeof a === 'boolean' || typeof b === 'boolean') return Number(a) - Number(b);
  return Number(a) < Number(b) ? -1 : Number(a) > Number(b) ? 1 : 0;
}

function evaluate(node: Expression, entity: Entity, text: string): Scalar {
  const prop = (name: string) => {
    // Property names match in any case, as SharePoint's do.
    const found = entity.props.find(([k]) => k.toLowerCase() === name.toLowerCase());
    if (!found) throw errors.unknownSelectProperty(name);
    return scalar(found[1]);
  };
  switch (node.kind) {
    case 'literal': return literalValue(node);
    case 'member':
      if (node.path.length !== 1) throw errors.invalidExpression(text);
      return prop(node.path[0]!);
    case 'not': return !evaluate(node.operand, entity, text);
    case 'logical': {
      const left = Boolean(evaluate(node.left, entity, text));
      return node.op === 'and' ? left && Boolean(evaluate(node.right, entity, text)) : left || Boolean(evaluate(node.right, entity, text));
    }
    case 'compare': {
      const c = compare(evaluate(node.left, entity, text), evaluate(node.right, entity, text));
      return { eq: c === 0, ne: c !== 0, gt: c > 0, ge: c >= 0, lt: c < 0, le: c <= 0 }[node.op];
    }
    case 'call': {
      const [a, b] = node.args.map((arg) => evaluate(arg, entity, text));
      if (node.name === 'startswith') return typeof a === 'string' && typeof b === 'string' && a.toLowerCase().startsWith(b.toLowerCase());
      if (node.name === 'substringof') return typeof a === 'string' && typeof b === 'string' && b.toLowerCase().includes(a.toLowerCase());
      throw errors.badArgument(`The function '${node.name}' is not supported in a SharePoint $filter.`);
    }
  }
}

export function filterEntities(entities: Entity[], filter: Expression | undefined, text: string): Entity[] {
  return filter ? entities.filter((e) => Boolean(evaluate(filter, e, text))) : entities;
}

export function orderEntities(entities: Entity[], orderBy: OrderByItem[]): Entity[] {
  if (orderBy.length === 0) return entities;
  const key = (e: Entity, name: string) => {
    const found = e.props.find(([k]) => k.toLowerCase() === name.toLowerCase());
    if (!found) throw errors.unknownSelectProperty(name);
    return scalar(found[1]);
  };
  return [...entities].sort((x, y) => {
    for (const o of orderBy) {
      const c = compare(key(x, o.path.join('/')), key(y, o.path.join('/')));
      if (c !== 0) return o.direction === 'desc' ? -c : c;
    }
    return 0;
  });
}
