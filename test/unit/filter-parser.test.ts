import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseFilter, MAX_FILTER_DEPTH } from '../../src/odata/filter/parser.ts';
import { ODataSyntaxError } from '../../src/odata/errors.ts';
import type { ComparisonOperator, Expression, Literal } from '../../src/query/ast.ts';

// Small AST builders so expectations read like the filters they describe.
const member = (...path: string[]): Expression => ({ kind: 'member', path });
const str = (value: string): Literal => ({ kind: 'literal', type: 'string', value });
const num = (value: number, raw = String(value)): Literal => ({ kind: 'literal', type: 'number', value, raw });
const bool = (value: boolean): Literal => ({ kind: 'literal', type: 'boolean', value });
const nullLiteral: Literal = { kind: 'literal', type: 'null' };
const datetime = (value: string): Literal => ({ kind: 'literal', type: 'datetime', value });
const guid = (value: string): Literal => ({ kind: 'literal', type: 'guid', value });
const cmp = (op: ComparisonOperator, left: Expression, right: Expression): Expression => ({ kind: 'compare', op, left, right });
const and = (left: Expression, right: Expression): Expression => ({ kind: 'logical', op: 'and', left, right });
const or = (left: Expression, right: Expression): Expression => ({ kind: 'logical', op: 'or', left, right });
const not = (operand: Expression): Expression => ({ kind: 'not', operand });
const call = (name: string, ...args: Expression[]): Expression => ({ kind: 'call', name, args });

function assertSyntaxError(text: string): void {
  assert.throws(
    () => parseFilter(text),
    (error: unknown) => error instanceof ODataSyntaxError && error.expression === text,
    `expected ODataSyntaxError for ${JSON.stringify(text.slice(0, 80))}`,
  );
}

test('every comparison operator', () => {
  for (const op of ['eq', 'ne', 'gt', 'ge', 'lt', 'le'] as const) {
    assert.deepEqual(parseFilter(`Priority ${op} 3`), cmp(op, member('Priority'), num(3)));
  }
});

test('keywords and operators are case-insensitive', () => {
  assert.deepEqual(
    parseFilter("Title Eq 'a' AND Not Priority GT 1 oR Done eQ TRUE"),
    or(and(cmp('eq', member('Title'), str('a')), not(cmp('gt', member('Priority'), num(1)))), cmp('eq', member('Done'), bool(true))),
  );
  assert.deepEqual(parseFilter('X eq NULL'), cmp('eq', member('X'), nullLiteral));
  assert.deepEqual(parseFilter("D eq DateTime'2020-01-01'"), cmp('eq', member('D'), datetime('2020-01-01')));
  assert.deepEqual(parseFilter("G eq GUID'a'"), cmp('eq', member('G'), guid('a')));
});

test('and binds tighter than or; both chain to the left', () => {
  const [a, b, c] = ['a', 'b', 'c'].map((name, i) => cmp('eq', member(name), num(i + 1))) as [Expression, Expression, Expression];
  assert.deepEqual(parseFilter('a eq 1 or b eq 2 and c eq 3'), or(a, and(b, c)));
  assert.deepEqual(parseFilter('a eq 1 and b eq 2 or c eq 3'), or(and(a, b), c));
  assert.deepEqual(parseFilter('a eq 1 or b eq 2 or c eq 3'), or(or(a, b), c));
  assert.deepEqual(parseFilter('a eq 1 and b eq 2 and c eq 3'), and(and(a, b), c));
});

test('not sits between and and comparisons', () => {
  const a = cmp('eq', member('a'), num(1));
  const b = cmp('eq', member('b'), num(2));
  assert.deepEqual(parseFilter('not a eq 1 and b eq 2'), and(not(a), b));
  assert.deepEqual(parseFilter('not(a eq 1)'), not(a));
  assert.deepEqual(parseFilter('not not a eq 1'), not(not(a)));
  // `not(x) eq 1` is not a call: the whole comparison is negated.
  assert.deepEqual(parseFilter('not(a) eq 1'), not(cmp('eq', member('a'), num(1))));
  assert.deepEqual(parseFilter('a eq 1 or not b eq 2'), or(a, not(b)));
});

test('parentheses group, with or without spaces around them', () => {
  const a = cmp('eq', member('a'), num(1));
  const b = cmp('eq', member('b'), num(2));
  const c = cmp('eq', member('c'), num(3));
  assert.deepEqual(parseFilter('(a eq 1 or b eq 2) and c eq 3'), and(or(a, b), c));
  assert.deepEqual(parseFilter('(a eq 1)and(b eq 2)'), and(a, b));
  assert.deepEqual(parseFilter('((( a eq 1 )))'), a);
  assert.deepEqual(parseFilter('\t a eq 1  \t or\tb   eq 2 '), or(a, b));
  assert.deepEqual(parseFilter('a eq (1)'), a);
});

