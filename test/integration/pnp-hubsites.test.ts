// Hub sites through an unmodified @pnp/sp 4.x client, as PnPjs's own hubsites.ts, webs.ts
// ("hub-sites") and sites.ts ("setSiteLogo") tests drive them: registerHubSite on the root of
// the site collection, hubSites.getById, getSite().select("Title"), unRegisterHubSite from a
// subweb, hubSiteData (null in no hub, the hub's JSON in one), syncHubSiteTheme, setSiteLogo.
// Then the wire shapes with plain fetch, a member refused with SharePoint's 403, and the
// registration kept across a restart over the same database.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import '@pnp/sp/sites/index.js';
import '@pnp/sp/hubsites/index.js';
import '@pnp/sp/files/index.js';
import '@pnp/sp/folders/index.js';
import { SiteLogoAspect, SiteLogoType } from '@pnp/sp/sites/types.js';
import { demoBasic, demoDigest, failure, pnpFor } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';
import { sharedTestDatabase, startTestServer } from '../helpers/server.ts';
import '../helpers/pnp-hubsite-types.ts';
import '../helpers/pnp-file-types.ts';

const NOMETADATA = { Accept: 'application/json;odata=nometadata' };
const EMPTY_GUID = '00000000-0000-0000-0000-000000000000';

