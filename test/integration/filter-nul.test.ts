// Text holding U+0000 filters alike on both databases. SQLite's LIKE reads its pattern as a C
// string (a pattern `%<U+0000>%` is `%`, which matches everything); PostgreSQL cannot store
// U+0000 at all (connect.ts keeps it as U+FFFF both ways). The compilers make `eq`,
// `startswith`, `endswith` and `substringof` find exactly the values that hold the character.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createListWithFields } from '../../src/services/lists.ts';
import type { Field, List } from '../../src/domain/model.ts';
import { parseFilter } from '../../src/odata/filter/parser.ts';
import { openStoreBackend, type StoreBackend } from '../helpers/store-backend.ts';

const NOW = '2024-06-01T12:00:00Z';
const NUL = '\u0000';
let b: StoreBackend;
let list: List;
let fields: Field[];

const titles = async (filter: string) => {
  const page = await b.store.items.query(list, fields, {
    filter: parseFilter(filter), filterText: filter, orderBy: [], top: 100, lookups: new Map(),
  });
  return page.items.map((i) => i.values.Title).sort();
};

before(async () => {
  b = await openStoreBackend();
  const { web } = await b.store.sites.create({ url: '/sites/nul', title: 'NUL', description: '', now: NOW });
  list = await createListWithFields(b.store, web, { title: 'Texts', description: '', baseTemplate: 100 }, NOW);
  fields = await b.store.fields.of(list);
  for (const title of [`a${NUL}b`, `${NUL}lead`, `trail${NUL}`, 'ab', 'plain']) {
    await b.store.items.create(list, fields, { values: { Title: title }, actorId: 1, now: NOW });
  }
});
after(() => b.close());

describe('U+0000 in $filter text', () => {
  test('is stored and read back as sent', async () => {
    assert.ok((await titles("Title ne 'zzz'")).includes(`a${NUL}b`));
  });

  test('substringof finds exactly the values holding it', async () => {
    assert.deepEqual(await titles(`substringof('${NUL}', Title)`), [`${NUL}lead`, `a${NUL}b`, `trail${NUL}`]);
    assert.deepEqual(await titles(`substringof('a${NUL}B', Title)`), [`a${NUL}b`]);
  });

  test('startswith matches by the leading character, case folded as always', async () => {
    assert.deepEqual(await titles(`startswith(Title, '${NUL}')`), [`${NUL}lead`]);
    assert.deepEqual(await titles(`startswith(Title, 'A${NUL}')`), [`a${NUL}b`]);
  });

  test('eq and ne compare it as any other character', async () => {
    assert.deepEqual(await titles(`Title eq 'A${NUL}B'`), [`a${NUL}b`]);
    assert.equal((await titles(`Title ne 'a${NUL}b'`)).includes(`a${NUL}b`), false);
  });

  test('the patterns\' own wildcards stay literal next to it', async () => {
    assert.deepEqual(await titles(`substringof('%${NUL}', Title)`), []);
  });
});

describe('the query core\'s text matches, on a plain table', () => {
  test('starts, ends and contains: exact, case folded, wildcards literal, U+0000 in the text or the needle', async () => {
    const { sql } = await import('kysely');
    const { textMatch } = await import('../../src/store/sql/query/text.ts');
    await sql`create table match_probe (v text)`.execute(b.db);
    const values = [`a${NUL}b`, `${NUL}lead`, `trail${NUL}`, 'AB', 'a%b', 'a_b', 'x\\y', 'plain'];
    for (const v of values) await sql`insert into match_probe (v) values (${v})`.execute(b.db);
    const matching = async (needle: string, match: 'startswith' | 'endswith' | 'contains') =>
      (await sql<{ v: string }>`select v from match_probe where ${textMatch(sql.ref('v'), needle, match, b.flavour)}`.execute(b.db))
        .rows.map((r) => r.v).sort();
    assert.deepEqual(await matching('b', 'endswith'), [`a${NUL}b`, 'AB', 'a%b', 'a_b'].sort());
    assert.deepEqual(await matching(NUL, 'endswith'), [`trail${NUL}`]);
    assert.deepEqual(await matching(`l${NUL}`, 'endswith'), [`trail${NUL}`]);
    assert.deepEqual(await matching(NUL, 'startswith'), [`${NUL}lead`]);
    assert.deepEqual(await matching('lead', 'contains'), [`${NUL}lead`]);
    assert.deepEqual(await matching('a%', 'startswith'), ['a%b']);
    assert.deepEqual(await matching('_', 'contains'), ['a_b']);
    assert.deepEqual(await matching('\\', 'contains'), ['x\\y']);
    assert.deepEqual(await matching('ab', 'contains'), ['AB']);
  });
});
