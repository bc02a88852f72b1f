// What tables a database holds, read from its own catalog (sqlite_master and pragmas, or
// pg_catalog): columns with portable types, primary keys, indexes and foreign keys. Export
// and import never list spemu's tables by name, so tables that later migrations or run-time
// features add (per-list items_<n>, ProjectData sets) travel without changes here.

import { sql, type Kysely } from 'kysely';
import type { SqlFlavour } from '../sql/flavour.ts';

/** A column type both databases can hold, so a dump made on one loads into the other. */
export type PortableType = 'integer' | 'real' | 'numeric' | 'text' | 'blob' | 'boolean' | 'json';

export interface ColumnInfo {
  name: string;
  type: PortableType;
  /** The type as the source database declares it, reused when the target is the same kind. */
  declared: string;
  notNull: boolean;
  /** A literal default (number, 'text' or null), when the column has one. */
  default?: string | undefined;
  /**
   * Text sorted by code point, recreated on PostgreSQL as `collate "C"`: a PostgreSQL column
   * declared so; from SQLite (whose one order is code point, never declared), a text column
   * of the primary key, as keyset paging orders by the key. spemu declares its other text
   * columns with the database's collation and says `collate "C"` in the queries that sort.
   */
  binary?: boolean | undefined;
  /** PostgreSQL identity column: its values come from a sequence unless given. */
  identity?: 'always' | 'by default' | undefined;
}

export interface IndexKey {
  /** The key's expression as the source wrote it (a column name or e.g. `lower("c12")`), without collation or direction. */
  expr: string;
  desc: boolean;
  /** An explicit NULLS FIRST / LAST (PostgreSQL's, or SQLite's implicit one: sqliteNulls); absent: the database's default for the direction. */
  nulls?: 'first' | 'last' | undefined;
  /**
   * Wants PostgreSQL's `collate "C"` (code point order, as SQLite's only order): spemu puts it on
   * case-folded keys, whose index must match its `lower(…) collate "C"` comparisons.
   */
  binary: boolean;
}

export interface IndexInfo {
  name: string;
  unique: boolean;
  keys: IndexKey[];
  /** A partial index's condition. */
  where?: string | undefined;
}

export interface TableInfo {
  name: string;
  columns: ColumnInfo[];
  /** Primary key columns in key order; empty when the table has none. */
  primaryKey: string[];
  /** Secondary indexes (not the primary key's). */
  indexes: IndexInfo[];
  /** Tables this one has foreign keys to. */
  references: string[];
}

type Db = Kysely<any>;

const rowsOf = async <T>(db: Db, query: ReturnType<typeof sql>): Promise<T[]> => (await query.execute(db)).rows as T[];

/** Every table of the database (of PostgreSQL's current schema), parents before the tables that reference them. */
export async function readCatalog(db: Db, flavour: SqlFlavour): Promise<TableInfo[]> {
  const names = await tableNames(db, flavour);
  const tables = flavour === 'postgres' ? await postgresTables(db, names) : await sqliteTables(db, names);
  return dependencyOrder(tables);
}

/** One table, or undefined when there is none of that name. */
export async function describeTable(db: Db, flavour: SqlFlavour, name: string): Promise<TableInfo | undefined> {
  const tables = flavour === 'postgres' ? await postgresTables(db, [name]) : await sqliteTables(db, [name]);
  return tables[0];
}

/** Table names only: cheaper than readCatalog when columns are not needed. */
export async function tableNames(db: Db, flavour: SqlFlavour): Promise<string[]> {
  const rows = flavour === 'postgres'
    ? await rowsOf<{ name: string }>(db, sql`select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind in ('r', 'p')`)
    : await rowsOf<{ name: string }>(db, sql`select name from sqlite_master where type = 'table' and name not like 'sqlite\_%' escape '\\'`);
  return rows.map((r) => r.name).sort(byName);
}

/** items_2 before items_10. */
export const byName = (a: string, b: string) => a.localeCompare(b, 'en', { numeric: true });

// ---- SQLite

function sqlitePortable(declared: string): PortableType {
  // SQLite's own affinity rules (https://sqlite.org/datatype3.html §3.1), plus the names spemu uses.
  const t = declared.toLowerCase();
  if (t === 'boolean' || t === 'bool') return 'boolean';
  if (t === 'json' || t === 'jsonb') return 'json';
  if (t.includes('int')) return 'integer';
  if (t.includes('char') || t.includes('clob') || t.includes('text')) return 'text';
  if (t === '' || t.includes('blob')) return 'blob';
  if (t.includes('real') || t.includes('floa') || t.includes('doub')) return 'real';
  return 'numeric';
}