test('member paths keep their case', () => {
  assert.deepEqual(parseFilter("Author/Title eq 'Jon Smith'"), cmp('eq', member('Author', 'Title'), str('Jon Smith')));
  assert.deepEqual(parseFilter("OData__UIVersionString eq '1.0'"), cmp('eq', member('OData__UIVersionString'), str('1.0')));
  assert.deepEqual(parseFilter('a/b/C_1 ne null'), cmp('ne', member('a', 'b', 'C_1'), nullLiteral));
});

test('a bare member or literal is a whole filter', () => {
  assert.deepEqual(parseFilter('IsActive'), member('IsActive'));
  assert.deepEqual(parseFilter('true'), bool(true));
  assert.deepEqual(parseFilter("'x'"), str('x'));
});

test('string literals with doubled quotes', () => {
  assert.deepEqual(parseFilter("Title eq 'O''Brien'"), cmp('eq', member('Title'), str("O'Brien")));
  assert.deepEqual(parseFilter("Title eq ''"), cmp('eq', member('Title'), str('')));
  assert.deepEqual(parseFilter("Title eq ''''"), cmp('eq', member('Title'), str("'")));
  assert.deepEqual(parseFilter("Title eq 'a eq b and (c)'"), cmp('eq', member('Title'), str('a eq b and (c)')));
});

test('number literals: negative, decimal, exponent, suffixes', () => {
  const cases: [string, Literal][] = [
    ['0', num(0)],
    ['42', num(42)],
    ['-5', num(-5)],
    ['3.25', num(3.25)],
    ['-0.5', num(-0.5, '-0.5')],
    ['1e3', num(1000, '1e3')],
    ['2.5E-2', num(0.025, '2.5E-2')],
    ['1E+2', num(100, '1E+2')],
    ['10L', num(10, '10')],
    ['7l', num(7, '7')],
    ['1.5M', num(1.5, '1.5')],
    ['2.0d', num(2, '2.0')],
    ['3D', num(3, '3')],
    ['-4.5f', num(-4.5, '-4.5')],
    ['1e3F', num(1000, '1e3')],
  ];
  for (const [text, expected] of cases) {
    assert.deepEqual(parseFilter(`N eq ${text}`), cmp('eq', member('N'), expected), text);
  }
  assert.deepEqual(parseFilter('IsActive eq 1'), cmp('eq', member('IsActive'), num(1)));
});

test('boolean and null literals', () => {
  assert.deepEqual(parseFilter('Done eq true'), cmp('eq', member('Done'), bool(true)));
  assert.deepEqual(parseFilter('Done ne False'), cmp('ne', member('Done'), bool(false)));
  assert.deepEqual(parseFilter('Col eq null'), cmp('eq', member('Col'), nullLiteral));
});

test('datetime, datetimeoffset and guid literals keep their text', () => {
  assert.deepEqual(
    parseFilter("Modified gt datetime'2019-11-05T12:18:00.000Z'"),
    cmp('gt', member('Modified'), datetime('2019-11-05T12:18:00.000Z')),
  );
  assert.deepEqual(parseFilter("Due le datetimeoffset'2016-01-01T00:00:00+02:00'"), cmp('le', member('Due'), datetime('2016-01-01T00:00:00+02:00')));
  assert.deepEqual(parseFilter("Due eq datetime'not a date'"), cmp('eq', member('Due'), datetime('not a date')));
  assert.deepEqual(
    parseFilter("Id eq guid'0c5f0f5e-2d8e-4b6c-9d3a-5e7b1f2a9c11'"),
    cmp('eq', member('Id'), guid('0c5f0f5e-2d8e-4b6c-9d3a-5e7b1f2a9c11')),
  );
});

test('function calls: lower-cased names, any arity, nested', () => {
  assert.deepEqual(parseFilter("startswith(Title,'W')"), call('startswith', member('Title'), str('W')));
  assert.deepEqual(parseFilter("StartsWith( Title , 'W' )"), call('startswith', member('Title'), str('W')));
  assert.deepEqual(parseFilter("substringof('spec',Title)"), call('substringof', str('spec'), member('Title')));
  assert.deepEqual(parseFilter('day(Created) eq 5'), cmp('eq', call('day', member('Created')), num(5)));
  for (const name of ['year', 'month', 'hour', 'minute', 'second']) {
    assert.deepEqual(parseFilter(`${name}(Due) ge 1`), cmp('ge', call(name, member('Due')), num(1)));
  }
  assert.deepEqual(parseFilter('year(max(Due, Created)) eq 2020'), cmp('eq', call('year', call('max', member('Due'), member('Created'))), num(2020)));
  assert.deepEqual(
    parseFilter("substringof('a',Title) eq true and not startswith(Title,'b')"),
    and(cmp('eq', call('substringof', str('a'), member('Title')), bool(true)), not(call('startswith', member('Title'), str('b')))),
  );
  assert.deepEqual(parseFilter('now()'), call('now'));
});

