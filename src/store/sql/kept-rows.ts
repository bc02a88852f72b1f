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

/**
 * Bounded by bytes, not rows: an item's row may carry long text (a Note, a page's canvas of up to
 * 4 MiB). A row over ROW_BYTES is not kept (it is read each time, as before); the rows kept weigh
 * at most BUDGET_BYTES, the oldest going first (Map order is insertion order).
 */
export const ROW_BYTES = 64 * 1024;
export const BUDGET_BYTES = 16 * 1024 * 1024;

interface Kept { row: Row | null; bytes: number }

/** About what a row holds in memory: its text at two bytes a character, 16 bytes a value besides. */
function weight(row: Row | null): number {
  if (!row) return 16;
  let bytes = 64;
  for (const key in row) {
    const value = row[key];
    bytes += 16 + key.length * 2 + (typeof value === 'string' ? value.length * 2 : 0);
  }
  return bytes;
}

export class KeptRows {
  private readonly rows = new Map<string, Map<unknown, Kept>>();
  private bytes = 0;

  /** The row kept for `text` with `param` (null: it has none), or undefined when not kept. */
  get(text: string, param: unknown): Row | null | undefined {
    return this.rows.get(text)?.get(param)?.row;
  }

  keep(text: string, param: unknown, row: Row | null): void {
    const bytes = weight(row);
    if (bytes > ROW_BYTES) return;
    let byParam = this.rows.get(text);
    if (!byParam) this.rows.set(text, (byParam = new Map()));
    const before = byParam.get(param);
    if (before) this.bytes -= before.bytes;
    byParam.set(param, { row, bytes });
    this.bytes += bytes;
    while (this.bytes > BUDGET_BYTES) this.evictOldest();
  }

  /** A statement that may write ran on this connection, or another process committed: nothing kept holds. */
  drop(): void {
    if (this.bytes === 0) return;
    this.rows.clear();
    this.bytes = 0;
  }

  private evictOldest(): void {
    for (const [text, byParam] of this.rows) {
      const first = byParam.entries().next();
      if (first.done) {
        this.rows.delete(text);
        continue;
      }
      byParam.delete(first.value[0]);
      this.bytes -= first.value[1].bytes;
      if (byParam.size === 0) this.rows.delete(text);
      return;
    }
  }
}
