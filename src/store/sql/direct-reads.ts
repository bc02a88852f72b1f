// The hot read path: SQL that runs straight on the driver, without Kysely per call.
//
// Holds: the SQL text of each hot read shape (item by id, items by ids, a page of a list, the
// lists of a web, a password hash, the metadata counter), built once with Kysely's compiler
// and kept by shape; the driver keeps each text prepared (better-sqlite3 statements by text,
// PostgreSQL named statements per connection). Dropped: on DDL (`clear`, via onSchemaChange).
//
// Only reads outside a unit of work take this path: inside one, statements must run on the
// transaction's connection, which only Kysely holds (SqlSession.rows decides).

export type Row = Record<string, unknown>;

/** What a driver offers the hot path (connect.ts makes one per database). */
export interface DirectDriver {
  /**
   * The rows of `text` with `params`, or undefined when it cannot run now: on SQLite's one
   * connection while another unit of work has a transaction open (a direct read would see
   * its uncommitted rows), so the caller queues behind it through Kysely instead.
   */
  rows(text: string, params: readonly unknown[]): Promise<Row[]> | undefined;
  /**
   * The first row of `text` (null: none) at once, where the driver is synchronous (SQLite)
   * and can run it now; undefined otherwise (then `rows`). A read by primary key this way
   * costs no promise and stops at the row it needs.
   */
  rowNow?(text: string, params: readonly unknown[]): Row | null | undefined;
  /** Another process committed (the change probe moved): forget rows kept from before (kept-rows.ts). */
  externalChange?(): void;
  /** Forgets prepared statements (after DDL). */
  clear(): void;
}

/** Most shapes kept; past this the texts are dropped and built again (shapes are few: lists × projections). */
const MAX_SHAPES = 2_000;

/** The SQL text of each hot shape, by a key naming the shape (table, columns, clauses). */
export class ShapeTexts {
  private readonly texts = new Map<string, string>();

  /** The text of shape `key`, built by `build` on first use. */
  get(key: string, build: () => string): string {
    let text = this.texts.get(key);
    if (text === undefined) {
      if (this.texts.size >= MAX_SHAPES) this.texts.clear();
      this.texts.set(key, (text = build()));
    }
    return text;
  }

  clear(): void {
    this.texts.clear();
  }
}
