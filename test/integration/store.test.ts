// The SQL store on the leg's real database (a SQLite file, or PostgreSQL on its leg; the
// differences are in test/helpers/store-backend.ts): filters and ordering checked against
// data inserted through the store, keyset paging, atomicity of failed writes, item ids and
// versions, indexes, and schema changes on lists holding items. Nothing is mocked: failures
// are provoked with real triggers and real bad SQL. (SQLite's durability: store-sqlite.test.ts.)

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import type { SqlStore } from '../../src/store/sql/sql-store.ts';
import { compileFilter } from '../../src/store/sql/filter-compiler.ts';
import { sortExpression } from '../../src/store/sql/item-table.ts';
import { migrations } from '../../src/store/sql/migrate.ts';
import { createListWithFields } from '../../src/services/lists.ts';
import { isoSeconds } from '../../src/domain/values.ts';
import type { FieldKind } from '../../src/domain/field-kinds.ts';
import type { Field, Item, List, StoredValue, Web } from '../../src/domain/model.ts';
import type { ItemQuery, NewField, SortKey } from '../../src/store/store.ts';
import type { ItemWrite } from '../../src/store/items.ts';
import { parseFilter } from '../../src/odata/filter/parser.ts';
import { DomainError } from '../../src/domain/errors.ts';
import {
  columnsOf, indexDefinition, indexesOf, openStoreBackend, plan, refuse, rows, scansTable, sorts, tableExists, tableNames, usesIndex,
  type StoreBackend,
} from '../helpers/store-backend.ts';
import { testBackend } from '../helpers/postgres.ts';

const NOW = '2024-06-01T12:00:00Z';
const backend = testBackend();

async function newWeb(store: SqlStore): Promise<Web> {
  return (await store.sites.create({ url: '/sites/test', title: 'Test', description: '', now: NOW })).web;
}

const newField = (internalName: string, kind: FieldKind, extra: Partial<NewField> = {}): NewField => ({
  internalName, title: internalName, kind, required: false, indexed: false, hidden: false, options: {}, ...extra,
});

const rowCount = async (db: Kysely<any>, table: string) =>
  Number((await rows<{ n: number }>(db, sql`select count(*) as n from ${sql.table(table)}`))[0]!.n);
const listRow = async (db: Kysely<any>, rowId: number) =>
  (await rows<{ item_count: number; next_item_id: number; version: number; last_item_modified: string; last_item_deleted: string }>(db,
    sql`select item_count, next_item_id, version, last_item_modified, last_item_deleted from lists where row_id = ${rowId}`))[0];

/** The stored value of an order key, as the API puts it in `$skiptoken`. */
function storedOf(field: Field, item: Item): StoredValue {
  switch (field.internalName) {
    case 'ID': return item.id;
    case 'Created': return item.created;
    case 'Modified': return item.modified;
    case 'Author': return item.authorId;
    case 'Editor': return item.editorId;
    default: return item.values[field.internalName] ?? null;
  }
}

const position = (keys: SortKey[], item: Item) => ({ id: item.id, values: keys.map((k) => storedOf(k.field, item)) });

// ---------------------------------------------------------------------------------------
// The data set: ~50 items with known values of every queryable kind.

interface Row {
  id: number;
  title: string | null;
  amount: number | null;
  count: number | null;
  done: 0 | 1 | null;
  due: string | null;
  status: string | null;
  owner: number | null;
  ref: number | null;
  code: string | null;
  author: number;
  created: string;
  modified: string;
}

const TITLES: Array<string | null> = [
  'Apple', 'apple', 'APPLE pie', 'Banana', 'banana split', '100% juice', '100 percent', 'a_b', 'axb', 'back\\slash',
  'backslash', "O'Brien", "x'; drop table lists; --", 'Zoë', 'ZOË', 'Ärger', 'ärgerlich', 'cherry', null, 'Cherry',
  '%', '_', '\\',
];
const USERS = ['Olivia Owner', 'Mark Member', 'Zoë Zed', 'ADMIN'];
/** Their ids in the User Information List: its counter steps over the default groups' 3, 4, 5. */
const USER_IDS = [1, 2, 6, 7];
const TARGETS: Array<string | null> = ['Alpha', 'beta', 'GAMMA', null];
const LEAP = '2024-02-29T23:59:59Z';
const DAY = 86_400_000;

function makeRow(i: number): Omit<Row, 'id'> {
  const created = isoSeconds(Date.UTC(2023, 0, 1) + Math.floor(i / 4) * DAY);
  return {
    title: TITLES[i % TITLES.length]!,
    amount: i % 7 === 0 ? null : ((i * 37) % 23) - 5 + (i % 3) * 0.25,
    count: i % 5 === 0 ? null : (i * 13) % 9,
    done: i % 6 === 0 ? null : (i % 2 as 0 | 1),
    due: i % 8 === 0 ? null : i % 10 === 3 ? LEAP
      : isoSeconds(Date.UTC(2023, 10, 20, 6, 30, 0) + i * (5 * DAY + 7 * 3_600_000 + 13 * 60_000 + 17_000)),
    status: [null, 'Open', 'Closed', 'In Progress'][Math.floor(i / 3) % 4]!,
    owner: i % 5 === 4 ? null : USER_IDS[i % 4]!,
    ref: i % 3 === 2 ? null : ((i * 7) % 4) + 1,
    code: ['c1', 'C1', 'c2', null, 'C3', 'c10'][i % 6]!,
    author: USER_IDS[i % 3]!,
    created,
    modified: i % 9 === 0 ? created : isoSeconds(Date.parse(created) + (i % 6) * 3_600_000),
  };
}

interface Fixture {
  opened: StoreBackend;
  store: SqlStore;
  web: Web;
  tasks: List;
  fields: Field[];
  users: List;
  targets: List;
  lookups: ItemQuery['lookups'];
  data: Row[];
  field(name: string): Field;
}

async function buildFixture(): Promise<Fixture> {
  const opened = await openStoreBackend();
  const { store } = opened;
  const web = await newWeb(store);
  const users = await createListWithFields(store, web, { title: 'User Information List', description: '', baseTemplate: 112, hidden: true }, NOW);
  const userFields = await store.fields.of(users);
  const userIds: number[] = [];
  for (const name of USERS) userIds.push((await store.items.create(users, userFields, { values: { Title: name }, actorId: 1, now: NOW })).id);
  assert.deepEqual(userIds, USER_IDS, 'users are numbered around the default groups');
  const targets = await createListWithFields(store, web, { title: 'Targets', description: '', baseTemplate: 100 }, NOW);
  const targetFields = await store.fields.of(targets);
  for (const title of TARGETS) await store.items.create(targets, targetFields, { values: { Title: title }, actorId: 1, now: NOW });

  let tasks = await createListWithFields(store, web, { title: 'Tasks', description: '', baseTemplate: 100 }, NOW);
  await store.fields.add(tasks, newField('Amount', 'Number'));
  await store.fields.add(tasks, newField('Count', 'Integer'));
  await store.fields.add(tasks, newField('Done', 'Boolean'));
  await store.fields.add(tasks, newField('Due', 'DateTime'));
  await store.fields.add(tasks, newField('Status', 'Choice', { options: { choices: ['Open', 'Closed', 'In Progress'] } }));
  await store.fields.add(tasks, newField('Owner', 'User'));
  await store.fields.add(tasks, newField('Ref', 'Lookup', { options: { lookupListId: targets.id, lookupField: 'Title' } }));
  await store.fields.add(tasks, newField('Code', 'Text', { indexed: true }));
  tasks = (await store.lists.byRowId(tasks.rowId))!;
  const fields = await store.fields.of(tasks);

  const data: Row[] = [];
  for (let i = 0; i < 50; i++) {
    const r = makeRow(i);
    const item = await store.items.create(tasks, fields, {
      values: { Title: r.title, Amount: r.amount, Count: r.count, Done: r.done, Due: r.due, Status: r.status, Owner: r.owner, Ref: r.ref, Code: r.code },
      actorId: r.author, now: NOW, created: r.created, modified: r.modified, authorId: r.author,
    });
    data.push({ id: item.id, ...r });
  }
  const lookups: ItemQuery['lookups'] = new Map([
    ['Owner', { list: users, fields: userFields }],
    ['Author', { list: users, fields: userFields }],
    ['Ref', { list: targets, fields: targetFields }],
  ]);
  const field = (name: string) => {
    const found = fields.find((f) => f.internalName === name);
    assert.ok(found, `field ${name}`);
    return found;
  };
  return { opened, store, web, tasks, fields, users, targets, lookups, data, field };
}

