// The statements a spemu running in this process sends to its database, seen at the drivers:
// every execution of a better-sqlite3 statement (compiled statements are cached, so executions,
// not prepares, are counted) and every `pg` client query (Kysely's and the named hot reads
// alike). For the benchmark only: it shows which statements a request runs (their plans are
// then asked of the database) and how many, without changing what spemu does.

import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';

export interface Statement { text: string; params: unknown[] }

let seen: Statement[] | undefined;
let installed = false;

function note(text: unknown, params: unknown): void {
  if (seen && typeof text === 'string') seen.push({ text, params: Array.isArray(params) ? params : [] });
}

/** Hooks the drivers (once, before the server opens its database). */
export function installStatementRecorder(): void {
  if (installed) return;
  installed = true;
  const probe = new SqliteDatabase(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, (...args: unknown[]) => unknown>;
  probe.close();
  for (const method of ['all', 'get', 'run', 'iterate']) {
    const original = proto[method]!;
    proto[method] = function (this: { source: string }, ...args: unknown[]) {
      note(this.source, args.length === 1 && Array.isArray(args[0]) ? args[0] : args);
      return original.apply(this, args);
    };
  }
  const query = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  (pg.Client.prototype as { query: unknown }).query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text?: string; values?: unknown[] } | undefined;
    if (typeof first === 'string') note(first, args[1]);
    else note(first?.text, first?.values);
    return query.apply(this, args);
  };
}

/** The statements `fn` causes (everything the process sends meanwhile: run requests one at a time). */
export async function statementsOf(fn: () => Promise<void>): Promise<Statement[]> {
  const out: Statement[] = [];
  seen = out;
  try { await fn(); } finally { seen = undefined; }
  return out;
}
