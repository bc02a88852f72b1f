// ProjectData on SQL (SQLite and PostgreSQL alike). Each (site, entity set) gets a table of
// its own, `pd_<n>`, made on first write, with one typed column per property and the set's
// key as primary key, so filters, ordering and keyset paging are plain indexed SQL and a
// set of millions of rows is never held in memory. Which table and columns hold a set is
// recorded in pd_tables / pd_columns (migration 0004); columns are numbered (`c<k>_<name>`)
// because property names are case-sensitive, any Unicode, and may outgrow identifiers.
//
// Storage per Edm type: Guid lower-case text (byte order, collate "C" on PostgreSQL, so the
// key index serves ordering in any database locale), String text, DateTime integer ms since
// the epoch, Decimal/Double double precision, Int*/Byte integer, Boolean 0/1.

import { CompiledQuery, sql, type Kysely, type RawBuilder } from 'kysely';
import type { SqlSession } from './session.ts';
import { EDM_TYPES, type EdmType, type PdEntitySet, type PdProperty, type PdRow, type PdValue } from '../../domain/projectdata/model.ts';
import { ENTITY_SETS } from '../../domain/projectdata/catalogue.ts';
import { PdValueError } from '../../domain/projectdata/values.ts';
import type { PdPage, PdQuery, PdSiteOptions, ProjectDataStore } from '../projectdata.ts';
import { fail } from '../../domain/errors.ts';
import { columnType, type SqlFlavour } from './flavour.ts';
import { compilePdFilter, noSuchProperty, pdSortExpression, pdSortValue } from './projectdata-filter.ts';

export interface PdTable {
  id: number;
  name: string;
  /** Property name → column. */
  columns: Map<string, string>;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const KNOWN_TYPES: ReadonlySet<string> = new Set(EDM_TYPES);
/** Bound parameters one SQLite statement may carry, a little under its limit of 32766. */
const SQLITE_PARAMETERS = 32_000;
/** Rows per PostgreSQL statement (arrays have no parameter limit; this bounds a statement's memory). */
const PG_ROWS = 5_000;

const tableName = (id: number) => `pd_${id}`;
/** `c12_taskname`: unique by its number, readable by the rest (ASCII only, short). */
const columnName = (n: number, property: string) =>
  `c${n}_${property.toLowerCase().replace(/[^a-z0-9]+/g, '_').slice(0, 40)}`.replace(/_+$/, '');

/** The PostgreSQL element type of a property's column, for unnest(). */
const arrayType = (type: EdmType) => storage('postgres', type).replace(' collate "C"', '');

/**
 * PostgreSQL text cannot hold U+0000: connect.ts swaps it for U+FFFF in parameters and back
 * in results, but not inside arrays, which the upsert sends, so their strings swap here.
 */
const withoutNul = (v: string | number | null) => (typeof v === 'string' && v.includes('\u0000') ? v.replaceAll('\u0000', '\uFFFF') : v);

function storage(flavour: SqlFlavour, type: EdmType): string {
  switch (type) {
    case 'Edm.Guid': return flavour === 'postgres' ? 'text collate "C"' : 'text';
    case 'Edm.String': return 'text';
    case 'Edm.Decimal': case 'Edm.Double': return columnType(flavour, 'real');
    default: return columnType(flavour, 'int');
  }
}

export class SqlProjectDataStore implements ProjectDataStore {
  /** Upsert statement texts by table and shape (see upsertText). */
  private readonly statements = new Map<string, string>();

  /**
   * `tables`: data tables known to exist, by site and set. Tables and columns are only ever
   * added, so an entry stays true; one missing a property is re-read. Shared by the store
   * outside transactions only: a table made inside one that rolls back must not be remembered.
   */
  constructor(private readonly s: SqlSession, private readonly tables?: Map<string, PdTable>) {}

  private get db(): Kysely<any> { return this.s.db; }
  private get flavour(): SqlFlavour { return this.s.flavour; }