// ---------------------------------------------------------------------------------------
// The expected semantics, written independently of the compiler. A comparison with an
// empty (null) value is unknown, and unknown propagates through and/or/not as in SQL:
// an item is returned only when the whole filter is true.

type Truth = boolean | null;
type Op = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';

const not3 = (a: Truth): Truth => (a === null ? null : !a);
const and3 = (...xs: Truth[]): Truth => (xs.includes(false) ? false : xs.includes(null) ? null : true);
const or3 = (...xs: Truth[]): Truth => (xs.includes(true) ? true : xs.includes(null) ? null : false);

function order<T extends number | string>(a: T, b: T, op: Op): boolean {
  switch (op) {
    case 'eq': return a === b;
    case 'ne': return a !== b;
    case 'gt': return a > b;
    case 'ge': return a >= b;
    case 'lt': return a < b;
    case 'le': return a <= b;
  }
}

/** Numbers (and booleans, user and lookup ids). */
const num = (v: number | null, op: Op, x: number): Truth => (v === null ? null : order(v, x, op));
/** Text, case-insensitively as SharePoint compares it. */
const text = (v: string | null, op: Op, x: string): Truth => (v === null ? null : order(v.toLowerCase(), x.toLowerCase(), op));
/** Dates, to the millisecond. */
const date = (v: string | null, op: Op, ms: number): Truth => (v === null ? null : order(Date.parse(v), ms, op));
const part = (v: string | null, get: (d: Date) => number, op: Op, x: number): Truth => (v === null ? null : order(get(new Date(v)), x, op));
const starts = (v: string | null, x: string): Truth => (v === null ? null : v.toLowerCase().startsWith(x.toLowerCase()));
const contains = (v: string | null, x: string): Truth => (v === null ? null : v.toLowerCase().includes(x.toLowerCase()));
const userTitle = (id: number | null) => (id === null ? null : USERS[USER_IDS.indexOf(id)] ?? null);
const targetTitle = (id: number | null) => (id === null ? null : TARGETS[id - 1] ?? null);

interface Case {
  filter: string;
  expect: (r: Row) => Truth;
  /** The filter is meant to match nothing. */
  none?: boolean;
}

const leapMs = Date.parse(LEAP);