async function sqliteTables(db: Db, names: string[]): Promise<TableInfo[]> {
  const out: TableInfo[] = [];
  for (const name of names) {
    const cols = await rowsOf<{ name: string; type: string; notnull: number; dflt_value: string | null; pk: number }>(db,
      sql`select name, type, "notnull", dflt_value, pk from pragma_table_info(${name}) order by cid`);
    const primaryKey = cols.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
    const indexes: IndexInfo[] = [];
    const list = await rowsOf<{ name: string; unique: number; origin: string }>(db, sql`select name, "unique", origin from pragma_index_list(${name})`);
    for (const ix of list) {
      if (ix.origin === 'pk') continue;
      if (ix.origin === 'u') {
        // A UNIQUE constraint: an automatic index with no SQL of its own.
        const keyCols = await rowsOf<{ name: string }>(db, sql`select name from pragma_index_info(${ix.name}) order by seqno`);
        indexes.push({ name: `${name}_${keyCols.map((c) => c.name).join('_')}_key`, unique: true, keys: keyCols.map((c) => ({ expr: quoteId(c.name), desc: false, binary: false })) });
        continue;
      }
      const definition = await rowsOf<{ sql: string }>(db, sql`select sql from sqlite_master where type = 'index' and name = ${ix.name}`);
      const parsed = parseIndexSql(definition[0]!.sql, 'sqlite');
      indexes.push({ name: ix.name, unique: ix.unique === 1, ...parsed, keys: parsed.keys.map((k) => sqliteNulls(k, primaryKey)) });
    }
    if (!cols.length) continue; // no such table
    const fks = await rowsOf<{ table: string }>(db, sql`select "table" from pragma_foreign_key_list(${name})`);
    out.push({
      name, primaryKey, indexes, references: [...new Set(fks.map((f) => f.table))],
      columns: cols.map((c) => {
        const type = sqlitePortable(c.type);
        return { name: c.name, type, declared: c.type, notNull: c.notnull === 1, default: literalDefault(c.dflt_value), ...(type === 'text' && c.pk > 0 ? { binary: true } : {}) };
      }),
    });
  }
  return out;
}

/**
 * SQLite's indexes order nulls first ascending (last descending) and cannot say so; the key
 * records it, so a PostgreSQL copy declares it and serves the same `asc nulls first` sorts
 * (spemu's item indexes, item-table.ts). Not on a primary-key column: it holds no nulls, and
 * queries order it with a bare direction (the `id` tie-break), PostgreSQL's default.
 */
function sqliteNulls(key: IndexKey, primaryKey: string[]): IndexKey {
  const column = /^"((?:[^"]|"")*)"$/.exec(key.expr)?.[1]?.replaceAll('""', '"') ?? key.expr;
  return primaryKey.includes(column) ? key : { ...key, nulls: key.desc ? 'last' : 'first' };
}

// ---- PostgreSQL

const PG_TYPES: Record<string, PortableType> = {
  int2: 'integer', int4: 'integer', int8: 'integer', float4: 'real', float8: 'real', numeric: 'numeric',
  text: 'text', varchar: 'text', bpchar: 'text', name: 'text', uuid: 'text', bytea: 'blob', bool: 'boolean', json: 'json', jsonb: 'json',
};

async function postgresTables(db: Db, names: string[]): Promise<TableInfo[]> {
  const tables = names.length === 0 ? [] : await rowsOf<{ oid: number; name: string }>(db, sql`select c.oid::int8 as oid, c.relname as name from pg_class c
    join pg_namespace n on n.oid = c.relnamespace where n.nspname = current_schema() and c.relkind in ('r', 'p') and c.relname in (${sql.join(names)})`);
  const out: TableInfo[] = [];
  for (const { oid, name } of tables.sort((a, b) => byName(a.name, b.name))) {
    const cols = await rowsOf<{ name: string; declared: string; typname: string; notnull: boolean; dflt: string | null; identity: string; collation: string | null }>(db, sql`
      select a.attname as name, format_type(a.atttypid, a.atttypmod) as declared, t.typname, a.attnotnull as notnull,
        pg_get_expr(d.adbin, d.adrelid) as dflt, a.attidentity as identity,
        (select collname from pg_collation where oid = a.attcollation and a.attcollation <> t.typcollation) as collation
      from pg_attribute a join pg_type t on t.oid = a.atttypid
      left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where a.attrelid = ${oid}::oid and a.attnum > 0 and not a.attisdropped order by a.attnum`);
    const pk = await rowsOf<{ name: string }>(db, sql`
      select a.attname as name from pg_index i cross join lateral unnest(i.indkey) with ordinality as k(attnum, ord)
      join pg_attribute a on a.attrelid = i.indrelid and a.attnum = k.attnum
      where i.indrelid = ${oid}::oid and i.indisprimary order by k.ord`);
    const ixs = await rowsOf<{ name: string; unique: boolean; def: string }>(db, sql`
      select c.relname as name, i.indisunique as unique, pg_get_indexdef(i.indexrelid) as def
      from pg_index i join pg_class c on c.oid = i.indexrelid where i.indrelid = ${oid}::oid and not i.indisprimary order by c.relname`);
    const fks = await rowsOf<{ name: string }>(db, sql`
      select distinct r.relname as name from pg_constraint k join pg_class r on r.oid = k.confrelid where k.conrelid = ${oid}::oid and k.contype = 'f'`);
    out.push({
      name, primaryKey: pk.map((p) => p.name), references: fks.map((f) => f.name),
      indexes: ixs.map((ix) => ({ name: ix.name, unique: ix.unique, ...parseIndexSql(ix.def, 'postgres') })),
      columns: cols.map((c) => ({
        name: c.name, type: PG_TYPES[c.typname] ?? 'text', declared: c.declared, notNull: c.notnull,
        default: literalDefault(c.dflt?.replace(/::[a-z ]+(\[\])?$/i, '') ?? null),
        ...(c.identity ? { identity: c.identity === 'a' ? 'always' as const : 'by default' as const } : {}),
        ...(c.collation === 'C' || c.collation === 'POSIX' ? { binary: true } : {}),
      })),
    });
  }
  return out;
}

