// The hot read path on PostgreSQL (direct-reads.ts): named statements on a few connections of
// its own, kept out of the pool, each in pipeline mode.
//
// Why not the pool: a hot read is one statement, and through `pool.query` it also pays a checkout
// and a release (pg-pool's callbacks and promises) and a socket write of its own, which on a
// small machine wakes the database's process once per read. On a lane of its own, the reads that
// a turn of the event loop brings (a burst of requests the shared counter read let go at once,
// sql-store.ts) are written together: the socket is corked from the first read of the turn until
// the turn ends, so they leave in one write, and the database answers them in order.
//
// Pipelining has a cost the pool has not: a slow statement holds up the reads queued behind it on
// its lane. So a lane that has made no progress for STALLED_MS takes no new reads; they go to
// another lane, else through the pool, as before.

import type pg from 'pg';
import type { DirectDriver, Row } from './direct-reads.ts';

/**
 * PostgreSQL's text cannot hold U+0000, which SQLite (and SharePoint) store. It travels as
 * U+FFFF, a noncharacter no real text carries, both ways: parameters are encoded, result
 * strings decoded, so a NUL round-trips and compares as on SQLite (a NUL in a lookup key
 * matches nothing, instead of an error).
 */
const NUL_STANDIN = '\uFFFF';
export const encodeNul = (v: unknown): unknown => (typeof v === 'string' && v.includes('\u0000') ? v.replaceAll('\u0000', NUL_STANDIN) : v);
export function decodeNuls<T extends { rows?: unknown[] }>(result: T): T {
  for (const row of result?.rows ?? []) {
    if (!row || typeof row !== 'object') continue;
    const record = row as Record<string, unknown>;
    for (const key in record) {
      const v = record[key];
      if (typeof v === 'string' && v.includes(NUL_STANDIN)) record[key] = v.replaceAll(NUL_STANDIN, '\u0000');
    }
  }
  return result;
}

/** Most distinct texts run as named (server-side prepared) statements; others run unnamed. */
const MAX_NAMED_STATEMENTS = 1_000;
/** Most connections of the hot path (4 measured more req/s than 2 on a 2-core machine: more backends at work). */
export const LANES = 4;
/** A lane with reads out and no answer for this long takes no new reads (a slow statement at its head). */
const STALLED_MS = 20;

export interface PostgresDirectOptions {
  driver: typeof pg;
  /** How each lane connects: the pool's settings (URL, timeouts, type parsers). */
  config: pg.ClientConfig;
  /** Connections of the hot path (at most LANES); 0 sends every read through the pool. */
  lanes: number;
  /** Where reads go while every lane is stalled. */
  pool: pg.Pool;
  /** Maps "the database is not there" to SharePoint's 503 (connect.ts). */
  unavailable: (e: unknown) => unknown;
  onIdleError?: ((error: Error) => void) | undefined;
}

interface Lane {
  client: pg.Client;
  /** Set once connected; until then reads wait for `opening`. */
  open: boolean;
  /** The connection failed or was lost: the next read opens a new lane in its place. */
  dead: boolean;
  opening: Promise<void>;
  corked: boolean;
  /** Reads sent and not yet answered. */
  out: number;
  /** When a read was last answered, or sent to an idle lane (Date.now()). */
  progress: number;
}

type Done = (error: Error | null, result: pg.QueryResult) => void;

interface FieldDescription { name: string; dataTypeID: number; format: string }
/** What pg's Result makes of a row description (pg 8's private members; the tests read rows through them). */
interface ResultInternals { fields: FieldDescription[]; _parsers: unknown[] | undefined; _prebuiltEmptyResultObject: unknown }
interface Described { fields: FieldDescription[]; parsers: unknown[] | undefined; prebuilt: unknown }

const sameFields = (a: FieldDescription[], b: FieldDescription[]): boolean =>
  a.length === b.length && a.every((f, i) => f.name === b[i]!.name && f.dataTypeID === b[i]!.dataTypeID && f.format === b[i]!.format);

/**
 * pg's Query, taking a named statement's columns in once: every execution is answered with its
 * row description, from which pg looks up a parser per column and builds an empty row each time.
 * A named statement's columns stay the same (its text does), so what was made of them the first
 * time is used again while the description matches.
 */
