// The hot read path on PostgreSQL (src/store/sql/postgres-direct.ts): named statements on
// pipelined connections of its own. Pipelining queues reads behind one another on a connection,
// so a slow statement must not hold up the reads that come after it; and what a pipelined
// connection answers must be each read's own rows. Against a real cluster, through the driver
// spemu builds (connect.ts), nothing mocked.

import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { sql } from 'kysely';
import assert from 'node:assert/strict';
import { openPostgres } from '../../src/store/sql/connect.ts';
import { LANES } from '../../src/store/sql/postgres-direct.ts';
import { postgresBinaries, sharedCluster, type Cluster } from '../helpers/postgres.ts';

const binaries = postgresBinaries();
const skip = 'missing' in binaries ? `PostgreSQL leg skipped: ${binaries.missing}` : false;
if (skip) console.log(`# ${skip}`);

describe('PostgreSQL hot reads on connections of their own', { skip }, () => {
  let cluster: Cluster;
  let url: string;
  let connection: Awaited<ReturnType<typeof openPostgres>>;

  before(async () => {
    cluster = await sharedCluster();
    url = await cluster.createDatabase();
    connection = await openPostgres({ url });
  });
  after(async () => {
    await connection?.db.destroy();
    if (url) await cluster.dropDatabase(url);
  });

  const read = (text: string, params: unknown[]) => connection.direct.rows(text, params)!;

  it('many reads sent at once each get their own rows, NULs included', async () => {
    const values = Array.from({ length: 200 }, (_, i) => `v${i}${i % 7 === 0 ? '\u0000x' : ''}`);
    // One named statement, run 200 times (its columns are taken in once): bigint comes back a number.
    const rows = await Promise.all(values.map((v, i) => read('select $1::text as v, $2::int as i, $2::bigint as b', [v, i])));
    assert.deepEqual(rows, values.map((v, i) => [{ v, i, b: i }]));
  });

  it('a slow statement does not hold up the reads sent after it', async () => {
    // Reads of one event-loop turn share a lane; a slow statement sent in each of LANES turns holds
    // up every lane, so later reads must go another way (the pool) instead of waiting.
    const slow: Array<Promise<unknown>> = [];
    for (let i = 0; i < LANES; i++) {
      slow.push(read(`select pg_sleep(1.5) as s${i}`, []));
      await new Promise((r) => setTimeout(r, 30));
    }
    await new Promise((r) => setTimeout(r, 100));
    const started = Date.now();
    const quick = await Promise.all(Array.from({ length: 10 }, (_, i) => read('select $1::int as n', [i])));
    const took = Date.now() - started;
    assert.deepEqual(quick, Array.from({ length: 10 }, (_, n) => [{ n }]));
    assert.ok(took < 1000, `quick reads took ${took} ms behind the slow ones`);
    await Promise.all(slow);
  });

  it('the lanes and the pool together open no more connections than maxConnections', async () => {
    const small = await openPostgres({ url: `${url}${url.includes('?') ? '&' : '?'}application_name=spemu_small`, maxConnections: 4 });
    const counter = new pg.Client({ connectionString: url });
    await counter.connect();
    try {
      let stop = false;
      const reads = (async () => {
        while (!stop) {
          await Promise.all(Array.from({ length: 20 }, (_, i) => small.direct.rows('select $1::int as n, pg_sleep(0.01)', [i])));
          await new Promise((r) => setImmediate(r));
        }
      })();
      const writes = Promise.all(Array.from({ length: 6 }, () => small.db.transaction().execute((trx) => sql`select pg_sleep(0.2)`.execute(trx))));
      let most = 0;
      for (let i = 0; i < 10; i++) {
        await new Promise((r) => setTimeout(r, 40));
        const { rows } = await counter.query('select count(*)::int as n from pg_stat_activity where application_name = \'spemu_small\'');
        most = Math.max(most, rows[0].n);
      }
      await writes;
      stop = true;
      await reads;
      assert.ok(most >= 3, `the load used ${most} connections`);
      assert.ok(most <= 4, `${most} connections open`);
    } finally {
      await counter.end();
      await small.db.destroy();
    }
  });

  it('an error in one read fails that read only; the reads pipelined with it are answered', async () => {
    const results = await Promise.allSettled([
      read('select $1::int as n', [1]), read('select 1 / $1::int as n', [0]), read('select $1::int as n', [3]),
    ]);
    assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
    assert.deepEqual((results[2] as PromiseFulfilledResult<unknown>).value, [{ n: 3 }]);
    assert.deepEqual(await read('select $1::int as n', [4]), [{ n: 4 }]);
  });
});
