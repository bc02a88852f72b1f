// Importing ProjectData (src/projectdata/import.ts) and reading it back over HTTP: pages
// exported from one spemu (light and verbose, `/Date()/` dates) imported into another give
// the same bytes; a big project (100k tasks in `npm run test:soak`) pages to its end; a stopped import resumes. Both backends.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { openPostgres, openSqlite } from '../../src/store/sql/connect.ts';
import { migrateToLatest } from '../../src/store/sql/migrate.ts';
import { SqlStore } from '../../src/store/sql/sql-store.ts';
import { importProjectData, ImportError, type ImportProgress } from '../../src/services/projectdata-import.ts';
import { startTestServer, testDatabase, type TestServer } from '../helpers/server.ts';
import { testBackend } from '../helpers/postgres.ts';

const OWNER = 'olivia@fabrikam.onmicrosoft.com';
const P1 = '11111111-1111-4111-8111-111111111111';
/**
 * Tasks in the big-project test: enough for several import batches and a few hundred pages, so
 * `npm test` stays quick; `npm run test:soak` runs it with 100,000 (SPEMU_SOAK_TASKS).
 */
const BIG = Number(process.env.SPEMU_SOAK_TASKS ?? 20_000);
const taskId = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

function tenant(section: Record<string, unknown>) {
  return {
    tenant: { name: 'fabrikam' },
    users: [{ upn: OWNER, displayName: 'Olivia Owner', password: 'pw-olivia' }],
    sites: [{ url: '/sites/pwa', title: 'PWA', owners: [OWNER] }],
    projectData: { '/sites/pwa': section },
  };
}

const SOURCE = {
  dates: 'online',
  Projects: [
    { ProjectId: P1, ProjectName: 'Apollo', ProjectStartDate: '2016-06-01T08:00:00Z', ProjectFinishDate: '2016-06-30T17:00:00Z', ProjectCost: 1200.5, Sponsor: 'NASA' },
  ],
  Tasks: Array.from({ length: 700 }, (_, i) => ({
    ProjectId: P1, TaskId: taskId(i + 1), TaskName: `Task ${i + 1}`, TaskIndex: i + 1,
    TaskFinishDate: i % 7 === 0 ? null : new Date(Date.UTC(2016, 5, 1) + i * 3_600_000).toISOString(),
    TaskBaselineFinishDate: new Date(Date.UTC(1965, 0, 1) + i * 86_400_000).toISOString(), TaskCost: i * 1.25, TaskIsMilestone: i % 2 === 0,
  })),
};

/** A database the server and the importer share: a SQLite file, or a fresh PostgreSQL database. */
async function sharedDatabase(dir: string) {
  if (testBackend() === 'postgres') return testDatabase();
  return { db: join(dir, 'spemu.db'), drop: async () => {} };
}

async function openStore(db: string) {
  const opened = testBackend() === 'postgres' ? await openPostgres({ url: db }) : openSqlite({ file: db });
  await migrateToLatest(opened.db, opened.flavour);
  return new SqlStore(opened.db, opened.flavour, { onSchemaChange: 'clearStatementCache' in opened ? opened.clearStatementCache : () => {} });
}

async function getText(url: string, accept: string): Promise<string> {
  const res = await fetch(url, { headers: { Accept: accept } });
  assert.equal(res.status, 200, url);
  return res.text();
}

/** Follows next links from `url`, saving each page as `<prefix>-<n>.json`; returns the page count. */
async function exportPages(url: string, accept: string, dir: string, prefix: string): Promise<number> {
  let next: string | undefined = url;
  let n = 0;
  while (next) {
    const text = await getText(next, accept);
    writeFileSync(join(dir, `${prefix}-${++n}.json`), text);
    const json = JSON.parse(text);
    next = json['odata.nextLink'] ?? json.d?.__next;
  }
  return n;
}