  /** Read on every feed request: cached. */
  options(siteId: string): Promise<PdSiteOptions | undefined> {
    return this.s.cached('pd.options', siteId, async () => {
      const row = await this.db.selectFrom('pd_sites').select('options').where('site_id', '=', siteId).executeTakeFirst();
      return row ? JSON.parse(row.options) as PdSiteOptions : undefined;
    });
  }

  async setOptions(siteId: string, options: PdSiteOptions): Promise<void> {
    const text = JSON.stringify(options);
    await this.s.metadataWrite([['pd.options', siteId]], ({ db }) => db.insertInto('pd_sites').values({ site_id: siteId, options: text })
      .onConflict((oc) => oc.column('site_id').doUpdateSet({ options: text })).execute());
  }

  /** Read on every feed request: cached. */
  schema(siteId: string): Promise<PdEntitySet[]> {
    return this.s.cached('pd.schema', siteId, async () => {
      const rows = await this.db.selectFrom('pd_properties').select(['set_name', 'name', 'edm_type'])
        .where('site_id', '=', siteId).orderBy('position').execute();
      return ENTITY_SETS.map((set) => {
        const custom = rows.filter((r) => r.set_name === set.name)
          .map((r): PdProperty => ({ name: r.name, type: r.edm_type as EdmType, nullable: true, custom: true }));
        return custom.length ? { ...set, properties: [...set.properties, ...custom] } : set;
      });
    });
  }

  async addCustomProperties(siteId: string, setName: string, properties: PdProperty[]): Promise<void> {
    const builtIn = ENTITY_SETS.find((s) => s.name === setName);
    if (!builtIn) throw new PdValueError(`no entity set '${setName}'`);
    for (const p of properties) if (!KNOWN_TYPES.has(p.type)) throw new PdValueError(`${setName}.${p.name}: no Edm type '${p.type}'`);
    const changed = await this.s.metadataWrite([['pd.schema', siteId]], async ({ db }) => {
      const existing = await db.selectFrom('pd_properties').select(['name', 'edm_type', 'position'])
        .where('site_id', '=', siteId).where('set_name', '=', setName).orderBy('position').execute();
      const taken = new Set([...builtIn.properties.map((p) => p.name), ...existing.map((r) => r.name)]);
      const added = properties.filter((p) => !taken.has(p.name) && taken.add(p.name));
      if (!added.length) return false;
      let position = existing.reduce((max, r) => Math.max(max, Number(r.position)), 0);
      await db.insertInto('pd_properties').values(added.map((p) => ({
        site_id: siteId, set_name: setName, name: p.name, edm_type: p.type, position: ++position,
      }))).execute();
      // A set that already has a table gets the columns now; one without gets them when made.
      const table = await readTable(db, siteId, setName);
      if (table) {
        const custom = [...existing.map((r) => ({ name: r.name, type: r.edm_type as EdmType })), ...added];
        await this.addColumns(db, table, [...builtIn.properties, ...custom.map((p) => ({ ...p, nullable: true }))]);
      }
      return true;
    });
    if (changed) {
      this.tables?.delete(tableKey(siteId, setName));
      this.s.schemaChanged();
    }
  }

  async upsertRows(siteId: string, set: PdEntitySet, rows: PdRow[]): Promise<void> {
    if (!rows.length) return;
    // Every row is checked before anything is written: a bad one fails the whole call.
    const values = columnValues(set, rows);
    const table = (await this.table(siteId, set, true))!;
    const columns = set.properties.map((p) => table.columns.get(p.name)!);
    const perStatement = this.flavour === 'postgres' ? PG_ROWS : Math.max(1, Math.floor(SQLITE_PARAMETERS / columns.length));
    await this.s.transaction(async ({ db }) => {
      for (let i = 0; i < values.length; i += perStatement) {
        const chunk = values.slice(i, i + perStatement);
        const text = this.upsertText(table, set, chunk.length);
        const parameters: unknown[] = [];
        if (this.flavour === 'postgres') {
          for (let c = 0; c < columns.length; c++) parameters.push(chunk.map((row) => withoutNul(row[c]!)));
        } else {
          for (const row of chunk) for (const value of row) parameters.push(value);
        }
        await db.executeQuery(CompiledQuery.raw(text, parameters));
      }
    });
  }

