// The `$filter` → SQL compiler: what SQL and parameters it produces, what it refuses and
// how, and how it keeps hostile filters (huge, deep, injection-shaped) harmless. The SQL is
// compiled for, and run where results matter on, the leg's real database: a SQLite file, or
// PostgreSQL on its leg (placeholders read `?` in the assertions either way).

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import type { SqlStore } from '../../src/store/sql/sql-store.ts';
import { compileFilter, MAX_FILTER_TERMS, type FilterScope } from '../../src/store/sql/filter-compiler.ts';
import type { SqlFlavour } from '../../src/store/sql/flavour.ts';
import { createListWithFields } from '../../src/services/lists.ts';
import type { FieldKind } from '../../src/domain/field-kinds.ts';
import type { Field, List } from '../../src/domain/model.ts';
import type { Expression } from '../../src/query/ast.ts';
import { parseFilter } from '../../src/odata/filter/parser.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { toSpError } from '../../src/wire/errors.ts';
import { openStoreBackend, type StoreBackend } from '../helpers/store-backend.ts';
import { testBackend } from '../helpers/postgres.ts';

const NOW = '2024-06-01T12:00:00Z';

let backend: StoreBackend;
let flavour: SqlFlavour;
/** ` collate "C"` where PostgreSQL's SQL says it (text compared by code point), as a regular expression. */
let C: string;
let db: Kysely<any>;
let store: SqlStore;
let list: List;
let fields: Field[];
let users: { list: List; fields: Field[] };
let targets: { list: List; fields: Field[] };

before(async () => {
  backend = await openStoreBackend();
  ({ db, store, flavour } = backend);
  C = flavour === 'postgres' ? ' collate "C"' : '';
  const { web } = await store.sites.create({ url: '/sites/c', title: 'C', description: '', now: NOW });
  const userList = await createListWithFields(store, web, { title: 'User Information List', description: '', baseTemplate: 112 }, NOW);
  users = { list: userList, fields: await store.fields.of(userList) };
  const targetList = await createListWithFields(store, web, { title: 'Targets', description: '', baseTemplate: 100 }, NOW);
  targets = { list: targetList, fields: await store.fields.of(targetList) };
  list = await createListWithFields(store, web, { title: 'Tasks', description: '', baseTemplate: 100 }, NOW);
  const add = (internalName: string, kind: FieldKind, options = {}) =>
    store.fields.add(list, { internalName, title: internalName, kind, required: false, indexed: false, hidden: false, options });
  await add('Amount', 'Number');
  await add('Count', 'Integer');
  await add('Done', 'Boolean');
  await add('Due', 'DateTime');
  await add('Status', 'Choice', { choices: ['Open', 'Closed'] });
  await add('Owner', 'User');
  await add('Ref', 'Lookup', { lookupListId: targetList.id, lookupField: 'Title' });
  await add('Links', 'URL');
  await add('Tags', 'MultiChoice', { choices: ['a', 'b'] });
  fields = await store.fields.of(list);
  for (let n = 1; n <= 30; n++) await store.items.create(list, fields, { values: { Title: `item ${n}`, Count: n }, actorId: 1, now: NOW });
});

after(async () => {
  await backend.close();
});

function scope(text: string, options: { expanded?: boolean; flavour?: SqlFlavour } = {}): FilterScope {
  const lookups: FilterScope['lookups'] = options.expanded === false ? new Map() : new Map([['Owner', users], ['Ref', targets]]);
  return { fields, lookups, flavour: options.flavour ?? flavour, text };
}

function compileAst(ast: Expression, text = 'filter', options: { expanded?: boolean; flavour?: SqlFlavour } = {}) {
  const { condition, fieldsUsed } = compileFilter(ast, scope(text, options));
  const compiled = db.selectFrom(list.tableName).select('id').where(sql<boolean>`${condition}`).compile();
  return { sql: compiled.sql.replace(/\$\d+/g, '?'), parameters: compiled.parameters as unknown[], fieldsUsed, condition };
}

const compile = (filter: string, options: { expanded?: boolean; flavour?: SqlFlavour } = {}) => compileAst(parseFilter(filter), filter, options);

async function run(ast: Expression): Promise<number[]> {
  const { condition } = compileFilter(ast, scope('filter'));
  const rows = await db.selectFrom(list.tableName).select('id').where(sql<boolean>`${condition}`).orderBy('id').execute();
  return rows.map((r) => Number(r.id));
}

/** How deeply the SQL nests parentheses: a stand-in for the expression tree's depth. */
function nesting(text: string): number {
  let depth = 0;
  let max = 0;
  for (const c of text) {
    if (c === '(') max = Math.max(max, ++depth);
    else if (c === ')') depth--;
  }
  return max;
}