function hotQueryClass(driver: typeof pg) {
  const described = new Map<string, Described>();
  const Base = driver.Query as unknown as new (text: string, values: unknown[], callback: Done) => pg.Submittable & {
    name?: string; _result: ResultInternals; _accumulateRows: boolean; handleRowDescription(msg: { fields: FieldDescription[] }): void;
  };
  return class HotQuery extends Base {
    override handleRowDescription(msg: { fields: FieldDescription[] }): void {
      const known = this.name ? described.get(this.name) : undefined;
      if (known?.parsers && sameFields(known.fields, msg.fields)) {
        const result = this._result;
        result.fields = msg.fields;
        result._parsers = known.parsers;
        result._prebuiltEmptyResultObject = known.prebuilt;
        this._accumulateRows = true; // a callback takes the rows
        return;
      }
      super.handleRowDescription(msg);
      if (this.name) described.set(this.name, { fields: msg.fields, parsers: this._result._parsers, prebuilt: this._result._prebuiltEmptyResultObject });
    }
  };
}

export function postgresDirect(options: PostgresDirectOptions): DirectDriver & { end(): Promise<void> } {
  const { driver, config, pool, unavailable } = options;
  const Query = hotQueryClass(driver);
  const names = new Map<string, string>();
  const count = Math.max(0, Math.min(LANES, options.lanes));
  const lanes: Array<Lane | undefined> = new Array(count).fill(undefined);
  let turn = 0;
  /** The lane corked in this turn of the event loop. */
  let current: Lane | undefined;
  let ending = false;

  function openLane(): Lane {
    const client = new driver.Client({ ...config, pipeline: true } as pg.ClientConfig);
    const lane: Lane = { client, open: false, dead: false, opening: undefined!, corked: false, out: 0, progress: 0 };
    // A lost connection fails the reads it had out (pg does), and must not bring the process down.
    client.on('error', (e) => { lane.dead = true; if (!ending) options.onIdleError?.(e); });
    client.on('end', () => { lane.dead = true; });
    lane.opening = client.connect().then(() => { lane.open = true; }, (e: unknown) => { lane.dead = true; throw e; });
    lane.opening.catch(() => {}); // its reads are told; nobody else waits for it
    return lane;
  }

  /**
   * The lane this turn of the event loop writes to, so the turn's reads leave in one write; else
   * the next round the ring that is not stalled (a dead one is replaced), or undefined.
   */
  function pick(): Lane | undefined {
    if (current && !current.dead) return current;
    const now = Date.now();
    for (let tried = 0; tried < count; tried++) {
      const i = turn;
      turn = (turn + 1) % count;
      let lane = lanes[i];
      if (!lane || lane.dead) lanes[i] = lane = openLane();
      if (lane.out === 0 || now - lane.progress < STALLED_MS) return lane;
    }
    return undefined;
  }

  /** Holds the lane's writes until this turn of the event loop ends, so its reads leave together. */
  function cork(lane: Lane): void {
    if (lane.corked) return;
    const stream = (lane.client as unknown as { connection: { stream: NodeJS.WritableStream & { cork(): void; uncork(): void } } }).connection.stream;
    lane.corked = true;
    current = lane;
    stream.cork();
    setImmediate(() => { lane.corked = false; if (current === lane) current = undefined; stream.uncork(); });
  }

  function send(lane: Lane, text: string, name: string | undefined, values: unknown[], done: Done): void {
    if (lane.out++ === 0) lane.progress = Date.now();
    cork(lane);
    // A Query made from the text, not from a config object: pg copies a config object property
    // by property (its descriptors) on every query. The name is what a config would have set.
    const query = new Query(text, values, (error: Error | null, result: pg.QueryResult) => {
      lane.out--;
      lane.progress = Date.now();
      done(error, result);
    });
    if (name) query.name = name;
    lane.client.query(query);
  }

  return {
    rows(text, params) {
      let name = names.get(text);
      if (name === undefined && names.size < MAX_NAMED_STATEMENTS) names.set(text, (name = `spemu_${names.size}`));
      const values = params.map(encodeNul);
      const lane = ending ? undefined : pick();
      if (!lane) return pool.query(name ? { text, values, name } : { text, values }).then((result) => decodeNuls(result).rows as Row[], (e: unknown) => { throw unavailable(e); });
      return new Promise<Row[]>((resolve, reject) => {
        const done: Done = (error, result) => (error ? reject(unavailable(error)) : resolve(decodeNuls(result).rows as Row[]));
        if (lane.open) send(lane, text, name, values, done);
        else lane.opening.then(() => send(lane, text, name, values, done), (e: unknown) => reject(unavailable(e)));
      });
    },
    // PostgreSQL replans a prepared statement itself when a table it reads changes.
    clear: () => {},
    async end() {
      ending = true;
      await Promise.all(lanes.map((lane) => lane && !lane.dead && lane.client.end().catch(() => {})));
    },
  };
}
