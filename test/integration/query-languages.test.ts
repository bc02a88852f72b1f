// One SQL compiler for both query languages: each case is written once in `$filter` and once in
// CAML, both are parsed (odata/filter, query/caml) and compiled for the leg's database, and must
// give the same SQL text, the same bound parameters and the same rows, which are also checked.
// What only one language can say (CAML's day comparisons, `<In>`) is paired with the `$filter`
// that means the same.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { compileFilter, type FilterScope } from '../../src/store/sql/filter-compiler.ts';
import { createListWithFields } from '../../src/services/lists.ts';
import type { FieldKind } from '../../src/domain/field-kinds.ts';
import type { Field, List } from '../../src/domain/model.ts';
import type { Expression } from '../../src/query/ast.ts';
import { parseFilter } from '../../src/odata/filter/parser.ts';
import { parseCamlView } from '../../src/query/caml/parse.ts';
import { CamlError } from '../../src/query/caml/errors.ts';
import { openStoreBackend, type StoreBackend } from '../helpers/store-backend.ts';

const NOW = '2024-06-01T12:00:00Z';
let backend: StoreBackend;
let db: Kysely<any>;
let list: List;
let fields: Field[];
let lookups: FilterScope['lookups'];

before(async () => {
  backend = await openStoreBackend();
  const { store } = backend;
  db = backend.db;
  const { web } = await store.sites.create({ url: '/sites/q', title: 'Q', description: '', now: NOW });
  const targets = await createListWithFields(store, web, { title: 'Targets', description: '', baseTemplate: 100 }, NOW);
  const targetFields = await store.fields.of(targets);
  for (const title of ['red', 'green', 'blue']) await store.items.create(targets, targetFields, { values: { Title: title }, actorId: 1, now: NOW });
  list = await createListWithFields(store, web, { title: 'Tasks', description: '', baseTemplate: 100 }, NOW);
  const add = (internalName: string, kind: FieldKind, options = {}) =>
    store.fields.add(list, { internalName, title: internalName, kind, required: false, indexed: false, hidden: false, options });
  await add('Count', 'Integer');
  await add('Amount', 'Number');
  await add('Done', 'Boolean');
  await add('Due', 'DateTime');
  await add('Ref', 'Lookup', { lookupListId: targets.id, lookupField: 'Title' });
  fields = await store.fields.of(list);
  lookups = new Map([['Ref', { list: targets, fields: targetFields }]]);
  for (let n = 1; n <= 12; n++) {
    await store.items.create(list, fields, {
      values: {
        Title: `Item ${n}`, Count: n, Amount: n % 3 === 0 ? null : n * 1.5, Done: n % 2 === 0 ? 1 : 0,
        Due: `2024-06-${String(n).padStart(2, '0')}T${n % 2 ? '08' : '20'}:30:00Z`, Ref: (n % 3) + 1,
      },
      actorId: 1, now: NOW,
    });
  }
});
after(() => backend.close());

const camlWhere = (where: string): Expression => {
  const view = parseCamlView(`<View><Query><Where>${where}</Where></Query></View>`, {
    userId: 1, now: NOW, shownFieldOf: (name) => (name === 'Ref' ? 'Title' : undefined),
  });
  return view.where!;
};

function compiled(ast: Expression) {
  const { condition } = compileFilter(ast, { fields, lookups, flavour: backend.flavour, text: 'q', listUrl: list.serverRelativeUrl });
  const query = db.selectFrom(list.tableName).select('id').where(sql<boolean>`${condition}`).orderBy('id');
  return { query, text: query.compile().sql, parameters: query.compile().parameters };
}

async function ids(ast: Expression): Promise<number[]> {
  return (await compiled(ast).query.execute()).map((r) => Number(r.id));
}

const v = (field: string, type: string, value: string, extra = '') => `<FieldRef Name="${field}"/><Value Type="${type}"${extra}>${value}</Value>`;

