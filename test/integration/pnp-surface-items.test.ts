// The item surface PnPjs's own test suite touches, through an unmodified @pnp/sp 4.x client
// against a real spemu (demo tenant): FieldValuesAsHTML / AsText / ForEdit, version history
// (item.versions, versions.getById, kept on every update in the update's transaction, as the
// list's EnableVersioning says) and getWopiFrameUrl. Plain fetch checks the wire.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import type { IList } from '@pnp/sp/lists/index.js';
import '@pnp/sp/batching.js';
import { useTestServer } from '../helpers/server.ts';
import { failure, pnpFor } from '../helpers/pnp.ts';
import '../helpers/pnp-types.ts';
import '../helpers/pnp-batching-types.ts';
import { bearerFor } from '../helpers/bearer.ts';
import { ACCEPT } from '../helpers/wire.ts';

const SECRET = 'surface-items-secret-surface-items-secret-0123';
const BOB = 'bob@contoso.onmicrosoft.com'; // member of /sites/dev
const DAVE = 'dave@contoso.onmicrosoft.com'; // visitor of /sites/dev

const bearer = (upn: string) => bearerFor(SECRET, upn);

describe('PnPjs item surface against spemu', () => {
  const spemu = useTestServer({ tokenSecret: SECRET });
  let sp: SPFI;
  let member: SPFI;
  let visitor: SPFI;
  let call: (path: string, init?: { method?: string; accept?: string; body?: unknown; headers?: Record<string, string> }) =>
    Promise<{ status: number; json: any }>;
  /** User Information List ids by display name. */
  const userId = new Map<string, number>();

  before(async () => {
    sp = pnpFor(spemu.server.site('/sites/dev'));
    member = pnpFor(spemu.server.site('/sites/dev'), { Authorization: await bearer(BOB) });
    visitor = pnpFor(spemu.server.site('/sites/dev'), { Authorization: await bearer(DAVE) });
    call = async (path, init = {}) => {
      const r = await fetch(`${spemu.server.site('/sites/dev')}/_api/${path}`, {
        method: init.method ?? 'GET',
        headers: { Accept: init.accept ?? ACCEPT.nometadata, ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...init.headers },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await r.text();
      return { status: r.status, json: text ? JSON.parse(text) : undefined };
    };
    for (const u of await sp.web.lists.getByTitle('User Information List').items.select('Id', 'Title')()) userId.set(u.Title, u.Id);
  });

  describe('FieldValuesAsHTML, FieldValuesAsText, FieldValuesForEdit', () => {
    it('each answers every field of the item as text, HTML escaped in the HTML form', async () => {
      const { list } = await sp.web.lists.ensure('Surface Values');
      await list.fields.addNumber('Score');
      await list.fields.addBoolean('Flag');
      const added = await list.items.add({ Title: 'a < b & "c"', Score: 1234.5, Flag: true });
      const item = list.items.getById(added.Id);
      const html = await item.fieldValuesAsHTML();
      const text = await item.fieldValuesAsText();
      const edit = await item.fieldValuesForEdit();
      assert.equal(text.Title, 'a < b & "c"');
      assert.equal(html.Title, 'a &lt; b &amp; &quot;c&quot;');
      assert.equal(edit.Title, 'a < b & "c"');
      assert.equal(text.Score, '1,234.5');
      assert.equal(text.Flag, 'Yes');
      assert.equal(text.ID, String(added.Id));
      assert.equal(text.Author, 'Alice Adams');
      // The wire: SP.FieldStringValues, keys with `_` encoded.
      const r = await call(`web/lists/getbytitle('Surface Values')/items(${added.Id})/FieldValuesAsHtml`, { accept: ACCEPT.minimal });
      assert.equal(r.json['odata.type'], 'SP.FieldStringValues');
      assert.equal(r.json.OData__x005f_UIVersionString, '1.0');
      assert.equal((await failure(list.items.getById(99999).fieldValuesAsHTML())).status, 404);
    });
  });

  describe('versions', () => {
    let list: IList;
    let itemId: number;
    /** The item's Modified after each write: version n was made then. */
    const madeAt: string[] = [];

    before(async () => {
      ({ list } = await sp.web.lists.ensure('Surface Versions', '', 100, false, { EnableVersioning: true }));
      await list.fields.addText('Stage');
      await list.fields.addUser('Reviewer');
      const added = await list.items.add({ Title: 'v1', Stage: 'draft' });
      itemId = added.Id;
      madeAt.push(added.Modified);
      await list.items.getById(itemId).update({ Title: 'v2', Stage: 'review', ReviewerId: userId.get('Bob Baker') });
      madeAt.push((await list.items.getById(itemId).select('Modified')()).Modified);
      // The third version is made by a member.
      await member.web.lists.getByTitle('Surface Versions').items.getById(itemId).update({ Title: 'v3', Stage: 'final' });
      madeAt.push((await list.items.getById(itemId).select('Modified')()).Modified);
    });

    it('item.versions() lists every version, current first: VersionId, VersionLabel, IsCurrentVersion, Created', async () => {
      const versions = await list.items.getById(itemId).versions();
      assert.deepEqual(versions.map((v: any) => v.VersionId), [1536, 1024, 512]);
      assert.deepEqual(versions.map((v: any) => v.VersionLabel), ['3.0', '2.0', '1.0']);
      assert.deepEqual(versions.map((v: any) => v.IsCurrentVersion), [true, false, false]);
      assert.deepEqual(versions.map((v: any) => v.Created), [madeAt[2], madeAt[1], madeAt[0]]);
      assert.deepEqual(versions.map((v: any) => v.OData__UIVersionString), ['3.0', '2.0', '1.0']);
      // The item agrees on its own version.
      assert.equal((await list.items.getById(itemId).select('OData__UIVersionString')()).OData__UIVersionString, '3.0');
    });

    it('each version holds the field values as they were, people as SP.FieldUserValue', async () => {
      const versions = await list.items.getById(itemId).versions();
      assert.deepEqual(versions.map((v: any) => v.Title), ['v3', 'v2', 'v1']);
      assert.deepEqual(versions.map((v: any) => v.Stage), ['final', 'review', 'draft']);
      assert.deepEqual(versions.map((v: any) => v.Editor.LookupValue), ['Bob Baker', 'Alice Adams', 'Alice Adams']);
      assert.deepEqual(versions.map((v: any) => v.Editor.LookupId), [userId.get('Bob Baker'), userId.get('Alice Adams'), userId.get('Alice Adams')]);
      assert.equal(versions[2].Reviewer, null);
      assert.deepEqual(versions[1].Reviewer, { LookupId: userId.get('Bob Baker'), LookupValue: 'Bob Baker', Email: 'bob@contoso.com' });
      assert.deepEqual(versions.map((v: any) => v.Author.LookupValue), ['Alice Adams', 'Alice Adams', 'Alice Adams']);
      assert.deepEqual(versions.map((v: any) => v.ID), [itemId, itemId, itemId]);
    });

    it('versions.getById(512) and versions(1024) address one version; CreatedBy is who made it', async () => {
      const v1 = await list.items.getById(itemId).versions.getById(512)();
      assert.equal(v1.VersionLabel, '1.0');
      assert.equal(v1.Title, 'v1');
      assert.equal(v1.IsCurrentVersion, false);
      const byKey = await call(`web/lists/getbytitle('Surface Versions')/items(${itemId})/versions(1024)?$select=VersionLabel,Title`);
      assert.deepEqual(byKey.json, { Title: 'v2', VersionLabel: '2.0' });
      const byMethod = await call(`web/lists/getbytitle('Surface Versions')/items(${itemId})/versions/getbyid(1536)?$select=IsCurrentVersion`);
      assert.deepEqual(byMethod.json, { IsCurrentVersion: true });
      const createdBy = await call(`web/lists/getbytitle('Surface Versions')/items(${itemId})/versions(1536)/CreatedBy?$select=Title`);
      assert.deepEqual(createdBy.json, { Title: 'Bob Baker' });
      const expanded = await call(`web/lists/getbytitle('Surface Versions')/items(${itemId})/versions?$select=VersionLabel,CreatedBy/Title&$expand=CreatedBy`);
      assert.deepEqual(expanded.json.value.map((v: any) => [v.VersionLabel, v.CreatedBy.Title]),
        [['3.0', 'Bob Baker'], ['2.0', 'Alice Adams'], ['1.0', 'Alice Adams']]);
    });

    it('$select, $filter and $top work over the versions', async () => {
      const r = await call(`web/lists/getbytitle('Surface Versions')/items(${itemId})/versions?$select=VersionId&$filter=IsCurrentVersion eq false&$top=1`);
      assert.deepEqual(r.json, { value: [{ VersionId: 1024 }] });
    });

    it('the wire: SP.ListItemVersion in verbose and minimal metadata', async () => {
      const verbose = await call(`web/lists/getbytitle('Surface Versions')/items(${itemId})/versions`, { accept: ACCEPT.verbose });
      const [current] = verbose.json.d.results;
      assert.equal(current.__metadata.type, 'SP.ListItemVersion');
      assert.match(current.__metadata.uri, new RegExp(`/_api/Web/Lists\\(guid'[0-9a-f-]{36}'\\)/Items\\(${itemId}\\)/Versions\\(1536\\)$`));
      assert.ok(current.CreatedBy.__deferred);
      assert.deepEqual(current.Editor, { __metadata: { type: 'SP.FieldUserValue' }, LookupId: userId.get('Bob Baker'), LookupValue: 'Bob Baker', Email: 'bob@contoso.com' });
      const minimal = await call(`web/lists/getbytitle('Surface Versions')/items(${itemId})/versions(512)`, { accept: ACCEPT.minimal });
      assert.equal(minimal.json['odata.type'], 'SP.ListItemVersion');
      assert.match(minimal.json['odata.editLink'], /Items\(\d+\)\/Versions\(512\)$/);
      assert.equal(minimal.json.VersionId, 512);
    });

    it('an unknown version is a 404; a VersionId that is not a major version too', async () => {
      assert.equal((await failure(list.items.getById(itemId).versions.getById(4096)())).status, 404);
      assert.equal((await call(`web/lists/getbytitle('Surface Versions')/items(${itemId})/versions(513)`)).status, 404);
      assert.equal((await failure(list.items.getById(99999).versions())).status, 404);
    });

    it('a visitor reads versions but may not delete one', async () => {
      const seen = await visitor.web.lists.getByTitle('Surface Versions').items.getById(itemId).versions.select('VersionLabel')();
      assert.equal(seen.length, 3);
      assert.equal((await failure(visitor.web.lists.getByTitle('Surface Versions').items.getById(itemId).versions.getById(512).delete())).status, 403);
    });

    it('a refused update (stale etag, failed validation, unknown property) adds no version', async () => {
      const item = list.items.getById(itemId);
      const stale = await failure(item.update({ Title: 'never' }, '"1"'));
      assert.equal(stale.status, 412);
      const unknown = await failure(item.update({ NoSuchField: 'x' }));
      assert.equal(unknown.status, 400);
      await list.fields.addText('Needed', { Required: true });
      const invalid = await failure(item.update({ Needed: '' }));
      assert.equal(invalid.status, 500);
      const versions = await item.versions.select('VersionLabel')();
      assert.deepEqual(versions.map((v: any) => v.VersionLabel), ['3.0', '2.0', '1.0']);
      assert.equal((await item.select('Title')()).Title, 'v3');
    });

    it('updates inside a $batch each make a version', async () => {
      const added = await list.items.add({ Title: 'b1', Needed: 'x' });
      const [batched, execute] = sp.batched();
      const target = batched.web.lists.getByTitle('Surface Versions').items.getById(added.Id);
      void target.update({ Title: 'b2' });
      void target.update({ Title: 'b3' });
      await execute();
      const versions = await list.items.getById(added.Id).versions();
      assert.deepEqual(versions.map((v: any) => [v.VersionLabel, v.Title]), [['3.0', 'b3'], ['2.0', 'b2'], ['1.0', 'b1']]);
    });

    it('a past version can be deleted; the current one cannot', async () => {
      const added = await list.items.add({ Title: 'd1', Needed: 'x' });
      const item = list.items.getById(added.Id);
      await item.update({ Title: 'd2' });
      await item.update({ Title: 'd3' });
      await item.versions.getById(1024).delete();
      assert.deepEqual((await item.versions()).map((v: any) => v.VersionLabel), ['3.0', '1.0']);
      assert.equal((await failure(item.versions.getById(1024).delete())).status, 404);
      const current = await failure(item.versions.getById(1536).delete());
      assert.equal(current.status, 400);
      assert.equal((await item.versions()).length, 2);
    });

    it('deleting or recycling the item takes its history with it', async () => {
      for (const how of ['delete', 'recycle'] as const) {
        const added = await list.items.add({ Title: `${how}1`, Needed: 'x' });
        const item = list.items.getById(added.Id);
        await item.update({ Title: `${how}2` });
        assert.equal((await item.versions()).length, 2);
        if (how === 'delete') await item.delete(); else await item.recycle();
        assert.equal((await failure(item.versions())).status, 404);
        assert.equal((await call(`web/lists/getbytitle('Surface Versions')/items(${added.Id})/versions(512)`)).status, 404);
      }
    });

    it('the list keeps at most MajorVersionLimit (50) versions, the current one included', async () => {
      const added = await list.items.add({ Title: 'n1', Needed: 'x' });
      const item = list.items.getById(added.Id);
      for (let n = 2; n <= 55; n++) await item.update({ Title: `n${n}` });
      const versions = await item.versions.select('VersionLabel', 'Title')();
      assert.equal(versions.length, 50);
      assert.equal(versions[0].VersionLabel, '55.0');
      assert.equal(versions[49].VersionLabel, '6.0');
      assert.equal(versions[49].Title, 'n6');
      assert.equal((await list.select('MajorVersionLimit')()).MajorVersionLimit, 50);
    });

    it('with versioning off an item has one version, 1.0, overwritten by every update; turning it on starts history', async () => {
      const { list: plain } = await sp.web.lists.ensure('Surface Unversioned', '', 100, false, { EnableVersioning: false });
      const added = await plain.items.add({ Title: 'u1' });
      const item = plain.items.getById(added.Id);
      await item.update({ Title: 'u2' });
      await item.update({ Title: 'u3' });
      let versions = await item.versions();
      assert.deepEqual(versions.map((v: any) => [v.VersionLabel, v.Title, v.IsCurrentVersion]), [['1.0', 'u3', true]]);
      assert.equal((await item.select('OData__UIVersionString')()).OData__UIVersionString, '1.0');

      await plain.update({ EnableVersioning: true });
      await item.update({ Title: 'u4' });
      versions = await item.versions();
      assert.deepEqual(versions.map((v: any) => [v.VersionLabel, v.Title]), [['2.0', 'u4'], ['1.0', 'u3']]);

      // Off again: history stays, the current version is overwritten.
      await plain.update({ EnableVersioning: false });
      await item.update({ Title: 'u5' });
      versions = await item.versions();
      assert.deepEqual(versions.map((v: any) => [v.VersionLabel, v.Title]), [['2.0', 'u5'], ['1.0', 'u3']]);
    });
  });

  describe('getWopiFrameUrl', () => {
    it('answers a string: empty, as SharePoint does for an item without a WOPI application', async () => {
      const [first] = await sp.web.lists.getByTitle('Tasks').items.select('Id').top(1)();
      const url = await sp.web.lists.getByTitle('Tasks').items.getById(first.Id).getWopiFrameUrl();
      assert.equal(url, '');
      assert.equal(await sp.web.lists.getByTitle('Tasks').items.getById(first.Id).getWopiFrameUrl(1), '');
      // Visitors may ask (it only reads).
      assert.equal(await visitor.web.lists.getByTitle('Tasks').items.getById(first.Id).getWopiFrameUrl(), '');
    });

    it('the wire: {"d":{"GetWOPIFrameUrl":""}} in verbose, Edm.String in minimal; POST only; 404 for no item', async () => {
      const verbose = await call("web/lists/getbytitle('Tasks')/items(1)/getWOPIFrameUrl(@action)?@action=0", { method: 'POST', accept: ACCEPT.verbose });
      assert.equal(verbose.status, 200);
      assert.deepEqual(verbose.json, { d: { GetWOPIFrameUrl: '' } });
      const minimal = await call("web/lists/getbytitle('Tasks')/items(1)/getwopiframeurl(2)", { method: 'POST', accept: ACCEPT.minimal });
      assert.match(minimal.json['odata.metadata'], /#Edm\.String$/);
      assert.equal(minimal.json.value, '');
      assert.equal((await call("web/lists/getbytitle('Tasks')/items(1)/getWOPIFrameUrl(0)")).status, 405);
      assert.equal((await call("web/lists/getbytitle('Tasks')/items(99999)/getWOPIFrameUrl(0)", { method: 'POST' })).status, 404);
      assert.equal((await call("web/lists/getbytitle('Tasks')/items(1)/getWOPIFrameUrl(7)", { method: 'POST' })).status, 400);
    });
  });
});
