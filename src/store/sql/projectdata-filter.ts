// ProjectData's OData v3 `$filter` over the query core (query/condition.ts): what its
// comparisons, functions and members mean on a ProjectData table (projectdata-store.ts), with
// WCF Data Services' typing rules and error messages. The core does the connectives, limits
// and `in` lists.
//
// Choices, and why:
// - Comparisons are two-valued, as in the LINQ that WCF DS runs: a null never equals a
//   value, `ne` holds for a null, and `not` flips exactly (SQL's third value would drop rows).
// - Text compares case-insensitively through lower(), as Project's SQL Server collation
//   (case-insensitive) does and as spemu's SharePoint compiler does.
// - A Guid or DateTime property also accepts a quoted string that is a GUID or a date
//   (SharePoint lets that pass); any other mismatch is WCF DS's "incompatible" error.

import { sql, type RawBuilder } from 'kysely';
import type { ComparisonOperator, Expression, Literal, MemberExpression } from '../../query/ast.ts';
import type { EdmType, PdEntitySet, PdProperty, PdValue } from '../../domain/projectdata/model.ts';
import { NAMESPACE } from '../../domain/projectdata/model.ts';
import { parseProjectDate } from '../../domain/projectdata/values.ts';
import { fail } from '../../domain/errors.ts';
import type { SqlFlavour } from './flavour.ts';
import { ConditionCompiler, type Leaves } from './query/condition.ts';
import { foldedText, textMatch, type TextMatch } from './query/text.ts';

export interface PdFilterScope {
  set: PdEntitySet;
  /** Property name → its column in the set's data table. */
  columns: ReadonlyMap<string, string>;
  flavour: SqlFlavour;
  /** The `$filter` text as sent, for positions in error messages. */
  text: string;
}

/** A typed SQL value: a column, a function of one, or a bound literal. */
interface Operand {
  sql: RawBuilder<unknown>;
  type: EdmType;
  nullable: boolean;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SQL_OPERATORS: Record<ComparisonOperator, string> = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' };
const NUMERIC = new Set<EdmType>(['Edm.Decimal', 'Edm.Double', 'Edm.Int64', 'Edm.Int32', 'Edm.Int16', 'Edm.Byte']);
const DATE_PARTS: Record<string, [sqlite: string, postgres: string]> = {
  year: ['%Y', 'year'], month: ['%m', 'month'], day: ['%d', 'day'],
  hour: ['%H', 'hour'], minute: ['%M', 'minute'], second: ['%S', 'second'],
};
/** WCF DS functions this compiler does not translate: a clear 400 rather than "unknown". */
const UNSUPPORTED = new Set(['indexof', 'replace', 'substring', 'concat', 'isof', 'cast']);
export function compilePdFilter(ast: Expression, scope: PdFilterScope): RawBuilder<unknown> {
  return new PdLeaves(scope).core.condition(ast);
}

/** What ORDER BY, keysets and comparisons use for a property: text goes through lower(). */
export function pdSortExpression(type: EdmType, column: string, flavour: SqlFlavour): RawBuilder<unknown> {
  return type === 'Edm.String' ? foldedText(sql.ref(column), flavour) : sql.ref(column);
}

/** A stored value to compare with pdSortExpression (or the bare column, for non-text). */
export function pdSortValue(type: EdmType, value: PdValue): RawBuilder<unknown> {
  return type === 'Edm.String' ? sql`lower(${value})` : sql`${toColumnValue(type, value)}`;
}

/** A PdValue as its column holds it: Guid lower-case, Boolean 0/1. */
export function toColumnValue(type: EdmType, value: PdValue): string | number | null {
  if (value === null) return null;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (type === 'Edm.Guid' && typeof value === 'string') return value.toLowerCase();
  return value;
}

/** WCF DS's message for a property the type does not have (`at position N` where it can be told). */
export function noSuchProperty(set: PdEntitySet, name: string, filterText?: string): Error {
  const at = filterText === undefined ? undefined : positionOf(filterText, name);
  return fail.badArgument(`No property '${name}' exists in type '${NAMESPACE}.${set.entityType}'${at === undefined ? '' : ` at position ${at}`}.`);
}

/** Where `name` first stands as a name (not inside a quoted literal): the token WCF DS points at. */
function positionOf(text: string, name: string): number | undefined {
  for (const m of text.matchAll(/'(?:[^']|'')*'?|[A-Za-z_][A-Za-z0-9_]*/g)) if (m[0] === name) return m.index;
  return undefined;
}

/** WCF DS's leaves: typed comparisons (two-valued), its functions, Boolean members and literals. */
class PdLeaves implements Leaves {
  /** The skeleton over these leaves; a condition used as a value recurses through it. */
  readonly core = new ConditionCompiler(this);
  private readonly properties: Map<string, PdProperty>;

