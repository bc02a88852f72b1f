// Progress of an export or import on stderr: each table as it finishes, a running count
// while a big one is under way (rewritten in place on a terminal, a line every few seconds
// otherwise), and the totals with rows per second.

import type { Writable } from 'node:stream';

const n = (v: number) => v.toLocaleString('en-US');
const rate = (rows: number, ms: number) => (ms > 0 ? Math.round((rows * 1000) / ms) : rows);

export class Progress {
  private readonly started = performance.now();
  private tableStarted = 0;
  private table = '';
  private expected = 0;
  private rows = 0;
  private total = 0;
  private tables = 0;
  private lastShown = 0;
  private readonly tty: boolean;

  constructor(private readonly verb: string, private readonly out: Writable & { isTTY?: boolean } = process.stderr, private readonly quiet = false) {
    this.tty = out.isTTY === true;
  }

  private print(line: string, transient = false): void {
    if (this.quiet) return;
    if (this.tty) this.out.write(`\r\x1b[K${line}${transient ? '' : '\n'}`);
    else if (!transient) this.out.write(`${line}\n`);
  }

  note(text: string): void { this.print(text); }

  startTable(name: string, expected: number): void {
    this.table = name;
    this.expected = expected;
    this.rows = 0;
    this.tableStarted = performance.now();
  }

  addRows(count: number): void {
    this.rows += count;
    this.total += count;
    const now = performance.now();
    const every = this.tty ? 250 : 5000;
    if (now - this.lastShown < every) return;
    this.lastShown = now;
    const share = this.expected ? ` (${Math.floor((100 * this.rows) / this.expected)}%)` : '';
    const line = `  ${this.table}: ${n(this.rows)}${this.expected ? ` of ${n(this.expected)}` : ''} rows${share}, ${n(rate(this.rows, now - this.tableStarted))} rows/s`;
    if (this.tty) this.print(line, true);
    else this.print(line);
  }

  endTable(): void {
    this.tables++;
    this.print(`  ${this.table}: ${n(this.rows)} rows`);
  }

  finish(): { tables: number; rows: number; seconds: number; rowsPerSecond: number } {
    const ms = performance.now() - this.started;
    const summary = { tables: this.tables, rows: this.total, seconds: ms / 1000, rowsPerSecond: rate(this.total, ms) };
    this.print(`${this.verb} ${n(summary.tables)} tables, ${n(summary.rows)} rows in ${summary.seconds.toFixed(1)} s (${n(summary.rowsPerSecond)} rows/s)`);
    return summary;
  }
}
