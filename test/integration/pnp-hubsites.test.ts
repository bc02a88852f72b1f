// Hub sites through an unmodified @pnp/sp 4.x client, as PnPjs's own hubsites.ts, webs.ts
// ("hub-sites") and sites.ts ("setSiteLogo") tests drive them: registerHubSite on the root of
// the site collection, hubSites.getById, getSite().select("Title"), unRegisterHubSite from a
// subweb, hubSiteData (null in no hub, the hub's JSON in one), syncHubSiteTheme, setSiteLogo
// (a web logo read back as SP.Web.SiteLogoUrl, also set by a web MERGE; a hub logo the hub's).
// Then the wire shapes with plain fetch, a member and a visitor refused with SharePoint's 403,
// bad setsitelogo bodies refused with nothing written, the registration kept across a restart,
// and a logo set through one instance read through another sharing its database.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import '@pnp/sp/sites/index.js';
import '@pnp/sp/hubsites/index.js';
import '@pnp/sp/files/index.js';
import '@pnp/sp/folders/index.js';
import { SiteLogoAspect, SiteLogoType } from '@pnp/sp/sites/types.js';
import { demoBasic, demoDigest, failure, pnpFor } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';
import { sharedTestDatabase, startSharedInstances, startTestServer } from '../helpers/server.ts';
import '../helpers/pnp-hubsite-types.ts';
import '../helpers/pnp-file-types.ts';

const NOMETADATA = { Accept: 'application/json;odata=nometadata' };
const EMPTY_GUID = '00000000-0000-0000-0000-000000000000';