  constructor(private readonly scope: PdFilterScope) {
    this.properties = new Map(scope.set.properties.map((p) => [p.name, p]));
  }

  leaf(node: Expression, depth: number): RawBuilder<unknown> {
    switch (node.kind) {
      case 'compare':
        return this.comparison(node.op, node.left, node.right, depth);
      case 'literal':
        if (node.type === 'boolean') return constant(node.value);
        throw notBoolean(this.scope.text);
      default: {
        const operand = this.value(node, depth);
        if ('kind' in operand || operand.type !== 'Edm.Boolean') throw notBoolean(this.scope.text);
        return guarded([operand], sql`${operand.sql} = 1`);
      }
    }
  }

  /** An operand, or a literal left for the other side of a comparison to type. */
  private value(node: Expression, depth: number): Operand | Literal {
    switch (node.kind) {
      case 'literal': return node;
      case 'member': return this.member(node.path);
      case 'call': return this.call(node.name, node.args, depth);
      default:
        // A condition used as a value (`(A eq 1) eq true`): 1 or 0, never null.
        return { sql: sql`(case when ${this.core.condition(node, depth + 1)} then 1 else 0 end)`, type: 'Edm.Boolean', nullable: false };
    }
  }

  private comparison(op: ComparisonOperator, leftNode: Expression, rightNode: Expression, depth: number): RawBuilder<unknown> {
    const left = this.value(leftNode, depth + 1);
    const right = this.value(rightNode, depth + 1);
    if ('kind' in left && 'kind' in right) return constant(compareLiterals(op, left, right));
    if ('kind' in left) return this.comparison(swap(op), rightNode, leftNode, depth);
    if ('kind' in right && right.type === 'null') {
      // `X eq null`, `X ne null`; an ordering against null is false, as in C#.
      if (op === 'eq') return left.nullable ? sql`(${left.sql} is null)` : constant(false);
      if (op === 'ne') return left.nullable ? sql`(${left.sql} is not null)` : constant(true);
      return constant(false);
    }
    const b: Operand = 'kind' in right ? this.literal(op, left.type, right) : right;
    if (!comparable(op, left.type, b.type)) throw incompatible(op, left.type, b.type);
    const lhs = left.type === 'Edm.String' ? foldedText(left.sql, this.scope.flavour) : left.sql;
    const rhs = b.type === 'Edm.String' ? sql`lower(${b.sql})` : b.sql;
    if (op === 'ne') return sql`(not ${this.equal([left, b], lhs, rhs)})`;
    const test = sql`${lhs} ${sql.raw(SQL_OPERATORS[op])} ${rhs}`;
    return op === 'eq' ? this.equal([left, b], lhs, rhs) : guarded([left, b], test);
  }

  /** Two-valued equality: two nulls are equal (as in C#), a null and a value are not. */
  private equal(operands: Operand[], lhs: RawBuilder<unknown>, rhs: RawBuilder<unknown>): RawBuilder<unknown> {
    const test = guarded(operands, sql`${lhs} = ${rhs}`);
    if (!operands.every((o) => o.nullable)) return test;
    return sql`(${test} or (${sql.join(operands.map((o) => sql`${o.sql} is null`), sql` and `)}))`;
  }

  /**
   * `X eq a or X eq b or …` on one property as `X in (a, b, …)`: SQLite plans a long `or` on
   * an indexed column in quadratic time, an `in` list in linear time.
   */
  inList(member: MemberExpression, literals: Literal[]): RawBuilder<unknown> | undefined {
    const operand = this.member(member.path);
    const values = literals.map((l) => this.literal('eq', operand.type, l));
    const bad = values.find((v) => !comparable('eq', operand.type, v.type));
    if (bad) throw incompatible('eq', operand.type, bad.type);
    if (operand.type === 'Edm.String') {
      return guarded([operand], sql`${foldedText(operand.sql, this.scope.flavour)} in (${sql.join(values.map((v) => sql`lower(${v.sql})`))})`);
    }
    return guarded([operand], sql`${operand.sql} in (${sql.join(values.map((v) => v.sql))})`);
  }