const CASES: Case[] = [
  // Text: case-insensitive, including non-ASCII letters; literals on either side.
  { filter: "Title eq 'apple'", expect: (r) => text(r.title, 'eq', 'apple') },
  { filter: "Title eq 'APPLE'", expect: (r) => text(r.title, 'eq', 'apple') },
  { filter: "Title eq 'zoë'", expect: (r) => text(r.title, 'eq', 'zoë') },
  { filter: "Title eq 'ÄRGER'", expect: (r) => text(r.title, 'eq', 'ärger') },
  { filter: "Title ne 'apple'", expect: (r) => text(r.title, 'ne', 'apple') },
  { filter: "Title gt 'banana'", expect: (r) => text(r.title, 'gt', 'banana') },
  { filter: "Title ge 'BANANA'", expect: (r) => text(r.title, 'ge', 'banana') },
  { filter: "Title lt 'b'", expect: (r) => text(r.title, 'lt', 'b') },
  { filter: "Title le 'apple pie'", expect: (r) => text(r.title, 'le', 'apple pie') },
  { filter: "'apple' eq Title", expect: (r) => text(r.title, 'eq', 'apple') },
  { filter: "'banana' lt Title", expect: (r) => text(r.title, 'gt', 'banana') },
  { filter: "Title eq 'O''Brien'", expect: (r) => text(r.title, 'eq', "o'brien") },
  { filter: "Title eq 'a_b'", expect: (r) => text(r.title, 'eq', 'a_b') },
  { filter: "Title eq '100% juice'", expect: (r) => text(r.title, 'eq', '100% juice') },
  { filter: "Title eq 'back\\slash'", expect: (r) => text(r.title, 'eq', 'back\\slash') },
  // Number (real).
  { filter: 'Amount eq -4.5', expect: (r) => num(r.amount, 'eq', -4.5) },
  { filter: 'Amount eq 0', expect: (r) => num(r.amount, 'eq', 0) },
  { filter: 'Amount ne 10', expect: (r) => num(r.amount, 'ne', 10) },
  { filter: 'Amount gt 4.5', expect: (r) => num(r.amount, 'gt', 4.5) },
  { filter: 'Amount ge 4.5', expect: (r) => num(r.amount, 'ge', 4.5) },
  { filter: 'Amount lt 0', expect: (r) => num(r.amount, 'lt', 0) },
  { filter: 'Amount le -2.75', expect: (r) => num(r.amount, 'le', -2.75) },
  { filter: 'Amount lt 1e1', expect: (r) => num(r.amount, 'lt', 10) },
  { filter: "Amount ge '3'", expect: (r) => num(r.amount, 'ge', 3) },
  { filter: '0 gt Amount', expect: (r) => num(r.amount, 'lt', 0) },
  // Integer.
  { filter: 'Count eq 4', expect: (r) => num(r.count, 'eq', 4) },
  { filter: 'Count eq 4L', expect: (r) => num(r.count, 'eq', 4) },
  { filter: 'Count ne 4', expect: (r) => num(r.count, 'ne', 4) },
  { filter: 'Count gt 6', expect: (r) => num(r.count, 'gt', 6) },
  { filter: 'Count ge 6', expect: (r) => num(r.count, 'ge', 6) },
  { filter: 'Count lt 2', expect: (r) => num(r.count, 'lt', 2) },
  { filter: 'Count le 2', expect: (r) => num(r.count, 'le', 2) },
  { filter: 'Count gt 2.5', expect: (r) => num(r.count, 'gt', 2.5) },
  // Boolean: 1/0, true/false, quoted, and a bare column.
  { filter: 'Done eq 1', expect: (r) => num(r.done, 'eq', 1) },
  { filter: 'Done eq 0', expect: (r) => num(r.done, 'eq', 0) },
  { filter: 'Done eq true', expect: (r) => num(r.done, 'eq', 1) },
  { filter: 'Done eq false', expect: (r) => num(r.done, 'eq', 0) },
  { filter: "Done eq 'true'", expect: (r) => num(r.done, 'eq', 1) },
  { filter: "Done eq 'FALSE'", expect: (r) => num(r.done, 'eq', 0) },
  { filter: "Done eq '1'", expect: (r) => num(r.done, 'eq', 1) },
  { filter: 'Done ne true', expect: (r) => num(r.done, 'ne', 1) },
  { filter: 'Done', expect: (r) => num(r.done, 'eq', 1) },
  { filter: 'not Done', expect: (r) => not3(num(r.done, 'eq', 1)) },
  // DateTime: datetime'…' and quoted ISO; with and without milliseconds and zone.
  { filter: `Due eq datetime'${LEAP}'`, expect: (r) => date(r.due, 'eq', leapMs) },
  { filter: `Due eq '${LEAP}'`, expect: (r) => date(r.due, 'eq', leapMs) },
  { filter: "Due eq datetime'2024-02-29T23:59:59.000Z'", expect: (r) => date(r.due, 'eq', leapMs) },
  { filter: "Due eq datetime'2024-02-29T23:59:59'", expect: (r) => date(r.due, 'eq', leapMs) },
  { filter: "Due eq datetime'2024-03-01T00:59:59+01:00'", expect: (r) => date(r.due, 'eq', leapMs) },
  { filter: "Due eq '2024-02-29T18:59:59.000-05:00'", expect: (r) => date(r.due, 'eq', leapMs) },
  { filter: "Due ne datetime'2024-02-29T23:59:59Z'", expect: (r) => date(r.due, 'ne', leapMs) },
  { filter: "Due gt datetime'2024-03-01T00:00:00Z'", expect: (r) => date(r.due, 'gt', Date.UTC(2024, 2, 1)) },
  { filter: "Due ge '2024-02-29T23:59:59Z'", expect: (r) => date(r.due, 'ge', leapMs) },
  { filter: "Due lt datetime'2024-01-01'", expect: (r) => date(r.due, 'lt', Date.UTC(2024, 0, 1)) },
  { filter: "Due le '2024-01-01T12:00:00+02:00'", expect: (r) => date(r.due, 'le', Date.UTC(2024, 0, 1, 10)) },
  // A fraction of a second: stored dates are whole seconds, so compare exactly.
  { filter: "Due ge datetime'2024-02-29T23:59:59.500Z'", expect: (r) => date(r.due, 'ge', leapMs + 500) },
  { filter: "Due gt datetime'2024-02-29T23:59:59.500Z'", expect: (r) => date(r.due, 'gt', leapMs + 500) },
  { filter: "Due lt datetime'2024-02-29T23:59:59.500Z'", expect: (r) => date(r.due, 'lt', leapMs + 500) },
  { filter: "Due le datetime'2024-02-29T23:59:59.999Z'", expect: (r) => date(r.due, 'le', leapMs + 999) },
  { filter: "Due eq datetime'2024-02-29T23:59:59.5Z'", expect: (r) => date(r.due, 'eq', leapMs + 500), none: true },
  { filter: "Due ne datetime'2024-02-29T23:59:59.5Z'", expect: (r) => date(r.due, 'ne', leapMs + 500) },
  { filter: "Created ge datetime'2023-01-05T00:00:00Z'", expect: (r) => date(r.created, 'ge', Date.UTC(2023, 0, 5)) },
  { filter: "Modified lt '2023-01-03T03:00:00Z'", expect: (r) => date(r.modified, 'lt', Date.UTC(2023, 0, 3, 3)) },
  // Date functions.
  { filter: 'year(Due) eq 2024', expect: (r) => part(r.due, (d) => d.getUTCFullYear(), 'eq', 2024) },
  { filter: '2023 eq year(Due)', expect: (r) => part(r.due, (d) => d.getUTCFullYear(), 'eq', 2023) },
  { filter: 'month(Due) eq 2', expect: (r) => part(r.due, (d) => d.getUTCMonth() + 1, 'eq', 2) },
  { filter: 'month(Due) ge 11', expect: (r) => part(r.due, (d) => d.getUTCMonth() + 1, 'ge', 11) },
  { filter: 'day(Due) ge 15', expect: (r) => part(r.due, (d) => d.getUTCDate(), 'ge', 15) },
  { filter: 'hour(Due) lt 12', expect: (r) => part(r.due, (d) => d.getUTCHours(), 'lt', 12) },
  { filter: 'year(Created) eq 2023 and month(Created) eq 1 and day(Created) le 5', expect: (r) => part(r.created, (d) => d.getUTCDate(), 'le', 5) },
  // Choice.
  { filter: "Status eq 'open'", expect: (r) => text(r.status, 'eq', 'open') },
  { filter: "Status ne 'Open'", expect: (r) => text(r.status, 'ne', 'open') },
  { filter: "Status eq 'In Progress'", expect: (r) => text(r.status, 'eq', 'in progress') },
  { filter: "Status gt 'closed'", expect: (r) => text(r.status, 'gt', 'closed') },
  // User and lookup: by id, by own name, and through $expand.
  { filter: 'OwnerId eq 2', expect: (r) => num(r.owner, 'eq', 2) },
  { filter: 'Owner eq 2', expect: (r) => num(r.owner, 'eq', 2) },
  { filter: 'OwnerId ne 2', expect: (r) => num(r.owner, 'ne', 2) },
  { filter: 'OwnerId gt 2', expect: (r) => num(r.owner, 'gt', 2) },
  { filter: 'Owner/Id eq 6', expect: (r) => num(r.owner, 'eq', 6) },
  { filter: "Owner/Title eq 'mark member'", expect: (r) => text(userTitle(r.owner), 'eq', 'mark member') },
  { filter: "Owner/Title eq 'ZOË ZED'", expect: (r) => text(userTitle(r.owner), 'eq', 'zoë zed') },
  { filter: "Owner/Title ne 'admin'", expect: (r) => text(userTitle(r.owner), 'ne', 'admin') },
  { filter: "startswith(Owner/Title, 'o')", expect: (r) => starts(userTitle(r.owner), 'o') },
  { filter: 'AuthorId eq 1', expect: (r) => num(r.author, 'eq', 1) },
  { filter: 'Author eq 2', expect: (r) => num(r.author, 'eq', 2) },
  { filter: "Author/Title eq 'olivia owner'", expect: (r) => text(userTitle(r.author), 'eq', 'olivia owner') },
  { filter: 'RefId eq 1', expect: (r) => num(r.ref, 'eq', 1) },
  { filter: 'RefId le 2', expect: (r) => num(r.ref, 'le', 2) },
  { filter: "Ref/Title eq 'ALPHA'", expect: (r) => text(targetTitle(r.ref), 'eq', 'alpha') },
  { filter: "Ref/Title gt 'b'", expect: (r) => text(targetTitle(r.ref), 'gt', 'b') },
  { filter: "substringof('amm', Ref/Title)", expect: (r) => contains(targetTitle(r.ref), 'amm') },
  // Empty values.
  { filter: 'Title eq null', expect: (r) => r.title === null },
  { filter: 'Title ne null', expect: (r) => r.title !== null },
  { filter: 'null eq Title', expect: (r) => r.title === null },
  { filter: 'Amount eq null', expect: (r) => r.amount === null },
  { filter: 'Amount ne null', expect: (r) => r.amount !== null },
  { filter: 'Count eq null', expect: (r) => r.count === null },
  { filter: 'Done eq null', expect: (r) => r.done === null },
  { filter: 'Due eq null', expect: (r) => r.due === null },
  { filter: 'Due ne null', expect: (r) => r.due !== null },
  { filter: 'Status eq null', expect: (r) => r.status === null },
  { filter: 'Status ne null', expect: (r) => r.status !== null },
  { filter: 'OwnerId eq null', expect: (r) => r.owner === null },
  { filter: 'Owner ne null', expect: (r) => r.owner !== null },
  // Through a lookup, an item without one has an empty Ref/Title, like one whose target's title is empty.
  { filter: 'Ref/Title eq null', expect: (r) => targetTitle(r.ref) === null },
  { filter: 'Ref/Title ne null', expect: (r) => targetTitle(r.ref) !== null },
  // startswith / substringof: case-insensitive; %, _ and \ are plain characters.
  { filter: "startswith(Title, 'app')", expect: (r) => starts(r.title, 'app') },
  { filter: "startswith(Title, 'APP')", expect: (r) => starts(r.title, 'app') },
  { filter: "startswith(Title, 'ä')", expect: (r) => starts(r.title, 'ä') },
  { filter: "startswith(Title, '100%')", expect: (r) => starts(r.title, '100%') },
  { filter: "startswith(Title, '%')", expect: (r) => starts(r.title, '%') },
  { filter: "startswith(Title, '_')", expect: (r) => starts(r.title, '_') },
  { filter: "startswith(Title, '\\')", expect: (r) => starts(r.title, '\\') },
  { filter: "substringof('%', Title)", expect: (r) => contains(r.title, '%') },
  { filter: "substringof('_', Title)", expect: (r) => contains(r.title, '_') },
  { filter: "substringof('a_b', Title)", expect: (r) => contains(r.title, 'a_b') },
  { filter: "substringof('\\', Title)", expect: (r) => contains(r.title, '\\') },
  { filter: "substringof('k\\s', Title)", expect: (r) => contains(r.title, 'k\\s') },
  { filter: "substringof('\\%', Title)", expect: (r) => contains(r.title, '\\%'), none: true },
  { filter: "substringof('0%', Title)", expect: (r) => contains(r.title, '0%') },
  { filter: "substringof('ë', Title)", expect: (r) => contains(r.title, 'ë') },
  { filter: "substringof('''', Title)", expect: (r) => contains(r.title, "'") },
  { filter: "substringof('PIE', Title)", expect: (r) => contains(r.title, 'pie') },
  { filter: "substringof('', Title)", expect: (r) => contains(r.title, '') },
  { filter: "startswith(Code, 'c1')", expect: (r) => starts(r.code, 'c1') },
  // Precedence: not binds tighter than and, and tighter than or.
  { filter: "Status eq 'Open' or Status eq 'Closed' and Done eq 1",
    expect: (r) => or3(text(r.status, 'eq', 'open'), and3(text(r.status, 'eq', 'closed'), num(r.done, 'eq', 1))) },
  { filter: "(Status eq 'Open' or Status eq 'Closed') and Done eq 1",
    expect: (r) => and3(or3(text(r.status, 'eq', 'open'), text(r.status, 'eq', 'closed')), num(r.done, 'eq', 1)) },
  { filter: "not Status eq 'Open' and Done eq 1", expect: (r) => and3(not3(text(r.status, 'eq', 'open')), num(r.done, 'eq', 1)) },
  { filter: "not (Status eq 'Open' or Amount gt 3)", expect: (r) => not3(or3(text(r.status, 'eq', 'open'), num(r.amount, 'gt', 3))) },
  { filter: 'Done eq 1 and not (Count lt 3) or OwnerId eq 7',
    expect: (r) => or3(and3(num(r.done, 'eq', 1), not3(num(r.count, 'lt', 3))), num(r.owner, 'eq', 7)) },
  { filter: "Amount gt 0 and Amount lt 10 and Count ne null or Title eq 'cherry' and not Done",
    expect: (r) => or3(and3(num(r.amount, 'gt', 0), num(r.amount, 'lt', 10), r.count !== null), and3(text(r.title, 'eq', 'cherry'), not3(num(r.done, 'eq', 1)))) },
  { filter: 'not not (Count ge 4)', expect: (r) => num(r.count, 'ge', 4) },
  { filter: "(Title eq null or Title eq 'cherry') and (Due eq null or year(Due) eq 2024)",
    expect: (r) => and3(or3(r.title === null, text(r.title, 'eq', 'cherry')), or3(r.due === null, part(r.due, (d) => d.getUTCFullYear(), 'eq', 2024))) },
  // Equalities or-ed on one column (one `in` list in SQL).
  { filter: "Title eq 'APPLE' or Title eq 'zoë' or Title eq 'cherry'", expect: (r) => or3(text(r.title, 'eq', 'apple'), text(r.title, 'eq', 'zoë'), text(r.title, 'eq', 'cherry')) },
  { filter: 'OwnerId eq 1 or OwnerId eq 6', expect: (r) => or3(num(r.owner, 'eq', 1), num(r.owner, 'eq', 6)) },
  { filter: "Done eq true or Done eq 'false'", expect: (r) => or3(num(r.done, 'eq', 1), num(r.done, 'eq', 0)) },
  { filter: "Owner/Title eq 'admin' or Owner/Title eq 'MARK MEMBER'", expect: (r) => or3(text(userTitle(r.owner), 'eq', 'admin'), text(userTitle(r.owner), 'eq', 'mark member')) },
  { filter: "not (Status eq 'open' or Status eq 'closed')", expect: (r) => not3(or3(text(r.status, 'eq', 'open'), text(r.status, 'eq', 'closed'))) },
  { filter: `Due eq '${LEAP}' or Due eq datetime'2024-02-29T23:59:59.5Z'`, expect: (r) => date(r.due, 'eq', leapMs) },
  // Hostile-looking literals are values, matched literally.
  { filter: "Title eq 'x''; drop table lists; --'", expect: (r) => text(r.title, 'eq', "x'; drop table lists; --") },
  { filter: "Title eq ''' or 1=1 --'", expect: (r) => text(r.title, 'eq', "' or 1=1 --"), none: true },
  { filter: "Title eq 'a'' or ''1''=''1'", expect: (r) => text(r.title, 'eq', "a' or '1'='1"), none: true },
  { filter: "substringof(''') or 1=1 --', Title)", expect: (r) => contains(r.title, "') or 1=1 --"), none: true },
  { filter: "Status eq '\\'' or 1=1) --'", expect: (r) => text(r.status, 'eq', "\\' or 1=1) --"), none: true },
  { filter: "startswith(Title, 'x''; drop')", expect: (r) => starts(r.title, "x'; drop") },
  { filter: "Code eq 'C1'' union select * from lists --'", expect: (r) => text(r.code, 'eq', "c1' union select * from lists --"), none: true },
];