  /**
   * `insert … on conflict (key) do update`, written as text: an import sends millions of
   * rows, and building statements through Kysely's tree (a node per value) took longer than
   * running them. Identifiers are ours (pd_<n>, c<k>_…); values are bound. SQLite takes
   * `values (?, …), (?, …)` up to its parameter limit; PostgreSQL one array per column
   * through unnest(), which it parses and plans in a fraction of the time of a long values
   * list (measured: 1.8× the rows per second). Texts are kept (SQLite then reuses statements).
   */
  private upsertText(table: PdTable, set: PdEntitySet, rows: number): string {
    const cacheKey = `${table.name}\u0000${set.properties.length}\u0000${this.flavour === 'postgres' ? 0 : rows}`;
    const cached = this.statements.get(cacheKey);
    if (cached) return cached;
    const id = (p: string) => `"${table.columns.get(p)!}"`;
    const names = set.properties.map((p) => p.name);
    const others = names.filter((n) => !set.key.includes(n));
    const source = this.flavour === 'postgres'
      ? `select * from unnest(${set.properties.map((p, i) => `$${i + 1}::${arrayType(p.type)}[]`).join(', ')})`
      : `values ${Array.from({ length: rows }, () => `(${names.map(() => '?').join(',')})`).join(',')}`;
    const text = `insert into "${table.name}" (${names.map(id).join(', ')}) ${source} on conflict (${set.key.map(id).join(', ')}) `
      + (others.length ? `do update set ${others.map((n) => `${id(n)} = excluded.${id(n)}`).join(', ')}` : 'do nothing');
    if (this.statements.size >= 16) this.statements.delete(this.statements.keys().next().value!);
    this.statements.set(cacheKey, text);
    return text;
  }

