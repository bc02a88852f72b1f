// Joining a hub site through an unmodified @pnp/sp 4.x client (`site.joinHubSite(id)`, which
// posts `_api/site/joinHubSite('<id>')`; the empty GUID leaves the hub): SP.Site's HubSiteId
// and IsHubSite, HubSiteData of a joined site (the hub's), a member refused with SharePoint's
// 403, unknown and malformed hub ids, a hub that tries to join, and `_api/HubSites` filtered to
// the hubs whose sites the caller can reach (GetById of another: 404, as not found); a join
// and a site design made through one instance read through another sharing its database.

import { after, describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import '@pnp/sp/sites/index.js';
import '@pnp/sp/hubsites/index.js';
import '@pnp/sp/site-designs/index.js';
import '@pnp/sp/site-groups/index.js';
import '@pnp/sp/site-users/index.js';
import { demoBasic, failure, pnpAsDemoUser, pnpFor } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';
import { startSharedInstances } from '../helpers/server.ts';
import '../helpers/pnp-hubsite-types.ts';
import '../helpers/pnp-site-design-types.ts';

const NOMETADATA = { Accept: 'application/json;odata=nometadata' };
const EMPTY_GUID = '00000000-0000-0000-0000-000000000000';
const ALICE = 'alice@contoso.onmicrosoft.com';
const BOB = 'bob@contoso.onmicrosoft.com';
const DAVE = 'dave@contoso.onmicrosoft.com';

describe('PnPjs joinHubSite and the hubs a caller can see', () => {
  const spemu = usePnpSite();
  let pwa: string;
  let hubId: string;
  let devId: string;

  const siteHub = async (url: string) => (await (await fetch(`${url}/_api/site?$select=Id,HubSiteId,IsHubSite`, { headers: { ...NOMETADATA, Authorization: demoBasic(ALICE) } })).json()) as { Id: string; HubSiteId: string; IsHubSite: boolean };

  before(async () => {
    pwa = spemu.server.site('/sites/pwa');
    const hubSp = pnpFor(pwa);
    await hubSp.site.registerHubSite();
    hubId = (await hubSp.site.select('Id')<{ Id: string }>()).Id;
    devId = (await spemu.sp.site.select('Id')<{ Id: string }>()).Id;
  });

  it('a site collection joins a hub: HubSiteId is the hub\'s, IsHubSite false, HubSiteData the hub\'s; the empty GUID leaves it', async () => {
    assert.deepEqual(await siteHub(spemu.site), { Id: devId, HubSiteId: EMPTY_GUID, IsHubSite: false });
    await spemu.sp.site.joinHubSite(hubId);
    assert.deepEqual(await siteHub(spemu.site), { Id: devId, HubSiteId: hubId, IsHubSite: false });
    assert.deepEqual(await siteHub(pwa), { Id: hubId, HubSiteId: hubId, IsHubSite: true }, 'the hub is unchanged');
    const data = await spemu.sp.web.hubSiteData(true);
    assert.equal(data.url, pwa, 'a joined site answers its hub\'s data');
    assert.equal(data.name, 'Project Web App');
    // Joining again is no error; so is leaving twice.
    await spemu.sp.site.joinHubSite(hubId);
    await spemu.sp.site.joinHubSite(EMPTY_GUID);
    assert.equal((await siteHub(spemu.site)).HubSiteId, EMPTY_GUID);
    assert.equal(((await spemu.sp.web.hubSiteData()) as unknown as Record<string, unknown>)['odata.null'], true);
    await spemu.sp.site.joinHubSite(EMPTY_GUID);
  });

  it('the wire: 200 and SharePoint\'s void answer; the id in braces or upper case is the same hub', async () => {
    const res = await fetch(`${spemu.site}/_api/site/JoinHubSite('{${hubId.toUpperCase()}}')`, { method: 'POST', headers: NOMETADATA });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { 'odata.null': true });
    assert.equal((await siteHub(spemu.site)).HubSiteId, hubId);
    await spemu.sp.site.joinHubSite(EMPTY_GUID);
  });

  it('a member may not join or leave (403, nothing changed); unknown, malformed and hub-to-hub joins are refused', async () => {
    const bob = await pnpAsDemoUser(spemu.site, BOB);
    const refused = await failure(bob.site.joinHubSite(hubId));
    assert.equal(refused.status, 403);
    assert.equal(refused.code, '-2147024891, System.UnauthorizedAccessException');
    assert.equal((await siteHub(spemu.site)).HubSiteId, EMPTY_GUID);

    const unknown = await failure(spemu.sp.site.joinHubSite('11111111-2222-3333-4444-555555555555'));
    assert.deepEqual([unknown.status, unknown.code, unknown.message], [404, '-2147024894, System.IO.FileNotFoundException', 'File Not Found.']);
    const notGuid = await failure(spemu.sp.site.joinHubSite('not-a-guid'));
    assert.equal(notGuid.status, 400);
    assert.match(notGuid.message, /Edm\.Guid/);
    const hubJoins = await failure(pnpFor(pwa).site.joinHubSite(hubId));
    assert.deepEqual([hubJoins.status, hubJoins.message], [400, 'A hub site cannot join a hub site.']);
    assert.equal((await siteHub(spemu.site)).HubSiteId, EMPTY_GUID, 'nothing written');
  });

  it('HubSites lists only the hubs whose sites the caller can reach; GetById of another is 404', async () => {
    // Bob is a member of both site collections; Dave a visitor of /sites/dev only.
    const bob = pnpFor(spemu.site, { Authorization: demoBasic(BOB) });
    assert.deepEqual((await bob.hubSites()).map((h) => h.ID), [hubId]);
    assert.equal((await bob.hubSites.getById(hubId)()).ID, hubId);
    const dave = pnpFor(spemu.site, { Authorization: demoBasic(DAVE) });
    assert.deepEqual(await dave.hubSites(), []);
    const hidden = await failure(dave.hubSites.getById(hubId)());
    assert.deepEqual([hidden.status, hidden.message], [404, 'File Not Found.']);
    const wire = await fetch(`${spemu.site}/_api/HubSites`, { headers: { ...NOMETADATA, Authorization: demoBasic(DAVE) } });
    assert.equal(wire.status, 200);
    assert.deepEqual(await wire.json(), { value: [] });
  });

  it('an owner of the site who cannot reach the hub\'s site: JoinHubSite is 404 and a joinHubSite site script action fails, nothing joined', async () => {
    const dave = `i:0#.f|membership|${DAVE}`;
    await spemu.sp.web.associatedOwnerGroup.users.add(dave);
    try {
      const refused = await failure((await pnpAsDemoUser(spemu.site, DAVE)).site.joinHubSite(hubId));
      assert.deepEqual([refused.status, refused.message], [404, 'File Not Found.']);
      assert.equal((await siteHub(spemu.site)).HubSiteId, EMPTY_GUID);
      const contextInfo = await fetch(`${spemu.site}/_api/contextinfo`, { method: 'POST', headers: { ...NOMETADATA, Authorization: demoBasic(DAVE) } });
      const digest = ((await contextInfo.json()) as { FormDigestValue: string }).FormDigestValue;
      const res = await fetch(`${spemu.site}/_api/Microsoft.Sharepoint.Utilities.WebTemplateExtensions.SiteScriptUtility.ExecuteSiteScriptAction`, {
        method: 'POST', body: JSON.stringify({ actionDefinition: JSON.stringify({ verb: 'joinHubSite', hubSiteId: hubId }) }),
        headers: { ...NOMETADATA, 'Content-Type': 'application/json;odata=nometadata', Authorization: demoBasic(DAVE), 'X-RequestDigest': digest },
      });
      assert.equal(res.status, 200);
      const results = ((await res.json()) as { value: Array<{ OutcomeCode: number | string; OutcomeText: string }> }).value;
      assert.equal(results.length, 1);
      assert.notEqual(String(results[0]!.OutcomeCode), '0', JSON.stringify(results));
      assert.equal((await siteHub(spemu.site)).HubSiteId, EMPTY_GUID, 'nothing joined');
    } finally {
      await spemu.sp.web.associatedOwnerGroup.users.removeByLoginName(dave);
    }
  });

  it('unregistering the hub takes its sites out of it', async () => {
    await spemu.sp.site.joinHubSite(hubId);
    await pnpFor(pwa).site.unRegisterHubSite();
    assert.equal((await siteHub(spemu.site)).HubSiteId, EMPTY_GUID);
    const unknown = await failure(spemu.sp.site.joinHubSite(hubId));
    assert.equal(unknown.status, 404);
  });
});

