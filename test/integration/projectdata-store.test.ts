// The ProjectData store on the leg's real database (SQLite in memory, or a fresh PostgreSQL
// database): typed round trips, upserts by composite key, custom properties added to a set
// that holds rows, `$filter` checked against the same predicate evaluated in JavaScript,
// keyset paging through 10k tasks under several orders, and atomicity of failed batches.

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { openPostgres, openSqlite, type Connection } from '../../src/store/sql/connect.ts';
import { migrateToLatest } from '../../src/store/sql/migrate.ts';
import { SqlStore } from '../../src/store/sql/sql-store.ts';
import { parseFilter } from '../../src/odata/filter/parser.ts';
import { ENTITY_SETS } from '../../src/domain/projectdata/catalogue.ts';
import type { PdEntitySet, PdRow, PdValue } from '../../src/domain/projectdata/model.ts';
import type { PdQuery, PdSiteOptions, PdSortKey } from '../../src/store/projectdata.ts';
import { PdValueError } from '../../src/domain/projectdata/values.ts';
import { DomainError } from '../../src/domain/errors.ts';
import { testDatabase } from '../helpers/server.ts';
import { testBackend } from '../helpers/postgres.ts';

const guid = (kind: number, n: number) => `0000000${kind}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const ms = (iso: string) => Date.parse(iso);
const DAY = 86_400_000;

let store: SqlStore;
let connection: Connection;
let dropDatabase: () => Promise<void>;

before(async () => {
  const database = await testDatabase();
  dropDatabase = database.drop;
  const opened = testBackend() === 'postgres' ? await openPostgres({ url: database.db }) : openSqlite({ file: ':memory:' });
  connection = opened;
  await migrateToLatest(opened.db, opened.flavour);
  store = new SqlStore(opened.db, opened.flavour, { onSchemaChange: 'clearStatementCache' in opened ? opened.clearStatementCache : () => {} });
});
after(async () => {
  await store?.close();
  await dropDatabase?.();
});

/** A fresh site id per test: every test starts with no tables and no options. */
const newSite = () => randomUUID();
const setOf = async (siteId: string, name: string): Promise<PdEntitySet> => (await store.projectData.schema(siteId)).find((s) => s.name === name)!;
const TASKS = ENTITY_SETS.find((s) => s.name === 'Tasks')!;
const PROJECTS = ENTITY_SETS.find((s) => s.name === 'Projects')!;

function page(set: PdEntitySet, extra: Partial<PdQuery> = {}): PdQuery {
  return { set, where: [], orderBy: set.key.map((property) => ({ property, descending: false })), top: 100_000, skip: 0, ...extra };
}

async function all(siteId: string, set: PdEntitySet, extra: Partial<PdQuery> = {}): Promise<PdRow[]> {
  return (await store.projectData.query(siteId, page(set, extra))).rows;
}

const filtered = async (siteId: string, set: PdEntitySet, filter: string) =>
  (await all(siteId, set, { filter: parseFilter(filter), filterText: filter })).map((r) => r.TaskId);

async function rejects(promise: Promise<unknown>, message: string | RegExp): Promise<void> {
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(e instanceof DomainError, `a DomainError, got ${String(e)}`);
    assert.equal(e.kind, 'invalid');
    if (typeof message === 'string') assert.equal(e.message, message);
    else assert.match(e.message, message);
    return true;
  });
}

describe('ProjectData store', () => {
  test('every Edm type round-trips, including dates before 1970, nulls and custom properties', async () => {
    const site = newSite();
    await store.projectData.addCustomProperties(site, 'Tasks', [
      { name: 'Risk Score', type: 'Edm.Double', nullable: true },
      { name: 'Kostenstelle (Ü)', type: 'Edm.String', nullable: true },
      { name: 'BigCount', type: 'Edm.Int64', nullable: true },
      { name: 'Level', type: 'Edm.Byte', nullable: true },
    ]);
    const tasks = await setOf(site, 'Tasks');
    const full: PdRow = {
      ProjectId: guid(1, 1).toUpperCase(), TaskId: guid(2, 1), TaskName: 'Design — “Ünïcode” \u0000 end', TaskIndex: -2147483648,
      TaskFinishDate: ms('1969-07-20T20:17:40.123Z'), TaskStartDate: -62135596800000, TaskCost: 1234.5, TaskWork: 1e-7,
      TaskIsMilestone: true, TaskIsCritical: false, TaskPercentCompleted: 32767, 'Risk Score': -0.25,
      'Kostenstelle (Ü)': 'Ä-42', BigCount: Number.MAX_SAFE_INTEGER, Level: 255,
    };
    const empty: PdRow = { ProjectId: guid(1, 1), TaskId: guid(2, 2) };
    await store.projectData.upsertRows(site, tasks, [full, empty]);
    const [a, b] = await all(site, tasks);
    assert.deepEqual(a, Object.fromEntries(tasks.properties.map((p) => [p.name, p.name === 'ProjectId' ? guid(1, 1) : full[p.name] ?? null])));
    assert.equal(typeof a!.TaskIsMilestone, 'boolean');
    assert.deepEqual(b, Object.fromEntries(tasks.properties.map((p) => [p.name, empty[p.name] ?? null])));
    // $select reads the keys and the named properties only.
    const selected = await all(site, tasks, { select: ['TaskName', 'Risk Score'] });
    assert.deepEqual(selected[0], { ProjectId: guid(1, 1), TaskId: guid(2, 1), TaskName: full.TaskName, 'Risk Score': -0.25 });
  });

  test('an upsert replaces the row with the same composite key, and omitted properties become null', async () => {
    const site = newSite();
    await store.projectData.upsertRows(site, TASKS, [
      { ProjectId: guid(1, 1), TaskId: guid(2, 1), TaskName: 'A', TaskCost: 1 },
      { ProjectId: guid(1, 2), TaskId: guid(2, 1), TaskName: 'Same task id, other project' },
    ]);
    // The same key twice in one call: the later row wins (PostgreSQL would refuse both in one statement).
    await store.projectData.upsertRows(site, TASKS, [
      { ProjectId: guid(1, 1), TaskId: guid(2, 1), TaskName: 'B', TaskCost: 2 },
      { ProjectId: guid(1, 1), TaskId: guid(2, 1), TaskName: 'C' },
    ]);
    const rows = await all(site, TASKS, { select: ['TaskName', 'TaskCost'] });
    assert.deepEqual(rows, [
      { ProjectId: guid(1, 1), TaskId: guid(2, 1), TaskName: 'C', TaskCost: null },
      { ProjectId: guid(1, 2), TaskId: guid(2, 1), TaskName: 'Same task id, other project', TaskCost: null },
    ]);
  });

  test('a custom property added to a set that already holds rows', async () => {
    const site = newSite();
    await store.projectData.upsertRows(site, PROJECTS, [{ ProjectId: guid(1, 1), ProjectName: 'Apollo' }]);
    await store.projectData.addCustomProperties(site, 'Projects', [{ name: 'Sponsor', type: 'Edm.String', nullable: true }]);
    const projects = await setOf(site, 'Projects');
    await store.projectData.upsertRows(site, projects, [{ ProjectId: guid(1, 2), ProjectName: 'Gemini', Sponsor: 'NASA' }]);
    const rows = await all(site, projects, { select: ['ProjectName', 'Sponsor'] });
    assert.deepEqual(rows, [
      { ProjectId: guid(1, 1), ProjectName: 'Apollo', Sponsor: null },
      { ProjectId: guid(1, 2), ProjectName: 'Gemini', Sponsor: 'NASA' },
    ]);
    const hit = await all(site, projects, { filter: parseFilter("Sponsor eq 'nasa'") });
    assert.deepEqual(hit.map((r) => r.ProjectName), ['Gemini']);
  });

  describe('$filter', () => {
    const site = newSite();
    const names = ['Design', 'design review', 'Build', '100% done', 'under_score', null, 'Ärger', 'Test'];
    const dates = [ms('2016-06-30T00:00:00Z'), ms('1969-12-31T23:59:59Z'), ms('2016-06-28T08:30:15Z'), null];
    const rows: PdRow[] = Array.from({ length: 64 }, (_, i) => ({
      ProjectId: guid(1, i % 3), TaskId: guid(2, i), TaskIndex: i, TaskName: names[i % names.length]!,
      TaskFinishDate: dates[i % dates.length]!, TaskStartDate: i % 5 === 0 ? null : ms('2016-06-29T00:00:00Z'),
      TaskPercentCompleted: (i * 7) % 101, TaskCost: i % 6 === 0 ? null : i * 1.5,
      TaskIsMilestone: i % 3 === 0 ? null : i % 3 === 1,
    }));
    before(() => store.projectData.upsertRows(site, TASKS, rows));
    /** The rows in the order the queries ask for: by key. */
    const byKey = [...rows].sort((a, b) => `${a.ProjectId}${a.TaskId}`.localeCompare(`${b.ProjectId}${b.TaskId}`));

    const lower = (v: PdValue | undefined) => (typeof v === 'string' ? v.toLowerCase() : v);
    const cases: Array<[string, (r: PdRow) => boolean]> = [
      ["TaskFinishDate lt datetime'2016-06-30T00:00:00'", (r) => r.TaskFinishDate !== null && (r.TaskFinishDate as number) < ms('2016-06-30T00:00:00Z')],
      ["TaskFinishDate eq datetime'1969-12-31T23:59:59'", (r) => r.TaskFinishDate === ms('1969-12-31T23:59:59Z')],
      ["TaskFinishDate ge '2016-06-30T00:00:00Z'", (r) => r.TaskFinishDate !== null && (r.TaskFinishDate as number) >= ms('2016-06-30T00:00:00Z')],
      [`ProjectId eq guid'${guid(1, 2).toUpperCase()}'`, (r) => r.ProjectId === guid(1, 2)],
      [`guid'${guid(1, 2)}' ne ProjectId`, (r) => r.ProjectId !== guid(1, 2)],
      ['TaskPercentCompleted ge 50', (r) => (r.TaskPercentCompleted as number) >= 50],
      ['TaskCost gt 40.5M and TaskCost le 60', (r) => r.TaskCost !== null && (r.TaskCost as number) > 40.5 && (r.TaskCost as number) <= 60],
      ['TaskPercentCompleted lt 10.5', (r) => (r.TaskPercentCompleted as number) < 10.5],
      ["TaskName eq 'design'", (r) => lower(r.TaskName) === 'design'],
      ["TaskName eq 'ärger'", (r) => r.TaskName === 'Ärger'],
      ["TaskName ne 'Design'", (r) => lower(r.TaskName) !== 'design'],
      ["not (TaskName eq 'Design')", (r) => lower(r.TaskName) !== 'design'],
      ["TaskName gt 'c'", (r) => r.TaskName !== null && (r.TaskName as string).toLowerCase() > 'c'],
      ['TaskName eq null', (r) => r.TaskName === null],
      ['null ne TaskCost', (r) => r.TaskCost !== null],
      ['TaskIsMilestone', (r) => r.TaskIsMilestone === true],
      ['not TaskIsMilestone', (r) => r.TaskIsMilestone !== true],
      ['TaskIsMilestone eq false', (r) => r.TaskIsMilestone === false],
      ["TaskIsMilestone eq true and TaskPercentCompleted lt 50 or TaskName eq 'Test'",
        (r) => (r.TaskIsMilestone === true && (r.TaskPercentCompleted as number) < 50) || r.TaskName === 'Test'],
      ["startswith(TaskName, 'DE')", (r) => typeof r.TaskName === 'string' && r.TaskName.toLowerCase().startsWith('de')],
      ["not startswith(TaskName, 'De')", (r) => !(typeof r.TaskName === 'string' && r.TaskName.toLowerCase().startsWith('de'))],
      ["endswith(TaskName, 'SCORE')", (r) => r.TaskName === 'under_score'],
      ["substringof('sign', TaskName)", (r) => typeof r.TaskName === 'string' && r.TaskName.toLowerCase().includes('sign')],
      ["substringof('%', TaskName) or substringof('r_s', TaskName)", (r) => r.TaskName === '100% done' || r.TaskName === 'under_score'],
      ["substringof('sign', TaskName) eq false", (r) => !(typeof r.TaskName === 'string' && r.TaskName.toLowerCase().includes('sign'))],
      ["tolower(TaskName) eq 'build'", (r) => r.TaskName === 'Build'],
      ['length(TaskName) eq 4', (r) => typeof r.TaskName === 'string' && r.TaskName.length === 4],
      ['year(TaskFinishDate) eq 1969', (r) => r.TaskFinishDate === ms('1969-12-31T23:59:59Z')],
      ['month(TaskFinishDate) eq 12 and day(TaskFinishDate) eq 31 and second(TaskFinishDate) eq 59', (r) => r.TaskFinishDate === ms('1969-12-31T23:59:59Z')],
      ['hour(TaskFinishDate) eq 8 and minute(TaskFinishDate) eq 30', (r) => r.TaskFinishDate === ms('2016-06-28T08:30:15Z')],
      ['TaskStartDate lt TaskFinishDate', (r) => r.TaskStartDate !== null && r.TaskFinishDate !== null && (r.TaskStartDate as number) < (r.TaskFinishDate as number)],
      // Two nulls are equal, as in C#: TaskDeadline is never set.
      ['TaskStartDate eq TaskDeadline', (r) => r.TaskStartDate === null],
      ['TaskStartDate ne TaskFinishDate', (r) => r.TaskStartDate !== r.TaskFinishDate],
      ['TaskIndex eq 1 or TaskIndex eq 2 or TaskIndex eq 63', (r) => [1, 2, 63].includes(r.TaskIndex as number)],
      ["TaskName eq 'build' or TaskName eq 'TEST'", (r) => r.TaskName === 'Build' || r.TaskName === 'Test'],
      [Array.from({ length: 3000 }, (_, i) => `TaskIndex ne ${i + 100}`).join(' and '), () => true],
      ['1 eq 1 and true', () => true],
    ];
    for (const [filter, predicate] of cases) {
      test(filter.length > 100 ? `${filter.slice(0, 60)}… (${filter.length} chars)` : filter, async () => {
        assert.deepEqual(await filtered(site, TASKS, filter), byKey.filter(predicate).map((r) => r.TaskId));
      });
    }

    test('WCF DS errors: unknown properties, incompatible types, unknown functions', async () => {
      await rejects(filtered(site, TASKS, "TaskName eq 'x' and Nope eq 1"), "No property 'Nope' exists in type 'ReportingData.Task' at position 20.");
      await rejects(filtered(site, TASKS, "ProjectId eq 'not a guid'"), "Operator 'eq' incompatible with operand types 'Edm.Guid' and 'Edm.String'.");
      await rejects(filtered(site, TASKS, 'TaskName eq 5'), "Operator 'eq' incompatible with operand types 'Edm.String' and 'Edm.Int32'.");
      await rejects(filtered(site, TASKS, "TaskFinishDate gt datetime'2016-02-30'"), /Unrecognized 'Edm.DateTime' literal/);
      await rejects(filtered(site, TASKS, 'TaskIsMilestone gt true'), /incompatible with operand types 'Edm.Boolean' and 'Edm.Boolean'/);
      await rejects(filtered(site, TASKS, "frobnicate(TaskName) eq 'x'"), "Unknown function 'frobnicate'.");
      await rejects(filtered(site, TASKS, "startswith(TaskIndex, 'x')"), /No function signature for the function with name 'startswith'/);
      await rejects(filtered(site, TASKS, 'TaskName'), /not of type 'Edm.Boolean'/);
    });

    test('count covers every matching row, whatever the page', async () => {
      const result = await store.projectData.query(site, page(TASKS, { filter: parseFilter('TaskPercentCompleted ge 50'), top: 3, count: true }));
      assert.equal(result.rows.length, 3);
      assert.equal(result.hasMore, true);
      assert.equal(result.count, rows.filter((r) => (r.TaskPercentCompleted as number) >= 50).length);
      const where = await store.projectData.query(site, page(TASKS, { where: [{ property: 'ProjectId', value: guid(1, 1) }], count: true }));
      assert.equal(where.count, rows.filter((r) => r.ProjectId === guid(1, 1)).length);
      assert.deepEqual(where.rows.map((r) => r.TaskId), byKey.filter((r) => r.ProjectId === guid(1, 1)).map((r) => r.TaskId));
    });
  });

  describe('keyset paging through 10k tasks', () => {
    const site = newSite();
    const rows: PdRow[] = Array.from({ length: 10_000 }, (_, i) => ({
      // Keys in a scrambled order, so the key order is not the insert order.
      ProjectId: guid(1, (i * 7) % 5), TaskId: guid(2, (i * 7919) % 10_000), TaskIndex: i,
      // Few distinct dates (many ties), a fifth of them null, some before 1970.
      TaskFinishDate: i % 5 === 0 ? null : ms('1969-12-01T00:00:00Z') + ((i * 13) % 40) * DAY,
      TaskName: i % 4 === 0 ? null : `Task ${(i * 31) % 97}`,
    }));
    before(async () => {
      for (let i = 0; i < rows.length; i += 2500) await store.projectData.upsertRows(site, TASKS, rows.slice(i, i + 2500));
    });

    /** The order the store must produce: nulls first ascending and last descending, text without case. */
    function sorted(keys: PdSortKey[], input: PdRow[]): PdRow[] {
      const cmp = (a: PdValue, b: PdValue, descending: boolean): number => {
        if (a === b) return 0;
        if (a === null) return descending ? 1 : -1;
        if (b === null) return descending ? -1 : 1;
        const [x, y] = typeof a === 'string' ? [a.toLowerCase(), (b as string).toLowerCase()] : [a, b];
        const c = x < y ? -1 : x > y ? 1 : 0;
        return descending ? -c : c;
      };
      return [...input].sort((a, b) => {
        for (const k of keys) {
          const c = cmp(a[k.property]!, b[k.property]!, k.descending);
          if (c) return c;
        }
        return 0;
      });
    }

    async function walk(orderBy: PdSortKey[], extra: Partial<PdQuery> = {}): Promise<PdRow[]> {
      const seen: PdRow[] = [];
      let afterValues: PdValue[] | undefined;
      for (let pages = 0; pages < 100; pages++) {
        const result = await store.projectData.query(site, page(TASKS, { orderBy, top: 300, after: afterValues, select: ['TaskIndex', 'TaskFinishDate', 'TaskName'], ...extra }));
        seen.push(...result.rows);
        if (!result.hasMore) return seen;
        assert.equal(result.rows.length, 300);
        const last = result.rows.at(-1)!;
        afterValues = orderBy.map((k) => last[k.property]!);
      }
      throw new Error('paging did not end');
    }

    const keys: PdSortKey[] = [{ property: 'ProjectId', descending: false }, { property: 'TaskId', descending: false }];
    const orders: Array<[string, PdSortKey[]]> = [
      ['by key', keys],
      ['by key, descending', keys.map((k) => ({ ...k, descending: true }))],
      ['by a nullable date with ties, ascending', [{ property: 'TaskFinishDate', descending: false }, ...keys]],
      ['by a nullable date with ties, descending', [{ property: 'TaskFinishDate', descending: true }, ...keys]],
      ['by nullable text, descending, then date', [{ property: 'TaskName', descending: true }, { property: 'TaskFinishDate', descending: false }, ...keys]],
    ];
    for (const [name, orderBy] of orders) {
      test(name, async () => {
        const seen = await walk(orderBy);
        assert.equal(new Set(seen.map((r) => `${r.ProjectId}/${r.TaskId}`)).size, rows.length, 'every row exactly once');
        assert.deepEqual(seen.map((r) => r.TaskIndex), sorted(orderBy, rows).map((r) => r.TaskIndex));
      });
    }

    test('with a filter, a where and $skip', async () => {
      const orderBy: PdSortKey[] = [{ property: 'TaskFinishDate', descending: false }, ...keys];
      const filter = "TaskName ne 'Task 5' and year(TaskFinishDate) ne 1970";
      const where = [{ property: 'ProjectId', value: guid(1, 3) }];
      const expected = sorted(orderBy, rows.filter((r) => r.ProjectId === guid(1, 3) && r.TaskName !== 'Task 5'
        && (r.TaskFinishDate === null || new Date(r.TaskFinishDate as number).getUTCFullYear() !== 1970)));
      const seen = await walk(orderBy, { filter: parseFilter(filter), filterText: filter, where });
      assert.deepEqual(seen.map((r) => r.TaskIndex), expected.map((r) => r.TaskIndex));
      const skipped = await store.projectData.query(site, page(TASKS, { orderBy, filter: parseFilter(filter), where, top: 10, skip: 5, count: true }));
      assert.deepEqual(skipped.rows.map((r) => r.TaskIndex), expected.slice(5, 15).map((r) => r.TaskIndex));
      assert.equal(skipped.count, expected.length);
    });

    test('an entity addressed by its whole key: one row, and nothing after it', async () => {
      const target = rows[1234]!;
      const where = [{ property: 'ProjectId', value: target.ProjectId! }, { property: 'TaskId', value: target.TaskId! }];
      const first = await store.projectData.query(site, page(TASKS, { where, select: ['TaskIndex'] }));
      assert.deepEqual(first.rows.map((r) => r.TaskIndex), [1234]);
      const next = await store.projectData.query(site, page(TASKS, { where, after: [target.ProjectId!, target.TaskId!] }));
      assert.deepEqual(next, { rows: [], hasMore: false, count: undefined });
    });
  });

  test('a set without a table yet is an empty page', async () => {
    const result = await store.projectData.query(newSite(), page(TASKS, { count: true }));
    assert.deepEqual(result, { rows: [], hasMore: false, count: 0 });
  });

  test('options and schema round-trip; custom properties keep their order and are added once', async () => {
    const site = newSite();
    assert.equal(await store.projectData.options(site), undefined);
    const options: PdSiteOptions = { dates: 'onprem', pageSizes: { Tasks: 50 }, readers: ['Report Readers'] };
    await store.projectData.setOptions(site, options);
    assert.deepEqual(await store.projectData.options(site), options);
    await store.projectData.setOptions(site, { ...options, dates: 'online' });
    assert.equal((await store.projectData.options(site))!.dates, 'online');

    assert.deepEqual(await store.projectData.schema(site), ENTITY_SETS);
    await store.projectData.addCustomProperties(site, 'Tasks', [
      { name: 'Zeta', type: 'Edm.String', nullable: true }, { name: 'Alpha', type: 'Edm.Decimal', nullable: true },
      { name: 'TaskName', type: 'Edm.Int32', nullable: true }, // a built-in name: left alone
    ]);
    await store.projectData.addCustomProperties(site, 'Tasks', [
      { name: 'Alpha', type: 'Edm.Decimal', nullable: true }, { name: 'Mid', type: 'Edm.Boolean', nullable: true },
    ]);
    const schema = await store.projectData.schema(site);
    assert.deepEqual(schema.map((s) => s.name), ENTITY_SETS.map((s) => s.name));
    const tasks = schema.find((s) => s.name === 'Tasks')!;
    assert.deepEqual(tasks.properties.slice(0, TASKS.properties.length), TASKS.properties);
    assert.deepEqual(tasks.properties.slice(TASKS.properties.length), [
      { name: 'Zeta', type: 'Edm.String', nullable: true, custom: true },
      { name: 'Alpha', type: 'Edm.Decimal', nullable: true, custom: true },
      { name: 'Mid', type: 'Edm.Boolean', nullable: true, custom: true },
    ]);
    // Another site sees none of it.
    assert.deepEqual(await store.projectData.schema(newSite()), ENTITY_SETS);
    await assert.rejects(store.projectData.addCustomProperties(site, 'NoSuchSet', []), PdValueError);
  });

  test('import marks', async () => {
    const site = newSite();
    await store.projectData.addImportMark(site, 'Tasks/page-1.json');
    await store.projectData.addImportMark(site, 'Tasks/page-1.json');
    await store.projectData.addImportMark(site, 'Tasks/page-2.json');
    assert.deepEqual([...await store.projectData.importMarks(site)].sort(), ['Tasks/page-1.json', 'Tasks/page-2.json']);
    assert.deepEqual(await store.projectData.importMarks(newSite()), new Set());
  });

  describe('atomicity', () => {
    const site = newSite();
    const original: PdRow[] = Array.from({ length: 10 }, (_, i) => ({ ProjectId: guid(1, 1), TaskId: guid(2, i), TaskName: `Original ${i}` }));
    before(() => store.projectData.upsertRows(site, TASKS, original));
    const unchanged = async () => assert.deepEqual(await all(site, TASKS, { select: ['TaskName'] }), original);

    test('a row without a key, a mistyped value or an unknown property writes nothing', async () => {
      const changed = original.map((r) => ({ ...r, TaskName: 'Changed' }));
      await assert.rejects(store.projectData.upsertRows(site, TASKS, [...changed, { ProjectId: guid(1, 1), TaskName: 'no TaskId' }]),
        (e: unknown) => e instanceof PdValueError && /row 11: key property TaskId is missing/.test(e.message));
      await assert.rejects(store.projectData.upsertRows(site, TASKS, [...changed, { ProjectId: guid(1, 1), TaskId: guid(2, 99), TaskCost: '5' }]),
        /TaskCost: expected Edm.Decimal/);
      await assert.rejects(store.projectData.upsertRows(site, TASKS, [...changed, { ProjectId: guid(1, 1), TaskId: 'nope' }]), /expected Edm.Guid/);
      await assert.rejects(store.projectData.upsertRows(site, TASKS, [...changed, { ProjectId: guid(1, 1), TaskId: guid(2, 99), Nope: 1 }]),
        /no property 'Nope'/);
      await unchanged();
    });

    test('a database failure in a later statement of a large batch rolls back the earlier ones', async () => {
      // 5000 rows take several INSERT statements on either engine; a trigger fails the last row.
      const { db, flavour } = connection;
      const table = (await sql<{ id: number }>`select id from pd_tables where site_id = ${site} and set_name = 'Tasks'`.execute(db)).rows[0]!.id;
      const column = (await sql<{ c: string }>`select column_name as c from pd_columns where table_id = ${table} and property = 'TaskName'`.execute(db)).rows[0]!.c;
      const name = `pd_${table}`;
      if (flavour === 'sqlite') {
        await sql`create trigger boom before insert on ${sql.table(name)} when new.${sql.ref(column)} = 'boom' begin select raise(abort, 'boom'); end`.execute(db);
      } else {
        await sql`create function boom() returns trigger language plpgsql as $$ begin if new.${sql.ref(column)} = 'boom' then raise exception 'boom'; end if; return new; end $$`.execute(db);
        await sql`create trigger boom before insert on ${sql.table(name)} for each row execute function boom()`.execute(db);
      }
      const batch = Array.from({ length: 5000 }, (_, i): PdRow => ({ ProjectId: guid(1, 2), TaskId: guid(2, i), TaskName: i === 4999 ? 'boom' : 'new' }));
      await assert.rejects(store.projectData.upsertRows(site, TASKS, [...original.map((r) => ({ ...r, TaskName: 'Changed' })), ...batch]), /boom/);
      await unchanged();
    });
  });
});