  async query(siteId: string, query: PdQuery): Promise<PdPage> {
    const { set } = query;
    const table = await this.table(siteId, set, false);
    if (!table) return { rows: [], hasMore: false, count: query.count ? 0 : undefined };
    const properties = new Map(set.properties.map((p) => [p.name, p]));
    const resolve = (name: string): { property: PdProperty; column: string } => {
      const property = properties.get(name);
      const column = property && table.columns.get(name);
      if (!property || !column) throw noSuchProperty(set, name);
      return { property, column };
    };

    const conditions: RawBuilder<unknown>[] = query.where.map(({ property: name, value }) => {
      const { property, column } = resolve(name);
      return value === null ? sql`${sql.ref(column)} is null`
        : sql`${pdSortExpression(property.type, column, this.flavour)} = ${pdSortValue(property.type, value)}`;
    });
    if (query.filter) {
      conditions.push(compilePdFilter(query.filter, { set, columns: table.columns, flavour: this.flavour, text: query.filterText ?? '' }));
    }
    const where = conditions.length ? sql`where ${sql.join(conditions, sql` and `)}` : sql``;

    const count = query.count
      ? Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table.name)} ${where}`.execute(this.db)).rows[0]!.n)
      : undefined;

    if (query.after && query.after.length !== query.orderBy.length) throw fail.badArgument('The skip token does not match the sort order.');
    // A sort key the URL fixes (`Projects(…)/Tasks` orders by ProjectId, TaskId with ProjectId
    // given) orders nothing: leaving it out lets SQLite seek `ProjectId = ? and TaskId > ?` in
    // the key index, where `(ProjectId, TaskId) > (?, ?)` made it scan the project from its start.
    const fixed = new Set(query.where.map((w) => w.property));
    const sorts = query.orderBy.map((k, i) => ({ ...resolve(k.property), descending: k.descending, after: query.after?.[i] ?? null }))
      .filter((s) => !fixed.has(s.property.name));
    const page = [...conditions];
    if (query.after) {
      // With every sort key fixed, the position is the one row there can be: nothing follows it.
      page.push(sorts.length ? keyset(sorts.map((s) => ({
        expr: pdSortExpression(s.property.type, s.column, this.flavour), descending: s.descending, nullable: s.property.nullable,
        value: s.after, type: s.property.type,
      }))) : sql`(1 = 0)`);
    }
    const order = sorts.map((s) => sql`${pdSortExpression(s.property.type, s.column, this.flavour)} ${sql.raw(direction(s.descending, s.property.nullable))}`);
    const wanted = query.select ? [...new Set([...set.key, ...query.select])].map(resolve) : set.properties.map((p) => resolve(p.name));
    const result = await sql<Record<string, unknown>>`select ${sql.join(wanted.map((w) => sql.ref(w.column)))}
      from ${sql.table(table.name)}
      ${page.length ? sql`where ${sql.join(page, sql` and `)}` : sql``}
      ${order.length ? sql`order by ${sql.join(order)}` : sql``}
      limit ${query.top + 1} offset ${query.skip}`.execute(this.db);
    const rows = result.rows.slice(0, query.top).map((r) => {
      const row: PdRow = {};
      for (const { property, column } of wanted) row[property.name] = fromColumn(property.type, r[column]);
      return row;
    });
    return { rows, hasMore: result.rows.length > query.top, count };
  }

  async importMarks(siteId: string): Promise<Set<string>> {
    const rows = await this.db.selectFrom('pd_import_marks').select('mark').where('site_id', '=', siteId).execute();
    return new Set(rows.map((r) => r.mark as string));
  }

  async addImportMark(siteId: string, mark: string): Promise<void> {
    await this.db.insertInto('pd_import_marks').values({ site_id: siteId, mark })
      .onConflict((oc) => oc.columns(['site_id', 'mark']).doNothing()).execute();
  }

  /**
   * The set's table with a column for every property of `set`, made (or widened: custom
   * properties, a catalogue grown since) under the metadata lock, so concurrent instances
   * make it once. Undefined when it does not exist and `create` is false.
   */
  private async table(siteId: string, set: PdEntitySet, create: boolean): Promise<PdTable | undefined> {
    const key = tableKey(siteId, set.name);
    const covers = (t: PdTable | undefined) => !!t && set.properties.every((p) => t.columns.has(p.name));
    const cached = this.tables?.get(key);
    if (covers(cached)) return cached;
    let table = await readTable(this.db, siteId, set.name);
    if (!table && !create) return undefined;
    if (!covers(table)) {
      table = await this.s.metadataWrite([], async ({ db }) => {
        const current = await readTable(db, siteId, set.name) ?? await this.createTable(db, siteId, set);
        await this.addColumns(db, current, set.properties);
        return current;
      });
      this.s.schemaChanged();
    }
    this.tables?.set(key, table!);
    return table;
  }

  private async createTable(db: Kysely<any>, siteId: string, set: PdEntitySet): Promise<PdTable> {
    const last = await db.selectFrom('pd_tables').select(sql<number>`coalesce(max(id), 0)`.as('id')).executeTakeFirst();
    const id = Number(last?.id ?? 0) + 1;
    await db.insertInto('pd_tables').values({ site_id: siteId, set_name: set.name, id }).execute();
    const table: PdTable = { id, name: tableName(id), columns: new Map() };
    await this.recordColumns(db, table, set.properties);
    const definitions = set.properties.map((p) =>
      sql`${sql.ref(table.columns.get(p.name)!)} ${sql.raw(storage(this.flavour, p.type))}${sql.raw(set.key.includes(p.name) ? ' not null' : '')}`);
    const primary = sql`primary key (${sql.join(set.key.map((k) => sql.ref(table.columns.get(k)!)))})`;
    await sql`create table ${sql.table(table.name)} (${sql.join([...definitions, primary])})`.execute(db);
    // Navigations into this set (`Resources(…)/Assignments`) filter on their join columns:
    // those that are not a prefix of the key (which the primary key serves) get an index.
    const joins = new Set<string>();
    for (const source of ENTITY_SETS) {
      for (const nav of source.navigations) {
        const on = nav.on.map(([, target]) => target);
        if (nav.target !== set.name || on.every((p, i) => set.key[i] === p) || !on.every((p) => set.properties.some((q) => q.name === p))) continue;
        joins.add(on.join('\u0000'));
      }
    }
    let n = 0;
    for (const join of joins) {
      const columns = join.split('\u0000').map((p) => sql.ref(table.columns.get(p)!));
      await sql`create index ${sql.id(`${table.name}_ix${++n}`)} on ${sql.table(table.name)} (${sql.join(columns)})`.execute(db);
    }
    return table;
  }

  /** Adds the columns `properties` lack (nullable: keys are made with the table). */
  private async addColumns(db: Kysely<any>, table: PdTable, properties: Array<Pick<PdProperty, 'name' | 'type'>>): Promise<void> {
    const missing = properties.filter((p) => !table.columns.has(p.name));
    await this.recordColumns(db, table, missing);
    for (const p of missing) {
      await sql`alter table ${sql.table(table.name)} add column ${sql.ref(table.columns.get(p.name)!)} ${sql.raw(storage(this.flavour, p.type))}`.execute(db);
    }
  }

  private async recordColumns(db: Kysely<any>, table: PdTable, properties: Array<Pick<PdProperty, 'name'>>): Promise<void> {
    if (!properties.length) return;
    const rows = properties.map((p) => {
      const column = columnName(table.columns.size + 1, p.name);
      table.columns.set(p.name, column);
      return { table_id: table.id, property: p.name, column_name: column };
    });
    await db.insertInto('pd_columns').values(rows).execute();
  }
}

const tableKey = (siteId: string, setName: string) => `${siteId}\u0000${setName}`;

async function readTable(db: Kysely<any>, siteId: string, setName: string): Promise<PdTable | undefined> {
  const rows = await db.selectFrom('pd_tables as t').leftJoin('pd_columns as c', 'c.table_id', 't.id')
    .select(['t.id', 'c.property', 'c.column_name']).where('t.site_id', '=', siteId).where('t.set_name', '=', setName).execute();
  if (!rows.length) return undefined;
  const id = Number(rows[0]!.id);
  const columns = new Map<string, string>();
  for (const r of rows) if (r.property !== null) columns.set(r.property, r.column_name);
  return { id, name: tableName(id), columns };
}

/**
 * Rows → column values in `set.properties` order, checked against the types (the columns
 * take what they are given, and SQLite would store a string in a number column). A later
 * row with the same key replaces an earlier one: PostgreSQL refuses to upsert one key twice
 * in a statement. Written as plain loops: an import passes millions of rows through here.
 */
function columnValues(set: PdEntitySet, rows: PdRow[]): Array<Array<string | number | null>> {
  const { properties } = set;
  const index = new Map(properties.map((p, i) => [p.name, i]));
  const keyIndexes = set.key.map((k) => index.get(k)!);
  const byKey = new Map<string, Array<string | number | null>>();
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    const values: Array<string | number | null> = new Array(properties.length).fill(null);
    let present = 0;
    for (let i = 0; i < properties.length; i++) {
      const { name, type } = properties[i]!;
      const raw = row[name];
      if (raw === undefined) continue;
      present++;
      const value = checked(type, raw);
      if (value === undefined) throw new PdValueError(`${set.name} row ${r + 1}, ${name}: expected ${type}, got ${JSON.stringify(raw)}`);
      values[i] = value;
    }
    // Keys no property reads are unknown names (or explicit undefineds, which are fine).
    if (Object.keys(row).length !== present) {
      const unknown = Object.keys(row).find((name) => !index.has(name) && row[name] !== undefined);
      if (unknown !== undefined) throw new PdValueError(`${set.name} row ${r + 1}: no property '${unknown}' in ${set.entityType}`);
    }
    let key = '';
    for (const i of keyIndexes) {
      if (values[i] === null) throw new PdValueError(`${set.name} row ${r + 1}: key property ${properties[i]!.name} is missing`);
      key += `${values[i]}\u0000`;
    }
    byKey.set(key, values);
  }
  return [...byKey.values()];
}

/** The value as its column holds it, or undefined when it is not of the type. */
function checked(type: EdmType, value: PdValue | undefined): string | number | null | undefined {
  if (value === null || value === undefined) return null;
  switch (type) {
    case 'Edm.Guid': return typeof value === 'string' && GUID.test(value) ? value.toLowerCase() : undefined;
    case 'Edm.String': return typeof value === 'string' ? value : undefined;
    case 'Edm.Boolean': return typeof value === 'boolean' ? (value ? 1 : 0) : undefined;
    case 'Edm.Decimal': case 'Edm.Double': return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    default: return Number.isSafeInteger(value) ? value as number : undefined; // DateTime (ms) and the integer types
  }
}

function fromColumn(type: EdmType, value: unknown): PdValue {
  if (value === null || value === undefined) return null;
  if (type === 'Edm.Boolean') return Number(value) === 1;
  if (type === 'Edm.Guid' || type === 'Edm.String') return String(value);
  return Number(value);
}

/** Nulls first ascending and last descending, as SQL Server sorts; keys are never null, and a bare direction lets PostgreSQL walk the key index. */
const direction = (descending: boolean, nullable: boolean) =>
  descending ? (nullable ? 'desc nulls last' : 'desc') : (nullable ? 'asc nulls first' : 'asc');

interface KeysetPart {
  expr: RawBuilder<unknown>;
  descending: boolean;
  nullable: boolean;
  value: PdValue;
  type: EdmType;
}

/**
 * Rows strictly after the position `parts` in their order. With no nulls about and one
 * direction, a row comparison `(a, b) > (x, y)`, which both engines answer from the key
 * index; otherwise the lexicographic `a > x or (a = x and b > y) …`, where a null sorts
 * lowest (first ascending, last descending).
 */
function keyset(parts: KeysetPart[]): RawBuilder<unknown> {
  const values = parts.map((p) => (p.value === null ? null : pdSortValue(p.type, p.value)));
  if (parts.every((p, i) => !p.nullable && values[i] !== null && p.descending === parts[0]!.descending)) {
    const op = sql.raw(parts[0]!.descending ? '<' : '>');
    return sql`((${sql.join(parts.map((p) => p.expr))}) ${op} (${sql.join(values as RawBuilder<unknown>[])}))`;
  }
  const alternatives: RawBuilder<unknown>[] = [];
  const equalities: RawBuilder<unknown>[] = [];
  parts.forEach((p, i) => {
    const v = values[i];
    const beyond = v === null
      ? (p.descending ? undefined : sql`${p.expr} is not null`)
      : p.descending ? (p.nullable ? sql`(${p.expr} < ${v} or ${p.expr} is null)` : sql`${p.expr} < ${v}`) : sql`${p.expr} > ${v}`;
    if (beyond) alternatives.push(equalities.length ? sql`(${sql.join([...equalities, beyond], sql` and `)})` : beyond);
    equalities.push(v === null ? sql`${p.expr} is null` : sql`${p.expr} = ${v}`);
  });
  return alternatives.length ? sql`(${sql.join(alternatives, sql` or `)})` : sql`(1 = 0)`;
}
