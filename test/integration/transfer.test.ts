// export / import of a whole workspace. The source is always a SQLite file workspace (the
// demo tenant with its photos and library files, plus a list and files written through the
// API); the target is the leg's backend: PostgreSQL on the PostgreSQL leg (SQLite →
// PostgreSQL → SQLite), another SQLite file on the SQLite leg. Servers on source and target
// must answer the same reads, files' bytes included, with the same bytes, apart from their
// own address.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { startServer } from '../../src/index.ts';
import { openPostgres, openSqlite, type Connection } from '../../src/store/sql/connect.ts';
import { exportDatabase } from '../../src/store/transfer/export.ts';
import { BYTES_PER_LINE } from '../../src/store/transfer/blobs.ts';
import { DiskBytes } from '../../src/store/blob-disk.ts';
import { ImportError, importDatabase } from '../../src/store/transfer/import.ts';
import { Progress } from '../../src/store/transfer/progress.ts';
import { DEMO_TENANT } from '../helpers/server.ts';
import { sharedCluster, testBackend } from '../helpers/postgres.ts';

const SECRET = randomBytes(32).toString('base64url');
const OWNER = 'alice@contoso.onmicrosoft.com';
const NOMETA = 'application/json;odata=nometadata';
const VERBOSE = 'application/json;odata=verbose';
const backend = testBackend();
const quiet = () => new Progress('x', process.stderr, true);

