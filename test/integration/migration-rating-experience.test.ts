// Migration 0042: a workspace made before lists kept rating settings gains lists.rating_experience
// ('' for every list: no settings), its items' ratings and likes kept. Turning the settings on
// afterwards (the store's setRatingExperience, as a tenant file's `ratings` does) adds the rating
// fields and fills them from the ratings and likes given before, in one unit of work. The old
// shape is made for real: a workspace made by this spemu, then 0042's column dropped and 0042
// struck from the applied migrations; a new server on it migrates. Both legs.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import '@pnp/sp/comments/item.js';
import '@pnp/sp/folders/index.js';
import { minimalTenant, startTestServer, testDatabase } from '../helpers/server.ts';
import { testBackend } from '../helpers/postgres.ts';
import { pnpFor } from '../helpers/pnp.ts';
import { bearerFor } from '../helpers/bearer.ts';
import { openPostgres, openSqlite } from '../../src/store/sql/connect.ts';
import { SqlStore } from '../../src/store/sql/sql-store.ts';
import { RATING_FIELDS } from '../../src/domain/ratings.ts';

const SECRET = 'migration-0042-secret-0123456789-abcdefgh';
const TENANT = minimalTenant({ lists: [{ title: 'Ideas', items: [{ Title: 'one' }, { Title: 'two' }] }] });

describe(`migration 0042: rating settings (${testBackend()})`, () => {
  let db: string;
  let drop = async () => {};
  const open = async () => (testBackend() === 'sqlite' ? openSqlite({ file: db }) : await openPostgres({ url: db, statementTimeoutMs: 0 }));

  before(async () => {
    if (testBackend() === 'sqlite') db = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'spemu-0042-')), 'spemu.db');
    else ({ db, drop } = await testDatabase());
    const made = await startTestServer({ db, seed: TENANT, tokenSecret: SECRET });
    try {
      // Rated and liked before the list had rating settings (SPO refuses likes then; spemu takes them).
      const sp = pnpFor(made.site('/sites/test'));
      const mark = pnpFor(made.site('/sites/test'), { Authorization: await bearerFor(SECRET, 'mark@fabrikam.onmicrosoft.com') });
      await sp.web.lists.getByTitle('Ideas').items.getById(1).rate(5);
      await mark.web.lists.getByTitle('Ideas').items.getById(1).rate(2);
      await mark.web.lists.getByTitle('Ideas').items.getById(1).like();
    } finally {
      await made.close();
    }
    // Made old: no rating_experience, 0042 not applied.
    const connection = await open();
    try {
      await connection.db.schema.alterTable('lists').dropColumn('rating_experience').execute();
      await connection.db.deleteFrom('kysely_migration').where('name', '=', '0042-rating-experience').execute();
    } finally {
      await connection.db.destroy();
    }
  });
  after(async () => { await drop(); });

  it('the old lists have no rating settings; turned on, the fields hold what was rated and liked before', async () => {
    let server = await startTestServer({ db, seed: TENANT, tokenSecret: SECRET });
    try {
      const sp = pnpFor(server.site('/sites/test'));
      const bag = await sp.web.lists.getByTitle('Ideas').rootFolder.properties();
      assert.equal(bag.Ratings_x005f_VotingExperience, undefined);
      assert.equal(await sp.web.lists.getByTitle('Ideas').items.getById(2).rate(3), 3, 'ratings go on');
    } finally {
      await server.close();
    }
    const connection = await open();
    try {
      const experiences = await connection.db.selectFrom('lists').select('rating_experience').distinct().execute();
      assert.deepEqual(experiences.map((r) => r.rating_experience), ['']);
      const store = new SqlStore(connection.db, testBackend(), {});
      const list = (await connection.db.selectFrom('lists').select('row_id').where('title', '=', 'Ideas').executeTakeFirstOrThrow()).row_id;
      const ideas = (await store.lists.byRowId(Number(list)))!;
      const turned = await store.comments.setRatingExperience(ideas, 'Likes', RATING_FIELDS);
      assert.equal(turned.ratingExperience, 'Likes');
      // Again: nothing added twice.
      await store.comments.setRatingExperience(turned, 'Likes', RATING_FIELDS);
      assert.equal((await store.fields.of(turned)).filter((f) => f.internalName === 'LikesCount').length, 1);
    } finally {
      await connection.db.destroy();
    }
    server = await startTestServer({ db, seed: TENANT, tokenSecret: SECRET });
    try {
      const sp = pnpFor(server.site('/sites/test'));
      const bag = await sp.web.lists.getByTitle('Ideas').rootFolder.properties();
      assert.equal(bag.Ratings_x005f_VotingExperience, 'Likes');
      const rows = await sp.web.lists.getByTitle('Ideas').items.select('Id', 'AverageRating', 'RatingCount', 'LikesCount', 'Ratings').orderBy('Id')();
      assert.deepEqual(rows.map((r) => [r.Id, r.AverageRating, r.RatingCount, r.LikesCount]), [[1, 3.5, 2, 1], [2, 3, 1, 0]]);
    } finally {
      await server.close();
    }
  });
});