describe(`filters run on a real ${backend === 'postgres' ? 'PostgreSQL database' : 'SQLite file'}`, () => {
  let fx: Fixture;
  before(async () => { fx = await buildFixture(); });
  after(async () => { await fx.opened.close(); });

  const matching = async (filter: string): Promise<number[]> => {
    const page = await fx.store.items.query(fx.tasks, fx.fields, {
      filter: parseFilter(filter), filterText: filter, orderBy: [], top: 1000, lookups: fx.lookups,
    });
    return page.items.map((i) => i.id);
  };

  test('the data set is what was written', async () => {
    assert.equal(fx.data.length, 50);
    const page = await fx.store.items.query(fx.tasks, fx.fields, { orderBy: [], top: 1000, lookups: new Map() });
    for (const item of page.items) {
      const r = fx.data.find((d) => d.id === item.id)!;
      assert.deepEqual(
        [item.values.Title, item.values.Amount, item.values.Count, item.values.Done, item.values.Due, item.values.Status, item.values.Owner, item.values.Ref, item.values.Code],
        [r.title, r.amount, r.count, r.done, r.due, r.status, r.owner, r.ref, r.code],
      );
      assert.deepEqual([item.created, item.modified, item.authorId], [r.created, r.modified, r.author]);
    }
  });

  for (const c of CASES) {
    test(`$filter=${c.filter}`, async () => {
      const expected = fx.data.filter((r) => c.expect(r) === true).map((r) => r.id);
      // Each case must tell matching rows from the others, or it would prove nothing.
      if (c.none) assert.equal(expected.length, 0, 'expected no matches');
      else assert.ok(expected.length > 0 && expected.length < fx.data.length, `case should split the data (${expected.length} of ${fx.data.length})`);
      assert.deepEqual(await matching(c.filter), expected);
    });
  }

  test('hostile literals leave the database as it was', async () => {
    assert.ok(await tableExists(fx.opened, 'lists'));
    assert.equal(await rowCount(fx.opened.db, fx.tasks.tableName), 50);
    assert.equal((await fx.store.lists.inWeb(fx.web.id)).length, 3);
  });

  test('a filter the list cannot answer is a SharePoint-shaped 400', async () => {
    for (const filter of ['Nope eq 1', "Amount eq 'abc'", "Due eq 'yesterday'", 'Owner/Title eq 1 and Editor/Title eq 2', 'Title eq Status', 'Done eq 2']) {
      await assert.rejects(matching(filter), (e: unknown) => e instanceof DomainError && e.kind === 'invalid', filter);
    }
  });

  test('a filter of 5000 or-ed comparisons runs', async () => {
    const filter = Array.from({ length: 5000 }, (_, i) => `ID eq ${i * 3 + 1}`).join(' or ');
    const expected = fx.data.filter((r) => (r.id - 1) % 3 === 0).map((r) => r.id);
    assert.deepEqual(await matching(filter), expected);
    const filterAnd = Array.from({ length: 5000 }, (_, i) => `ID ne ${i * 2 + 2}`).join(' and ');
    assert.deepEqual(await matching(filterAnd), fx.data.filter((r) => r.id % 2 === 1).map((r) => r.id));
  });

  test('a filter nested 100 deep runs', async () => {
    // ((((ID le 49) and ID ge 2) or ID eq 3) … : as deep as the parser allows (100 levels).
    let filter = 'ID le 49';
    let expect = (r: Row): boolean => r.id <= 49;
    let nesting = 0;
    for (let step = 1; nesting < 98; step++) {
      const inner = filter;
      const prev = expect;
      if (step % 3 === 0) { filter = `(${inner}) or ID eq ${step % 50}`; expect = (r) => prev(r) || r.id === step % 50; nesting += 1; }
      else if (step % 3 === 1) { filter = `(${inner}) and ID ge 2`; expect = (r) => prev(r) && r.id >= 2; nesting += 1; }
      else { filter = `not (${inner}) or ID eq 50`; expect = (r) => !prev(r) || r.id === 50; nesting += 2; }
    }
    filter = `(${filter})`;
    const ids = fx.data.filter((r) => expect(r)).map((r) => r.id);
    assert.ok(ids.length > 0 && ids.length < 50);
    assert.deepEqual(await matching(filter), ids);
    assert.deepEqual(await matching(`${'not ('.repeat(50)}ID eq 7${')'.repeat(50)}`), [7]);
    assert.deepEqual(await matching(`${'not '.repeat(99)}ID eq 7`), fx.data.filter((r) => r.id !== 7).map((r) => r.id));
  });

  test('a filter too complex for the database is refused with a 400, not an SQL error', async () => {
    // Built directly (the parser stops at 100 levels): and/or alternating, 1500 deep.
    let node: any = { kind: 'compare', op: 'eq', left: { kind: 'member', path: ['ID'] }, right: { kind: 'literal', type: 'number', value: 1, raw: '1' } };
    for (let i = 0; i < 1500; i++) {
      node = { kind: 'logical', op: i % 2 ? 'and' : 'or', left: node, right: { kind: 'compare', op: 'ne', left: { kind: 'member', path: ['ID'] }, right: { kind: 'literal', type: 'number', value: i, raw: String(i) } } };
    }
    await assert.rejects(
      fx.store.items.query(fx.tasks, fx.fields, { filter: node, filterText: 'deep', orderBy: [], top: 10, lookups: new Map() }),
      (e: unknown) => e instanceof DomainError && e.kind === 'invalid' && /too complex/.test(e.message),
    );
    const wide = Array.from({ length: 40_000 }, (_, i) => `ID eq ${i}`).join(' or ');
    await assert.rejects(matching(wide), (e: unknown) => e instanceof DomainError && e.kind === 'invalid' && /too complex/.test(e.message));
  });

  // ---- ordering and keyset paging

  type KeySpec = Array<[string, boolean]>;
  const ORDERS: KeySpec[] = [
    [['Amount', false]], [['Amount', true]], [['Title', false]], [['Title', true], ['Count', false]],
    [['Due', false]], [['Due', true], ['Status', false]], [['Done', false], ['Amount', true], ['Title', false]],
    [['Owner', false], ['Modified', true]], [['Modified', false]], [['Created', true], ['Title', true]],
    [['Code', false], ['Count', true]], [['ID', true]], [['Status', true], ['Ref', false], ['Due', true]],
    [['Count', true], ['Done', true]], [['Author', false], ['Created', false], ['Code', true]],
  ];

  const rowValue = (r: Row, name: string): string | number | null => {
    const map: Record<string, string | number | null> = {
      ID: r.id, Title: r.title, Amount: r.amount, Count: r.count, Done: r.done, Due: r.due, Status: r.status,
      Owner: r.owner, Ref: r.ref, Code: r.code, Author: r.author, Created: r.created, Modified: r.modified,
    };
    assert.ok(name in map, name);
    return map[name]!;
  };
  const CASE_INSENSITIVE = new Set(['Title', 'Status', 'Code']);

  /** SharePoint's order: empty values lowest (first ascending, last descending), text ignoring case, then ID. */
  function expectedOrder(spec: KeySpec, rowsIn: Row[]): number[] {
    return [...rowsIn].sort((a, b) => {
      for (const [name, descending] of spec) {
        let x = rowValue(a, name);
        let y = rowValue(b, name);
        if (CASE_INSENSITIVE.has(name)) { x = typeof x === 'string' ? x.toLowerCase() : x; y = typeof y === 'string' ? y.toLowerCase() : y; }
        const c = x === y ? 0 : x === null ? -1 : y === null ? 1 : x < y ? -1 : 1;
        if (c !== 0) return descending ? -c : c;
      }
      return a.id - b.id;
    }).map((r) => r.id);
  }

  const keysOf = (spec: KeySpec): SortKey[] => spec.map(([name, descending]) => ({ field: fx.field(name), descending }));

  async function walk(keys: SortKey[], top: number, filter?: string): Promise<Item[][]> {
    const pages: Item[][] = [];
    let after: ItemQuery['after'];
    for (let guard = 0; guard < 200; guard++) {
      const page = await fx.store.items.query(fx.tasks, fx.fields, {
        filter: filter ? parseFilter(filter) : undefined, filterText: filter, orderBy: keys, top, after, lookups: fx.lookups,
      });
      pages.push(page.items);
      if (!page.hasMore) return pages;
      assert.equal(page.items.length, top, 'a page with more after it is full');
      after = position(keys, page.items.at(-1)!);
    }
    assert.fail('paging did not end');
  }

  for (const spec of ORDERS) {
    const name = spec.map(([n, d]) => `${n} ${d ? 'desc' : 'asc'}`).join(', ');
    test(`$orderby=${name}: order, and keyset paging forwards and backwards`, async () => {
      const keys = keysOf(spec);
      const expected = expectedOrder(spec, fx.data);
      const all = await fx.store.items.query(fx.tasks, fx.fields, { orderBy: keys, top: 1000, lookups: new Map() });
      assert.deepEqual(all.items.map((i) => i.id), expected, 'one page');
      assert.equal(all.hasMore, false);
      for (const top of [1, 3, 7, 49, 50]) {
        const pages = await walk(keys, top);
        // Every row exactly once, in order.
        assert.deepEqual(pages.flat().map((i) => i.id), expected, `forwards, $top=${top}`);
        // PagedPrev from each page's first row gives back the page before it.
        for (let k = pages.length - 1; k >= 1; k--) {
          const back = await fx.store.items.query(fx.tasks, fx.fields, {
            orderBy: keys, top, after: position(keys, pages[k]![0]!), backwards: true, lookups: new Map(),
          });
          assert.deepEqual(back.items.map((i) => i.id), pages[k - 1]!.map((i) => i.id), `backwards from page ${k}, $top=${top}`);
          assert.equal(back.hasMore, k - 1 > 0, `backwards hasMore from page ${k}, $top=${top}`);
        }
      }
    });
  }

  test('keyset paging with a filter visits each matching row once', async () => {
    const filter = "Amount ne null and (Status ne 'Closed' or Status eq null)";
    const spec: KeySpec = [['Amount', true], ['Title', false]];
    const expected = expectedOrder(spec, fx.data.filter((r) => r.amount !== null && (r.status === null || r.status !== 'Closed')));
    for (const top of [1, 4]) assert.deepEqual((await walk(keysOf(spec), top, filter)).flat().map((i) => i.id), expected);
  });

  test('paging from a position in the middle of the order', async () => {
    const keys = keysOf([['Amount', false]]);
    const expected = expectedOrder([['Amount', false]], fx.data);
    const at = fx.data.find((r) => r.id === expected[20])!;
    const page = await fx.store.items.query(fx.tasks, fx.fields, {
      orderBy: keys, top: 5, after: { id: at.id, values: [at.amount] }, lookups: new Map(),
    });
    assert.deepEqual(page.items.map((i) => i.id), expected.slice(21, 26));
  });
});

