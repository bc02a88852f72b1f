// The rating and like columns of a list with rating settings (AverageRating, RatingCount,
// RatedBy, Ratings, LikesCount, LikedBy and its LikedById/LikedByStringId) and items' comment
// counts (`_CommentCount`), through an unmodified @pnp/sp 4.x client and plain fetch: values
// follow SetRating, SetLike and unlike, filter and sort, and go with the item.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import '@pnp/sp/comments/item.js';
import '@pnp/sp/comments/index.js';
import '@pnp/sp/folders/index.js';
import { minimalTenant, useTestServer } from '../helpers/server.ts';
import { failure, pnpFor } from '../helpers/pnp.ts';
import { bearerFor } from '../helpers/bearer.ts';
import '../helpers/pnp-comment-types.ts';

const SECRET = 'pnp-ratings-secret-0123456789-abcdef-xyz';
const MARK = 'mark@fabrikam.onmicrosoft.com'; // a member of /sites/test
const NOMETA = { Accept: 'application/json;odata=nometadata' };
const VERBOSE = { Accept: 'application/json;odata=verbose' };

const seed = minimalTenant({
  lists: [
    { title: 'Rated Ideas', ratings: 'Ratings', items: [{ Title: 'first' }, { Title: 'second' }, { Title: 'third' }] },
    { title: 'Liked Ideas', ratings: 'Likes', items: [{ Title: 'one' }, { Title: 'two' }] },
    { title: 'Plain Ideas', items: [{ Title: 'plain' }] },
  ],
});

type Row = Record<string, unknown>;