  private member(path: string[]): Operand {
    const name = path.join('/');
    const property = path.length === 1 ? this.properties.get(path[0]!) : undefined;
    const column = property && this.scope.columns.get(property.name);
    if (!property || !column) {
      if (path.length > 1 && this.scope.set.navigations.some((n) => n.name === path[0])) {
        throw fail.badArgument(`Navigation properties in $filter ('${name}') are not supported by spemu's ProjectData feed.`);
      }
      throw noSuchProperty(this.scope.set, path[0]!, this.scope.text);
    }
    return { sql: sql.ref(column), type: property.type, nullable: property.nullable };
  }

  private call(name: string, args: Expression[], depth: number): Operand {
    const operands = args.map((a) => this.value(a, depth + 1));
    const noSignature = () => fail.badArgument(`No function signature for the function with name '${name}' matches the specified arguments.`);
    const single = (): Operand => {
      const [o] = operands;
      if (operands.length !== 1 || !o || 'kind' in o) throw noSignature();
      return o;
    };
    switch (name) {
      case 'startswith': case 'endswith': case 'substringof': {
        if (operands.length !== 2) throw noSignature();
        // substringof(needle, haystack): the arguments the other way round.
        const [target, needle] = name === 'substringof' ? [operands[1], operands[0]] : [operands[0], operands[1]];
        if (!target || 'kind' in target || target.type !== 'Edm.String') throw noSignature();
        if (!needle || !('kind' in needle) || needle.type !== 'string') throw noSignature();
        const match: TextMatch = name === 'substringof' ? 'contains' : name;
        const test = guarded([target], textMatch(target.sql, needle.value, match, this.scope.flavour));
        return { sql: sql`(case when ${test} then 1 else 0 end)`, type: 'Edm.Boolean', nullable: false };
      }
      case 'tolower': case 'toupper': case 'trim': {
        const o = single();
        if (o.type !== 'Edm.String') throw noSignature();
        const fn = sql.raw(name === 'tolower' ? 'lower' : name === 'toupper' ? 'upper' : 'trim');
        return { ...o, sql: sql`${fn}(${o.sql})` };
      }
      case 'length': {
        const o = single();
        if (o.type !== 'Edm.String') throw noSignature();
        return { sql: sql`length(${o.sql})`, type: 'Edm.Int32', nullable: o.nullable };
      }
      case 'round': case 'floor': case 'ceiling': {
        const o = single();
        if (o.type !== 'Edm.Decimal' && o.type !== 'Edm.Double') throw noSignature();
        return { ...o, sql: sql`${sql.raw(name)}(${o.sql})` };
      }
      default: {
        const part = DATE_PARTS[name];
        if (part) {
          const o = single();
          if (o.type !== 'Edm.DateTime') throw noSignature();
          return { sql: datePart(this.scope.flavour, part, o.sql), type: 'Edm.Int32', nullable: o.nullable };
        }
        if (UNSUPPORTED.has(name)) throw fail.badArgument(`The function '${name}' is not supported by spemu's ProjectData feed.`);
        throw fail.badArgument(`Unknown function '${name}'.`);
      }
    }
  }

  /** A literal as a bound value of the other side's type, or its own type when it cannot be one. */
  private literal(op: ComparisonOperator, type: EdmType, literal: Literal): Operand {
    const own = literalType(literal);
    const bound = (value: string | number): Operand => ({ sql: sql`${value}`, type, nullable: false });
    switch (literal.type) {
      case 'guid':
        if (!GUID.test(literal.value)) throw fail.badArgument(`Unrecognized 'Edm.Guid' literal 'guid'${literal.value}''.`);
        return type === 'Edm.Guid' ? bound(literal.value.toLowerCase()) : { sql: sql`${literal.value}`, type: own, nullable: false };
      case 'datetime': {
        const date = parseProjectDate(literal.value);
        if (!date) throw fail.badArgument(`Unrecognized 'Edm.DateTime' literal 'datetime'${literal.value}''.`);
        return { sql: sql`${date.getTime()}`, type: own, nullable: false };
      }
      case 'string': {
        if (type === 'Edm.Guid' && GUID.test(literal.value)) return bound(literal.value.toLowerCase());
        const date = type === 'Edm.DateTime' ? parseProjectDate(literal.value) : undefined;
        if (date) return bound(date.getTime());
        return { sql: sql`${literal.value}`, type: own, nullable: false };
      }
      case 'number':
        return { sql: this.number(literal.value), type: own, nullable: false };
      case 'boolean':
        return { sql: sql`${literal.value ? 1 : 0}`, type: own, nullable: false };
      default:
        throw incompatible(op, type, own);
    }
  }