/** [what, $filter, CAML <Where> content, the ids both select]. */
const CASES: Array<[string, string, string, number[]]> = [
  ['text equality, case folded', "Title eq 'ITEM 3'", `<Eq>${v('Title', 'Text', 'ITEM 3')}</Eq>`, [3]],
  ['not equal', 'Count ne 1', `<Neq>${v('Count', 'Integer', '1')}</Neq>`, [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]],
  ['greater than', 'Count gt 10', `<Gt>${v('Count', 'Integer', '10')}</Gt>`, [11, 12]],
  ['at least', 'Count ge 11', `<Geq>${v('Count', 'Counter', '11')}</Geq>`, [11, 12]],
  ['less than', 'Amount lt 3', `<Lt>${v('Amount', 'Number', '3')}</Lt>`, [1]],
  ['at most', 'Amount le 3', `<Leq>${v('Amount', 'Number', '3')}</Leq>`, [1, 2]],
  ['starts with (wildcards literal)', "startswith(Title, 'item 1')", `<BeginsWith>${v('Title', 'Text', 'item 1')}</BeginsWith>`, [1, 10, 11, 12]],
  ['contains', "substringof('M 1', Title)", `<Contains>${v('Title', 'Text', 'M 1')}</Contains>`, [1, 10, 11, 12]],
  ['a percent sign is no wildcard', "substringof('%', Title)", `<Contains>${v('Title', 'Text', '%')}</Contains>`, []],
  ['an or-chain of equalities is one in list', 'Count eq 2 or Count eq 4 or Count eq 6',
    `<In><FieldRef Name="Count"/><Values><Value Type="Integer">2</Value><Value Type="Integer">4</Value><Value Type="Integer">6</Value></Values></In>`, [2, 4, 6]],
  ['is null', 'Amount eq null', '<IsNull><FieldRef Name="Amount"/></IsNull>', [3, 6, 9, 12]],
  ['is not null', 'Amount ne null', '<IsNotNull><FieldRef Name="Amount"/></IsNotNull>', [1, 2, 4, 5, 7, 8, 10, 11]],
  ['Boolean', 'Done eq true', `<Eq>${v('Done', 'Boolean', '1')}</Eq>`, [2, 4, 6, 8, 10, 12]],
  ['and inside or', "(Count gt 2 and Count lt 5) or Title eq 'Item 12'",
    `<Or><And><Gt>${v('Count', 'Integer', '2')}</Gt><Lt>${v('Count', 'Integer', '5')}</Lt></And><Eq>${v('Title', 'Text', 'Item 12')}</Eq></Or>`, [3, 4, 12]],
  ['a date and time', "Due ge datetime'2024-06-11T08:30:00Z'", `<Geq>${v('Due', 'DateTime', '2024-06-11T08:30:00Z', ' IncludeTimeValue="TRUE"')}</Geq>`, [11, 12]],
  ['a day (CAML without IncludeTimeValue)', "Due ge datetime'2024-06-04T00:00:00Z' and Due lt datetime'2024-06-05T00:00:00Z'",
    `<Eq>${v('Due', 'DateTime', '2024-06-04T23:59:00Z')}</Eq>`, [4]],
  ['a lookup by id', 'Ref eq 2', `<Eq><FieldRef Name="Ref" LookupId="TRUE"/><Value Type="Lookup">2</Value></Eq>`, [1, 4, 7, 10]],
  ['a lookup by its shown text', "Ref/Title eq 'BLUE'", `<Eq>${v('Ref', 'Lookup', 'BLUE')}</Eq>`, [2, 5, 8, 11]],
];

describe('$filter and CAML share one compiler', () => {
  for (const [what, filter, where, expected] of CASES) {
    test(`${what}: the same SQL, parameters and rows`, async () => {
      const fromFilter = compiled(parseFilter(filter));
      const fromCaml = compiled(camlWhere(where));
      assert.equal(fromCaml.text, fromFilter.text);
      assert.deepEqual(fromCaml.parameters, fromFilter.parameters);
      assert.deepEqual(await ids(camlWhere(where)), expected);
      assert.deepEqual(await ids(parseFilter(filter)), expected);
    });
  }

  test('U+0000 cannot reach the compiler through CAML: XML 1.0 has no such character', () => {
    assert.throws(() => camlWhere(`<Contains>${v('Title', 'Text', '&#0;')}</Contains>`), (e: unknown) => e instanceof CamlError && e.reason === 'malformed');
  });
});