function rejects400(fn: () => unknown, message?: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    // The store reports a neutral failure; SharePoint REST answers it as a 400.
    assert.ok(e instanceof DomainError && e.kind === 'invalid', `expected an invalid-input DomainError, got ${String(e)}`);
    assert.equal(toSpError(e).status, 400);
    if (message) assert.match(toSpError(e).message, message);
    return true;
  });
}

const id = (n: number): Expression => ({ kind: 'compare', op: 'eq', left: { kind: 'member', path: ['ID'] }, right: { kind: 'literal', type: 'number', value: n, raw: String(n) } });

describe('values are bound parameters, never SQL text', () => {
  const CASES: Array<[string, unknown[]]> = [
    ["Title eq 'x'' or 1=1 --'", ["x' or 1=1 --"]],
    ["Title eq 'Robert''); drop table lists;--'", ["Robert'); drop table lists;--"]],
    ["Title ne '\\'' union select * from sqlite_master --'", ["\\' union select * from sqlite_master --"]],
    ['Amount gt 987654.321', [987654.321]],
    ["Amount le '-42.5'", [-42.5]],
    ['Count eq 424242', [424242]],
    ['Done eq true', [1]],
    ["Done eq 'false'", [0]],
    ["Due ge datetime'2031-05-06T07:08:09+02:00'", ['2031-05-06T05:08:09Z']],
    ["Due lt '2031-05-06'", ['2031-05-06T00:00:00Z']],
    // PostgreSQL matches with LIKE (wildcards in the text escaped); SQLite compares the bytes (query/text.ts).
    ["startswith(Title, '50%_off\\')", testBackend() === 'postgres' ? ['50\\%\\_off\\\\%'] : ['50%_off\\']],
    ["substringof('robert''); drop table lists;--', Title)", testBackend() === 'postgres' ? ["%robert'); drop table lists;--%"] : ["robert'); drop table lists;--"]],
    ["Owner/Title eq 'Mallory'' --'", ["Mallory' --"]],
    ["Status eq 'Open' or Status eq 'Closed'", ['Open', 'Closed']],
    ['OwnerId eq 7 and RefId ne 8', [7, 8]],
    ['year(Due) eq 2031', [2031]],
    ["Title eq 'a' and (Amount gt 1 or not (Count lt 2))", ['a', 1, 2]],
  ];
  for (const [filter, parameters] of CASES) {
    test(filter, () => {
      const compiled = compile(filter);
      assert.deepEqual(compiled.parameters, parameters);
      // The only quoted text in the SQL is the LIKE escape character the compiler writes itself.
      assert.doesNotMatch(compiled.sql.replaceAll("escape '\\'", ''), /'/, compiled.sql);
      for (const p of parameters) {
        if (typeof p === 'string' && p.length > 1) assert.ok(!compiled.sql.includes(p), `${p} is in ${compiled.sql}`);
        if (typeof p === 'number' && Math.abs(p) > 100) assert.ok(!compiled.sql.includes(String(p)), `${p} is in ${compiled.sql}`);
      }
    });
  }

  test('names in a filter never reach the SQL: fields become their columns', () => {
    const { sql } = compile("Title eq 'a' and Amount gt 1 and Owner/Title eq 'b' and RefId eq 2");
    for (const name of ['Title', 'Amount', 'Owner', 'RefId']) assert.ok(!sql.includes(name), sql);
    const amount = fields.find((f) => f.internalName === 'Amount')!;
    assert.ok(sql.includes(`"${amount.column}"`));
    assert.ok(sql.includes(`"${users.list.tableName}"`));
  });

  test('the injection-shaped values run as plain values', async () => {
    const hostile = ["Title eq 'x'' or 1=1 --'", "substringof(''') or 1=1 --', Title)", "Title eq '1'' or ''1''=''1'"];
    for (const filter of hostile) assert.deepEqual(await run(parseFilter(filter)), [], filter);
    assert.equal((await store.lists.inWeb((await store.sites.all())[0]!.rootWebId)).length, 3);
  });
});

describe('what the compiler writes', () => {
  test('text compares case-insensitively; dates, numbers and ids compare the bare column', () => {
    assert.match(compile("Title eq 'A'").sql, new RegExp(`\\(lower\\("title"\\)${C} = lower\\(\\?\\)\\)`));
    assert.match(compile("Status gt 'A'").sql, new RegExp(`lower\\("c\\d+"\\)${C} > lower\\(\\?\\)`));
    assert.match(compile("Due gt '2024-01-01'").sql, /\("c\d+" > \?\)/);
    assert.match(compile('Amount ge 1').sql, /\("c\d+" >= \?\)/);
    assert.match(compile('OwnerId eq 1').sql, /\("c\d+" = \?\)/);
    assert.match(compile('Done').sql, /\("c\d+" = 1\)/);
  });

  test('PostgreSQL compares text by code point, as SQLite does', () => {
    assert.match(compile("Title eq 'A'", { flavour: 'postgres' }).sql, /lower\("title"\) collate "C" = lower\(\?\)/);
  });

  test('a sub-property of an expanded lookup is a sub-select on the target table', () => {
    const { sql } = compile("Owner/Title eq 'x'");
    assert.match(sql, new RegExp(`"c\\d+" in \\(select id from "${users.list.tableName}" where \\(lower\\("title"\\)${C} = lower\\(\\?\\)\\)\\)`));
    // Empty through a lookup: no lookup at all, or a target whose value is empty.
    assert.match(compile('Ref/Title eq null').sql, new RegExp(`"c\\d+" is null or "c\\d+" not in \\(select id from "${targets.list.tableName}" where "title" is not null\\)`));
  });

  test('a fraction of a second is honoured against whole-second stored dates', () => {
    assert.match(compile("Due ge datetime'2024-01-01T00:00:05.5Z'").sql, /"c\d+" > \?/);
    assert.deepEqual(compile("Due ge datetime'2024-01-01T00:00:05.5Z'").parameters, ['2024-01-01T00:00:05Z']);
    assert.match(compile("Due lt datetime'2024-01-01T00:00:05.5Z'").sql, /"c\d+" <= \?/);
    assert.match(compile("Due ge datetime'2024-01-01T00:00:05.000Z'").sql, /"c\d+" >= \?/);
    assert.deepEqual(compile("Due eq datetime'2024-01-01T00:00:05.5Z'").parameters, ['2024-01-01T00:00:05.5Z']);
  });

  test('fieldsUsed names the list fields a filter reads', () => {
    const { fieldsUsed } = compile("Title eq 'a' and Owner/Title eq 'b' and year(Due) eq 2024 or startswith(Status, 'O')");
    assert.deepEqual([...fieldsUsed].map((f) => f.internalName).sort(), ['Due', 'Owner', 'Status', 'Title']);
  });
});

describe('or-ed equalities on one column as an `in` list', () => {
  test('numbers, text (case-insensitively) and lookups through $expand', () => {
    assert.match(compile('ID eq 1 or ID eq 2 or ID eq 3').sql, /where \("id" in \(\?, \?, \?\)\)$/);
    assert.match(compile("Title eq 'a' or Title eq 'B'").sql, new RegExp(`where \\(lower\\("title"\\)${C} in \\(lower\\(\\?\\), lower\\(\\?\\)\\)\\)$`));
    assert.match(compile("Owner/Title eq 'a' or Owner/Title eq 'b'").sql, new RegExp(`in \\(select id from "items_\\d+" where \\(lower\\("title"\\)${C} in \\(lower\\(\\?\\), lower\\(\\?\\)\\)\\)\\)`));
    assert.match(compile("Title eq 'a' or Title eq 'B'", { flavour: 'postgres' }).sql, /lower\("title"\) collate "C" in \(lower/);
    assert.deepEqual(compile("Done eq true or Done eq 'false'").parameters, [1, 0]);
  });

  test('anything else stays an `or`', () => {
    for (const filter of [
      'ID eq 1 or ID eq 2 and Count eq 3', 'ID eq 1 or ID ne 2', 'ID eq 1 or Count eq 2', 'ID eq 1 or ID eq null',
      'ID eq 1 or 2 eq ID', "Due eq '2024-01-01' or Due eq '2024-01-02'", 'ID eq 1 and ID eq 2',
    ]) {
      assert.doesNotMatch(compile(filter).sql, / in \(/, filter);
    }
  });

  test('a bad value in the list is refused like any other', () => {
    rejects400(() => compile("Count eq 1 or Count eq 'x'"), /not valid for its type/);
    rejects400(() => compile('Nope eq 1 or Nope eq 2'), /^Column 'Nope' does not exist/);
  });
});

describe('filters the compiler refuses, with SharePoint-shaped 400s', () => {
  const CASES: Array<[string, RegExp, { expanded?: boolean }?]> = [
    ['Nope eq 1', /^Column 'Nope' does not exist/],
    ["Owner/Title eq 'x'", /\$expand query string must contains Owner/, { expanded: false }],
    ['Ref/Nope eq 1', /^Column 'Ref\/Nope' does not exist/],
    ["Title/Sub eq 'x'", /^Column 'Title\/Sub' does not exist/],
    ["endswith(Title, 'x')", /function 'endswith' is not supported/],
    ["Amount eq 'abc'", /not valid for its type/],
    ['Done eq 2', /not valid for its type/],
    ['Count eq true', /not valid for its type/],
    ["Due eq 'yesterday'", /not valid for its type/],
    ["Due eq datetime'2024-02-30T00:00:00Z'", /not valid for its type/],
    ['Title eq Status', /^The expression "Title eq Status" is not valid\.$/],
    ["startswith(Amount, '1')", /is not valid/],
    ["substringof(Title, 'x')", /is not valid/],
    ['Amount', /is not valid/],
    ['Amount gt null', /is not valid/],
    ["Title eq 'a' and 5", /is not valid/],
    ["Links eq 'x'", /cannot be used in the query filter expression/],
    ["Tags eq 'a'", /cannot be used in the query filter expression/],
  ];
  for (const [filter, message, options] of CASES) {
    test(filter, () => rejects400(() => compile(filter, options), message));
  }
});

describe('huge and deep filters', () => {
  test('5000 or-ed comparisons compile to a shallow tree and run', async () => {
    // Two columns, so that the chain cannot become one `in` list.
    const filter = Array.from({ length: 5000 }, (_, i) => (i % 2 ? `Count eq ${i}` : `ID eq ${i}`)).join(' or ');
    const compiled = compile(filter);
    assert.equal(compiled.parameters.length, 5000);
    assert.ok(nesting(compiled.sql) <= 16, `nesting ${nesting(compiled.sql)}`);
    assert.deepEqual(await run(parseFilter(filter)), Array.from({ length: 30 }, (_, i) => i + 1));
  });

  test('5000 or-ed equalities on one column become one `in` list', async () => {
    const filter = Array.from({ length: 5000 }, (_, i) => `ID eq ${i * 2 + 1}`).join(' or ');
    const compiled = compile(filter);
    assert.equal(compiled.parameters.length, 5000);
    assert.match(compiled.sql, /where \("id" in \(\?(, \?){4999}\)\)$/);
    assert.deepEqual(await run(parseFilter(filter)), Array.from({ length: 15 }, (_, i) => i * 2 + 1));
  });

  test('5000 and-ed comparisons too', async () => {
    const filter = Array.from({ length: 5000 }, (_, i) => `ID ne ${i + 3}`).join(' and ');
    assert.ok(nesting(compile(filter).sql) <= 16);
    assert.deepEqual(await run(parseFilter(filter)), [1, 2]);
  });

  test('a chain leaning right (not from the parser) is balanced as well', async () => {
    let ast = id(0);
    for (let n = 1; n <= 5000; n++) ast = { kind: 'logical', op: 'or', left: id(n), right: ast };
    assert.ok(nesting(compileAst(ast).sql) <= 16);
    assert.deepEqual(await run(ast), Array.from({ length: 30 }, (_, i) => i + 1));
  });

  test(`up to ${MAX_FILTER_TERMS} comparisons run; one more is too complex`, async () => {
    const terms = (n: number) => Array.from({ length: n }, (_, i) => `ID eq ${i}`).join(' or ');
    assert.equal((await run(parseFilter(terms(MAX_FILTER_TERMS)))).length, 30);
    rejects400(() => compile(terms(MAX_FILTER_TERMS + 1)), /^The query is too complex\.$/);
    rejects400(() => compile(terms(40_000)), /^The query is too complex\.$/);
  });

  test('a filter nested as deep as the parser allows runs', async () => {
    // Parentheses 100 deep, alternating and/or so nothing flattens.
    let filter = 'ID ge 1';
    let expected = (n: number) => n >= 1;
    for (let depth = 1; depth < 100; depth++) {
      const inner = expected;
      if (depth % 2) { filter = `(${filter}) and ID ne ${depth % 40}`; expected = (n) => inner(n) && n !== depth % 40; }
      else { filter = `(${filter}) or ID eq ${depth % 40}`; expected = (n) => inner(n) || n === depth % 40; }
    }
    const ids = Array.from({ length: 30 }, (_, i) => i + 1).filter((n) => expected(n));
    assert.ok(ids.length > 0 && ids.length < 30, String(ids));
    assert.deepEqual(await run(parseFilter(`(${filter})`)), ids);
    assert.deepEqual(await run(parseFilter(`${'not '.repeat(100)}ID eq 5`)), [5]);
  });

  test('deeper trees (built directly) are refused as too complex, not sent to the database', () => {
    let mixed = id(1);
    for (let n = 0; n < 1500; n++) mixed = { kind: 'logical', op: n % 2 ? 'and' : 'or', left: mixed, right: id(n) };
    rejects400(() => compileAst(mixed), /^The query is too complex\.$/);
    let nots = id(1);
    for (let n = 0; n < 100_000; n++) nots = { kind: 'not', operand: nots };
    rejects400(() => compileAst(nots), /^The query is too complex\.$/);
  });

  test('the deepest filter the compiler accepts still runs in the database', async () => {
    // Just inside the limit: `not` 500 deep around a comparison.
    let deepest = id(3);
    for (let n = 0; n < 500; n++) deepest = { kind: 'not', operand: deepest };
    assert.deepEqual(await run(deepest), [3]);
    rejects400(() => compileAst({ kind: 'not', operand: deepest }), /too complex/);
  });
});