  /**
   * PostgreSQL types a bare parameter as the other side (an integer column refuses 1.5, an
   * int4 expression refuses 3e9): numbers carry their own type there, as SQLite compares them.
   */
  private number(value: number): RawBuilder<unknown> {
    if (this.scope.flavour !== 'postgres') return sql`${value}`;
    return Number.isSafeInteger(value) ? sql`cast(${value} as bigint)` : sql`cast(${value} as double precision)`;
  }
}

/** `test`, false wherever one of the nullable operands is null (instead of SQL's unknown). */
function guarded(operands: Operand[], test: RawBuilder<unknown>): RawBuilder<unknown> {
  const checks = operands.filter((o) => o.nullable).map((o) => sql`${o.sql} is not null`);
  return checks.length ? sql`(${sql.join([...checks, test], sql` and `)})` : sql`(${test})`;
}

/** year(…) … second(…) of milliseconds since the epoch, in UTC; negative ones are before 1970. */
function datePart(flavour: SqlFlavour, [sqlite, postgres]: [string, string], ms: RawBuilder<unknown>): RawBuilder<unknown> {
  if (flavour === 'sqlite') return sql`cast(strftime(${sql.lit(sqlite)}, ${ms} / 1000.0, 'unixepoch') as integer)`;
  return sql`cast(floor(extract(${sql.raw(postgres)} from to_timestamp(cast(${ms} as double precision) / 1000) at time zone 'UTC')) as integer)`;
}

const constant = (value: boolean) => sql.raw(value ? '(1 = 1)' : '(1 = 0)');
const swap = (op: ComparisonOperator): ComparisonOperator => ({ eq: 'eq', ne: 'ne', gt: 'lt', ge: 'le', lt: 'gt', le: 'ge' } as const)[op];

/** The Edm type WCF DS gives a literal on its own. */
function literalType(literal: Literal): EdmType {
  switch (literal.type) {
    case 'guid': return 'Edm.Guid';
    case 'datetime': return 'Edm.DateTime';
    case 'boolean': return 'Edm.Boolean';
    case 'number':
      if (!/^-?\d+$/.test(literal.raw)) return 'Edm.Double';
      return Math.abs(literal.value) <= 2147483647 ? 'Edm.Int32' : 'Edm.Int64';
    default: return 'Edm.String';
  }
}

/** Numbers compare with numbers; anything else with its own type; Boolean and Guid only for (in)equality. */
function comparable(op: ComparisonOperator, a: EdmType, b: EdmType): boolean {
  if (NUMERIC.has(a) && NUMERIC.has(b)) return true;
  if (a !== b) return false;
  return a !== 'Edm.Boolean' || op === 'eq' || op === 'ne';
}

/** `1 eq 1`, `'a' lt 'b'`: decided here, with the same typing rules. */
function compareLiterals(op: ComparisonOperator, a: Literal, b: Literal): boolean {
  if (a.type === 'null' || b.type === 'null') return op === 'eq' ? a.type === b.type : op === 'ne' ? a.type !== b.type : false;
  const [ta, tb] = [literalType(a), literalType(b)];
  if (!comparable(op, ta, tb)) throw incompatible(op, ta, tb);
  const plain = (l: Literal) => (l.type === 'datetime' ? parseProjectDate(l.value)?.getTime() ?? NaN
    : l.type === 'string' || l.type === 'guid' ? l.value.toLowerCase() : 'value' in l ? l.value : null);
  const [x, y] = [plain(a), plain(b)] as [string | number | boolean, string | number | boolean];
  switch (op) {
    case 'eq': return x === y;
    case 'ne': return x !== y;
    case 'gt': return x > y;
    case 'ge': return x >= y;
    case 'lt': return x < y;
    default: return x <= y;
  }
}

const incompatible = (op: ComparisonOperator, a: EdmType, b: EdmType) =>
  fail.badArgument(`Operator '${op}' incompatible with operand types '${a}' and '${b}'.`);
const notBoolean = (text: string) => fail.badArgument(`The expression '${text}' is not of type 'Edm.Boolean'.`);
