// Adversarial tests of the hot path's caches (issue #13) across two instances sharing one
// database (PostgreSQL on that leg; on the SQLite leg a shared file, as `--workers` run): every
// write goes through the first instance, with PnPjs as the site owner, after the second has
// served the same requests (so it holds the proven credentials, the principals, the kept GET
// routes, the item plans, the kept web of a URL and the metadata as they were); then the very
// next request through the second must answer by the database as it is now, for the user who
// sends it. Covered: a role given and taken away (group membership, a web role assignment; the
// same Basic and Bearer headers); kept routes of a list renamed, deleted and made again under its
// title (another id); a subweb renamed, deleted and made again at its URL (routes and $batch
// parts); a field renamed, deleted and made again; a site user's row (cached principals); one URL
// asked in turn by users who may and may not see an item; old etags of items, files and lists
// after an update elsewhere, and concurrent list writes with one etag. A second suite: an app's
// grant or its issuer's trust changed by an instance started with a new tenant file applies at
// once to the token a running one has proven. Plain fetch, exact statuses.
//
// Each case fails when the invalidation it targets is disabled (checked by hand: applying no
// foreign cache changes; kept routes or plans ignoring the generation; proven identities ignoring
// it; role assignment or principal writes not recorded for other instances).

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import { SignJWT } from 'jose';
import type { SPFI } from '@pnp/sp';
import '@pnp/sp/site-groups/index.js';
import '@pnp/sp/site-users/index.js';
import '@pnp/sp/security/index.js';
import '@pnp/sp/files/index.js';
import '@pnp/sp/folders/index.js';
import { Web } from '@pnp/sp/webs/index.js';
import { sharedTestDatabase, startSharedInstances, startTestServer, type TestServer } from '../helpers/server.ts';
import { testBackend } from '../helpers/postgres.ts';
import { demoBasic, demoDigest, pnpFor } from '../helpers/pnp.ts';
import { bearerFor } from '../helpers/bearer.ts';
import { appCertificate } from '../helpers/identity.ts';

const backend = testBackend();
const ALICE = 'alice@contoso.onmicrosoft.com';
const BOB = 'bob@contoso.onmicrosoft.com';
const DAVE = 'dave@contoso.onmicrosoft.com';
const ERIN = 'erin@contoso.onmicrosoft.com';
const NOMETADATA = 'application/json;odata=nometadata';
const login = (upn: string) => `i:0#.f|membership|${upn}`;
/** SharePoint's built-in role definition ids. */
const READ = 1073741826;

interface Answer { status: number; etag: string | null; body: any }

