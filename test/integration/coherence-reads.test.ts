// Instances sharing a database read its metadata counter before each request, so that what
// another instance changed is seen at once (sql-store.ts `sync`). On PostgreSQL that read is a
// round trip, and requests that arrive together share one: a burst of requests costs far fewer
// counter reads than requests — and still every request sent after another instance
// acknowledged a write sees that write. On SQLite (`--workers`) each request asks its own
// probe, which costs no round trip.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startSharedInstances, type TestServer } from '../helpers/server.ts';
import { testBackend } from '../helpers/postgres.ts';
import { pnpFor } from '../helpers/pnp.ts';
import { installStatementRecorder, statementsOf } from '../../bench/statements.ts';

const backend = testBackend();
const BURST = 32;

describe(`requests that arrive together share the metadata counter read, and all see a write acknowledged before them (${backend})`, () => {
  installStatementRecorder();
  const cleanups: Array<() => Promise<void> | void> = [];
  const servers: TestServer[] = [];

  before(async () => {
    const shared = await startSharedInstances('spemu-coherence-');
    cleanups.push(() => shared.close());
    servers.push(...shared.servers);
  });
  after(async () => { for (const cleanup of cleanups.reverse()) await cleanup(); });

  /** The list's title as each of `count` requests sent at once to the second instance reads it. */
  async function burstOfTitles(id: string, count: number): Promise<string[]> {
    const url = `${servers[1]!.site('/sites/dev')}/_api/web/lists(guid'${id}')?$select=Title`;
    return Promise.all(Array.from({ length: count }, async () => {
      const res = await fetch(url, { headers: { Accept: 'application/json;odata=nometadata' } });
      assert.equal(res.status, 200, await res.clone().text());
      return ((await res.json()) as { Title: string }).Title;
    }));
  }

  const isCounterRead = (text: string) => /metadata_version|data_version/i.test(text) && /^\s*(select|pragma)/i.test(text);

  it('a rename through one instance is seen by every request of a burst through the other; on PostgreSQL the burst shares its counter reads', async (t) => {
    const sp = pnpFor(servers[0]!.site('/sites/dev'));
    const { Id: id } = await (await sp.web.lists.ensure('Coherence burst', '', 100)).list.select('Id')() as { Id: string };
    const list = sp.web.lists.getById(id);
    for (let round = 1; round <= 3; round++) {
      // The second instance holds the list as it is (its cache is warm; as many connections open
      // as the burst will use, so it does not wait for new ones one by one), then the first renames it.
      assert.deepEqual(new Set(await burstOfTitles(id, BURST)), new Set([round === 1 ? 'Coherence burst' : `Renamed ${round - 1}`]));
      await list.update({ Title: `Renamed ${round}` });
      let titles: string[] = [];
      const seen = await statementsOf(async () => { titles = await burstOfTitles(id, BURST); });
      assert.deepEqual(titles, Array.from({ length: BURST }, () => `Renamed ${round}`), `round ${round}: a request read the title from before the rename`);
      const counterReads = seen.filter((s) => isCounterRead(s.text)).length;
      t.diagnostic(`round ${round}: ${BURST} requests, ${counterReads} counter reads, ${seen.length} statements in all`);
      if (backend === 'postgres') {
        assert.ok(counterReads >= 1, 'the burst read the counter at least once');
        assert.ok(counterReads <= BURST / 2, `${counterReads} counter reads for ${BURST} requests that arrived together`);
      } else {
        // SQLite: a probe per request (it answers from shared memory; nothing to share), and the
        // counter itself once the probe has moved.
        assert.ok(counterReads >= BURST, `${counterReads} counter reads for ${BURST} requests`);
      }
    }
  });
});