test('syntax errors carry the whole input as expression', () => {
  const invalid = [
    '',
    '   ',
    '\t',
    '(a eq 1',
    'a eq 1)',
    '((a eq 1)',
    '()',
    "Title eq 'a' 'b'",
    'Title eq',
    'eq 1',
    'a eq 1 and',
    'or a eq 1',
    'a eq 1 or or b eq 2',
    'not',
    'a eq b eq c',
    'a eq 1 eq 2 and b eq 3',
    "Titleeq'x'",
    "Title eq'x'",
    "'x'eq Title",
    '1eq a',
    'a eq-5',
    'a eq - 5',
    '- 5',
    'a eq --5',
    'a eq 5.',
    'a eq .5',
    'a eq 1e',
    'a eq 1.2.3',
    'a eq 12abc',
    'a eq 1e999',
    "Title eq 'unterminated",
    "Title eq 'O'Brien'",
    "a eq X'0A'",
    "a eq time'PT1H'",
    "a eq binary'00'",
    "datetime'2020' eq datetime'2020",
    'Author /Title eq 1',
    'Author/ Title eq 1',
    'Author/',
    '/Title',
    'a eq $b',
    'a eq 1; drop',
    'a eq 1 & b eq 2',
    'a eq #1',
    'a eq *',
    'a[0] eq 1',
    'a eq 1\n',
    'startswith(Title,)',
    "startswith(Title 'x')",
    'startswith(Title',
    'f(,a)',
    'Author/f(x)',
    'true(1)',
    'foo (x)',
    'a eq not b',
    'a and b or',
  ];
  for (const text of invalid) assertSyntaxError(text);
});

test('nesting up to the depth limit parses, one more level is rejected', () => {
  const parens = (depth: number) => '('.repeat(depth) + 'a eq 1' + ')'.repeat(depth);
  const nots = (depth: number) => 'not '.repeat(depth) + 'a';
  const calls = (depth: number) => 'f('.repeat(depth) + 'a' + ')'.repeat(depth);
  assert.deepEqual(parseFilter(parens(MAX_FILTER_DEPTH)), cmp('eq', member('a'), num(1)));
  assert.equal(parseFilter(nots(MAX_FILTER_DEPTH)).kind, 'not');
  assert.equal(parseFilter(calls(MAX_FILTER_DEPTH)).kind, 'call');
  assertSyntaxError(parens(MAX_FILTER_DEPTH + 1));
  assertSyntaxError(nots(MAX_FILTER_DEPTH + 1));
  assertSyntaxError(calls(MAX_FILTER_DEPTH + 1));
});

test('100000 open parentheses throw ODataSyntaxError quickly', () => {
  const started = performance.now();
  assertSyntaxError('('.repeat(100_000));
  assertSyntaxError('not '.repeat(100_000) + 'a');
  assertSyntaxError('f('.repeat(100_000));
  assert.ok(performance.now() - started < 1000);
});

test('a 64 KiB filter of 2000 or-ed comparisons parses in under a second', () => {
  const clauses = 2000;
  const budget = 64 * 1024 - ' or '.length * (clauses - 1);
  const clause = (i: number) => {
    const head = `Field${i} eq '`;
    return head + 'x'.repeat(Math.floor(budget / clauses) - head.length - 1) + "'";
  };
  const text = Array.from({ length: clauses }, (_, i) => clause(i)).join(' or ');
  assert.ok(text.length > 60 * 1024 && text.length <= 64 * 1024, `length ${text.length}`);

  const started = performance.now();
  let node = parseFilter(text);
  assert.ok(performance.now() - started < 1000);

  let comparisons = 1;
  while (node.kind === 'logical') {
    assert.equal(node.op, 'or');
    assert.equal(node.right.kind, 'compare');
    comparisons++;
    node = node.left;
  }
  assert.equal(comparisons, clauses);
});

test('long hostile inputs stay fast', () => {
  const started = performance.now();
  assertSyntaxError("a eq '" + "''".repeat(30_000));
  assertSyntaxError('a eq ' + '1'.repeat(60_000) + 'x');
  assertSyntaxError('a/'.repeat(30_000));
  assert.ok(performance.now() - started < 1000);
});

test('fuzz: random filter-ish text only ever throws ODataSyntaxError', () => {
  // mulberry32: a tiny seeded PRNG so failures reproduce.
  let seed = 0x5eed;
  const random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const alphabet = [
    'Title', 'Author/Title', 'eq', 'ne', 'and', 'or', 'not', 'Not', '(', ')', ',', "'x'", "'", "''", '1', '-',
    '2.5', '1e3', 'L', "datetime'2020-01-01'", "guid'", 'X', '/', 'startswith(', 'day(', 'null', 'TRUE', '$', '.', ' ', '\t',
  ];
  let parsed = 0;
  for (let i = 0; i < 2000; i++) {
    const length = 1 + Math.floor(random() * 12);
    let text = '';
    for (let j = 0; j < length; j++) {
      text += alphabet[Math.floor(random() * alphabet.length)]! + (random() < 0.7 ? ' ' : '');
    }
    try {
      parseFilter(text);
      parsed++;
    } catch (error) {
      assert.ok(error instanceof ODataSyntaxError, `${JSON.stringify(text)} threw ${String(error)}`);
      assert.equal(error.expression, text);
    }
  }
  assert.ok(parsed > 0, 'the fuzz alphabet should produce some valid filters');
});