// ---------------------------------------------------------------------------------------

describe('atomicity: a failed write leaves no trace', () => {
  let opened: StoreBackend;
  let web: Web;
  before(async () => {
    opened = await openStoreBackend();
    web = await newWeb(opened.store);
  });
  after(async () => { await opened.close(); });

  async function snapshot(list: List) {
    return {
      list: await listRow(opened.db, list.rowId),
      rows: await rows(opened.db, sql`select * from ${sql.table(list.tableName)} order by id`),
      columns: await columnsOf(opened, list.tableName),
      indexes: await indexesOf(opened, list.tableName),
      fields: (await opened.store.fields.of(list)).map((f) => [f.internalName, f.column]),
    };
  }

  async function listWithItems(title: string) {
    const list = await createListWithFields(opened.store, web, { title, description: '', baseTemplate: 100 }, NOW);
    await opened.store.fields.add(list, newField('Score', 'Number', { indexed: true }));
    const fields = await opened.store.fields.of(list);
    for (let n = 1; n <= 3; n++) await opened.store.items.create(list, fields, { values: { Title: `t${n}`, Score: n }, actorId: 1, now: NOW });
    return { list: (await opened.store.lists.byRowId(list.rowId))!, fields };
  }

  test('createItem whose insert fails (a column that is not there)', async () => {
    const { list, fields } = await listWithItems('Bad column');
    const before = await snapshot(list);
    const ghost: Field = { ...fields.find((f) => f.internalName === 'Score')!, internalName: 'Ghost', column: 'c_no_such_column', rowId: 99999 };
    await assert.rejects(opened.store.items.create(list, [...fields, ghost], { values: { Title: 'no', Ghost: 1 }, actorId: 1, now: NOW }));
    assert.deepEqual(await snapshot(list), before);
    const next = await opened.store.items.create(list, fields, { values: { Title: 'yes' }, actorId: 1, now: NOW });
    assert.equal(next.id, 4, 'the failed insert used no id');
  });

  test('createItem refused by the database (a trigger aborts the insert)', async () => {
    const { list, fields } = await listWithItems('Trigger insert');
    await refuse(opened, `${list.tableName}_boom`, { event: 'insert', table: list.tableName, when: "new.title = 'boom'", message: 'boom refused' });
    const before = await snapshot(list);
    await assert.rejects(opened.store.items.create(list, fields, { values: { Title: 'boom', Score: 9 }, actorId: 1, now: NOW }), /boom refused/);
    assert.deepEqual(await snapshot(list), before);
    assert.equal((await opened.store.items.create(list, fields, { values: { Title: 'fine' }, actorId: 1, now: NOW })).id, 4);
  });

  test('updateItem and deleteItem refused by the database change nothing', async () => {
    const { list, fields } = await listWithItems('Trigger update');
    await refuse(opened, `${list.tableName}_no_update`, { event: 'update', table: list.tableName, when: "new.title = 'boom'", message: 'update refused' });
    await refuse(opened, `${list.tableName}_no_delete`, { event: 'delete', table: list.tableName, when: 'old.id = 2', message: 'delete refused' });
    const before = await snapshot(list);
    await assert.rejects(opened.store.items.update(list, fields, 1, { values: { Title: 'boom', Score: 100 }, actorId: 2, now: NOW }, null), /update refused/);
    await assert.rejects(opened.store.items.delete(list, fields, 2, null, NOW), /delete refused/);
    await assert.rejects(opened.store.items.recycle(list, fields, 2, 1, NOW), /delete refused/);
    assert.deepEqual(await snapshot(list), before);
    assert.equal(await rowCount(opened.db, 'recycle_bin'), 0);
  });

  test('store.transaction that throws after writes', async () => {
    const { list, fields } = await listWithItems('Rolled back');
    const before = await snapshot(list);
    const settingBefore = await opened.store.settings.get('probe');
    await assert.rejects(opened.store.transaction(async (tx) => {
      await tx.items.create(list, fields, { values: { Title: 'a' }, actorId: 1, now: NOW });
      await tx.items.create(list, fields, { values: { Title: 'b' }, actorId: 1, now: NOW });
      await tx.items.update(list, fields, 1, { values: { Title: 'changed' }, actorId: 1, now: NOW }, null);
      await tx.items.delete(list, fields, 2, null, NOW);
      await tx.fields.add(list, newField('Extra', 'Text', { indexed: true }));
      await tx.settings.set('probe', 'x');
      // Inside, the writes are visible…
      assert.equal((await tx.lists.byRowId(list.rowId))!.itemCount, 4);
      throw new Error('changed my mind');
    }), /changed my mind/);
    // …outside, none of them happened.
    assert.deepEqual(await snapshot(list), before);
    assert.equal(await opened.store.settings.get('probe'), settingBefore);
    assert.equal((await opened.store.items.create(list, fields, { values: { Title: 'c' }, actorId: 1, now: NOW })).id, 4);
  });

  test('createListWithFields failing halfway leaves no list, no fields and no table', async () => {
    const tablesBefore = await tableNames(opened);
    const listsBefore = await opened.store.lists.inWeb(web.id);
    const fieldCount = await rowCount(opened.db, 'fields');
    // The 7th built-in field (Editor) is refused: the list and its table already exist by then.
    const allow = await refuse(opened, 'no_editor', { event: 'insert', table: 'fields', when: "new.internal_name = 'Editor'", message: 'no editor' });
    try {
      await assert.rejects(createListWithFields(opened.store, web, { title: 'Half', description: '', baseTemplate: 100 }, NOW), /no editor/);
    } finally {
      await allow();
    }
    assert.deepEqual(await tableNames(opened), tablesBefore);
    assert.deepEqual(await opened.store.lists.inWeb(web.id), listsBefore);
    assert.equal(await rowCount(opened.db, 'fields'), fieldCount);
    // And the same list can be made now, whole.
    const list = await createListWithFields(opened.store, web, { title: 'Half', description: '', baseTemplate: 100 }, NOW);
    assert.ok(await tableExists(opened, list.tableName));
    assert.ok((await opened.store.fields.of(list)).some((f) => f.internalName === 'Editor'));
  });

  test('addField and deleteField failing halfway undo their column and index', async () => {
    const { list } = await listWithItems('Schema');
    const unlock = await refuse(opened, 'no_touch', { event: 'update', table: 'lists', when: `new.row_id = ${list.rowId}`, message: 'list locked' });
    const before = await snapshot(list);
    try {
      // Both get as far as their DDL (add/drop column, create/drop index) before touching the list row.
      await assert.rejects(opened.store.fields.add(list, newField('Late', 'Number', { indexed: true })), /list locked/);
      assert.deepEqual(await snapshot(list), before);
      const score = (await opened.store.fields.of(list)).find((f) => f.internalName === 'Score')!;
      await assert.rejects(opened.store.fields.delete(list, score), /list locked/);
      assert.deepEqual(await snapshot(list), before);
    } finally {
      await unlock();
    }
    const fields = await opened.store.fields.of(list);
    assert.equal((await opened.store.items.get(list, fields, 2))!.values.Score, 2);
  });
});