describe('PnPjs rating and like columns, and comment counts, against spemu', () => {
  const spemu = useTestServer({ tokenSecret: SECRET, seed });
  let sp: SPFI;
  let site: string;
  let mark: SPFI;

  const items = (title: string) => `${site}/_api/web/lists/getbytitle('${encodeURIComponent(title)}')/items`;
  const json = async (url: string, headers: Record<string, string> = NOMETA): Promise<Row> => {
    const res = await fetch(url, { headers });
    assert.equal(res.status, 200, `${url}: ${await res.clone().text()}`);
    return (await res.json()) as Row;
  };

  before(async () => {
    site = spemu.server.site('/sites/test');
    sp = pnpFor(site);
    mark = pnpFor(site, { Authorization: await bearerFor(SECRET, MARK) });
  });

  it('a list with rating settings has the six fields, with SharePoint ids, read-only; its root folder says which', async () => {
    const fields = await sp.web.lists.getByTitle('Rated Ideas').fields
      .filter("Group eq 'Content Feedback'").select('Id', 'InternalName', 'TypeAsString', 'ReadOnlyField', 'Hidden')();
    const byName = new Map(fields.map((f) => [f.InternalName, f]));
    assert.deepEqual([...byName.keys()].sort(), ['AverageRating', 'LikedBy', 'LikesCount', 'RatedBy', 'RatingCount', 'Ratings']);
    assert.equal(byName.get('AverageRating')!.Id, '5a14d1ab-1513-48c7-97b3-657a5ba6c742');
    assert.equal(byName.get('LikesCount')!.Id, '6e4d832b-f610-41a8-b3e0-239608efda41');
    assert.equal(byName.get('LikedBy')!.Id, '2cdcd5eb-846d-4f4d-9aaf-73e8e73c7312');
    assert.equal(byName.get('LikedBy')!.TypeAsString, 'UserMulti');
    assert.equal(byName.get('RatedBy')!.Hidden, true);
    assert.ok(fields.every((f) => f.ReadOnlyField === true));

    const rated = await sp.web.lists.getByTitle('Rated Ideas').rootFolder.properties();
    assert.equal(rated.Ratings_x005f_VotingExperience, 'Ratings');
    const liked = await sp.web.lists.getByTitle('Liked Ideas').rootFolder.properties();
    assert.equal(liked.Ratings_x005f_VotingExperience, 'Likes');
    const plain = await sp.web.lists.getByTitle('Plain Ideas').rootFolder.properties();
    assert.equal(plain.Ratings_x005f_VotingExperience, undefined);
    assert.equal((await sp.web.lists.getByTitle('Plain Ideas').fields.filter("InternalName eq 'LikesCount'")()).length, 0);
  });

  it('SetRating: AverageRating, RatingCount, RatedBy and Ratings follow every rating, in $select, $filter and $orderby', async () => {
    const list = sp.web.lists.getByTitle('Rated Ideas');
    const untouched = await list.items.getById(3).select('AverageRating', 'RatingCount', 'LikesCount')();
    assert.equal(untouched.AverageRating, null, 'never rated: no value yet');
    assert.equal(untouched.RatingCount, null);

    assert.equal(await list.items.getById(1).rate(4), 4);
    assert.equal(await mark.web.lists.getByTitle('Rated Ideas').items.getById(1).rate(1), 2.5);
    assert.equal(await list.items.getById(2).rate(5), 5);
    const one = await list.items.getById(1).select('AverageRating', 'RatingCount', 'RatedById', 'RatedByStringId', 'Ratings')();
    assert.equal(one.AverageRating, 2.5);
    assert.equal(one.RatingCount, 2);
    assert.equal((one.RatedById as number[]).length, 2);
    assert.deepEqual(one.RatedByStringId, (one.RatedById as number[]).map(String));
    assert.equal(one.Ratings, '4,1,');

    // A second rating by the same user replaces the first.
    assert.equal(await list.items.getById(1).rate(2), 1.5);
    const again = await list.items.getById(1).select('AverageRating', 'RatingCount', 'Ratings')();
    assert.equal(again.AverageRating, 1.5);
    assert.equal(again.RatingCount, 2);
    // Each rating followed by a comma, in RatedBy's order (when rated: the same second orders by user).
    assert.match(String(again.Ratings), /^\d,\d,$/);
    assert.deepEqual(String(again.Ratings).split(',').filter(Boolean).sort(), ['1', '2'], 'the new rating replaced the old');

    const best = await list.items.select('Id', 'AverageRating').filter('AverageRating gt 3')();
    assert.deepEqual(best.map((i) => i.Id), [2]);
    const counted = await list.items.select('Id').filter('RatingCount ge 1').orderBy('AverageRating', false)();
    assert.deepEqual(counted.map((i) => i.Id), [2, 1]);

    // The wire: a Number is Edm.Double in verbose; nometadata a plain number.
    const verbose = await json(`${items('Rated Ideas')}(1)?$select=AverageRating,RatingCount`, VERBOSE);
    const d = verbose.d as Row;
    assert.equal(d.AverageRating, 1.5);
    assert.equal(d.RatingCount, 2);
    const text = await (await fetch(`${items('Rated Ideas')}(2)?$select=AverageRating,RatingCount`, { headers: NOMETA })).text();
    assert.match(text, /"AverageRating":5(\.0)?,"RatingCount":1/);
  });

  it('SetLike: LikesCount, LikedBy (expanded), LikedById and LikedByStringId follow like and unlike', async () => {
    const list = sp.web.lists.getByTitle('Liked Ideas');
    await list.items.getById(1).like();
    await list.items.getById(1).like(); // once per user
    await mark.web.lists.getByTitle('Liked Ideas').items.getById(1).like();
    let row = await list.items.getById(1).select('LikesCount', 'LikedBy/Title', 'LikedById', 'LikedByStringId').expand('LikedBy')();
    assert.equal(row.LikesCount, 2);
    assert.deepEqual((row.LikedBy as Array<{ Title: string }>).map((u) => u.Title), ['Olivia Owner', 'Mark Member']);
    assert.equal((row.LikedById as number[]).length, 2);
    assert.deepEqual(row.LikedByStringId, (row.LikedById as number[]).map(String));

    await list.items.getById(1).unlike();
    row = await list.items.getById(1).select('LikesCount', 'LikedBy/Title').expand('LikedBy')();
    assert.equal(row.LikesCount, 1);
    assert.deepEqual((row.LikedBy as Array<{ Title: string }>).map((u) => u.Title), ['Mark Member']);
    await mark.web.lists.getByTitle('Liked Ideas').items.getById(1).unlike();
    row = await list.items.getById(1).select('LikesCount', 'LikedById').expand('LikedBy')();
    assert.equal(row.LikesCount, 0, 'unliked by all: 0, not empty');
    assert.deepEqual(row.LikedById, []);

    await list.items.getById(2).like();
    const liked = await list.items.select('Id', 'LikesCount').filter('LikesCount gt 0')();
    assert.deepEqual(liked.map((i) => i.Id), [2]);
    const sorted = await list.items.select('Id').orderBy('LikesCount', false)();
    assert.deepEqual(sorted.map((i) => i.Id), [2, 1]);

    // Verbose: the user ids as SharePoint writes a UserMulti's, under results.
    const d = (await json(`${items('Liked Ideas')}(2)?$select=LikesCount,LikedById,LikedByStringId`, VERBOSE)).d as Row;
    assert.equal(d.LikesCount, 1);
    assert.deepEqual((d.LikedByStringId as { results: string[] }).results, (d.LikedById as { results: number[] }).results.map(String));
    assert.equal((d.LikedByStringId as { __metadata: { type: string } }).__metadata.type, 'Collection(Edm.String)');
  });

  it('the columns are read-only: a client writing them is refused and nothing changes', async () => {
    const res = await fetch(`${items('Liked Ideas')}(2)`, {
      method: 'POST', headers: { ...NOMETA, 'Content-Type': 'application/json', 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*' },
      body: JSON.stringify({ LikesCount: 99 }),
    });
    assert.ok(res.status >= 400 && res.status < 500, `status ${res.status}`);
    let row = await json(`${items('Liked Ideas')}(2)?$select=LikesCount`);
    assert.equal(row.LikesCount, 1);
    // Another field's update keeps them; the form-style update refuses them by name.
    await sp.web.lists.getByTitle('Liked Ideas').items.getById(2).update({ Title: 'renamed' });
    const form = await sp.web.lists.getByTitle('Liked Ideas').items.getById(2).validateUpdateListItem([{ FieldName: 'LikesCount', FieldValue: '7' }]);
    assert.equal(form[0]!.HasException, true);
    row = await json(`${items('Liked Ideas')}(2)?$select=Title,LikesCount,LikedById`);
    assert.deepEqual([row.Title, row.LikesCount, (row.LikedById as number[]).length], ['renamed', 1, 1]);
  });

  it('a list without rating settings: the columns are not there (400), SetRating and SetLike still answer', async () => {
    const list = sp.web.lists.getByTitle('Plain Ideas');
    assert.equal(await list.items.getById(1).rate(3), 3);
    await list.items.getById(1).like();
    const refused = await failure(list.items.getById(1).select('AverageRating')());
    assert.equal(refused.status, 400);
    assert.equal((await failure(list.items.select('Id').filter('LikesCount gt 0')())).status, 400);
  });

  it('_CommentCount: counts the comments and replies of each item, after add and delete; only when selected', async () => {
    const list = sp.web.lists.getByTitle('Plain Ideas');
    const { Id: second } = await list.items.add({ Title: 'second plain' });
    const comment = await list.items.getById(1).comments.add('one');
    await list.items.getById(1).comments.add('two');
    await comment.replies.add('a reply');
    const page = await list.items.select('Id', '_CommentCount').orderBy('Id')();
    assert.deepEqual(page.map((i) => [i.Id, i.OData__CommentCount]), [[1, 3], [second, 0]]);

    await list.items.getById(1).comments.getById(comment.id).delete(); // with its reply
    const one = await json(`${items('Plain Ideas')}(1)?$select=Id,_CommentCount`);
    assert.equal(one.OData__CommentCount, 1);
    const verbose = (await json(`${items('Plain Ideas')}(1)?$select=_CommentCount`, VERBOSE)).d as Row;
    assert.equal(verbose.OData__CommentCount, 1);

    const plain = await json(`${items('Plain Ideas')}(1)`);
    assert.equal('OData__CommentCount' in plain, false, 'not in an item read that does not name it');
    assert.equal((await failure(list.items.select('_CommentCount/Title')())).status, 400);
    assert.equal((await failure(list.items.select('Id').filter('_CommentCount gt 0')())).status, 400, 'not a column: no $filter');
  });

  it('deleting an item takes its ratings and likes along; a new item with its id starts unrated', async () => {
    const list = sp.web.lists.getByTitle('Rated Ideas');
    const { Id: id } = await list.items.add({ Title: 'short-lived' });
    assert.equal(await list.items.getById(id).rate(5), 5);
    await list.items.getById(id).like();
    await list.items.getById(id).delete();
    assert.equal((await failure(list.items.getById(id).select('AverageRating')())).status, 404);
    const { Id: next } = await list.items.add({ Title: 'next' });
    const row = await list.items.getById(next).select('AverageRating', 'RatingCount', 'LikesCount')();
    assert.deepEqual([row.AverageRating, row.RatingCount, row.LikesCount], [null, null, null]);
    assert.equal(await list.items.getById(next).rate(3), 3, 'no rating of the deleted item counts');
  });

  it('bad input: a rating out of range or a like that is not a boolean leaves the columns as they were', async () => {
    const list = sp.web.lists.getByTitle('Rated Ideas');
    const before = await list.items.getById(2).select('AverageRating', 'RatingCount')();
    assert.equal((await failure(list.items.getById(2).rate(0 as 1))).status, 400);
    const id = (await sp.web.lists.getByTitle('Rated Ideas').select('Id')()).Id;
    const res = await fetch(`${site}/_api/Microsoft.Office.Server.ReputationModel.Reputation.SetLike(listID=@a1,itemID=@a2,like=@a3)?@a1='${id}'&@a2='2'&@a3='maybe'`, { method: 'POST', headers: NOMETA });
    assert.equal(res.status, 400);
    const after = await list.items.getById(2).select('AverageRating', 'RatingCount', 'LikesCount')();
    assert.deepEqual([after.AverageRating, after.RatingCount], [before.AverageRating, before.RatingCount]);
  });
});