// ---- shared

/** Only literal defaults travel; expressions (sequences, functions) are each database's own. */
function literalDefault(text: string | null): string | undefined {
  if (text === null) return undefined;
  const t = text.trim();
  return /^(-?\d+(\.\d+)?|'(?:[^']|'')*'|null)$/i.test(t) ? t : undefined;
}

export const quoteId = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Splits `a, lower(b), c` at commas outside parentheses and quotes. */
function splitTopLevel(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote = '';
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote) { if (c === quote) quote = ''; continue; }
    if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) { parts.push(text.slice(start, i).trim()); start = i + 1; }
  }
  parts.push(text.slice(start).trim());
  return parts;
}

/**
 * The keys and condition of `CREATE [UNIQUE] INDEX name ON table [USING m] (keys) [WHERE …]`.
 * SQLite has one text order, byte order, and never names it; spemu's PostgreSQL DDL names it
 * (`collate "C"`) exactly on case-folded keys (`lower(…)`, item-table.ts sortExpression). So a
 * SQLite key is binary when it is a lower(), a PostgreSQL key when it says collate "C".
 */
export function parseIndexSql(definition: string, flavour: SqlFlavour): { keys: IndexKey[]; where?: string } {
  const head = /\bon\s+(?:only\s+)?(?:"(?:[^"]|"")*"|[\w.]+)(?:\.(?:"(?:[^"]|"")*"|\w+))?\s*(?:using\s+\w+\s*)?\(/i.exec(definition);
  if (!head) throw new Error(`cannot read index definition: ${definition}`);
  const open = head.index + head[0].length;
  let depth = 1;
  let quote = '';
  let i = open;
  for (; i < definition.length && depth > 0; i++) {
    const c = definition[i]!;
    if (quote) { if (c === quote) quote = ''; continue; }
    if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
  }
  const keys = splitTopLevel(definition.slice(open, i - 1)).map((raw) => {
    let expr = raw;
    let desc = false;
    let nulls: 'first' | 'last' | undefined;
    const nullsAt = /\s+nulls\s+(first|last)$/i.exec(expr);
    if (nullsAt) { nulls = nullsAt[1]!.toLowerCase() as 'first' | 'last'; expr = expr.slice(0, nullsAt.index); }
    const direction = /\s+(asc|desc)$/i.exec(expr);
    if (direction) { desc = direction[1]!.toLowerCase() === 'desc'; expr = expr.slice(0, direction.index); }
    const collate = /\s+collate\s+("?[\w.]+"?)$/i.exec(expr);
    if (collate) expr = expr.slice(0, collate.index);
    const binary = flavour === 'postgres' ? collate?.[1]?.replaceAll('"', '') === 'C' : /^lower\s*\(/i.test(expr);
    return { expr: expr.trim(), desc, binary, ...(nulls ? { nulls } : {}) };
  });
  const where = /\bwhere\s+([\s\S]+)$/i.exec(definition.slice(i));
  return where ? { keys, where: where[1]!.trim() } : { keys };
}

/** Parents first (Kahn's algorithm), otherwise by name; a reference cycle keeps name order. */
function dependencyOrder(tables: TableInfo[]): TableInfo[] {
  const byTable = new Map(tables.map((t) => [t.name, t]));
  const placed = new Set<string>();
  const out: TableInfo[] = [];
  let remaining = [...tables];
  while (remaining.length) {
    const ready = remaining.filter((t) => t.references.every((r) => r === t.name || placed.has(r) || !byTable.has(r)));
    const next = ready.length ? ready : [remaining[0]!];
    for (const t of next) { placed.add(t.name); out.push(t); }
    remaining = remaining.filter((t) => !placed.has(t.name));
  }
  return out;
}
