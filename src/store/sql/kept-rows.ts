// Rows of hot point reads (an item by id), kept in memory while the database they came from
// cannot have changed.
//
// Holds: the answer (a row, or "none") of each single-parameter hot read, by its SQL text and
// parameter. Valid while: this connection ran no statement that may write (any statement
// SQLite does not call read-only: every INSERT, UPDATE, DELETE, DDL, whether it committed or
// not) and no other process committed (`externalChange`, called when `pragma data_version`
// moves: SqlStore.sync under `--workers`). Both drop every row at once: a write is rare next
// to reads, and dropping all of them needs no knowledge of which rows a statement touched.
//
// Only reads outside a transaction are kept (the driver's rule): one inside could see rows a
// rollback takes back.

import type { Row } from './direct-reads.ts';

/** Most rows kept; the oldest go first (Map order is insertion order). */
const CAPACITY = 10_000;

export class KeptRows {
  private readonly rows = new Map<string, Map<unknown, Row | null>>();
  private size = 0;

  /** The row kept for `text` with `param` (null: it has none), or undefined when not kept. */
  get(text: string, param: unknown): Row | null | undefined {
    return this.rows.get(text)?.get(param);
  }

  keep(text: string, param: unknown, row: Row | null): void {
    let byParam = this.rows.get(text);
    if (!byParam) this.rows.set(text, (byParam = new Map()));
    if (this.size >= CAPACITY) this.evictOldest();
    if (!byParam.has(param)) this.size++;
    byParam.set(param, row);
  }

  /** A statement that may write ran on this connection, or another process committed: nothing kept holds. */
  drop(): void {
    if (this.size === 0) return;
    this.rows.clear();
    this.size = 0;
  }

  private evictOldest(): void {
    for (const [text, byParam] of this.rows) {
      const first = byParam.keys().next();
      if (first.done) {
        this.rows.delete(text);
        continue;
      }
      byParam.delete(first.value);
      this.size--;
      if (byParam.size === 0) this.rows.delete(text);
      return;
    }
  }
}