describe('ProjectData import', () => {
  let dir: string;
  let source: TestServer;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'spemu-pd-import-'));
    source = await startTestServer({ seed: tenant(SOURCE) });
  });
  after(async () => {
    await source?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('round trip: pages exported as JSON light and verbose import back to the same bytes', async () => {
    const pages = join(dir, 'pages');
    const from = `${source.site('/sites/pwa')}/_api/ProjectData`;
    // Tasks as JSON light ($format=json), Projects as verbose: both shapes a real export has.
    mkdirSync(pages);
    const taskPages = await exportPages(`${from}/Tasks?$format=json`, 'application/json', pages, 'Tasks');
    assert.equal(taskPages, 3); // 700 tasks at Project Online's 300 per page
    await exportPages(`${from}/Projects`, 'application/json;odata=verbose', pages, 'Projects');

    const database = await sharedDatabase(dir);
    const seed = tenant({ dates: 'online' });
    // First start loads the empty PWA; then the import runs against the same database.
    await (await startTestServer({ db: database.db, seed })).close();
    const store = await openStore(database.db);
    const progress: ImportProgress[] = [];
    try {
      const summary = await importProjectData(store, '/sites/pwa', pages, { onProgress: (p) => progress.push(p) });
      assert.deepEqual(summary.bySet, { Projects: 1, Tasks: 700 });
      assert.equal(summary.files, 4);
      assert.ok(progress.some((p) => p.done), 'progress is reported');
    } finally {
      await store.close();
    }
    const target = await startTestServer({ db: database.db, seed });
    try {
      const to = `${target.site('/sites/pwa')}/_api/ProjectData`;
      for (const [path, accept] of [
        ["Tasks?$orderby=TaskFinishDate desc&$top=250", 'application/json'],
        ['Tasks', 'application/json;odata=verbose'],
        [`Projects(guid'${P1}')`, 'application/json;odata=verbose'],
        ["Tasks?$filter=TaskBaselineFinishDate lt datetime'1965-02-01T00:00:00'&$select=TaskName,TaskBaselineFinishDate", 'application/json'],
        ['$metadata', 'application/xml'],
      ] as const) {
        const a = (await getText(`${from}/${path}`, accept)).replaceAll(source.url, '<origin>');
        const b = (await getText(`${to}/${path}`, accept)).replaceAll(target.url, '<origin>');
        assert.equal(b, a, path);
      }
    } finally {
      await target.close();
      await database.drop();
    }
  });

  it(`a ${BIG.toLocaleString('en-US')}-task project: streamed in over several batches, then paged to its end with every task exactly once`, async () => {
    const file = join(dir, 'Tasks.json');
    const out = createWriteStream(file);
    out.write('{"odata.metadata":"https://contoso.sharepoint.com/sites/pwa/_api/ProjectData/$metadata#Tasks","value":[');
    for (let i = 1; i <= BIG; i++) {
      const row = `${i > 1 ? ',' : ''}{"ProjectId":"${P1}","TaskId":"${taskId(i)}","TaskName":"T${i}","TaskIndex":${i},"TaskFinishDate":"\\/Date(${1467244800000 + i * 60000})\\/","TaskWork":"8.000000"}`;
      if (!out.write(row)) await once(out, 'drain');
    }
    out.end(']}');
    await once(out, 'finish');

    const database = await sharedDatabase(mkdtempSync(join(dir, 'big-')));
    const seed = tenant({ dates: 'onprem', Projects: SOURCE.Projects });
    await (await startTestServer({ db: database.db, seed })).close();
    const store = await openStore(database.db);
    try {
      const summary = await importProjectData(store, '/sites/pwa', file, { batchSize: 5000 });
      assert.equal(summary.rows, BIG);
      // A second run finds the file done and writes nothing.
      const again = await importProjectData(store, '/sites/pwa', file);
      assert.deepEqual([again.skipped, again.rows], [1, 0]);
    } finally {
      await store.close();
    }
    const server = await startTestServer({ db: database.db, seed });
    try {
      const seen = new Set<string>();
      let next: string | undefined = `${server.site('/sites/pwa')}/_api/ProjectData/Projects(guid'${P1}')/Tasks?$select=TaskId,TaskFinishDate`;
      let pages = 0;
      let previous = '';
      while (next) {
        const json = JSON.parse(await getText(next, 'application/json'));
        for (const row of json.value) {
          assert.ok(!seen.has(row.TaskId), row.TaskId);
          assert.ok(row.TaskId > previous, 'key order');
          previous = row.TaskId;
          seen.add(row.TaskId);
        }
        next = json['odata.nextLink'];
        pages++;
      }
      assert.equal(seen.size, BIG);
      assert.equal(pages, Math.ceil(BIG / 100)); // on-premises Tasks pages hold 100
      const last = JSON.parse(await getText(`${server.site('/sites/pwa')}/_api/ProjectData/Tasks(ProjectId=guid'${P1}',TaskId=guid'${taskId(BIG)}')?$select=TaskFinishDate`, 'application/json'));
      assert.equal(last.TaskFinishDate, new Date(1467244800000 + BIG * 60000).toISOString().slice(0, 19));
    } finally {
      await server.close();
      await database.drop();
    }
  });

  it('refuses what it cannot place, naming the file and the row, and writes none of that batch', async () => {
    const database = await sharedDatabase(mkdtempSync(join(dir, 'bad-')));
    const seed = tenant({ dates: 'online' });
    await (await startTestServer({ db: database.db, seed })).close();
    const store = await openStore(database.db);
    try {
      const unnamed = join(dir, 'export.json');
      writeFileSync(unnamed, JSON.stringify([{ ProjectId: P1, ProjectName: 'x' }]));
      await assert.rejects(importProjectData(store, '/sites/pwa', unnamed), (e: unknown) => e instanceof ImportError && /--set/.test(e.message));
      const bad = join(dir, 'Projects-bad.json');
      writeFileSync(bad, JSON.stringify({ value: [{ ProjectId: P1, ProjectName: 'ok' }, { ProjectId: P1, ProjectStartDate: 'soon' }] }));
      await assert.rejects(importProjectData(store, '/sites/pwa', bad), (e: unknown) => e instanceof ImportError && /ProjectStartDate/.test(e.message));
      const page = await store.projectData.query((await store.sites.byUrl('/sites/pwa'))!.id, {
        set: (await store.projectData.schema((await store.sites.byUrl('/sites/pwa'))!.id)).find((s) => s.name === 'Projects')!,
        where: [], orderBy: [{ property: 'ProjectId', descending: false }], top: 10, skip: 0,
      });
      assert.equal(page.rows.length, 0);
      await assert.rejects(importProjectData(store, '/sites/nope', bad), /No site exists/);
    } finally {
      await store.close();
      await database.drop();
    }
  });
});

