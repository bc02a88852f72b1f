// The query core's skeleton, with the smallest language there is: every leaf is a named
// test. What the skeleton must do whatever the language: connectives, `in` lists when the
// language offers them, balanced chains, and the limits that keep hostile filters harmless.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DummyDriver, Kysely, sql, SqliteAdapter, SqliteIntrospector, SqliteQueryCompiler, type RawBuilder } from 'kysely';
import type { Expression, Literal, MemberExpression } from '../../src/query/ast.ts';
import { ConditionCompiler, MAX_FILTER_TERMS, MAX_SQL_NESTING, type Leaves } from '../../src/store/sql/query/condition.ts';
import { parseFilter } from '../../src/odata/filter/parser.ts';
import { DomainError } from '../../src/domain/errors.ts';

const db = new Kysely<any>({
  dialect: { createAdapter: () => new SqliteAdapter(), createDriver: () => new DummyDriver(), createIntrospector: (k) => new SqliteIntrospector(k), createQueryCompiler: () => new SqliteQueryCompiler() },
});
const text = (raw: RawBuilder<unknown>) => raw.compile(db);

/** Leaves of a toy language: `Name eq v` → `name = ?`; an `in` list only when `lists` is on. */
class ToyLeaves implements Leaves {
  leaves = 0;
  constructor(private readonly lists: boolean) {}
  leaf(node: Expression): RawBuilder<unknown> {
    this.leaves++;
    if (node.kind !== 'compare' || node.left.kind !== 'member' || node.right.kind !== 'literal' || node.right.type === 'null') throw new Error('toy: not a comparison');
    return sql`${sql.ref(node.left.path[0]!.toLowerCase())} = ${'value' in node.right ? node.right.value : null}`;
  }
  inList(member: MemberExpression, literals: Literal[]): RawBuilder<unknown> | undefined {
    if (!this.lists) return undefined;
    return sql`${sql.ref(member.path[0]!.toLowerCase())} in (${sql.join(literals.map((l) => ('value' in l ? l.value : null)))})`;
  }
}

const compile = (filter: string | Expression, lists = true) => {
  const leaves = new ToyLeaves(lists);
  const compiled = text(new ConditionCompiler(leaves).condition(typeof filter === 'string' ? parseFilter(filter) : filter));
  return { sql: compiled.sql, parameters: compiled.parameters, leaves: leaves.leaves };
};

const orChain = (n: number): string => Array.from({ length: n }, (_, i) => `A eq ${i}`).join(' or ');
const tooComplex = (e: unknown) => e instanceof DomainError && e.reason === 'badArgument' && /too complex/.test(e.message);

describe('the query core', () => {
  it('writes and, or and not around the language\'s leaves, values bound', () => {
    const { sql: s, parameters } = compile("A eq 1 and not (B eq 'x' or C eq 2)", false);
    assert.equal(s, '("a" = ? and (not ("b" = ? or "c" = ?)))');
    assert.deepEqual(parameters, [1, 'x', 2]);
  });

  it('turns an or of equalities on one member into the language\'s in list, and leaves mixed chains alone', () => {
    assert.equal(compile('A eq 1 or A eq 2 or A eq 3').sql, '"a" in (?, ?, ?)');
    assert.equal(compile('A eq 1 or B eq 2').sql, '("a" = ? or "b" = ?)');
    assert.equal(compile('A eq 1 or A ne 2').sql.includes(' in '), false, 'ne is not an equality');
    assert.equal(compile('A eq 1 and A eq 2').sql, '("a" = ? and "a" = ?)');
    assert.equal(compile('A eq 1 or A eq 2', false).sql, '("a" = ? or "a" = ?)', 'a language may decline');
  });

  it('emits long chains as balanced trees: nesting grows with the log of the length', () => {
    const { sql: s, leaves } = compile(orChain(1024), false);
    assert.equal(leaves, 1024);
    let depth = 0;
    let deepest = 0;
    for (const c of s) {
      if (c === '(') deepest = Math.max(deepest, ++depth);
      if (c === ')') depth--;
    }
    assert.equal(deepest, 10);
  });

  it(`refuses more than ${MAX_FILTER_TERMS} terms, in lists counted by their values`, () => {
    assert.doesNotThrow(() => compile(orChain(MAX_FILTER_TERMS), false));
    assert.throws(() => compile(orChain(MAX_FILTER_TERMS + 1), false), tooComplex);
    assert.throws(() => compile(orChain(MAX_FILTER_TERMS + 1), true), tooComplex);
  });

  it(`refuses SQL nested deeper than ${MAX_SQL_NESTING} (a tower of nots)`, () => {
    let node: Expression = parseFilter('A eq 1');
    for (let i = 0; i < MAX_SQL_NESTING + 1; i++) node = { kind: 'not', operand: node };
    assert.throws(() => compile(node), tooComplex);
  });
});