describe('PnPjs hub sites against spemu', () => {
  const spemu = usePnpSite();
  let siteId: string;

  before(async () => {
    siteId = (await spemu.sp.site.select('Id')<{ Id: string }>()).Id;
    await spemu.sp.web.webs.add('Hub sub', 'hub-sub');
  });

  it('hubSiteData is SharePoint\'s null while the site collection is in no hub; syncHubSiteTheme answers', async () => {
    const data = await spemu.sp.web.hubSiteData() as unknown as Record<string, unknown>;
    assert.equal(data['odata.null'], true);
    const refreshed = await spemu.sp.web.hubSiteData(true) as unknown as Record<string, unknown>;
    assert.equal(refreshed['odata.null'], true);
    await spemu.sp.web.syncHubSiteTheme();
  });

  it('registerHubSite, getById, getSite().select("Title"), hubSiteData, then unRegisterHubSite from a subweb', async () => {
    await spemu.sp.site.registerHubSite();
    const { Id, IsHubSite, HubSiteId } = await spemu.sp.site.select('Id', 'IsHubSite', 'HubSiteId')<{ Id: string; IsHubSite: boolean; HubSiteId: string }>();
    assert.deepEqual({ Id, IsHubSite, HubSiteId }, { Id: siteId, IsHubSite: true, HubSiteId: siteId });

    const hub = await spemu.sp.hubSites.getById(siteId)();
    assert.equal(hub.ID, siteId);
    assert.equal(hub.SiteId, siteId);
    assert.equal(hub.Title, 'Dev', 'the root web\'s title when registered');
    assert.equal(hub.SiteUrl, spemu.site);
    assert.equal((await spemu.sp.hubSites()).filter((h) => h.ID === siteId).length, 1);

    const hubSite = await spemu.sp.hubSites.getById(siteId).getSite();
    await hubSite.select('Title')();
    assert.equal((await hubSite.select('Id')<{ Id: string }>()).Id, siteId, 'getSite() is the hub\'s site collection');

    const data = await spemu.sp.web.hubSiteData(true);
    assert.equal(data.name, 'Dev');
    assert.equal(data.url, spemu.site);
    assert.equal(data.parentHubSiteId, EMPTY_GUID);
    assert.ok(Array.isArray(data.navigation));
    const sub = pnpFor(`${spemu.site}/hub-sub`);
    assert.equal((await sub.web.hubSiteData()).url, spemu.site, 'a subweb is in its site collection\'s hub');
    await sub.web.syncHubSiteTheme();

    const again = await failure(spemu.sp.site.registerHubSite());
    assert.equal(again.status, 400);
    assert.equal(again.message, 'This site is already a HubSite.');

    await sub.site.unRegisterHubSite();
    assert.equal((await spemu.sp.site.select('IsHubSite')<{ IsHubSite: boolean }>()).IsHubSite, false);
    assert.equal((await failure(spemu.sp.hubSites.getById(siteId)())).status, 404);
    assert.equal((await failure(spemu.sp.site.unRegisterHubSite())).status, 404, 'a site that is no hub cannot be unregistered');
    assert.equal(((await spemu.sp.web.hubSiteData()) as unknown as Record<string, unknown>)['odata.null'], true);
  });

  it('setSiteLogo with an uploaded image, as PnPjs\'s sites test sends it; a hub logo becomes the hub\'s LogoUrl', async () => {
    const files = spemu.sp.web.defaultDocumentLibrary.rootFolder.files;
    const far = await files.addChunked('Testing Chunked - logo.jpg', new Blob([Buffer.from([0xff, 0xd8, 0xff, 0xd9])]));
    await spemu.sp.site.setSiteLogo({ relativeLogoUrl: far.ServerRelativeUrl, aspect: SiteLogoAspect.Square, type: SiteLogoType.WebLogo });

    await spemu.sp.site.registerHubSite();
    try {
      await spemu.sp.site.setSiteLogo({ relativeLogoUrl: far.ServerRelativeUrl, aspect: SiteLogoAspect.Square, type: SiteLogoType.HubLogo });
      const hub = await spemu.sp.hubSites.getById(siteId)();
      assert.equal(hub.LogoUrl, `${spemu.server.url}${far.ServerRelativeUrl.replaceAll(' ', '%20')}`);
      assert.equal((await spemu.sp.web.hubSiteData()).logoUrl, hub.LogoUrl);
    } finally {
      await spemu.sp.site.unRegisterHubSite();
    }
    const bad = await failure(spemu.sp.site.setSiteLogo({ relativeLogoUrl: far.ServerRelativeUrl, aspect: SiteLogoAspect.Square, type: 9 as SiteLogoType }));
    assert.equal(bad.status, 400);
  });

  describe('on the wire', () => {
    it('RegisterHubSite answers SP.HubSite; GetById takes its id in the query string; UnRegisterHubSite 204', async () => {
      const registered = await fetch(`${spemu.site}/_api/site/RegisterHubSite`, { method: 'POST', headers: { Accept: 'application/json;odata=minimalmetadata' } });
      assert.equal(registered.status, 200);
      const body = await registered.json() as Record<string, unknown>;
      assert.equal(body['odata.type'], 'SP.HubSite');
      assert.equal(body['odata.editLink'], 'site/RegisterHubSite');
      assert.equal(body['odata.etag'], '"1"');
      assert.deepEqual(Object.keys(body).filter((k) => !k.startsWith('odata.') && !k.includes('@odata.')), [
        'Description', 'EnablePermissionsSync', 'EnforcedECTs', 'EnforcedECTsVersion', 'HideNameInNavigation', 'ID', 'LogoUrl',
        'ParentHubSiteId', 'PermissionsSyncTag', 'RelatedHubSiteIds', 'RequiresJoinApproval', 'SiteDesignId', 'SiteId', 'SiteUrl',
        'Targets', 'TenantInstanceId', 'Title',
      ]);
      assert.equal(body.ID, siteId);
      assert.equal(body.Description, null);
      assert.equal(body.ParentHubSiteId, EMPTY_GUID);

      const byId = await fetch(`${spemu.site}/_api/HubSites/GetById?hubSiteId='${siteId.toUpperCase()}'&$select=Title,SiteUrl`, { headers: NOMETADATA });
      assert.equal(byId.status, 200);
      assert.deepEqual(await byId.json(), { Title: 'Dev', SiteUrl: spemu.site });
      // CLI for Microsoft 365's `spo hubsite get --id` puts it in parentheses.
      const inParens = await fetch(`${spemu.site}/_api/hubsites/getbyid('${siteId}')?$select=ID`, { headers: NOMETADATA });
      assert.deepEqual(await inParens.json(), { ID: siteId });

      const verbose = await fetch(`${spemu.site}/_api/web/HubSiteData(false)`, { headers: { Accept: 'application/json;odata=verbose' } });
      const text = ((await verbose.json()) as { d: { HubSiteData: string } }).d.HubSiteData;
      assert.equal(typeof text, 'string', 'the hub\'s data is a JSON string');
      assert.equal((JSON.parse(text) as { name: string }).name, 'Dev');

      const gone = await fetch(`${spemu.site}/_api/site/UnregisterHubSite`, { method: 'POST', headers: NOMETADATA });
      assert.equal(gone.status, 204);
      const missing = await fetch(`${spemu.site}/_api/HubSites/GetById?hubSiteId='${siteId}'`, { headers: NOMETADATA });
      assert.equal(missing.status, 404);
      assert.equal(((await missing.json()) as { 'odata.error': { code: string } })['odata.error'].code, '-2147024894, System.IO.FileNotFoundException');
      const none = await fetch(`${spemu.site}/_api/web/HubSiteData`, { headers: NOMETADATA });
      assert.deepEqual(await none.json(), { 'odata.null': true });
      const sync = await fetch(`${spemu.site}/_api/web/SyncHubSiteTheme`, { method: 'POST', headers: NOMETADATA });
      assert.equal(sync.status, 204);
      const join = await fetch(`${spemu.site}/_api/site/JoinHubSite('${siteId}')`, { method: 'POST', headers: NOMETADATA });
      assert.equal(join.status, 501, 'not built: SharePoint\'s method, spemu\'s 501');
    });

    it('a member (Edit) and a visitor may not register a hub: SharePoint\'s 403; both may read HubSiteData', async () => {
      for (const upn of ['bob@contoso.onmicrosoft.com', 'dave@contoso.onmicrosoft.com']) {
        const digest = await demoDigest(spemu.site, upn);
        assert.ok(digest, `${upn} gets a request digest`);
        const headers = { ...NOMETADATA, Authorization: demoBasic(upn), 'X-RequestDigest': digest };
        const refused = await fetch(`${spemu.site}/_api/site/RegisterHubSite`, { method: 'POST', headers });
        assert.equal(refused.status, 403, upn);
        const error = ((await refused.json()) as { 'odata.error': { code: string; message: { value: string } } })['odata.error'];
        assert.equal(error.code, '-2147024891, System.UnauthorizedAccessException');
        assert.equal(error.message.value, 'Access denied. You do not have permission to perform this action or access this resource.');
        const logo = await fetch(`${spemu.site}/_api/siteiconmanager/setsitelogo`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ relativeLogoUrl: '/sites/dev/x.png', type: 0, aspect: 0 }) });
        assert.equal(logo.status, 403, `${upn}: setsitelogo`);
        const read = await fetch(`${spemu.site}/_api/web/HubSiteData`, { headers });
        assert.equal(read.status, 200, `${upn} reads HubSiteData`);
      }
      const hubs = await fetch(`${spemu.site}/_api/HubSites`, { headers: NOMETADATA });
      assert.deepEqual(await hubs.json(), { value: [] }, 'nothing was registered');
    });
  });
});

describe('hub registration across a restart', () => {
  let database: Awaited<ReturnType<typeof sharedTestDatabase>>;
  before(async () => { database = await sharedTestDatabase('spemu-hubsites-'); });
  after(async () => { await database.drop(); });

  it('a hub registered before the server stops is a hub when it starts again over the same database', async () => {
    const first = await startTestServer({ db: database.db, shared: true });
    let siteId: string;
    try {
      const sp = pnpFor(first.site('/sites/dev'));
      siteId = (await sp.site.select('Id')<{ Id: string }>()).Id;
      await sp.site.registerHubSite();
    } finally {
      await first.close();
    }
    const second = await startTestServer({ db: database.db, shared: true });
    try {
      const sp = pnpFor(second.site('/sites/dev'));
      const hub = await sp.hubSites.getById(siteId)();
      assert.equal(hub.SiteUrl, second.site('/sites/dev'));
      assert.equal((await sp.site.select('IsHubSite')<{ IsHubSite: boolean }>()).IsHubSite, true);
      await sp.site.unRegisterHubSite();
    } finally {
      await second.close();
    }
  });
});
