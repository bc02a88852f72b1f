// List item comments and ratings through an unmodified @pnp/sp 4.x client: the calls of the
// upstream "Comments > Items" tests (add, getById, clear, rate), then likes, replies, delete,
// who may do what, and comments gone with their item. Plain fetch checks the wire shape.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import '@pnp/sp/comments/item.js';
import '@pnp/sp/comments/index.js';
import '@pnp/sp/security/index.js';
import '@pnp/sp/site-groups/index.js';
import { useTestServer } from '../helpers/server.ts';
import { failure, pnpFor } from '../helpers/pnp.ts';
import { bearerFor } from '../helpers/bearer.ts';
import '../helpers/pnp-comment-types.ts';

const SECRET = 'pnp-item-comments-secret-0123456789-abcdef';
const BOB = 'bob@contoso.onmicrosoft.com'; // a member of /sites/dev
const DAVE = 'dave@contoso.onmicrosoft.com'; // a visitor of /sites/dev
const ERIN = 'erin@contoso.onmicrosoft.com'; // no role on /sites/dev

describe('PnPjs item comments and ratings against spemu', () => {
  const spemu = useTestServer({ tokenSecret: SECRET });
  let sp: SPFI;
  let site: string;
  const as = async (upn: string) => pnpFor(site, { Authorization: await bearerFor(SECRET, upn) });

  before(async () => {
    site = spemu.server.site('/sites/dev');
    sp = pnpFor(site);
  });

  it('the upstream Items block: add, getById, clear (four, then none), rate answers the average', async () => {
    const { list } = await sp.web.lists.ensure('CommentItemTestList', 'Used to test item comment operations');
    const { Id: id } = await list.items.add({ Title: 'Item A' });
    const item = list.items.getById(id);

    const comment = await item.comments.add('Test Add Comment');
    assert.equal(comment.text, 'Test Add Comment');
    assert.equal(typeof comment.id, 'string');
    const again = await item.comments.add('Test GetById Comment');
    const read = await item.comments.getById(parseInt(again.id, 10))();
    assert.equal(read.text, 'Test GetById Comment');
    assert.equal(read.id, again.id);
    assert.notEqual(again.id, comment.id);

    const { Id: otherId } = await list.items.add({ Title: 'Item B' });
    const other = list.items.getById(otherId);
    for (let i = 0; i < 4; i++) await other.comments.add('A test comment');
    assert.equal((await other.comments()).length, 4);
    assert.equal((await item.comments()).length, 2, 'each item has its own comments');
    await other.comments.clear();
    assert.equal((await other.comments()).length, 0);
    assert.equal((await item.comments()).length, 2, 'clear leaves other items alone');

    assert.equal(await item.rate(2), 2);
    assert.equal(await (await as(BOB)).web.lists.getByTitle('CommentItemTestList').items.getById(id).rate(5), 3.5, 'the average of both raters');
    assert.equal(await item.rate(4), 4.5, 'a second rating by the same user replaces the first');
    assert.equal((await failure(item.rate(9 as 5))).status, 400);
    assert.equal((await failure(list.items.getById(9999).rate(3))).status, 404);
  });

  it('likes, replies, likedBy, delete; the author and the counts as SharePoint gives them', async () => {
    const { list } = await sp.web.lists.ensure('Comment Social');
    const { Id: id } = await list.items.add({ Title: 'social' });
    const item = list.items.getById(id);
    const comment = await item.comments.add('Like me');
    assert.equal(comment.likeCount, 0);
    assert.equal(comment.isLikedByUser, false);
    assert.equal(comment.isReply, false);
    assert.equal(comment.parentId, '0');
    assert.equal(comment.itemId, id);
    assert.match(comment.author.loginName, /\|/);

    await comment.like();
    await comment.like(); // one like per user
    let read = await item.comments.getById(comment.id)();
    assert.equal(read.likeCount, 1);
    assert.equal(read.isLikedByUser, true);
    const bobItem = (await as(BOB)).web.lists.getByTitle('Comment Social').items.getById(id);
    await bobItem.comments.getById(comment.id).like();
    const bobView = await bobItem.comments.getById(comment.id)();
    assert.equal(bobView.likeCount, 2);
    assert.equal(bobView.isLikedByUser, true);
    const likedBy = await fetch(`${site}/_api/web/lists/getbytitle('Comment Social')/items(${id})/Comments(${comment.id})/likedBy`, { headers: { Accept: 'application/json;odata=nometadata' } });
    const likers = ((await likedBy.json()) as { value: Array<{ loginName: string }> }).value;
    assert.equal(likers.length, 2);
    assert.ok(likers[1]!.loginName.toLowerCase().endsWith(BOB));
    await comment.unlike();
    read = await item.comments.getById(comment.id)();
    assert.equal(read.likeCount, 1);
    assert.equal(read.isLikedByUser, false);

    const reply = await comment.replies.add('Reply 1');
    assert.equal(reply.text, 'Reply 1');
    assert.equal(reply.isReply, true);
    assert.equal(reply.parentId, comment.id);
    await comment.replies.add({ text: 'Reply 2' });
    assert.deepEqual((await comment.replies()).map((r) => r.text), ['Reply 1', 'Reply 2']);
    assert.equal((await item.comments.getById(comment.id)()).replyCount, 2);
    assert.deepEqual((await item.comments()).map((c) => c.text), ['Like me'], 'replies are not listed among the item\'s comments');

    await item.comments.getById(comment.id).delete();
    assert.equal((await item.comments()).length, 0);
    const gone = await failure(item.comments.getById(comment.id)());
    assert.equal(gone.status, 404);
    assert.equal((await failure(item.comments.getById(reply.id)())).status, 404, 'its replies went with it');
    assert.equal((await failure(item.comments.add(''))).status, 400);
  });

  it('who may: a visitor comments, likes and removes their own; not another\'s, nor DeleteAll; no role, nothing', async () => {
    const { list } = await sp.web.lists.ensure('Comment Rights');
    const { Id: id } = await list.items.add({ Title: 'rights' });
    const ownerComment = await list.items.getById(id).comments.add('by the owner');
    const visitorItem = (await as(DAVE)).web.lists.getByTitle('Comment Rights').items.getById(id);
    const mine = await visitorItem.comments.add('by a visitor');
    assert.ok(mine.author.loginName.toLowerCase().endsWith(DAVE));
    await visitorItem.comments.getById(ownerComment.id).like();
    assert.equal(await visitorItem.rate(1), 1);

    const refused = await failure(visitorItem.comments.getById(ownerComment.id).delete());
    assert.equal(refused.status, 403);
    assert.equal((await failure(visitorItem.comments.clear())).status, 403);
    assert.equal((await list.items.getById(id).comments()).length, 2, 'nothing removed');
    await visitorItem.comments.getById(mine.id).delete();

    const erinItem = (await as(ERIN)).web.lists.getByTitle('Comment Rights').items.getById(id);
    assert.equal((await failure(erinItem.comments())).status, 403);
    assert.equal((await failure(erinItem.comments.add('let me in'))).status, 403);

    // A member may remove anyone's comment (edit rights on the item).
    await (await as(BOB)).web.lists.getByTitle('Comment Rights').items.getById(id).comments.getById(ownerComment.id).delete();
    assert.equal((await list.items.getById(id).comments()).length, 0);
  });

  it('an item shut to the members: its comments refused to a member, rating too; the item beside it open', async () => {
    const { list } = await sp.web.lists.ensure('Comment Closed');
    const { Id: open } = await list.items.add({ Title: 'open' });
    const { Id: closed } = await list.items.add({ Title: 'closed' });
    await list.items.getById(closed).comments.add('behind the door');
    await list.items.getById(closed).breakRoleInheritance(true, false);
    const members = await sp.web.associatedMemberGroup();
    await list.items.getById(closed).roleAssignments.remove(members.Id, 1073741830);
    const bobList = (await as(BOB)).web.lists.getByTitle('Comment Closed');
    assert.equal((await failure(bobList.items.getById(closed).comments())).status, 403);
    assert.equal((await failure(bobList.items.getById(closed).comments.getById(1)())).status, 403);
    assert.equal((await failure(bobList.items.getById(closed).comments.add('knock'))).status, 403);
    const listId = (await list.select('Id')()).Id;
    const rate = await fetch(`${site}/_api/Microsoft.Office.Server.ReputationModel.Reputation.SetRating(listID=@a1,itemID=@a2,rating=@a3)?@a1='{${listId}}'&@a2='${closed}'&@a3=4`, {
      method: 'POST', headers: { Accept: 'application/json;odata=verbose', Authorization: await bearerFor(SECRET, BOB) },
    });
    assert.equal(rate.status, 403);
    assert.equal((await list.items.getById(closed).comments()).length, 1, 'nothing added');
    assert.equal((await bobList.items.getById(open).comments.add('fine here')).text, 'fine here');
  });

  it('DisableCommenting: set on a list (made with it, or updated), read back; new comments and replies refused, reading and rating go on', async () => {
    const made = await sp.web.lists.add('Comment Off', '', 100, false, { DisableCommenting: true });
    assert.equal(made.DisableCommenting, true);
    assert.equal((await sp.web.lists.getByTitle('Comment Off').select('DisableCommenting')()).DisableCommenting, true);
    const { list } = await sp.web.lists.ensure('Comment Toggle');
    assert.equal((await list.select('DisableCommenting')()).DisableCommenting, false);
    const { Id: id } = await list.items.add({ Title: 'toggle' });
    const before = await list.items.getById(id).comments.add('before');
    await list.update({ DisableCommenting: true });
    assert.equal((await list.select('DisableCommenting')()).DisableCommenting, true);
    const refused = await failure(list.items.getById(id).comments.add('after'));
    assert.equal(refused.status, 400);
    assert.match(refused.code, /SPException/);
    assert.equal((await failure(before.replies.add('a reply'))).status, 400);
    assert.deepEqual((await list.items.getById(id).comments()).map((c) => c.text), ['before'], 'reading goes on');
    await before.like();
    assert.equal(await list.items.getById(id).rate(5), 5);
    await list.update({ DisableCommenting: false });
    assert.equal((await list.items.getById(id).comments.add('again')).text, 'again');
  });

  it('comments and ratings go with their item (deleted or recycled) and their list', async () => {
    const { list } = await sp.web.lists.ensure('Comment Cascade');
    const { Id: a } = await list.items.add({ Title: 'a' });
    const { Id: b } = await list.items.add({ Title: 'b' });
    const first = await list.items.getById(a).comments.add('on a');
    await first.like();
    await first.replies.add('reply on a');
    await list.items.getById(a).rate(3);
    await list.items.getById(b).comments.add('on b');
    await list.items.getById(a).delete();
    assert.equal((await failure(list.items.getById(a).comments())).status, 404);
    await list.items.getById(b).recycle();
    assert.equal((await failure(list.items.getById(b).comments())).status, 404);
    // The next comment on a new item is numbered on; nothing of the deleted ones shows.
    const { Id: c } = await list.items.add({ Title: 'c' });
    assert.equal((await list.items.getById(c).comments()).length, 0);
    const later = await list.items.getById(c).comments.add('on c');
    assert.equal((await list.items.getById(c).comments.getById(later.id)()).likeCount, 0);
    assert.equal(await list.items.getById(c).rate(2), 2, 'no rating of a deleted item counts');
    await list.delete();
    const again = await sp.web.lists.ensure('Comment Cascade');
    const { Id: d } = await again.list.items.add({ Title: 'd' });
    assert.equal((await again.list.items.getById(d).comments()).length, 0);
  });

  it('item likes (item.like/unlike/getLikedBy): one per user, likedBy names them, a visitor may, no role refused, gone with the item', async () => {
    const { list } = await sp.web.lists.ensure('Item Likes');
    const { Id: id } = await list.items.add({ Title: 'likeable' });
    const { Id: other } = await list.items.add({ Title: 'other' });
    const item = list.items.getById(id);
    assert.deepEqual(await item.getLikedBy(), []);
    await item.like();
    await item.like(); // one like per user
    const daveItem = (await as(DAVE)).web.lists.getByTitle('Item Likes').items.getById(id);
    await daveItem.like(); // a visitor likes, as they like comments
    const likers = await daveItem.getLikedBy();
    assert.equal(likers.length, 2);
    assert.ok(likers[1]!.loginName.toLowerCase().endsWith(DAVE));
    assert.match(likers[1]!.email, /^dave@/i, 'the user\'s e-mail');
    assert.equal(typeof likers[0]!.id, 'number');
    assert.match(String(likers[0]!.creationDate), /^\d{4}-\d\d-\d\dT/);
    assert.deepEqual(await list.items.getById(other).getLikedBy(), [], 'each item has its own likes');

    await item.unlike();
    await item.unlike(); // unliking again is no error
    assert.deepEqual((await item.getLikedBy()).map((l) => l.loginName.toLowerCase().endsWith(DAVE)), [true]);

    // The wire: GET reads too (nometadata), SetLike answers nothing, a bad `like` is a 400.
    const listId = (await list.select('Id')()).Id;
    const setLike = (item: number, like: string, upn?: string) => Promise.resolve(upn ? bearerFor(SECRET, upn) : undefined).then((auth) => fetch(
      `${site}/_api/Microsoft.Office.Server.ReputationModel.Reputation.SetLike(listID=@a1,itemID=@a2,like=@a3)?@a1='{${listId}}'&@a2='${item}'&@a3=${like}`,
      { method: 'POST', headers: { Accept: 'application/json;odata=nometadata', ...(auth ? { Authorization: auth } : {}) } },
    ));
    const liked = await setLike(other, 'true');
    assert.equal(liked.status, 200);
    const read = await fetch(`${site}/_api/web/lists/getbytitle('Item Likes')/items(${other})/likedBy`, { headers: { Accept: 'application/json;odata=nometadata' } });
    const value = ((await read.json()) as { value: Array<Record<string, unknown>> }).value;
    assert.deepEqual(Object.keys(value[0]!), ['creationDate', 'email', 'id', 'loginName', 'name']);
    assert.equal((await setLike(other, '7')).status, 400);
    assert.equal((await setLike(9999, 'true')).status, 404);

    // No role on the site: neither like nor read the likes; nothing written.
    const erinItem = (await as(ERIN)).web.lists.getByTitle('Item Likes').items.getById(id);
    assert.equal((await failure(erinItem.getLikedBy())).status, 403);
    assert.equal((await setLike(id, 'true', ERIN)).status, 403);
    assert.equal((await item.getLikedBy()).length, 1);

    // Gone with the item: a recycled one's likes do not come back on a new item.
    await list.items.getById(other).delete();
    assert.equal((await failure(list.items.getById(other).getLikedBy())).status, 404);
    const { Id: next } = await list.items.add({ Title: 'next' });
    assert.deepEqual(await list.items.getById(next).getLikedBy(), []);
  });

  it('the wire: the comment entity in nometadata and verbose, 201 on add, DeleteAll and SetRating results', async () => {
    const { list } = await sp.web.lists.ensure('Comment Wire');
    const { Id: id } = await list.items.add({ Title: 'wire' });
    const listId = (await list.select('Id')()).Id;
    const base = `${site}/_api/web/lists/getbytitle('Comment Wire')/items(${id})/Comments`;
    const added = await fetch(base, {
      method: 'POST', body: JSON.stringify({ text: 'Hello', mentions: [{ loginName: `i:0#.f|membership|${BOB}`, email: BOB, name: 'Bob' }] }),
      headers: { Accept: 'application/json;odata=nometadata', 'Content-Type': 'application/json' },
    });
    assert.equal(added.status, 201);
    const c = (await added.json()) as Record<string, unknown>;
    assert.deepEqual(Object.keys(c), ['author', 'createdDate', 'id', 'isLikedByUser', 'isReply', 'itemId', 'likeCount', 'listId', 'mentions',
      'modifiedDate', 'parentId', 'relativeCreatedDate', 'replyCount', 'text']);
    assert.equal(c.id, '1');
    assert.equal(c.listId, listId);
    assert.equal(c.itemId, id);
    assert.match(String(c.createdDate), /^\d{4}-\d\d-\d\dT/);
    assert.deepEqual(c.mentions, [{ email: BOB, loginName: `i:0#.f|membership|${BOB}`, name: 'Bob' }]);
    const author = c.author as Record<string, unknown>;
    assert.deepEqual(Object.keys(author), ['email', 'expiration', 'id', 'isActive', 'isExternal', 'jobTitle', 'loginName', 'name', 'principalType', 'userId', 'userPrincipalName']);
    assert.equal(author.principalType, 1);

    const verbose = await fetch(`${base}(1)`, { headers: { Accept: 'application/json;odata=verbose' } });
    const d = ((await verbose.json()) as { d: Record<string, unknown> }).d;
    assert.equal((d.__metadata as { type: string }).type, 'Microsoft.SharePoint.Comments.comment');
    assert.ok((d.replies as { __deferred: unknown }).__deferred);
    assert.equal(d.mentions && (d.mentions as { results: unknown[] }).results.length, 1);

    // Verbose: the body names its type, mentions come as {results}; a wrong type is refused, nothing added.
    const verboseAdd = await fetch(base, {
      method: 'POST', headers: { Accept: 'application/json;odata=verbose', 'Content-Type': 'application/json;odata=verbose' },
      body: JSON.stringify({ __metadata: { type: 'Microsoft.SharePoint.Comments.comment' }, text: 'Verbose',
        mentions: { __metadata: { type: 'Collection(Microsoft.SharePoint.Comments.Client.Identity)' }, results: [{ email: DAVE }] } }),
    });
    assert.equal(verboseAdd.status, 201);
    const vd = ((await verboseAdd.json()) as { d: Record<string, unknown> }).d;
    assert.equal(vd.id, '2');
    assert.deepEqual((vd.mentions as { results: Array<{ email: string }> }).results.map((m) => m.email), [DAVE]);
    const wrongType = await fetch(base, {
      method: 'POST', headers: { Accept: 'application/json;odata=verbose', 'Content-Type': 'application/json;odata=verbose' },
      body: JSON.stringify({ __metadata: { type: 'SP.List' }, text: 'no' }),
    });
    assert.equal(wrongType.status, 400);
    assert.equal(((await (await fetch(base, { headers: { Accept: 'application/json;odata=nometadata' } })).json()) as { value: unknown[] }).value.length, 2);

    const missing = await fetch(`${base}(77)`, { headers: { Accept: 'application/json;odata=verbose' } });
    assert.equal(missing.status, 404);
    assert.match(((await missing.json()) as { error: { code: string } }).error.code, /ArgumentException/);

    const cleared = await fetch(`${base}/DeleteAll`, { method: 'POST', headers: { Accept: 'application/json;odata=verbose' } });
    assert.deepEqual(await cleared.json(), { d: { DeleteAll: true } });

    const rated = await fetch(`${site}/_api/Microsoft.Office.Server.ReputationModel.Reputation.SetRating(listID=@a1,itemID=@a2,rating=@a3)?@a1='{${listId}}'&@a2='${id}'&@a3=4`, {
      method: 'POST', headers: { Accept: 'application/json;odata=verbose' },
    });
    assert.equal(rated.status, 200);
    assert.deepEqual(await rated.json(), { d: { SetRating: 4 } });
  });
});