const dirs: string[] = [];
const tempDir = () => { const d = mkdtempSync(join(tmpdir(), 'spemu-transfer-')); dirs.push(d); return d; };
const drops: Array<() => Promise<void>> = [];
after(async () => {
  for (const drop of drops) await drop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A fresh, empty database of the leg's backend. */
async function newTarget(kind: 'sqlite' | 'postgres' = backend): Promise<string> {
  if (kind === 'sqlite') return join(tempDir(), 'spemu.db');
  const cluster = await sharedCluster();
  const url = await cluster.createDatabase('spemu_transfer');
  drops.push(() => cluster.dropDatabase(url));
  return url;
}

async function connect(db: string): Promise<Connection & { clearStatementCache?: () => void }> {
  return db.startsWith('postgres') ? openPostgres({ url: db, statementTimeoutMs: 0 }) : openSqlite({ file: db });
}

async function withConnection<T>(db: string, fn: (c: Connection & { clearStatementCache?: () => void }) => Promise<T>): Promise<T> {
  const c = await connect(db);
  try { return await fn(c); } finally { await c.db.destroy(); }
}

/** Where a database's files' bytes are, as the server keeps them: `<file>-blobs` beside a SQLite file (not its --data's spemu.db); PostgreSQL's own chunks, the default. */
const bytesOf = (db: string) => (db.startsWith('postgres') ? {} : { bytes: new DiskBytes(`${db}-blobs`) });
const exportFrom = (db: string, file: string, extra: object = {}) =>
  withConnection(db, (c) => exportDatabase(c, file, { progress: quiet(), ...bytesOf(db), ...extra }));
const importInto = (db: string, file: string, extra: object = {}) =>
  withConnection(db, (c) => importDatabase(c, file, { progress: quiet(), clearStatementCache: c.clearStatementCache, ...bytesOf(db), ...extra }));

const start = (db: string, extra: object = {}) => startServer({
  db, data: tempDir(), port: 0, logLevel: 'silent', tokenSecret: SECRET, anonymousUser: OWNER, seed: DEMO_TENANT, ...extra,
});

async function call(url: string, init: { method?: string; accept?: string; body?: unknown; headers?: Record<string, string> } = {}) {
  const r = await fetch(url, {
    method: init.method ?? 'GET',
    headers: { Accept: init.accept ?? NOMETA, 'Content-Type': init.accept ?? NOMETA, ...init.headers },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  return { status: r.status, text: await r.text() };
}

/** More than two lines of bytes in the export; every byte value. */
const BIG = randomBytes(BYTES_PER_LINE * 2 + 4321);
const LIB = '/sites/dev/Shared Documents';
const OPEN_UPLOAD = '0b7a3c9e-5f1d-4e2a-9c6b-8d4e2f1a3b5c';
/** Files whose bytes the servers must answer alike: the demo tenant's, and those populate() adds. */
const FILES = ['Reports/quarterly-report.pdf', 'meeting-notes.txt', 'Templates/project-plan.docx', 'Images/contoso-logo.png', 'big.bin', 'shared.txt', 'same.txt', 'a.txt'];

const fileUrl = (base: string, path: string) => `${base}/sites/dev/_api/web/GetFileByServerRelativePath(decodedurl='${encodeURIComponent(`${LIB}/${path}`)}')`;

async function upload(base: string, path: string, body: Uint8Array | string): Promise<void> {
  const dir = path.includes('/') ? `/${path.slice(0, path.lastIndexOf('/'))}` : '';
  const name = path.slice(path.lastIndexOf('/') + 1);
  const r = await fetch(`${base}/sites/dev/_api/web/GetFolderByServerRelativePath(decodedurl='${encodeURIComponent(`${LIB}${dir}`)}')/files/AddUsingPath(decodedurl='${name}',overwrite=true)`,
    { method: 'POST', body, headers: { Accept: NOMETA } });
  assert.equal(r.status, 200, await r.text());
}

async function bytesAt(url: string): Promise<Buffer> {
  const r = await fetch(url);
  assert.equal(r.status, 200, url);
  return Buffer.from(await r.arrayBuffer());
}

/**
 * Writes through the API what the demo tenant lacks: an indexed field, odd text, a deleted and
 * a recycled item; files: a large one, one whose content another file has (one blob, two
 * references), one with a past version.
 */
async function populate(base: string): Promise<void> {
  await upload(base, 'big.bin', BIG);
  await upload(base, 'shared.txt', 'one content, two files');
  await upload(base, 'same.txt', 'one content, two files');
  await upload(base, 'a.txt', 'first');
  await upload(base, 'a.txt', 'second');
  // A chunked upload left open: its bytes are the source's own, so the import ends it.
  const started = await fetch(`${fileUrl(base, 'a.txt')}/StartUpload(uploadId=guid'${OPEN_UPLOAD}')`, { method: 'POST', body: 'half of a new content', headers: { Accept: NOMETA } });
  assert.equal(started.status, 200, await started.text());
  const api = `${base}/sites/dev/_api/web`;
  assert.equal((await call(`${api}/lists`, { method: 'POST', body: { Title: 'Transfer', BaseTemplate: 100 } })).status, 201);
  const list = `${api}/lists/getbytitle('Transfer')`;
  for (const [Title, FieldTypeKind] of [['Code', 2], ['Amount', 9], ['Due', 4]] as const) {
    const r = await call(`${list}/fields`, { method: 'POST', accept: VERBOSE, body: { __metadata: { type: 'SP.Field' }, Title, FieldTypeKind, Indexed: Title !== 'Amount' } });
    assert.equal(r.status, 201, r.text);
  }
  const titles = ['Zoë', 'apple', 'Ärger', 'nul\u0000inside', "O'Brien", '  spaced  ', '😀 emoji', 'banana'];
  for (const [n, Title] of titles.entries()) {
    const r = await call(`${list}/items`, { method: 'POST', body: { Title, Code: `c${n % 3}`, Amount: n * 1.25 - 2, Due: `2024-0${(n % 9) + 1}-15T10:00:00Z` } });
    assert.equal(r.status, 201, r.text);
  }
  assert.equal((await call(`${list}/items(3)`, { method: 'POST', headers: { 'X-HTTP-Method': 'DELETE', 'If-Match': '*' } })).status, 200);
  assert.equal((await call(`${list}/items(4)/recycle`, { method: 'POST' })).status, 200);
  assert.equal((await call(`${list}/items(5)`, { method: 'POST', headers: { 'X-HTTP-Method': 'MERGE', 'If-Match': '*' }, body: { Title: 'changed' } })).status, 204);
}

const READS: Array<[string, string]> = [
  ["/sites/dev/_api/web/lists/getbytitle('Tasks')/items(1)?$select=Title,Author/ID,Author/Title,Author/LastName,Editor/ID,Editor/Title,Editor/LastName&$expand=Author,Editor", VERBOSE],
  ["/sites/dev/_api/web/lists/getbytitle('Tasks')/items?$top=2", 'application/json;odata=minimalmetadata'],
  ["/sites/dev/_api/web/lists/getbytitle('Transfer')/items?$orderby=Title&$top=3", VERBOSE],
  ["/sites/dev/_api/web/lists/getbytitle('Transfer')/items?$filter=Code eq 'C1'&$orderby=Amount desc", NOMETA],
  ["/sites/dev/_api/web/lists/getbytitle('Transfer')/items?$filter=Due ge datetime'2024-04-01T00:00:00Z'&$orderby=Due", NOMETA],
  ["/sites/dev/_api/web/lists/getbytitle('Transfer')/fields?$filter=Hidden eq false&$select=InternalName,TypeAsString,Indexed,Id", NOMETA],
  ['/sites/dev/_api/web/lists?$select=Title,Id,ItemCount,Created,LastItemModifiedDate,LastItemDeletedDate', NOMETA],
  ['/sites/dev/_api/web/siteusers', VERBOSE],
  ['/sites/dev/_api/SP.UserProfiles.PeopleManager/GetMyProperties', NOMETA],
  [`/sites/dev/_api/web/GetFolderByServerRelativePath(decodedurl='${LIB}')/Files?$select=Name,Length,UniqueId,TimeLastModified,UIVersionLabel`, NOMETA],
  [`/sites/dev/_api/web/GetFileByServerRelativePath(decodedurl='${LIB}/a.txt')/versions`, NOMETA],
];

/**
 * Each read's body, with what must differ taken out: the server's own address, and the
 * entity ids (`__metadata.id`, `odata.id`), a new GUID in every response.
 */
async function readAll(base: string): Promise<string[]> {
  const out: string[] = [];
  for (const [path, accept] of READS) {
    const r = await call(`${base}${path}`, { accept });
    assert.equal(r.status, 200, `${path}: ${r.text}`);
    out.push(r.text.replaceAll(base, 'http://SERVER').replace(/("__metadata":\{"id"|"odata\.id"):"[0-9a-f-]{36}"/g, '$1:"…"'));
  }
  const photo = await fetch(`${base}/_layouts/15/userphoto.aspx?size=M&accountname=alice%40contoso.com`);
  assert.equal(photo.status, 200);
  out.push(Buffer.from(await photo.arrayBuffer()).toString('base64'));
  // Files' bytes (their SHA-256 and length, to keep messages short), and a past version's.
  const digest = (b: Buffer) => `${b.length} ${createHash('sha256').update(b).digest('hex')}`;
  for (const path of FILES) out.push(`${path}: ${digest(await bytesAt(`${fileUrl(base, path)}/$value`))}`);
  out.push(`a.txt 1.0: ${(await bytesAt(`${fileUrl(base, 'a.txt')}/versions(512)/$value`)).toString()}`);
  return out;
}

/** The item tables' columns (type, collation) and indexes as the database uses them (keys, each key's collation, direction and nulls placement). */
async function itemSchema(db: string): Promise<string[]> {
  return withConnection(db, async ({ db: k, flavour }) => {
    const columns = flavour === 'postgres'
      ? await sql<{ d: string }>`select concat_ws(' ', table_name, column_name, data_type, collation_name, is_nullable) as d
          from information_schema.columns where table_schema = current_schema() and table_name like 'items\_%'`.execute(k)
      : await sql<{ d: string }>`select t.name || ' ' || c.name || ' ' || c.type || ' ' || c."notnull" || ' ' || c.pk as d
          from sqlite_master t, pragma_table_info(t.name) c where t.type = 'table' and t.name like 'items\_%' escape '\\'`.execute(k);
    const { rows } = flavour === 'postgres'
      ? await sql<{ d: string }>`select i.relname || ' ' || ix.indisunique || ' ' || (select string_agg(pg_get_indexdef(ix.indexrelid, n, true)
            || ' ' || coalesce((select collname from pg_collation where oid = ix.indcollation[n - 1]), '-'), ', ' order by n)
            from generate_series(1, ix.indnatts) n) || ' ' || ix.indoption::text as d
          from pg_index ix join pg_class i on i.oid = ix.indexrelid join pg_class t on t.oid = ix.indrelid
          join pg_namespace s on s.oid = t.relnamespace where s.nspname = current_schema() and t.relname like 'items\_%'`.execute(k)
      : await sql<{ d: string }>`select sql as d from sqlite_master where type = 'index' and tbl_name like 'items\_%' escape '\\' and sql is not null`.execute(k);
    return [...columns.rows.map((r) => r.d), ...rows.map((r) => r.d.toLowerCase().replace(/["\s]/g, ''))].sort();
  });
}

/**
 * Tables no code of this file names: a ProjectData-style set table registered in pd_tables
 * (made at run time, text key, an index), and a table spemu did not make at all (a blob,
 * a unique and a partial index). Both must travel as they are.
 */
async function addForeignTables(c: Connection): Promise<void> {
  const run = (text: string) => sql.raw(text).execute(c.db);
  await run("insert into pd_tables (site_id, set_name, id) values ('site', 'Projects', 900)");
  await run('create table pd_900 (c1_projectid text not null, c2_name text, c3_start integer, primary key (c1_projectid))');
  await run('create index pd_900_ix1 on pd_900 (c2_name)');
  await run("insert into pd_900 values ('b0000000-0000-4000-8000-000000000000', 'Beta', 2), ('a0000000-0000-4000-8000-000000000000', null, 1)");
  await run('create table notes_extra (id integer primary key, body blob, label text unique, score real)');
  await run('create index notes_extra_scored on notes_extra (score desc) where score is not null');
  await sql`insert into notes_extra values (1, ${Buffer.from([0, 1, 2, 255])}, 'one', 1.5), (2, null, null, null)`.execute(c.db);
}

describe(`export and import (target: ${backend})`, () => {
  let source: string;
  let expected: string[];
  let dump: string;

  before(async () => {
    source = await newTarget('sqlite');
    const server = await start(source);
    try {
      await populate(server.url);
      expected = await readAll(server.url);
    } finally {
      await server.close();
    }
    await withConnection(source, addForeignTables);
    dump = join(tempDir(), 'workspace.ndjson.gz');
    await exportFrom(source, dump, { batchRows: 3 });
  });

  it('writes a gzip file of lines: header, tables with their shape and rows, trailer', () => {
    const lines = gunzipSync(readFileSync(dump)).toString('utf8').trimEnd().split('\n').map((l) => JSON.parse(l));
    assert.equal(lines[0].format, 'spemu-export');
    assert.equal(lines[0].version, 2);
    assert.ok(lines[0].migrations.includes('0001-initial'));
    const tables = lines.filter((l) => l.table);
    const names = tables.map((t) => t.table);
    for (const t of ['settings', 'sites', 'lists', 'fields', 'directory_users', 'user_photos', 'recycle_bin']) assert.ok(names.includes(t), t);
    assert.ok(!names.includes('kysely_migration'), 'the target keeps its own migration records');
    assert.ok(!names.includes('blobs') && !names.includes('blob_chunks'), 'files\' contents travel as blob lines, not rows');
    // Parents before the tables that reference them.
    assert.ok(names.indexOf('sites') < names.indexOf('webs') && names.indexOf('webs') < names.indexOf('lists') && names.indexOf('lists') < names.indexOf('fields'));
    const items = tables.filter((t) => /^items_\d+$/.test(t.table));
    assert.ok(items.length >= 3 && items.every((t) => t.origin === 'runtime'));
    assert.equal(tables.find((t) => t.table === 'pd_900').origin, 'runtime');
    assert.equal(tables.find((t) => t.table === 'notes_extra').origin, 'other');
    const transfer = items.at(-1);
    assert.ok(transfer.indexes.some((ix: any) => ix.keys[0].expr.startsWith('lower(') && ix.keys[0].binary), 'a text index is case-folded and byte-ordered');
    const blobs = lines.filter((l) => l.blob);
    assert.deepEqual(lines.at(-1), { end: 'export', tables: tables.length, rows: lines.filter(Array.isArray).length, blobs: blobs.length });
    const photo = lines.find((l) => Array.isArray(l) && l.some((v: any) => v?.$b));
    assert.ok(photo, 'photos travel as base64');
    // The demo's four files, four more with three contents (same.txt is shared.txt's), a.txt's past one, and
    // the Home.aspx both sites' Site Pages share: nine blobs.
    assert.equal(blobs.length, 9);
    assert.equal(blobs.find((b) => b.blob === createHash('sha256').update(BIG).digest('hex'))?.size, BIG.length);
    assert.equal(blobs.filter((b) => b.refs === 2).length, 2, 'two contents named by two files each: same.txt and shared.txt, the two Home.aspx');
    // Each blob's bytes follow it, a MiB at most a line, and add up to it.
    for (const blob of blobs) {
      const parts: Buffer[] = [];
      for (let i = lines.indexOf(blob) + 1; lines[i]?.bytes !== undefined; i++) parts.push(Buffer.from(lines[i].bytes, 'base64'));
      assert.ok(parts.every((p) => p.length <= BYTES_PER_LINE));
      assert.equal(createHash('sha256').update(Buffer.concat(parts)).digest('hex'), blob.blob);
      if (blob.size === BIG.length) assert.equal(parts.length, 3);
    }
  });

  describe('into an empty database, then served', () => {
    let target: string;
    before(async () => {
      target = await newTarget();
      await importInto(target, dump, { batchRows: 2 });
    });

    it('answers the same reads with the same bytes', async () => {
      const server = await start(target);
      try {
        const got = await readAll(server.url);
        for (const [i, body] of got.entries()) assert.equal(body, expected[i], READS[i]?.[0] ?? 'photo');
      } finally {
        await server.close();
      }
    });

    it('has the columns and indexes spemu itself makes on this backend', async () => {
      const native = await newTarget();
      const server = await start(native);
      try { await populate(server.url); } finally { await server.close(); }
      assert.deepEqual(await itemSchema(target), await itemSchema(native));
    });

    it('carries tables spemu made at run time and tables it did not make, with their indexes', async () => {
      await withConnection(target, async (c) => {
        const { rows: pd } = await sql`select * from pd_900 order by c1_projectid`.execute(c.db);
        assert.deepEqual(pd.map((r: any) => [r.c1_projectid, r.c2_name, Number(r.c3_start)]),
          [['a0000000-0000-4000-8000-000000000000', null, 1], ['b0000000-0000-4000-8000-000000000000', 'Beta', 2]]);
        const { rows: notes } = await sql`select * from notes_extra order by id`.execute(c.db);
        assert.deepEqual(notes.map((r: any) => [Number(r.id), r.body && [...r.body], r.label, r.score]), [[1, [0, 1, 2, 255], 'one', 1.5], [2, null, null, null]]);
        await assert.rejects(sql`insert into notes_extra (id, label) values (3, 'one')`.execute(c.db), /unique/i);
        const indexes = c.flavour === 'postgres'
          ? (await sql<{ d: string }>`select indexdef as d from pg_indexes where tablename in ('pd_900', 'notes_extra') order by indexname`.execute(c.db)).rows.map((r) => r.d)
          : (await sql<{ d: string }>`select sql as d from sqlite_master where type = 'index' and tbl_name in ('pd_900', 'notes_extra') and sql is not null order by name`.execute(c.db)).rows.map((r) => r.d);
        assert.ok(indexes.some((d) => /notes_extra_scored/.test(d) && /score DESC/i.test(d) && /where/i.test(d)), indexes.join('\n'));
        assert.ok(indexes.some((d) => /pd_900_ix1/.test(d)), indexes.join('\n'));
        if (c.flavour === 'postgres') {
          // SQLite orders the text key by code point: so does its PostgreSQL copy.
          const { rows } = await sql<{ c: string }>`select collation_name as c from information_schema.columns where table_name = 'pd_900' and column_name = 'c1_projectid'`.execute(c.db);
          assert.equal(rows[0]!.c, 'C');
        }
      });
    });

    it('continues ids and counters after the imported ones', async () => {
      const server = await start(target);
      try {
        const item = await call(`${server.url}/sites/dev/_api/web/lists/getbytitle('Transfer')/items`, { method: 'POST', body: { Title: 'after import' } });
        assert.equal(item.status, 201, item.text);
        assert.equal(JSON.parse(item.text).Id, 9, 'deleted ids are not reused');
        // A new list and field take row ids past the imported ones (PostgreSQL's identity sequences).
        assert.equal((await call(`${server.url}/sites/dev/_api/web/lists`, { method: 'POST', body: { Title: 'Later', BaseTemplate: 100 } })).status, 201);
        const field = await call(`${server.url}/sites/dev/_api/web/lists/getbytitle('Later')/fields`, { method: 'POST', accept: VERBOSE, body: { __metadata: { type: 'SP.Field' }, Title: 'Extra', FieldTypeKind: 2 } });
        assert.equal(field.status, 201, field.text);
        // Files go on: a new one beside the imported ones, and new content for an imported one, whose old content becomes its past version.
        await upload(server.url, 'after.txt', 'after import');
        assert.equal((await bytesAt(`${fileUrl(server.url, 'after.txt')}/$value`)).toString(), 'after import');
        await upload(server.url, 'big.bin', 'smaller now');
        assert.equal((await bytesAt(`${fileUrl(server.url, 'big.bin')}/$value`)).toString(), 'smaller now');
        assert.ok((await bytesAt(`${fileUrl(server.url, 'big.bin')}/versions(512)/$value`)).equals(BIG));
        // The upload left open in the source did not come along (its bytes could not): it is not found, the file unchanged.
        const goOn = await fetch(`${fileUrl(server.url, 'a.txt')}/ContinueUpload(uploadId=guid'${OPEN_UPLOAD}',fileOffset=21)`, { method: 'POST', body: 'more', headers: { Accept: NOMETA } });
        assert.equal(goOn.status, 404, await goOn.text());
        assert.equal((await bytesAt(`${fileUrl(server.url, 'a.txt')}/$value`)).toString(), 'second');
      } finally {
        await server.close();
      }
    });

    it('goes back to SQLite unchanged', async () => {
      const again = join(tempDir(), 'again.ndjson');
      const back = await newTarget('sqlite');
      // A copy of the served target would have the writes above: export a fresh import instead.
      const pristine = await newTarget();
      await importInto(pristine, dump);
      await exportFrom(pristine, again);
      await importInto(back, again);
      const server = await start(back);
      try {
        const got = await readAll(server.url);
        for (const [i, body] of got.entries()) assert.equal(body, expected[i], READS[i]?.[0] ?? 'photo');
      } finally {
        await server.close();
      }
    });
  });

  describe('what import refuses', () => {
    it('a target that holds a workspace, unless forced', async () => {
      const target = await newTarget();
      const server = await start(target, { seed: { tenant: { name: 'other' }, users: [{ upn: OWNER, displayName: 'A' }], sites: [{ url: '/sites/x', title: 'X', owners: [OWNER] }] } });
      await server.close();
      await withConnection(target, async (c) => {
        await assert.rejects(importDatabase(c, dump, { progress: quiet(), ...bytesOf(target) }), (e: unknown) => e instanceof ImportError && /already holds a spemu workspace.*--force/s.test(e.message));
        await importDatabase(c, dump, { progress: quiet(), force: true, clearStatementCache: c.clearStatementCache, ...bytesOf(target) });
        const { rows } = await sql<{ value: string }>`select value from settings where key = 'tenant.name'`.execute(c.db);
        assert.equal(rows[0]!.value, 'contoso');
      });
    });

    it('another format version, a file cut short, and rows that do not fit', async () => {
      const lines = gunzipSync(readFileSync(dump)).toString('utf8').trimEnd().split('\n');
      const dir = tempDir();
      const variant = (name: string, body: string[]) => { const f = join(dir, name); writeFileSync(f, `${body.join('\n')}\n`); return f; };
      const header = JSON.parse(lines[0]!);
      const cases: Array<[string, RegExp]> = [
        [variant('v3.ndjson', [JSON.stringify({ ...header, version: 3 }), ...lines.slice(1)]), /format version 3; this spemu reads versions 1 and 2/],
        [variant('newer.ndjson', [JSON.stringify({ ...header, migrations: [...header.migrations, '9999-future'] }), ...lines.slice(1)]), /newer spemu.*9999-future/],
        [variant('short.ndjson', lines.slice(0, -1)), /cut short/],
        [variant('arity.ndjson', lines.map((l) => (l.startsWith('["') ? '["only one"]' : l))), /values for \d+ columns/],
        [variant('garbage.ndjson', ['hello']), /not a spemu export file/],
      ];
      for (const [file, message] of cases) {
        const target = await newTarget();
        await withConnection(target, (c) => assert.rejects(importDatabase(c, file, { progress: quiet(), ...bytesOf(target) }), (e: unknown) => e instanceof ImportError && message.test(e.message), file));
      }
    });

    it('a file content whose bytes are damaged, too few, or cut off, and a trailer that miscounts them', async () => {
      const lines = gunzipSync(readFileSync(dump)).toString('utf8').trimEnd().split('\n');
      const dir = tempDir();
      const variant = (name: string, body: string[]) => { const f = join(dir, name); writeFileSync(f, `${body.join('\n')}\n`); return f; };
      const bigId = createHash('sha256').update(BIG).digest('hex');
      const first = lines.findIndex((l) => l.startsWith(`{"blob":"${bigId}"`)) + 1; // its first line of bytes
      const flipped = (() => {
        const { bytes } = JSON.parse(lines[first]!) as { bytes: string };
        const at = 1000;
        return JSON.stringify({ bytes: `${bytes.slice(0, at)}${bytes[at] === 'A' ? 'B' : 'A'}${bytes.slice(at + 1)}` });
      })();
      const trailer = JSON.parse(lines.at(-1)!);
      const cases: Array<[string, RegExp]> = [
        [variant('flipped.ndjson', lines.map((l, i) => (i === first ? flipped : l))), new RegExp(`File content ${bigId} is damaged in the export file: its bytes hash to [0-9a-f]{64}`)],
        [variant('short-blob.ndjson', lines.filter((_, i) => i !== first + 2)), new RegExp(`File content ${bigId} has ${BYTES_PER_LINE * 2} of its ${BIG.length} bytes`)],
        [variant('cut.ndjson', lines.slice(0, first + 1)), new RegExp(`File content ${bigId} has ${BYTES_PER_LINE} of its ${BIG.length} bytes: the export file is cut short`)],
        [variant('miscount.ndjson', [...lines.slice(0, -1), JSON.stringify({ ...trailer, blobs: trailer.blobs + 1 })]), /lists 10 file contents but holds 9/],
        [variant('stray.ndjson', [...lines.slice(0, 2), '{"bytes":"AAAA"}', ...lines.slice(2)]), /bytes outside any file content/],
      ];
      for (const [file, message] of cases) {
        const target = await newTarget();
        await withConnection(target, (c) => assert.rejects(importDatabase(c, file, { progress: quiet(), ...bytesOf(target) }), (e: unknown) => e instanceof ImportError && message.test(e.message), file));
      }
      // A SQLite target must be told where its workspace keeps files' bytes.
      const sqlite = await newTarget('sqlite');
      await withConnection(sqlite, (c) => assert.rejects(importDatabase(c, dump, { progress: quiet(), clearStatementCache: c.clearStatementCache }),
        (e: unknown) => e instanceof ImportError && /SQLite target was given no folder/.test(e.message)));
    });

    it('a version 1 file, from before file contents were carried, still imports', async () => {
      const target = await newTarget();
      await importInto(target, join(import.meta.dirname, '..', 'fixtures', 'export-v1.ndjson.gz'));
      const server = await start(target, { seed: undefined, anonymousUser: 'olivia@fabrikam.onmicrosoft.com' });
      try {
        const r = await call(`${server.url}/sites/old/_api/web/lists/getbytitle('Notes')/items?$select=Title,Body,Created`);
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(JSON.parse(r.text).value, [{ Title: 'kept', Body: 'from a version 1 export', Created: '2025-06-01T10:00:00Z' }]);
      } finally {
        await server.close();
      }
    });
  });
});
