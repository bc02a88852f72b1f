// Builds (or reuses) a spemu workspace whose /sites/dev holds a list of 1,000,000 items.
// The tenant, list, fields and first item go through spemu itself, so the schema and value
// forms are exactly the server's; the other rows are bulk-inserted with one prepared
// statement in large transactions, which takes seconds where the API would take hours.
//
//   npx tsx bench/generate.ts [--items N] [--force]

import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import { startServer } from '../src/index.ts';
import { openSqlite } from '../src/store/sql/connect.ts';
import { SqlStore } from '../src/store/sql/sql-store.ts';
import { createListWithFields } from '../src/services/lists.ts';
import { isoSeconds } from '../src/domain/values.ts';
import type { NewField } from '../src/store/store.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const DATA_DIR = join(ROOT, 'bench/.data');
export const DEMO_TENANT = join(ROOT, 'demo/tenant.json');
export const BIG_LIST = 'BenchItems';
export const PRIORITY_RANGE = 1000;
/** The 1M list's indexed query: items of one priority (1…PRIORITY_RANGE), 100 of them. */
export const millionFilterPath = (priority: number) =>
  `/sites/dev/_api/web/lists/getbytitle('${BIG_LIST}')/items?$filter=Priority%20eq%20${priority}&$top=100&$select=Title,Priority`;
const DATASET_KEY = 'bench.dataset';
const ROWS_PER_TRANSACTION = 50_000;
const CATEGORIES = ['Bug', 'Feature', 'Chore', 'Docs', 'Research'];

/** Files whose change may change the database's shape: a change regenerates the cache. */
const SCHEMA_SOURCES = ['src/store/sql/migrations', 'src/store/sql/item-table.ts', 'src/store/sql/flavour.ts',
  'src/domain/templates.ts', 'src/domain/field-kinds.ts', 'src/tenant/load.ts', 'demo/tenant.json', 'bench/generate.ts'];

const BIG_LIST_FIELDS: NewField[] = [
  { internalName: 'Priority', title: 'Priority', kind: 'Number', required: false, indexed: true, hidden: false, options: {} },
  { internalName: 'Category', title: 'Category', kind: 'Choice', required: false, indexed: false, hidden: false, options: { choices: CATEGORIES } },
  { internalName: 'Score', title: 'Score', kind: 'Number', required: false, indexed: false, hidden: false, options: {} },
  { internalName: 'Due', title: 'Due Date', kind: 'DateTime', required: false, indexed: false, hidden: false, options: {} },
  { internalName: 'Owner', title: 'Owner', kind: 'User', required: false, indexed: false, hidden: false, options: {} },
];

export interface Workspace {
  dir: string;
  db: string;
  /** Seconds spent generating; 0 when the cached workspace was reused. */
  generatedSeconds: number;
}

function fingerprint(items: number): string {
  const hash = createHash('sha256').update(`items=${items}\n`);
  const addFile = (path: string) => hash.update(path).update(readFileSync(join(ROOT, path)));
  for (const source of SCHEMA_SOURCES) {
    const full = join(ROOT, source);
    if (!existsSync(full)) continue;
    if (source.endsWith('.ts') || source.endsWith('.json')) addFile(source);
    else for (const name of readdirSync(full).sort()) addFile(`${source}/${name}`);
  }
  return hash.digest('hex');
}