describe(`caches on two instances sharing a database follow every write made through the other (${backend})`, () => {
  const cleanups: Array<() => Promise<void> | void> = [];
  const servers: TestServer[] = [];
  let secret: string;
  /** PnPjs as Alice (the owner) through the first instance: every write is made there. */
  let sp: SPFI;
  const site = (i: number) => servers[i]!.site('/sites/dev');

  before(async () => {
    const shared = await startSharedInstances('spemu-instance-caches-');
    cleanups.push(() => shared.close());
    servers.push(...shared.servers);
    secret = shared.tokenSecret;
    sp = pnpFor(site(0), { Authorization: demoBasic(ALICE), 'X-RequestDigest': (await demoDigest(site(0), ALICE))! });
  });
  after(async () => { for (const cleanup of cleanups.reverse()) await cleanup(); });

  /** A request through instance `i` with the given Authorization header. */
  async function call(i: number, method: string, path: string, authorization: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> {
    const r = await fetch(`${site(i)}/_api/${path}`, {
      method,
      headers: { Accept: NOMETADATA, 'Content-Type': 'application/json', Authorization: authorization, ...options.headers },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await r.text();
    let body: unknown = text;
    try { body = text ? JSON.parse(text) : undefined; } catch { /* not JSON: kept as text */ }
    return { status: r.status, etag: r.headers.get('etag'), body };
  }
  const read = (i: number, path: string, upn = ALICE) => call(i, 'GET', path, demoBasic(upn));

  it('a role given and taken away through one instance applies at once to the same Basic and Bearer headers through the other', async () => {
    const bearer = await bearerFor(secret, DAVE);
    // Dave is a visitor: a digest for his Basic writes, from the second instance.
    const digest = (await demoDigest(site(1), DAVE))!;
    assert.ok(digest);
    const headers = [['Basic', demoBasic(DAVE)], ['Bearer', bearer]] as const;
    const daveReads = async () => Promise.all(headers.map(async ([scheme, h]) => [scheme, (await call(1, 'GET', 'web?$select=Title', h)).status] as const));
    const daveAdds = async (title: string) => Promise.all(headers.map(async ([scheme, h]) =>
      [scheme, (await call(1, 'POST', "web/lists/getbytitle('Tasks')/items", h, { body: { Title: `${title} (${scheme})` }, headers: { 'X-RequestDigest': digest } })).status] as const));
    // The second instance proves both headers and works out Dave's principal, several times.
    for (let round = 0; round < 3; round++) assert.deepEqual(await daveReads(), [['Basic', 200], ['Bearer', 200]]);
    assert.deepEqual(await daveAdds('as a visitor'), [['Basic', 403], ['Bearer', 403]]);

    await sp.web.associatedMemberGroup.users.add(login(DAVE));
    assert.deepEqual(await daveAdds('as a member'), [['Basic', 201], ['Bearer', 201]], 'member through the other instance');
    await sp.web.associatedMemberGroup.users.removeByLoginName(login(DAVE));
    assert.deepEqual(await daveAdds('a visitor again'), [['Basic', 403], ['Bearer', 403]], 'a visitor again');
    assert.deepEqual(await daveReads(), [['Basic', 200], ['Bearer', 200]]);

    await sp.web.associatedVisitorGroup.users.removeByLoginName(login(DAVE));
    assert.deepEqual(await daveReads(), [['Basic', 403], ['Bearer', 403]], 'no role on the site any more');
    await sp.web.associatedVisitorGroup.users.add(login(DAVE));
    assert.deepEqual(await daveReads(), [['Basic', 200], ['Bearer', 200]], 'a visitor again');
  });

  it('a kept route of a list follows its rename, its deletion and a new list made under the same title', async () => {
    const item = "web/lists/getbytitle('Kept')/items(1)?$select=Title";
    const items = "web/lists/getbytitle('Kept')/items?$select=Title";
    const list = "web/lists/getbytitle('Kept')?$select=Id,Title";
    const urls = [item, items, list];
    const first = (await sp.web.lists.add('Kept', '', 100)).Id as string;
    await sp.web.lists.getById(first).items.add({ Title: 'first' });
    // Served twice through the second instance, to Alice and to Bob: the routes are kept there.
    for (let round = 0; round < 2; round++) {
      for (const upn of [ALICE, BOB]) {
        assert.equal((await read(1, item, upn)).body.Title, 'first');
        assert.deepEqual((await read(1, items, upn)).body.value, [{ Title: 'first' }]);
        assert.equal((await read(1, list, upn)).body.Id, first);
      }
    }

    await sp.web.lists.getById(first).update({ Title: 'Kept before' });
    for (const url of urls) for (const upn of [ALICE, BOB]) assert.equal((await read(1, url, upn)).status, 404, `${url} as ${upn}, after the rename`);
    assert.equal((await read(1, "web/lists/getbytitle('Kept before')/items(1)?$select=Title")).body.Title, 'first');

    // Another list under the old title: another id, another item 1.
    const second = (await sp.web.lists.add('Kept', '', 100)).Id as string;
    assert.notEqual(second, first);
    await sp.web.lists.getById(second).items.add({ Title: 'second' });
    for (const upn of [ALICE, BOB]) {
      assert.equal((await read(1, item, upn)).body.Title, 'second', `the new list's item as ${upn}`);
      assert.deepEqual((await read(1, items, upn)).body.value, [{ Title: 'second' }]);
      assert.equal((await read(1, list, upn)).body.Id, second);
    }

    // Deleted: gone through the second instance, by title and by the id its route was kept under.
    const byId = `web/lists(guid'${second}')/items(1)?$select=Title`;
    assert.equal((await read(1, byId)).body.Title, 'second');
    await sp.web.lists.getById(second).delete();
    for (const url of [...urls, byId]) for (const upn of [ALICE, BOB]) assert.equal((await read(1, url, upn)).status, 404, `${url} as ${upn}, after the delete`);

    // A third, empty: no item 1, no items.
    const third = (await sp.web.lists.add('Kept', '', 100)).Id as string;
    assert.equal((await read(1, item)).status, 404);
    assert.deepEqual((await read(1, items)).body.value, []);
    assert.equal((await read(1, list)).body.Id, third);
  });

  it('a subweb renamed, deleted and made again at its URL through one instance: the other answers by the web as it is now, in a kept route and in a $batch part', async () => {
    const url = `${site(1)}/sub`;
    const title = "web?$select=Id,Title";
    const batchTitle = async (upn: string): Promise<string> => {
      // A $batch part is dispatched through the kept web of its URL, never a kept route.
      const boundary = 'batch_instance_caches';
      const body = [`--${boundary}`, 'Content-Type: application/http', 'Content-Transfer-Encoding: binary', '',
        `GET ${url}/_api/web?$select=Title HTTP/1.1`, 'Accept: application/json;odata=nometadata', '', '', `--${boundary}--`, ''].join('\r\n');
      const r = await fetch(`${url}/_api/$batch`, {
        method: 'POST', body,
        headers: { Authorization: demoBasic(upn), 'Content-Type': `multipart/mixed; boundary=${boundary}`, 'X-RequestDigest': (await demoDigest(site(1), upn))! },
      });
      assert.equal(r.status, 200);
      const text = await r.text();
      return /HTTP\/1\.1 404/.test(text) ? '404' : (/"Title":"([^"]*)"/.exec(text)?.[1] ?? text);
    };
    const readSub = async (upn = ALICE) => {
      const r = await fetch(`${url}/_api/${title}`, { headers: { Accept: NOMETADATA, Authorization: demoBasic(upn) } });
      return { status: r.status, body: r.status === 200 ? await r.json() as { Id: string; Title: string } : undefined };
    };
    const first = await sp.web.webs.add('Sub one', 'sub') as unknown as { Id: string };
    for (let round = 0; round < 2; round++) {
      for (const upn of [ALICE, BOB]) {
        assert.deepEqual((await readSub(upn)).body, { Id: first.Id, Title: 'Sub one' });
        assert.equal(await batchTitle(upn), 'Sub one');
      }
    }
    const sub = Web([sp.web, `${site(0)}/sub`]);
    await sub.update({ Title: 'Sub renamed' });
    assert.equal((await readSub(BOB)).body?.Title, 'Sub renamed');
    assert.equal(await batchTitle(BOB), 'Sub renamed');

    await sub.delete();
    assert.equal((await readSub()).status, 404);
    assert.equal((await readSub(BOB)).status, 404);

    const second = await sp.web.webs.add('Sub two', 'sub') as unknown as { Id: string };
    assert.notEqual(second.Id, first.Id);
    for (const upn of [BOB, ALICE]) {
      assert.deepEqual((await readSub(upn)).body, { Id: second.Id, Title: 'Sub two' });
      assert.equal(await batchTitle(upn), 'Sub two');
    }
  });

  it('$select through one instance follows a field renamed, deleted and made again (another type) through the other', async () => {
    const { list } = await sp.web.lists.ensure('Shaped', '', 100);
    await list.fields.addText('Colour');
    await list.items.add({ Title: 'one', Colour: 'teal' });
    const one = "web/lists/getbytitle('Shaped')/items(1)?$select=Title,Colour";
    const page = "web/lists/getbytitle('Shaped')/items?$select=Colour";
    const missing = "web/lists/getbytitle('Shaped')/items(1)?$select=Title,Size";
    for (let round = 0; round < 2; round++) {
      assert.deepEqual((await read(1, one)).body, { Title: 'one', Colour: 'teal' });
      assert.deepEqual((await read(1, page)).body.value, [{ Colour: 'teal' }]);
      assert.equal((await read(1, missing)).status, 400);
    }

    // A field's title changes, its internal name (what $select names) does not.
    await list.fields.getByInternalNameOrTitle('Colour').update({ Title: 'Hue' });
    assert.deepEqual((await read(1, one)).body, { Title: 'one', Colour: 'teal' });
    assert.equal((await read(1, "web/lists/getbytitle('Shaped')/fields/getbyinternalnameortitle('Hue')?$select=InternalName")).body.InternalName, 'Colour');

    // Added through the first instance: selectable through the second at once.
    await list.fields.addNumber('Size');
    await list.items.getById(1).update({ Size: 7 });
    assert.deepEqual((await read(1, missing)).body, { Title: 'one', Size: 7 });

    // Deleted: an unknown name through the second instance.
    await list.fields.getByInternalNameOrTitle('Colour').delete();
    for (const url of [one, page]) {
      const gone = await read(1, url);
      assert.equal(gone.status, 400, url);
      assert.match(gone.body['odata.error'].message.value, /Colour/);
    }

    // Made again under the same name as a number: a new column, empty, written and read through the second instance.
    await list.fields.addNumber('Colour');
    assert.deepEqual((await read(1, one)).body, { Title: 'one', Colour: null });
    const written = await call(1, 'POST', "web/lists/getbytitle('Shaped')/items(1)", demoBasic(ALICE), {
      body: { Colour: 42 }, headers: { 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*', 'X-RequestDigest': (await demoDigest(site(1), ALICE))! },
    });
    assert.equal(written.status, 204, JSON.stringify(written.body));
    assert.deepEqual((await read(0, one)).body, { Title: 'one', Colour: 42 });
    assert.deepEqual((await read(1, one)).body, { Title: 'one', Colour: 42 });
    assert.deepEqual((await read(1, page)).body.value, [{ Colour: 42 }]);
  });

  it('one URL asked in turn by several users through one instance answers each by permissions changed through the other', async () => {
    const { list } = await sp.web.lists.ensure('Guarded', '', 100);
    for (const title of ['open', 'closed', 'also open']) await list.items.add({ Title: title });
    const item = "web/lists/getbytitle('Guarded')/items(2)?$select=Title";
    const items = "web/lists/getbytitle('Guarded')/items?$select=Title&$orderby=Id";
    const all = ['open', 'closed', 'also open'];
    const titles = async (i: number, upn: string) => {
      const answer = await read(i, items, upn);
      assert.equal(answer.status, 200, `${upn}: ${JSON.stringify(answer.body)}`);
      return (answer.body.value as Array<{ Title: string }>).map((v) => v.Title);
    };
    /**
     * Who sees what through the second instance, asked in both orders (the route kept for the
     * first asker, replayed for the next), then through the first (which made the change).
     */
    async function sees(expected: Record<string, { item: number; titles?: string[] | 403 }>, when: string): Promise<void> {
      const users = Object.keys(expected);
      for (const [i, order] of [[1, users], [1, [...users].reverse()], [0, users]] as const) {
        for (const upn of order) {
          assert.equal((await read(i, item, upn)).status, expected[upn]!.item, `${when}: items(2) as ${upn} through instance ${i + 1}`);
          const want = expected[upn]!.titles;
          if (want === undefined) continue;
          if (want === 403) assert.equal((await read(i, items, upn)).status, 403, `${when}: items as ${upn} through instance ${i + 1}`);
          else assert.deepEqual(await titles(i, upn), want, `${when}: items as ${upn} through instance ${i + 1}`);
        }
      }
    }
    await sees({ [ALICE]: { item: 200, titles: all }, [BOB]: { item: 200, titles: all }, [DAVE]: { item: 200, titles: all }, [ERIN]: { item: 403, titles: 403 } }, 'inheriting');

    const closed = list.items.getById(2);
    await closed.breakRoleInheritance(false, false);
    const hidden = ['open', 'also open'];
    await sees({ [ALICE]: { item: 200, titles: all }, [BOB]: { item: 403, titles: hidden }, [DAVE]: { item: 403, titles: hidden }, [ERIN]: { item: 403, titles: 403 } }, 'item 2 closed');

    const bob = (await sp.web.ensureUser(login(BOB))).Id as number;
    await closed.roleAssignments.add(bob, READ);
    await sees({ [BOB]: { item: 200, titles: all }, [DAVE]: { item: 403, titles: hidden }, [ALICE]: { item: 200, titles: all } }, 'item 2 shared with Bob');
    await closed.roleAssignments.remove(bob, READ);
    await sees({ [BOB]: { item: 403, titles: hidden }, [ALICE]: { item: 200, titles: all } }, 'Bob\'s share taken back');

    // Erin, with no role on the site, given Read on the item alone: she reads it (through both instances at once).
    const erin = (await sp.web.ensureUser(login(ERIN))).Id as number;
    await closed.roleAssignments.add(erin, READ);
    await sees({ [ERIN]: { item: 200 }, [BOB]: { item: 403, titles: hidden } }, 'item 2 shared with Erin');
    await closed.resetRoleInheritance();
    await sees({ [ERIN]: { item: 403, titles: 403 }, [BOB]: { item: 200, titles: all }, [ALICE]: { item: 200, titles: all } }, 'item 2 inherits again');
  });

  it('a site user\'s row changed through one instance: the user and every Author expansion through the other show it at once', async () => {
    const bobDigest = (await demoDigest(site(1), BOB))!;
    const created = await call(1, 'POST', "web/lists/getbytitle('Tasks')/items", demoBasic(BOB), { body: { Title: 'by Bob' }, headers: { 'X-RequestDigest': bobDigest } });
    assert.equal(created.status, 201);
    const expanded = `web/lists/getbytitle('Tasks')/items(${created.body.Id as number})?$select=Title,Author/Title,Editor/Title&$expand=Author,Editor`;
    const bob = (await sp.web.ensureUser(login(BOB))).Id as number;
    const user = `web/siteusers/getbyid(${bob})?$select=Title`;
    const before = (await read(1, user)).body.Title as string;
    // The principals' rows are cached through the second instance (by Alice's reads and Bob's).
    for (const upn of [ALICE, BOB, ALICE]) assert.deepEqual((await read(1, expanded, upn)).body, { Title: 'by Bob', Author: { Title: before }, Editor: { Title: before } });

    await sp.web.siteUsers.getById(bob).update({ Title: 'Robert Renamed' });
    for (const upn of [BOB, ALICE]) {
      assert.deepEqual((await read(1, expanded, upn)).body, { Title: 'by Bob', Author: { Title: 'Robert Renamed' }, Editor: { Title: 'Robert Renamed' } }, `as ${upn}`);
      assert.equal((await read(1, user, upn)).body.Title, 'Robert Renamed');
    }
    await sp.web.siteUsers.getById(bob).update({ Title: before });
    assert.equal((await read(1, expanded)).body.Author.Title, before);
  });

  it('a list\'s etag: an old one is refused through the other instance, and of concurrent writes with one etag exactly one wins', async () => {
    const digests = [(await demoDigest(site(0), ALICE))!, (await demoDigest(site(1), ALICE))!];
    const id = (await sp.web.lists.add('Versioned', '', 100)).Id as string;
    const path = `web/lists(guid'${id}')`;
    const merge = (i: number, etag: string, Description: string) => call(i, 'POST', path, demoBasic(ALICE), {
      body: { Description }, headers: { 'X-HTTP-Method': 'MERGE', 'If-Match': etag, 'X-RequestDigest': digests[i]! },
    });
    const first = (await read(1, `${path}?$select=Description`)).etag!;
    assert.ok(first);
    assert.equal((await merge(0, first, 'through the first')).status, 204);
    const second = await read(1, `${path}?$select=Description`);
    assert.equal(second.body.Description, 'through the first');
    assert.notEqual(second.etag, first);
    assert.equal((await merge(1, first, 'stale')).status, 412);
    assert.equal((await call(1, 'DELETE', path, demoBasic(ALICE), { headers: { 'If-Match': first, 'X-RequestDigest': digests[1]! } })).status, 412);

    // Sent together through both instances with the etag both hold: one write, the others 412.
    const current = second.etag!;
    const statuses = await Promise.all(Array.from({ length: 12 }, async (_, n) => (await merge(n % 2, current, `writer ${n}`)).status));
    assert.equal(statuses.filter((s) => s === 204).length, 1, statuses.join(','));
    assert.equal(statuses.filter((s) => s === 412).length, statuses.length - 1, statuses.join(','));
    const after = await read(0, `${path}?$select=Description`);
    assert.match(after.body.Description, /^writer \d+$/);
    assert.equal((await read(1, `${path}?$select=Description`)).etag, after.etag);
  });

  it('an etag from before an update made through the other instance is refused (412), for items and files', async () => {
    const path = "web/lists/getbytitle('Tasks')/items";
    const digests = [(await demoDigest(site(0), ALICE))!, (await demoDigest(site(1), ALICE))!];
    const merge = (i: number, id: number, etag: string, Title: string) => call(i, 'POST', `${path}(${id})`, demoBasic(ALICE), {
      body: { Title }, headers: { 'X-HTTP-Method': 'MERGE', 'If-Match': etag, 'X-RequestDigest': digests[i]! },
    });
    const created = await call(0, 'POST', path, demoBasic(ALICE), { body: { Title: 'etagged' }, headers: { 'X-RequestDigest': digests[0]! } });
    assert.equal(created.status, 201);
    const id = created.body.Id as number;
    const first = (await read(1, `${path}(${id})?$select=Title`)).etag!;
    assert.equal(first, created.etag);
    assert.equal((await read(1, `${path}(${id})?$select=Title`)).etag, first);

    assert.equal((await merge(0, id, first, 'through the first')).status, 204);
    const second = await read(1, `${path}(${id})?$select=Title`);
    assert.equal(second.body.Title, 'through the first');
    assert.notEqual(second.etag, first);
    assert.equal((await merge(1, id, first, 'stale')).status, 412);
    assert.equal((await call(1, 'DELETE', `${path}(${id})`, demoBasic(ALICE), { headers: { 'If-Match': first, 'X-RequestDigest': digests[1]! } })).status, 412);
    assert.equal((await merge(1, id, second.etag!, 'through the second')).status, 204);
    assert.equal((await merge(0, id, second.etag!, 'stale again')).status, 412);
    assert.equal((await read(0, `${path}(${id})?$select=Title`)).body.Title, 'through the second');

    // A file: overwritten through the first instance after the second read it, then deleted
    // through the second with the etag it read before.
    const root = (await sp.web.lists.getByTitle('Documents').rootFolder.select('ServerRelativeUrl')()).ServerRelativeUrl;
    await sp.web.getFolderByServerRelativePath(root).files.addUsingPath('etag.txt', 'one', { Overwrite: true });
    const file = `web/getfilebyserverrelativeurl('${root}/etag.txt')`;
    const before = await read(1, file);
    assert.equal(before.status, 200);
    const old = before.body.ETag as string;
    await sp.web.getFileByServerRelativePath(`${root}/etag.txt`).setContent('two');
    const now = await read(1, file);
    assert.notEqual(now.body.ETag, old);
    const content = await fetch(`${site(1)}/_api/${file}/$value`, { headers: { Authorization: demoBasic(ALICE) } });
    assert.equal(await content.text(), 'two');
    const remove = (etag: string) => call(1, 'DELETE', file, demoBasic(ALICE), { headers: { 'If-Match': etag, 'X-RequestDigest': digests[1]! } });
    assert.equal((await remove(old)).status, 412);
    assert.equal((await remove(now.body.ETag as string)).status, 200);
    assert.equal((await read(0, file)).status, 404);
  });

  it('an item read by id through one instance (its row kept in memory there) follows an update, a recycle and a delete made through the other', async () => {
    const path = "web/lists/getbytitle('Tasks')/items";
    const digest = (await demoDigest(site(0), ALICE))!;
    const created = await call(0, 'POST', path, demoBasic(ALICE), { body: { Title: 'kept' }, headers: { 'X-RequestDigest': digest } });
    assert.equal(created.status, 201);
    const id = created.body.Id as number;
    const item = `${path}(${id})?$select=Title,Author/Title&$expand=Author`;
    // Read twice through the second instance: the second answer is its kept row.
    for (let n = 0; n < 2; n++) assert.equal((await read(1, item)).body.Title, 'kept');

    await sp.web.lists.getByTitle('Tasks').items.getById(id).update({ Title: 'changed elsewhere' });
    assert.equal((await read(1, item)).body.Title, 'changed elsewhere');
    assert.equal((await read(1, item, BOB)).body.Title, 'changed elsewhere');

    await sp.web.lists.getByTitle('Tasks').items.getById(id).recycle();
    assert.equal((await read(1, item)).status, 404);
    assert.equal((await read(1, item)).status, 404);

    // Made and deleted while the second instance keeps "no such item" for a new id.
    const next = await call(0, 'POST', path, demoBasic(ALICE), { body: { Title: 'next' }, headers: { 'X-RequestDigest': digest } });
    const nextItem = `${path}(${(next.body.Id as number) + 1})?$select=Title`;
    assert.equal((await read(1, nextItem)).status, 404);
    const third = await call(0, 'POST', path, demoBasic(ALICE), { body: { Title: 'third' }, headers: { 'X-RequestDigest': digest } });
    assert.equal(third.body.Id, (next.body.Id as number) + 1);
    assert.equal((await read(1, nextItem)).body.Title, 'third');
    await sp.web.lists.getByTitle('Tasks').items.getById(third.body.Id as number).delete();
    assert.equal((await read(1, nextItem)).status, 404);
  });

  // Last: it makes the root web's role assignments explicit (as their first change does).
  it('a role assignment on the web given and taken away through one instance applies at once through the other', async () => {
    // Carol's site role comes from a directory group; Erin holds none: what she may do comes from
    // assignments, read on every request (her principal is never kept).
    const CONTRIBUTE = 1073741827;
    const bearer = await bearerFor(secret, ERIN);
    const erinAdds = async (title: string) => (await call(1, 'POST', 'web/lists/getbytitle(\'Tasks\')/items', bearer, { body: { Title: title } })).status;
    const erinReads = async () => (await call(1, 'GET', 'web/lists/getbytitle(\'Tasks\')/items?$select=Title&$top=1', bearer)).status;
    for (let round = 0; round < 2; round++) assert.equal(await erinReads(), 403);
    const erin = (await sp.web.ensureUser(login(ERIN))).Id as number;
    await sp.web.roleAssignments.add(erin, CONTRIBUTE);
    assert.equal(await erinReads(), 200, 'given Contribute on the web');
    assert.equal(await erinAdds('as a contributor'), 201);
    await sp.web.roleAssignments.remove(erin, CONTRIBUTE);
    assert.equal(await erinAdds('no longer'), 403, 'Contribute taken away');
    assert.equal(await erinReads(), 403);

    // The web's assignments are explicit now, without her: an item shared with her alone is still
    // hers to read (Limited Access on the web, as SharePoint gives), through both instances.
    const { list } = await sp.web.lists.ensure('Shared after', '', 100);
    await list.items.add({ Title: 'for Erin' });
    await list.items.getById(1).breakRoleInheritance(false, false);
    await list.items.getById(1).roleAssignments.add(erin, READ);
    for (const i of [1, 0]) {
      const one = await call(i, 'GET', "web/lists/getbytitle('Shared after')/items(1)?$select=Title", bearer);
      assert.deepEqual([one.status, one.body?.Title], [200, 'for Erin'], `through instance ${i + 1}`);
      assert.equal((await call(i, 'GET', "web/lists/getbytitle('Tasks')/items?$select=Title&$top=1", bearer)).status, 403);
    }
  });
});

describe(`an app's grant changed by another instance started with a new tenant file applies at once to the same token (${backend})`, () => {
  // A rolling restart: instances run on one database; one is started again with the tenant
  // file's apps changed (they are not part of the tenant's hash, so the file is taken). Its app
  // registrations are a metadata write; an instance still running must act on them at once.
  const TENANT_ID = '5d1f0c2e-3b4a-4c5d-8e6f-7a8b9c0d1e2f';
  const ISSUER_ID = '9e9e46c4-6329-4990-a0b8-13b87b3ba56a';
  const ADDIN = 'ded561d0-05dc-48b8-8c64-9b161392b9e8';
  const OTHER = 'a0a0a0a0-1111-4222-8333-444455556666';
  const SP = '00000003-0000-0ff1-ce00-000000000000';
  const OLIVIA = 'olivia@fabrikam.onmicrosoft.com';
  const certificate = appCertificate('spemu high-trust issuer');
  const tenant = (apps: Array<{ clientId: string; permissions: string[] }>, issuers = true) => ({
    tenant: { name: 'fabrikam', id: TENANT_ID },
    users: [{ upn: OLIVIA, displayName: 'Olivia Owner', password: 'pw-olivia' }],
    apps: apps.map((a) => ({ ...a, displayName: `App ${a.clientId.slice(0, 4)}` })),
    trustedIssuers: issuers ? [{ issuerId: ISSUER_ID, name: 'High-trust add-ins', certificate: { pem: certificate.cert } }] : [],
    sites: [{ url: '/sites/test', title: 'Test', owners: [OLIVIA], lists: [{ title: 'Tasks', template: 100 }] }],
  });
  const cleanups: Array<() => Promise<void> | void> = [];
  let db: string;
  let running: TestServer;

  before(async () => {
    const database = await sharedTestDatabase('spemu-instance-apps-');
    cleanups.push(() => database.drop());
    db = database.db;
    running = await startTestServer({ db, shared: true, seed: tenant([{ clientId: ADDIN, permissions: ['Sites.FullControl.All'] }]), anonymousUser: undefined });
    cleanups.push(() => running.close());
  });
  after(async () => { for (const cleanup of cleanups.reverse()) await cleanup(); });

  /** Another instance started on the database with the tenant file's apps as given, then stopped again. */
  async function restartWith(apps: Array<{ clientId: string; permissions: string[] }>, issuers = true): Promise<void> {
    const other = await startTestServer({ db, shared: true, seed: tenant(apps, issuers), anonymousUser: undefined });
    await other.close();
  }

  it('a write taken away refuses the next write, and an app removed or its issuer no longer trusted proves nothing, by the very token the running instance holds', async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({
      aud: `${SP}/${new URL(running.url).host}@${TENANT_ID}`, iss: `${ISSUER_ID}@${TENANT_ID}`, nameid: `${ADDIN}@${TENANT_ID}`,
      nbf: now - 60, exp: now + 3600, trustedfordelegation: true,
    }).setProtectedHeader({ typ: 'JWT', alg: 'RS256', x5t: Buffer.from(certificate.sha1, 'hex').toString('base64') }).sign(createPrivateKey(certificate.key));
    const send = async (method: string, body?: unknown) => (await fetch(`${running.site('/sites/test')}/_api/web/lists/getbytitle('Tasks')/items`, {
      method, headers: { Accept: NOMETADATA, 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
      body: body === undefined ? undefined : JSON.stringify(body),
    })).status;
    for (let i = 0; i < 3; i++) assert.equal(await send('GET'), 200);
    assert.equal(await send('POST', { Title: 'with full control' }), 201);

    await restartWith([{ clientId: ADDIN, permissions: ['Sites.Read.All'] }]);
    assert.equal(await send('POST', { Title: 'read only now' }), 403, 'the write taken away');
    assert.equal(await send('GET'), 200);

    await restartWith([{ clientId: ADDIN, permissions: ['Sites.ReadWrite.All'] }]);
    assert.equal(await send('POST', { Title: 'may write again' }), 201, 'the write given back');

    await restartWith([{ clientId: OTHER, permissions: ['Sites.FullControl.All'] }]);
    assert.equal(await send('GET'), 401, 'the app is no longer registered');
    await restartWith([{ clientId: ADDIN, permissions: ['Sites.ReadWrite.All'] }]);
    assert.equal(await send('GET'), 200, 'registered again');
    // The certificate that signed the token is no longer a trusted issuer's: the verification the
    // running instance made of this very token is not taken again (bearer-high-trust.ts).
    await restartWith([{ clientId: ADDIN, permissions: ['Sites.ReadWrite.All'] }], false);
    assert.equal(await send('GET'), 401, 'the issuer is no longer trusted');
  });
});