// ---------------------------------------------------------------------------------------

describe('item ids, counts and versions', () => {
  let opened: StoreBackend;
  let web: Web;
  before(async () => {
    opened = await openStoreBackend();
    web = await newWeb(opened.store);
  });
  after(async () => { await opened.close(); });

  test('ids are per list and never reused after a delete', async () => {
    const { store } = opened;
    const a = await createListWithFields(store, web, { title: 'Ids A', description: '', baseTemplate: 100 }, NOW);
    const b = await createListWithFields(store, web, { title: 'Ids B', description: '', baseTemplate: 100 }, NOW);
    const fa = await store.fields.of(a);
    const fb = await store.fields.of(b);
    const created = [];
    for (let n = 0; n < 3; n++) created.push(await store.items.create(a, fa, { values: { Title: `a${n}` }, actorId: 1, now: NOW }));
    assert.deepEqual(created.map((i) => i.id), [1, 2, 3]);
    assert.equal((await store.items.create(b, fb, { values: { Title: 'b' }, actorId: 1, now: NOW })).id, 1, 'another list counts on its own');
    for (const item of created) assert.equal(await store.items.delete(a, fa, item.id, null, NOW), 'deleted');
    assert.equal((await store.lists.byRowId(a.rowId))!.itemCount, 0);
    const next = await store.items.create(a, fa, { values: { Title: 'a3' }, actorId: 1, now: NOW });
    assert.equal(next.id, 4);
    assert.equal((await store.lists.byRowId(a.rowId))!.itemCount, 1);
    // Recycling counts as a delete, once.
    assert.ok(await store.items.recycle(a, fa, 4, 1, NOW));
    assert.equal((await store.lists.byRowId(a.rowId))!.itemCount, 0);
    assert.equal((await store.items.create(a, fa, { values: { Title: 'a4' }, actorId: 1, now: NOW })).id, 5);
    assert.equal(await store.items.delete(a, fa, 4, null, NOW), undefined, 'a deleted item is gone');
    assert.equal((await store.lists.byRowId(b.rowId))!.itemCount, 1);
  });

  test('createMany: ids in order after the list counter, rows for several statements, counters moved once, fields without a value null', async () => {
    const { store } = opened;
    const list = await createListWithFields(store, web, { title: 'Bulk', description: '', baseTemplate: 100 }, NOW);
    await store.fields.add(list, newField('Score', 'Number'));
    const fields = await store.fields.of(list);
    assert.equal((await store.items.create(list, fields, { values: { Title: 'single' }, actorId: 1, now: NOW })).id, 1);
    // More rows than one multi-row statement takes (30,000 parameters over ~11 columns).
    const count = 7_000;
    const writes = Array.from({ length: count }, (_, i): ItemWrite => ({
      values: i % 2 ? { Title: `bulk ${i}`, Score: i } : { Title: `bulk ${i}` }, actorId: 2, authorId: 3, now: '2024-06-05T00:00:00Z',
      ...(i === 0 ? { created: '2020-01-01T00:00:00Z' } : {}),
    }));
    assert.equal(await store.items.createMany(list, fields, writes), 2);
    const refreshed = (await store.lists.byRowId(list.rowId))!;
    assert.equal(refreshed.itemCount, count + 1);
    assert.equal(refreshed.lastItemModifiedDate, '2024-06-05T00:00:00Z');
    const [first, odd, last] = await Promise.all([2, 3, count + 1].map((id) => store.items.get(list, fields, id)));
    assert.deepEqual([first!.values.Title, first!.values.Score, first!.created, first!.modified, first!.authorId, first!.editorId],
      ['bulk 0', null, '2020-01-01T00:00:00Z', '2020-01-01T00:00:00Z', 3, 2]);
    assert.deepEqual([odd!.values.Title, odd!.values.Score, odd!.version], ['bulk 1', 1, 1]);
    assert.equal(last!.values.Title, `bulk ${count - 1}`);
    assert.equal(new Set([first!.guid, odd!.guid, last!.guid]).size, 3, 'each item has its own guid');
    assert.equal((await store.items.create(list, fields, { values: { Title: 'after' }, actorId: 1, now: NOW })).id, count + 2);
  });

  test('ids survive closing and reopening the database', async () => {
    let o = await openStoreBackend();
    const w = await newWeb(o.store);
    let list = await createListWithFields(o.store, w, { title: 'Reopen', description: '', baseTemplate: 100 }, NOW);
    let fields = await o.store.fields.of(list);
    for (let n = 0; n < 3; n++) await o.store.items.create(list, fields, { values: { Title: `r${n}` }, actorId: 1, now: NOW });
    await o.store.items.delete(list, fields, 3, null, NOW);
    await o.close();
    o = await o.reopen();
    try {
      list = (await o.store.lists.byRowId(list.rowId))!;
      fields = await o.store.fields.of(list);
      assert.equal(list.itemCount, 2);
      assert.equal((await o.store.items.create(list, fields, { values: { Title: 'r3' }, actorId: 1, now: NOW })).id, 4);
    } finally {
      await o.close();
    }
  });

  test('version increments on update; a stale version is a conflict that changes nothing', async () => {
    const { store } = opened;
    const list = await createListWithFields(store, web, { title: 'Versions', description: '', baseTemplate: 100, enableVersioning: true }, NOW);
    await store.fields.add(list, newField('Score', 'Number'));
    const fields = await store.fields.of(list);
    const item = await store.items.create(list, fields, { values: { Title: 'v', Score: 1 }, actorId: 1, now: NOW });
    assert.equal(item.version, 1);
    const v2 = await store.items.update(list, fields, item.id, { values: { Score: 2 }, actorId: 2, now: '2024-06-02T00:00:00Z' }, 1);
    assert.ok(v2 && v2 !== 'conflict');
    assert.deepEqual([v2.version, v2.uiVersion, v2.values.Score, v2.values.Title, v2.editorId, v2.modified], [2, 2, 2, 'v', 2, '2024-06-02T00:00:00Z']);
    const v3 = await store.items.update(list, fields, item.id, { values: { Title: 'w' }, actorId: 1, now: '2024-06-03T00:00:00Z' }, null);
    assert.ok(v3 && v3 !== 'conflict');
    assert.equal(v3.version, 3);

    const listBefore = await listRow(opened.db, list.rowId);
    const stale = await store.items.update(list, fields, item.id, { values: { Title: 'lost', Score: 99 }, actorId: 2, now: '2024-06-04T00:00:00Z' }, 2);
    assert.equal(stale, 'conflict');
    assert.deepEqual(await store.items.get(list, fields, item.id), v3);
    assert.equal(await store.items.delete(list, fields, item.id, 1, NOW), 'conflict');
    assert.deepEqual(await store.items.get(list, fields, item.id), v3);
    assert.deepEqual(await listRow(opened.db, list.rowId), listBefore);
    assert.equal((await store.lists.byRowId(list.rowId))!.lastItemModifiedDate, '2024-06-03T00:00:00Z');

    assert.equal(await store.items.update(list, fields, 999, { values: { Title: 'x' }, actorId: 1, now: NOW }, null), undefined);
    assert.equal(await store.items.update(list, fields, 999, { values: { Title: 'x' }, actorId: 1, now: NOW }, 1), undefined);
    assert.equal(await store.items.delete(list, fields, 999, 1, NOW), undefined);
    assert.equal(await store.items.delete(list, fields, item.id, 3, NOW), 'deleted');
    assert.equal((await store.lists.byRowId(list.rowId))!.itemCount, 0);
  });
});