describe('joins and site designs on one database, two instances', () => {
  let shared: Awaited<ReturnType<typeof startSharedInstances>>;
  before(async () => { shared = await startSharedInstances('spemu-hubjoin-'); });
  after(async () => { await shared.close(); });

  it('a join and a design made through one instance are read at once through the other', async () => {
    const [first, second] = shared.servers as [typeof shared.servers[0], typeof shared.servers[0]];
    const hub = pnpFor(first.site('/sites/pwa'));
    await hub.site.registerHubSite();
    const hubId = (await hub.site.select('Id')<{ Id: string }>()).Id;
    // The second instance reads the site first, so it holds it in its cache.
    assert.equal((await pnpFor(second.site('/sites/dev')).site.select('HubSiteId')<{ HubSiteId: string }>()).HubSiteId, EMPTY_GUID);
    await pnpFor(first.site('/sites/dev')).site.joinHubSite(hubId);
    assert.equal((await pnpFor(second.site('/sites/dev')).site.select('HubSiteId')<{ HubSiteId: string }>()).HubSiteId, hubId);
    assert.equal((await pnpFor(second.site('/sites/dev')).web.hubSiteData()).url, second.site('/sites/pwa'));

    const sd = await pnpFor(first.site('/sites/dev')).siteDesigns.createSiteDesign({ Title: 'Shared design', WebTemplate: '64' });
    assert.equal((await pnpFor(second.site('/sites/dev')).siteDesigns.getSiteDesignMetadata(sd.Id)).Title, 'Shared design');
  });
});