/** The cached workspace is valid when it was built from the same sources and holds every row. */
function isValid(dbFile: string, expected: string, items: number): boolean {
  if (!existsSync(dbFile)) return false;
  try {
    const db = new Database(dbFile, { readonly: true, fileMustExist: true });
    try {
      const key = db.prepare('select value from settings where key = ?').get(DATASET_KEY) as { value: string } | undefined;
      if (key?.value !== expected) return false;
      const list = db.prepare('select table_name, item_count from lists where title = ?').get(BIG_LIST) as { table_name: string; item_count: number } | undefined;
      if (!list || list.item_count !== items) return false;
      const max = db.prepare(`select max(id) as id from "${list.table_name}"`).get() as { id: number };
      return max.id === items;
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

/** A small deterministic generator, so every build holds the same data. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function ensureMillionWorkspace(options: { items?: number; force?: boolean } = {}): Promise<Workspace> {
  const items = options.items ?? 1_000_000;
  const dir = join(DATA_DIR, `items-${items}`);
  const db = join(dir, 'spemu.db');
  const expected = fingerprint(items);
  if (!options.force && isValid(db, expected, items)) return { dir, db, generatedSeconds: 0 };

  const started = performance.now();
  // Build beside the cache and swap it in at the end, so an interrupted build is never reused.
  const building = `${dir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  const buildingDb = join(building, 'spemu.db');
  await createTenantAndList(building, buildingDb);
  bulkInsert(buildingDb, items, expected);
  rmSync(dir, { recursive: true, force: true });
  renameSync(building, dir);
  return { dir, db, generatedSeconds: (performance.now() - started) / 1000 };
}

/** The demo tenant through spemu's own loader, then the big list, its fields and item 1 through the store. */
async function createTenantAndList(dir: string, dbFile: string): Promise<void> {
  const seeded = await startServer({ data: dir, db: dbFile, seed: DEMO_TENANT, port: 0, logLevel: 'silent' });
  await seeded.close();
  const connection = openSqlite({ file: dbFile });
  const store = new SqlStore(connection.db, connection.flavour, { onSchemaChange: connection.clearStatementCache });
  try {
    const site = (await store.sites.byUrl('/sites/dev'))!;
    const web = (await store.sites.web(site.rootWebId))!;
    const now = isoSeconds(Date.now());
    const list = await createListWithFields(store, web, { title: BIG_LIST, description: '1M items for the benchmark.', baseTemplate: 100 }, now);
    for (const field of BIG_LIST_FIELDS) await store.fields.add(list, field);
    const fields = await store.fields.of(list);
    await store.items.create(list, fields, {
      values: { Title: 'Item 1', Priority: 1, Category: CATEGORIES[0]!, Score: 50, Due: '2026-01-01T00:00:00Z', Owner: 1 },
      actorId: 1, now: '2025-01-01T00:00:30Z', // item i is created at start + i × 30 s, as below
    });
  } finally {
    await store.close();
  }
}

function bulkInsert(dbFile: string, items: number, datasetKey: string): void {
  const db = new Database(dbFile);
  try {
    // A throw-away build needs no journal or fsync; the finished file goes back to WAL.
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -262144');
    const list = db.prepare('select row_id, table_name from lists where title = ?').get(BIG_LIST) as { row_id: number; table_name: string };
    const columns = Object.fromEntries((db.prepare('select internal_name, column_name from fields where list_row_id = ?')
      .all(list.row_id) as Array<{ internal_name: string; column_name: string }>).map((r) => [r.internal_name, r.column_name]));
    const first = db.prepare(`select content_type_id from "${list.table_name}" where id = 1`).get() as { content_type_id: string };
    const userList = db.prepare("select table_name from lists where base_template = 112 and url_key like '/sites/dev/%'").get() as { table_name: string };
    const userIds = (db.prepare(`select id from "${userList.table_name}" order by id`).all() as Array<{ id: number }>).map((r) => r.id);

    // Indexes are cheaper built once over the finished table than kept up row by row.
    const indexes = db.prepare("select name, sql from sqlite_master where type = 'index' and tbl_name = ? and sql is not null")
      .all(list.table_name) as Array<{ name: string; sql: string }>;
    // spemu registers its own lower() (Unicode case folding, src/store/sql/connect.ts); indexes on
    // lower(...) (the document place index every list has) are rebuilt here with the same one.
    db.function('lower', { deterministic: true }, (v: unknown) => (v === null ? null : typeof v === 'string' ? v.toLowerCase() : String(v).toLowerCase()));
    for (const index of indexes) db.exec(`drop index "${index.name}"`);

    const insert = db.prepare(`insert into "${list.table_name}" (id, guid, content_type_id, created, modified, author_id, editor_id,
      version, ui_version, title, "${columns.Priority}", "${columns.Category}", "${columns.Score}", "${columns.Due}", "${columns.Owner}")
      values (?, ?, ?, ?, ?, ?, ?, 1, 1, ?, ?, ?, ?, ?, ?)`);
    const random = mulberry32(42);
    const start = Date.parse('2025-01-01T00:00:00Z');
    const insertBatch = db.transaction((from: number, to: number) => {
      for (let id = from; id <= to; id++) {
        const stamp = isoSeconds(start + id * 30_000);
        const user = userIds[id % userIds.length]!;
        insert.run(id, randomUUID(), first.content_type_id, stamp, stamp, user, user, `Item ${id}`,
          1 + Math.floor(random() * PRIORITY_RANGE), CATEGORIES[Math.floor(random() * CATEGORIES.length)]!,
          Math.round(random() * 10_000) / 100, isoSeconds(start + Math.floor(random() * 730) * 86_400_000),
          userIds[Math.floor(random() * userIds.length)]!);
      }
    });
    for (let from = 2; from <= items; from += ROWS_PER_TRANSACTION) insertBatch(from, Math.min(items, from + ROWS_PER_TRANSACTION - 1));

    for (const index of indexes) db.exec(index.sql);
    db.prepare('update lists set item_count = ?, next_item_id = ?, last_item_modified = ? where row_id = ?')
      .run(items, items + 1, isoSeconds(start + items * 30_000), list.row_id);
    db.prepare('insert into settings (key, value) values (?, ?) on conflict (key) do update set value = excluded.value').run(DATASET_KEY, datasetKey);
    db.pragma('journal_mode = WAL');
  } finally {
    db.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({ options: { items: { type: 'string' }, force: { type: 'boolean' } } });
  const workspace = await ensureMillionWorkspace({ items: values.items ? Number(values.items) : undefined, force: values.force ?? false });
  console.log(workspace.generatedSeconds ? `generated ${workspace.db} in ${workspace.generatedSeconds.toFixed(1)} s` : `reused ${workspace.db}`);
}