// ---------------------------------------------------------------------------------------

describe('indexes and schema changes', () => {
  let opened: StoreBackend;
  let web: Web;
  before(async () => {
    opened = await openStoreBackend();
    web = await newWeb(opened.store);
  });
  after(async () => { await opened.close(); });

  async function filterPlan(list: List, fields: Field[], filter: string): Promise<string> {
    const { condition } = compileFilter(parseFilter(filter), { fields, lookups: new Map(), flavour: opened.flavour, text: filter });
    return plan(opened, sql`select id from ${sql.table(list.tableName)} where ${condition}`);
  }

  test('an indexed field has a real index, and filters on it use it', async () => {
    const { store } = opened;
    const list = await createListWithFields(store, web, { title: 'Indexed', description: '', baseTemplate: 100 }, NOW);
    const code = await store.fields.add(list, newField('Code', 'Text', { indexed: true }));
    const score = await store.fields.add(list, newField('Score', 'Number', { indexed: true }));
    const when = await store.fields.add(list, newField('When', 'DateTime', { indexed: true }));
    const plain = await store.fields.add(list, newField('Plain', 'Text'));
    const fields = await store.fields.of(list);
    for (let n = 0; n < 200; n++) {
      await store.items.create(list, fields, {
        values: { Title: `t${n}`, Code: `Code-${n % 50}`, Score: n % 17, When: isoSeconds(Date.UTC(2024, 0, 1) + n * 3_600_000), Plain: `p${n}` },
        actorId: 1, now: NOW,
      });
    }
    const ix = (f: Field) => `${list.tableName}_${f.column}_ix`;
    assert.deepEqual(await indexesOf(opened, list.tableName), [`${list.tableName}_guid`, `${list.tableName}_modified`, `${list.tableName}_place`, ix(code), ix(score), ix(when)].sort());
    const definition = await indexDefinition(opened, ix(code));
    // Case-insensitively, as it is compared; on PostgreSQL in code point order and empty values first, as the queries say.
    assert.match(definition, opened.flavour === 'sqlite' ? /\(lower\(c\d+\), id\)/ : /\(lower\(c\d+\) COLLATE "C" NULLS FIRST, id\)/, definition);

    const uses = async (filter: string, index: string) => {
      const p = await filterPlan(list, fields, filter);
      assert.ok(usesIndex(opened, p, index), `${filter}: ${p}`);
    };
    await uses("Code eq 'code-7'", ix(code));
    await uses('Score eq 3', ix(score));
    await uses("When ge datetime'2024-01-08T00:00:00Z'", ix(when));
    assert.ok(scansTable(opened, await filterPlan(list, fields, "Plain eq 'p1'")));
    // The results are right, too.
    const page = await store.items.query(list, fields, { filter: parseFilter("Code eq 'CODE-7'"), orderBy: [], top: 100, lookups: new Map() });
    assert.deepEqual(page.items.map((i) => i.id), [8, 58, 108, 158]);

    // Indexing and un-indexing later.
    await store.fields.update(list, plain, { indexed: true });
    assert.ok((await indexesOf(opened, list.tableName)).includes(ix(plain)));
    await uses("Plain eq 'p1'", ix(plain));
    await store.fields.update(list, code, { indexed: false });
    assert.ok(!(await indexesOf(opened, list.tableName)).includes(ix(code)));
    assert.equal((await store.fields.of(list)).find((f) => f.internalName === 'Code')!.indexed, false);
  });

  // spemu's ORDER BY puts empty values first (as SharePoint and SQLite do): PostgreSQL's
  // indexes are declared `nulls first` to match (flavour.ts nullsFirst), else a sort step remains.
  test('sorting by an indexed field (or by Modified) reads the index in order: no sort step', async () => {
    const { store } = opened;
    const list = await createListWithFields(store, web, { title: 'Sorted', description: '', baseTemplate: 100 }, NOW);
    const code = await store.fields.add(list, newField('Code', 'Text', { indexed: true }));
    const score = await store.fields.add(list, newField('Score', 'Number', { indexed: true }));
    const when = await store.fields.add(list, newField('When', 'DateTime', { indexed: true }));
    const fields = await store.fields.of(list);
    for (const f of [code, score, when, fields.find((x) => x.internalName === 'Modified')!]) {
      for (const descending of [false, true]) {
        const direction = sql.raw(descending ? 'desc nulls last' : 'asc nulls first');
        const p = await plan(opened, sql`select id from ${sql.table(list.tableName)} order by ${sortExpression(f, opened.flavour)} ${direction}, id ${sql.raw(descending ? 'desc' : 'asc')}`);
        assert.ok(!sorts(opened, p), `${f.internalName} ${descending ? 'desc' : 'asc'}: ${p}`);
      }
    }
  });

  test('migration 0006 rebuilds item indexes made before it in the order the sorts use (PostgreSQL; nothing on SQLite)', async () => {
    const { store, db, flavour } = opened;
    const list = await createListWithFields(store, web, { title: 'Migrated', description: '', baseTemplate: 100 }, NOW);
    const code = await store.fields.add(list, newField('Code', 'Text', { indexed: true }));
    const modified = (await store.fields.of(list)).find((x) => x.internalName === 'Modified')!;
    const ix = `${list.tableName}_${code.column}_ix`;
    const mod = `${list.tableName}_modified`;
    // The indexes as spemu made them before 0006 (no NULLS FIRST).
    for (const name of [ix, mod]) await sql`drop index ${sql.id(name)}`.execute(db);
    await sql`create index ${sql.id(ix)} on ${sql.table(list.tableName)} (${sortExpression(code, flavour)}, id)`.execute(db);
    await sql`create index ${sql.id(mod)} on ${sql.table(list.tableName)} (modified, id)`.execute(db);
    const before = [await indexDefinition(opened, ix), await indexDefinition(opened, mod)];

    await db.transaction().execute((trx) => migrations(flavour)['0006-index-nulls-first']!.up(trx));
    const definitions = [await indexDefinition(opened, ix), await indexDefinition(opened, mod)];
    if (flavour === 'sqlite') assert.deepEqual(definitions, before);
    else {
      assert.match(definitions[0]!, /\(lower\(c\d+\) COLLATE "C" NULLS FIRST, id\)/, definitions[0]);
      assert.match(definitions[1]!, /\(modified NULLS FIRST, id\)/, definitions[1]);
    }
    for (const f of [code, modified]) {
      const p = await plan(opened, sql`select id from ${sql.table(list.tableName)} order by ${sortExpression(f, flavour)} asc nulls first, id asc`);
      assert.ok(!sorts(opened, p), `${f.internalName}: ${p}`);
    }
  });

  test('migration 0017 gives every list there is its default view, as a new list gets one', async () => {
    const { store, db, flavour } = opened;
    const library = await createListWithFields(store, web, { title: 'Views before 0017', description: '', baseTemplate: 101 }, NOW);
    const list = await createListWithFields(store, web, { title: 'Items before 0017', description: '', baseTemplate: 100 }, NOW);
    const made = [(await store.views.of(library))[0]!, (await store.views.of(list))[0]!];
    // The database as it was before 0017: no views table.
    await sql`drop table views`.execute(db);
    await db.transaction().execute((trx) => migrations(flavour)['0017-views']!.up(trx));
    for (const [target, madeView] of [[library, made[0]!], [list, made[1]!]] as const) {
      const views = await store.views.of(target);
      assert.equal(views.length, 1, target.title);
      const { id: _a, ...migrated } = views[0]!;
      const { id: _b, ...fresh } = madeView;
      assert.deepEqual(migrated, fresh, `${target.title}: the migrated view is the one a new list gets`);
    }
  });

  test('migration 0040 fills in the recycle bin entries made before it from their snapshots', async () => {
    const { store, db, flavour } = opened;
    const list = await createListWithFields(store, web, { title: 'Binned before 0040', description: '', baseTemplate: 100 }, NOW);
    const fields = await store.fields.of(list);
    const item = await store.items.create(list, fields, { values: { Title: 'old entry' }, actorId: 1, now: NOW });
    const binId = (await store.items.recycle(list, fields, item.id, 1, NOW))!;
    // The database as it was before 0040: none of its columns, nor its index.
    await sql`drop index recycle_bin_site`.execute(db);
    for (const column of ['web_id', 'item_type', 'item_state', 'leaf_name', 'dir_name', 'size', 'author_id', 'parent_id']) {
      await sql`alter table recycle_bin drop column ${sql.id(column)}`.execute(db);
    }
    await sql`alter table lists drop column recycle_bin_id`.execute(db);
    await db.transaction().execute((trx) => migrations(flavour)['0040-recycle-bin']!.up(trx));
    const entry = await store.recycleBin.get(web.siteId, binId);
    assert.deepEqual(entry && [entry.webId, entry.itemType, entry.itemState, entry.leafName, entry.dirName, entry.size, entry.authorId, entry.title],
      [web.id, 3, 1, `${item.id}_.000`, list.serverRelativeUrl.slice(1), 0, 1, 'old entry']);
    const restored = await store.recycleBin.restore(entry!, 1, NOW);
    assert.equal(restored.items[0]!.guid, item.guid);
  });

  test('a field added to a list with items reads empty; a deleted field takes its column with it', async () => {
    const { store } = opened;
    const list = await createListWithFields(store, web, { title: 'Evolving', description: '', baseTemplate: 100 }, NOW);
    let fields = await store.fields.of(list);
    for (let n = 1; n <= 3; n++) await store.items.create(list, fields, { values: { Title: `e${n}` }, actorId: 1, now: NOW });
    const late = await store.fields.add(list, newField('Late', 'Text'));
    const lateNum = await store.fields.add(list, newField('LateNum', 'Number', { indexed: true }));
    fields = await store.fields.of(list);
    for (let id = 1; id <= 3; id++) {
      const item = (await store.items.get(list, fields, id))!;
      assert.equal(item.values.Late, null);
      assert.equal(item.values.LateNum, null);
      assert.equal(item.values.Title, `e${id}`);
    }
    const all = await store.items.query(list, fields, { filter: parseFilter('Late eq null and LateNum eq null'), orderBy: [], top: 10, lookups: new Map() });
    assert.deepEqual(all.items.map((i) => i.id), [1, 2, 3]);
    await store.items.update(list, fields, 2, { values: { Late: 'now', LateNum: 5 }, actorId: 1, now: NOW }, null);
    const some = await store.items.query(list, fields, { filter: parseFilter("Late eq 'NOW'"), orderBy: [], top: 10, lookups: new Map() });
    assert.deepEqual(some.items.map((i) => i.id), [2]);

    assert.ok((await columnsOf(opened, list.tableName)).includes(late.column));
    await store.fields.delete(list, late);
    await store.fields.delete(list, lateNum);
    const columns = await columnsOf(opened, list.tableName);
    assert.ok(!columns.includes(late.column) && !columns.includes(lateNum.column), columns.join());
    assert.ok(!(await indexesOf(opened, list.tableName)).some((n) => n.includes(lateNum.column)));
    fields = await store.fields.of(list);
    assert.ok(!fields.some((f) => f.internalName === 'Late' || f.internalName === 'LateNum'));
    assert.deepEqual((await store.items.get(list, fields, 2))!.values.Title, 'e2');
    await assert.rejects(
      store.items.query(list, fields, { filter: parseFilter("Late eq 'now'"), filterText: "Late eq 'now'", orderBy: [], top: 10, lookups: new Map() }),
      (e: unknown) => e instanceof DomainError && e.kind === 'invalid',
    );
    // A field of the same name can come back, empty.
    await store.fields.add(list, newField('Late', 'Text'));
    fields = await store.fields.of(list);
    assert.equal((await store.items.get(list, fields, 2))!.values.Late, null);
  });

  test('deleting a list drops its table', async () => {
    const { store } = opened;
    const list = await createListWithFields(store, web, { title: 'Doomed', description: '', baseTemplate: 100 }, NOW);
    assert.ok(await tableExists(opened, list.tableName));
    await store.lists.delete(list);
    assert.ok(!(await tableExists(opened, list.tableName)));
    assert.equal(await store.lists.byRowId(list.rowId), undefined);
    assert.equal(Number((await rows<{ n: number }>(opened.db, sql`select count(*) as n from fields where list_row_id = ${list.rowId}`))[0]!.n), 0);
  });
});