/** SP.Web.SiteLogoUrl of the web at `webUrl`, as plain fetch reads it. */
async function siteLogoOnTheWire(webUrl: string, headers: Record<string, string> = NOMETADATA): Promise<unknown> {
  const res = await fetch(`${webUrl}/_api/web?$select=SiteLogoUrl`, { headers });
  assert.equal(res.status, 200);
  return ((await res.json()) as { SiteLogoUrl: unknown }).SiteLogoUrl;
}

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
    assert.equal((await spemu.sp.web.select('SiteLogoUrl')<{ SiteLogoUrl: string | null }>()).SiteLogoUrl, null, 'no logo before one is set');
    await spemu.sp.site.setSiteLogo({ relativeLogoUrl: far.ServerRelativeUrl, aspect: SiteLogoAspect.Square, type: SiteLogoType.WebLogo });
    assert.equal((await spemu.sp.web.select('SiteLogoUrl')<{ SiteLogoUrl: string }>()).SiteLogoUrl, far.ServerRelativeUrl, 'a web logo is the web\'s SiteLogoUrl');
    assert.equal(await siteLogoOnTheWire(spemu.site), far.ServerRelativeUrl);
    const whole = await fetch(`${spemu.site}/_api/web`, { headers: NOMETADATA });
    assert.equal(((await whole.json()) as { SiteLogoUrl: string }).SiteLogoUrl, far.ServerRelativeUrl, 'the whole SP.Web carries it too');
    assert.equal(await siteLogoOnTheWire(`${spemu.site}/hub-sub`), null, 'a subweb keeps its own (none)');

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

    // A subweb's logo, by a URL relative to it; the root web's stays.
    const sub = pnpFor(`${spemu.site}/hub-sub`);
    await sub.site.setSiteLogo({ relativeLogoUrl: 'SiteAssets/sub-logo.png', aspect: SiteLogoAspect.Rectangular, type: SiteLogoType.WebLogo });
    assert.equal((await sub.web.select('SiteLogoUrl')<{ SiteLogoUrl: string }>()).SiteLogoUrl, '/sites/dev/hub-sub/SiteAssets/sub-logo.png');
    assert.equal(await siteLogoOnTheWire(spemu.site), far.ServerRelativeUrl);
    // An empty URL resets it (CLI for Microsoft 365's `spo site set --siteLogoUrl ""`).
    await sub.site.setSiteLogo({ relativeLogoUrl: '', aspect: SiteLogoAspect.Rectangular, type: SiteLogoType.WebLogo });
    assert.equal(await siteLogoOnTheWire(`${spemu.site}/hub-sub`), null);
  });

  it('a web MERGE sets SiteLogoUrl (CLI for Microsoft 365\'s `spo web set --siteLogoUrl`); an empty one or null resets it', async () => {
    await spemu.sp.web.update({ SiteLogoUrl: '/sites/dev/SiteAssets/merged.png' });
    assert.equal((await spemu.sp.web.select('SiteLogoUrl')<{ SiteLogoUrl: string }>()).SiteLogoUrl, '/sites/dev/SiteAssets/merged.png');
    const verbose = await fetch(`${spemu.site}/_api/web?$select=SiteLogoUrl`, { headers: { Accept: 'application/json;odata=verbose' } });
    assert.equal(((await verbose.json()) as { d: { SiteLogoUrl: string } }).d.SiteLogoUrl, '/sites/dev/SiteAssets/merged.png');
    await spemu.sp.web.update({ SiteLogoUrl: '' });
    assert.equal(await siteLogoOnTheWire(spemu.site), null);
    await spemu.sp.web.update({ SiteLogoUrl: '/sites/dev/SiteAssets/again.png' });
    await spemu.sp.web.update({ SiteLogoUrl: null });
    assert.equal(await siteLogoOnTheWire(spemu.site), null);
    const wrong = await failure(spemu.sp.web.update({ SiteLogoUrl: 7 }));
    assert.equal(wrong.status, 400, 'a SiteLogoUrl that is no string');
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
      assert.equal(join.status, 404, 'the hub is gone: JoinHubSite does not find it (pnp-hubsites-join.test.ts)');
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
        const logoError = ((await logo.json()) as { 'odata.error': { code: string; message: { value: string } } })['odata.error'];
        assert.equal(logoError.code, '-2147024891, System.UnauthorizedAccessException');
        assert.equal(logoError.message.value, 'Access denied. You do not have permission to perform this action or access this resource.');
        const merge = await fetch(`${spemu.site}/_api/web`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json', 'X-HTTP-Method': 'MERGE' }, body: JSON.stringify({ SiteLogoUrl: '/sites/dev/x.png' }) });
        assert.equal(merge.status, 403, `${upn}: a web MERGE of SiteLogoUrl`);
        assert.equal(await siteLogoOnTheWire(spemu.site, headers), null, `${upn}: nothing was written`);
        const read = await fetch(`${spemu.site}/_api/web/HubSiteData`, { headers });
        assert.equal(read.status, 200, `${upn} reads HubSiteData`);
      }
      const hubs = await fetch(`${spemu.site}/_api/HubSites`, { headers: NOMETADATA });
      assert.deepEqual(await hubs.json(), { value: [] }, 'nothing was registered');
    });

    it('setsitelogo without a relativeLogoUrl, or with a type or aspect out of range: SharePoint\'s 400, nothing written; types not kept: 501', async () => {
      await spemu.sp.web.update({ SiteLogoUrl: '/sites/dev/SiteAssets/kept.png' });
      try {
        for (const body of [{ type: 0, aspect: 0 }, { relativeLogoUrl: null, type: 0 }, { relativeLogoUrl: 5 }, { relativeLogoUrl: '/sites/dev/new.png', type: 4 }, { relativeLogoUrl: '/sites/dev/new.png', aspect: 2 }]) {
          const res = await fetch(`${spemu.site}/_api/siteiconmanager/setsitelogo`, { method: 'POST', headers: { ...NOMETADATA, 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
          assert.equal(res.status, 400, JSON.stringify(body));
          const error = ((await res.json()) as { 'odata.error': { code: string } })['odata.error'];
          assert.equal(error.code, '-2147024809, System.ArgumentException', JSON.stringify(body));
        }
        // A header background (2) or global navigation logo (3) is not kept: 501, not a 200 for nothing.
        for (const type of [2, 3]) {
          const res = await fetch(`${spemu.site}/_api/siteiconmanager/setsitelogo`, { method: 'POST', headers: { ...NOMETADATA, 'Content-Type': 'application/json' }, body: JSON.stringify({ relativeLogoUrl: '/sites/dev/new.png', type, aspect: 0 }) });
          assert.equal(res.status, 501, `type ${type}`);
          assert.equal(((await res.json()) as { 'odata.error': { code: string } })['odata.error'].code, '-1, System.NotImplementedException', `type ${type}`);
        }
        // A hub logo where the site collection is no hub: refused as UnRegisterHubSite is there, not a 200 for nothing.
        const noHub = await fetch(`${spemu.site}/_api/siteiconmanager/setsitelogo`, { method: 'POST', headers: { ...NOMETADATA, 'Content-Type': 'application/json' }, body: JSON.stringify({ relativeLogoUrl: '/sites/dev/new.png', type: 1, aspect: 0 }) });
        assert.equal(noHub.status, 404, 'a hub logo without a hub');
        const malformed = await fetch(`${spemu.site}/_api/siteiconmanager/setsitelogo`, { method: 'POST', headers: { ...NOMETADATA, 'Content-Type': 'application/json' }, body: '{"relativeLogoUrl":' });
        assert.equal(malformed.status, 400, 'a body that is no JSON');
        assert.equal(await siteLogoOnTheWire(spemu.site), '/sites/dev/SiteAssets/kept.png', 'nothing was written');
        // Then a good one, as CLI for Microsoft 365's `spo site set --siteLogoUrl` sends it: 200 and SharePoint's void answer.
        const good = await fetch(`${spemu.site}/_api/siteiconmanager/setsitelogo`, { method: 'POST', headers: { ...NOMETADATA, 'Content-Type': 'application/json' }, body: JSON.stringify({ aspect: 1, relativeLogoUrl: '/sites/dev/SiteAssets/cli.png', type: 0 }) });
        assert.equal(good.status, 200);
        assert.deepEqual(await good.json(), { 'odata.null': true });
        assert.equal(await siteLogoOnTheWire(spemu.site), '/sites/dev/SiteAssets/cli.png');
      } finally {
        await spemu.sp.web.update({ SiteLogoUrl: null });
      }
    });

    it('a manager of a subweb with permissions of its own sets that web\'s logo, not the hub\'s (the site collection\'s): 403', { timeout: 30_000 }, async () => {
      const BOB = 'bob@contoso.onmicrosoft.com';
      const FULL_CONTROL = 1073741829;
      await spemu.sp.web.webs.add('Logo sub', 'logo-sub');
      const sub = `${spemu.site}/logo-sub`;
      const asAlice = { ...NOMETADATA, 'X-RequestDigest': (await demoDigest(sub, 'alice@contoso.onmicrosoft.com'))!, Authorization: demoBasic('alice@contoso.onmicrosoft.com') };
      const bobId = ((await (await fetch(`${sub}/_api/web/ensureuser`, { method: 'POST', headers: { ...asAlice, 'Content-Type': 'application/json' }, body: JSON.stringify({ logonName: `i:0#.f|membership|${BOB}` }) })).json()) as { Id: number }).Id;
      assert.equal((await fetch(`${sub}/_api/web/breakroleinheritance(copyRoleAssignments=true,clearSubscopes=true)`, { method: 'POST', headers: asAlice })).status, 200);
      assert.equal((await fetch(`${sub}/_api/web/roleassignments/addroleassignment(principalid=${bobId},roledefid=${FULL_CONTROL})`, { method: 'POST', headers: asAlice })).status, 200);
      await spemu.sp.site.registerHubSite();
      try {
        const bob = { ...NOMETADATA, 'Content-Type': 'application/json', Authorization: demoBasic(BOB), 'X-RequestDigest': (await demoDigest(sub, BOB))! };
        const setLogo = (type: number) => fetch(`${sub}/_api/siteiconmanager/setsitelogo`, { method: 'POST', headers: bob, body: JSON.stringify({ relativeLogoUrl: '/sites/dev/SiteAssets/bob.png', type, aspect: 0 }) });
        assert.equal((await setLogo(1)).status, 403, 'the hub logo is the site collection\'s');
        const hub = (await (await fetch(`${spemu.site}/_api/HubSites/GetById('${siteId}')`, { headers: NOMETADATA })).json()) as { LogoUrl: string | null };
        assert.equal(hub.LogoUrl, null, 'nothing was written');
        assert.equal((await setLogo(0)).status, 200, 'his own web\'s logo');
        assert.equal(await siteLogoOnTheWire(sub), '/sites/dev/SiteAssets/bob.png');
      } finally {
        await spemu.sp.site.unRegisterHubSite();
      }
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

describe('a site logo across instances sharing a database', () => {
  let shared: Awaited<ReturnType<typeof startSharedInstances>>;
  before(async () => { shared = await startSharedInstances('spemu-sitelogo-'); });
  after(async () => { await shared.close(); });

  it('a logo set through one instance is read at once through the other, whose cache held the web without it', async () => {
    const [first, second] = shared.servers as [typeof shared.servers[0], typeof shared.servers[0]];
    const through = (server: typeof first) => pnpFor(server.site('/sites/dev'));
    assert.equal((await through(second).web.select('SiteLogoUrl')<{ SiteLogoUrl: string | null }>()).SiteLogoUrl, null);
    await through(first).site.setSiteLogo({ relativeLogoUrl: '/sites/dev/SiteAssets/shared.png', aspect: SiteLogoAspect.Square, type: SiteLogoType.WebLogo });
    assert.equal((await through(second).web.select('SiteLogoUrl')<{ SiteLogoUrl: string }>()).SiteLogoUrl, '/sites/dev/SiteAssets/shared.png');
    assert.equal(await siteLogoOnTheWire(second.site('/sites/dev')), '/sites/dev/SiteAssets/shared.png');
    await through(first).web.update({ SiteLogoUrl: null });
    assert.equal(await siteLogoOnTheWire(second.site('/sites/dev')), null, 'and its reset');
  });
});
