// The query core: one skeleton that turns a filter syntax tree (src/query/ast.ts) into a
// parameterised SQL condition, shared by every query language spemu reads — SharePoint's
// item `$filter` (filter-compiler.ts), ProjectData's `$filter` (projectdata-filter.ts) and,
// next, CAML. The skeleton owns what is the same for all: the connectives (`and`, `or`,
// `not`), the limits that keep hostile filters harmless, long `or` chains of equalities on
// one member as an `in` list, and balanced SQL for chains thousands long. Each language gives
// only its leaves: what a comparison, a function call or a bare member means (`Leaves`).

import { sql, type RawBuilder } from 'kysely';
import type { Expression, Literal, LogicalExpression, MemberExpression } from '../../../query/ast.ts';
import { fail } from '../../../domain/errors.ts';

/**
 * SQLite refuses expressions nested over 1000 deep and statements with over 32766 parameters
 * (PostgreSQL: 65535). and/or chains become balanced trees, nested log2(length) deep, so a
 * filter of thousands of `or`s runs; one beyond these limits is refused before any SQL runs.
 */
export const MAX_FILTER_TERMS = 10_000;
export const MAX_SQL_NESTING = 500;

/** What a query language compiles itself; the skeleton does the rest. */
export interface Leaves {
  /** A node that is not a connective (a comparison, a call, a member, a literal), `depth` deep in the SQL. */
  leaf(node: Expression, depth: number): RawBuilder<unknown>;
  /**
   * `X eq a or X eq b or …` on one member as one `X in (a, b, …)` (SQLite plans a long `or`
   * on an indexed column in quadratic time, an `in` list in linear time), or undefined where
   * the language's rules need the comparisons one by one.
   */
  inList?(member: MemberExpression, literals: Literal[]): RawBuilder<unknown> | undefined;
}

export class ConditionCompiler {
  /** Terms compiled so far: each binds a parameter. */
  private terms = 0;

  constructor(private readonly leaves: Leaves) {}

  condition(node: Expression, depth = 0): RawBuilder<unknown> {
    if (depth > MAX_SQL_NESTING) throw tooComplex();
    if (node.kind !== 'logical' && node.kind !== 'not') this.count(1);
    switch (node.kind) {
      case 'logical': {
        const operands = chainOperands(node);
        const equalities = node.op === 'or' ? sameMemberEqualities(operands) : undefined;
        const list = equalities && this.leaves.inList?.(equalities.member, equalities.literals);
        if (list) {
          this.count(equalities.literals.length);
          return list;
        }
        const levels = Math.ceil(Math.log2(operands.length));
        return balanced(operands.map((e) => this.condition(e, depth + levels)), sql.raw(node.op === 'and' ? ' and ' : ' or '));
      }
      case 'not':
        return sql`(not ${this.condition(node.operand, depth + 1)})`;
      default:
        return this.leaves.leaf(node, depth);
    }
  }

  private count(n: number): void {
    this.terms += n;
    if (this.terms > MAX_FILTER_TERMS) throw tooComplex();
  }
}

/**
 * The operands of an and/or chain, in order. Long chains are trees thousands deep (left-leaning
 * from the parser, either way when built), so they are gathered with a loop, not recursion.
 */
export function chainOperands(node: LogicalExpression): Expression[] {
  const operands: Expression[] = [];
  const stack: Expression[] = [node];
  while (stack.length) {
    const e = stack.pop()!;
    if (e.kind === 'logical' && e.op === node.op) stack.push(e.right, e.left);
    else operands.push(e);
  }
  return operands;
}

/** The member and literals when every operand is `<the same member> eq <a literal, not null>`. */
export function sameMemberEqualities(operands: Expression[]): { member: MemberExpression; literals: Literal[] } | undefined {
  const head = operands[0];
  if (operands.length < 2 || head?.kind !== 'compare' || head.left.kind !== 'member') return undefined;
  const name = head.left.path.join('/');
  const literals: Literal[] = [];
  for (const e of operands) {
    if (e.kind !== 'compare' || e.op !== 'eq' || e.left.kind !== 'member' || e.left.path.join('/') !== name
      || e.right.kind !== 'literal' || e.right.type === 'null') return undefined;
    literals.push(e.right);
  }
  return { member: head.left, literals };
}

/**
 * `(a or b or … )` as a balanced tree of parenthesised halves: the database parses a flat
 * chain into a tree as deep as it is long, and SQLite refuses trees deeper than 1000.
 */
export function balanced(parts: RawBuilder<unknown>[], op: RawBuilder<unknown>): RawBuilder<unknown> {
  if (parts.length === 1) return parts[0]!;
  const half = parts.length >> 1;
  return sql`(${balanced(parts.slice(0, half), op)}${op}${balanced(parts.slice(half), op)})`;
}

export const tooComplex = () => fail.badArgument('The query is too complex.');