describe('ProjectData import: odd files', () => {
  let dir: string;
  let database: { db: string; drop(): Promise<void> };
  let store: SqlStore;
  let siteId: string;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'spemu-pd-odd-'));
    database = await sharedDatabase(dir);
    await (await startTestServer({ db: database.db, seed: tenant({ dates: 'online' }) })).close();
    store = await openStore(database.db);
    siteId = (await store.sites.byUrl('/sites/pwa'))!.id;
  });
  after(async () => {
    await store?.close();
    await database?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const project = (n: number) => `11111111-1111-4111-8111-${String(n).padStart(12, '0')}`;
  const write = (name: string, content: string | Buffer) => { const file = join(dir, name); writeFileSync(file, content); return file; };
  const names = async () => {
    const set = (await store.projectData.schema(siteId)).find((s) => s.name === 'Projects')!;
    const page = await store.projectData.query(siteId, { set, where: [], orderBy: [{ property: 'ProjectId', descending: false }], top: 100, skip: 0 });
    return page.rows.map((r) => r.ProjectName);
  };
  const refused = (file: string, message: RegExp) =>
    assert.rejects(importProjectData(store, '/sites/pwa', file), (e: unknown) => e instanceof ImportError && message.test(e.message));

  it('reads OData v1 verbose ({"d":[…]}), .json.gz, and rows with nested arrays and expanded links', async () => {
    await importProjectData(store, '/sites/pwa', write('Projects-v1.json', JSON.stringify({ d: [{ __metadata: { type: 'ReportingData.Project' }, ProjectId: project(1), ProjectName: 'v1' }] })));
    await importProjectData(store, '/sites/pwa', write('Projects-gz.json.gz', gzipSync(JSON.stringify({ value: [{ ProjectId: project(2), ProjectName: 'gz' }] }))));
    await importProjectData(store, '/sites/pwa', write('Projects-nested.json', JSON.stringify({
      value: [{ ProjectId: project(3), ProjectName: 'nested', Tags: ['a', ['b']], Tasks: { results: [{ TaskId: project(9) }] } }],
    })));
    assert.deepEqual(await names(), ['v1', 'gz', 'nested']);
  });

  it('refuses, naming the file, what is empty, corrupt or not rows, and never crashes the process', async () => {
    await refused(write('Projects-empty.json', ''), /Projects-empty\.json is empty/);
    await refused(write('Projects-bad.json.gz', 'not gzip at all'), /Projects-bad\.json\.gz: not valid JSON \(incorrect header check\)/);
    await refused(write('Projects-cut.json', `{"value":[{"ProjectId":"${project(4)}"},{"Proj`), /Projects-cut\.json: not valid JSON/);
    await refused(write('Projects-entity.json', JSON.stringify({ 'odata.metadata': 'x/$metadata#Projects/@Element', ProjectId: project(4) })), /no rows found/);
    await refused(write('Projects-prims.json', JSON.stringify([{ ProjectId: project(4) }, 5])), /row 2 is not an object/);
    await refused(write('Projects-nulls.json', JSON.stringify({ value: [null] })), /row 1 is not an object/);
    await refused(write('Projects-arrays.json', JSON.stringify([[{ ProjectId: project(4) }]])), /row 1 is not an object/);
    await refused(write('Projects-far.json', JSON.stringify([{ ProjectId: project(4), ProjectStartDate: '/Date(8000000000000000)/' }])), /between 0001-01-01 and 9999-12-31/);
    await refused(write('Projects-name.json', JSON.stringify([{ ProjectId: project(4), 'Cost (USD)': 5 }])), /'Cost \(USD\)' cannot be a custom field name/);
    assert.deepEqual(await names(), ['v1', 'gz', 'nested'], 'nothing of those was written');
  });

  it('resumes after a failure midway, and takes a file exported again under the same name and size as new', async () => {
    const rows = Array.from({ length: 10 }, (_, i) => ({ ProjectId: project(100 + i), ProjectName: `r${i}` }));
    const file = write('Projects-resume.json', JSON.stringify({ value: rows }));
    // The database goes away on the third batch: two batches (four rows) are committed, with their mark.
    let calls = 0;
    const flaky = new Proxy(store, {
      get(target, key) {
        const value = Reflect.get(target, key, target);
        if (key !== 'transaction') return typeof value === 'function' ? value.bind(target) : value;
        return (fn: never) => (++calls === 3 ? Promise.reject(new Error('connection lost')) : value.call(target, fn));
      },
    });
    await assert.rejects(importProjectData(flaky, '/sites/pwa', file, { batchSize: 2 }), (e: unknown) => !(e instanceof ImportError) && /connection lost/.test((e as Error).message));
    const resumed = await importProjectData(store, '/sites/pwa', file, { batchSize: 2 });
    assert.deepEqual([resumed.files, resumed.rows], [1, 6], 'the rows after the last mark');
    assert.equal((await names()).filter((n) => /^r\d$/.test(String(n))).length, 10);
    // Same name, same size, new contents and time: imported again, not skipped as done.
    writeFileSync(file, JSON.stringify({ value: rows.map((r) => ({ ...r, ProjectName: r.ProjectName.replace('r', 's') })) }));
    utimesSync(file, new Date(), new Date(Date.now() + 60_000));
    const again = await importProjectData(store, '/sites/pwa', file);
    assert.deepEqual([again.skipped, again.rows], [0, 10]);
    assert.equal((await names()).filter((n) => /^s\d$/.test(String(n))).length, 10);
  });
});
