// Site designs through an unmodified @pnp/sp 4.x client (`sp.siteDesigns`, `web.addSiteDesignTask`,
// `web.getSiteDesignRuns`, `web.getSiteDesignRunStatus`: the calls of PnPjs's own
// test/sp/site-designs.ts), then applying a design whose script makes a list with columns, a
// view and a quick launch link, sets the site logo and joins a hub — and reports the actions
// spemu does not run as failed, never as done. Plain fetch checks the wire (SiteDesignMetadata's
// properties in order, enums and times as strings), ExecuteSiteScriptAction, who may write
// (a user who owns no site: 403) and apply (a member: 403), design rights hiding a design, and
// SharePoint's errors for unknown ids and bad bodies, with nothing written.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import '@pnp/sp/webs/index.js';
import '@pnp/sp/lists/index.js';
import '@pnp/sp/fields/index.js';
import '@pnp/sp/views/index.js';
import '@pnp/sp/navigation/index.js';
import '@pnp/sp/sites/index.js';
import '@pnp/sp/hubsites/index.js';
import '@pnp/sp/site-scripts/index.js';
import '@pnp/sp/site-designs/index.js';
import { demoBasic, demoDigest, failure, pnpFor } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';
import { ACCEPT, GUID } from '../helpers/wire.ts';
import '../helpers/pnp-types.ts';
import '../helpers/pnp-navigation-types.ts';
import '../helpers/pnp-view-types.ts';
import '../helpers/pnp-hubsite-types.ts';
import '../helpers/pnp-site-script-types.ts';
import '../helpers/pnp-site-design-types.ts';

const UTILITY = '_api/Microsoft.Sharepoint.Utilities.WebTemplateExtensions.SiteScriptUtility';
const NS = 'Microsoft.SharePoint.Utilities.WebTemplateExtensions';
const BOB = 'bob@contoso.onmicrosoft.com';
const DAVE = 'dave@contoso.onmicrosoft.com';
const EMPTY_GUID = '00000000-0000-0000-0000-000000000000';

describe('PnPjs site designs against spemu', () => {
  const spemu = usePnpSite();
  const post = (method: string, body?: string, headers: Record<string, string> = {}, accept: string = ACCEPT.nometadata) =>
    fetch(`${spemu.site}/${UTILITY}.${method}`, { method: 'POST', headers: { Accept: accept, 'Content-Type': 'application/json', ...headers }, body });
  const asUser = async (upn: string) => ({ Authorization: demoBasic(upn), 'X-RequestDigest': (await demoDigest(spemu.site, upn))! });
  const errorOf = async (res: Response) => {
    const e = ((await res.json()) as { 'odata.error': { code: string; message: { value: string } } })['odata.error'];
    return { status: res.status, code: e.code, message: e.message.value };
  };
  let hubId: string;

  before(async () => {
    const pwa = pnpFor(spemu.server.site('/sites/pwa'));
    await pwa.site.registerHubSite();
    hubId = (await pwa.site.select('Id')<{ Id: string }>()).Id;
  });

  it('PnPjs\'s calls: create, metadata, update, list, rights, task, runs, run status, delete', async () => {
    const designs = spemu.sp.siteDesigns;
    const sd = await designs.createSiteDesign({ Title: 'Test_create_sitedesign', WebTemplate: '68' });
    assert.match(sd.Id, GUID);
    assert.equal(sd.Title, 'Test_create_sitedesign');
    assert.equal(sd.WebTemplate, '68');
    assert.deepEqual(sd.SiteScriptIds, []);
    assert.equal(sd.Version, 1);

    const meta = await designs.getSiteDesignMetadata(sd.Id);
    assert.equal(meta.Id, sd.Id);
    const updated = await designs.updateSiteDesign({ Id: sd.Id, Title: 'Test_updated_sitedesign' });
    assert.equal(updated.Title, 'Test_updated_sitedesign');
    assert.equal(updated.WebTemplate, '68', 'what the update does not name stays');
    assert.ok((await designs.getSiteDesigns()).some((d) => d.Id === sd.Id));

    assert.deepEqual(await designs.getSiteDesignRights(sd.Id), [], 'no rights: everyone sees it');
    await designs.grantSiteDesignRights(sd.Id, [BOB]);
    const rights = await designs.getSiteDesignRights(sd.Id);
    // PnPjs's type says a number; SharePoint sends the enum as the number's string (CLI for Microsoft 365 maps "1" to View).
    assert.deepEqual(rights.map((r) => [r.DisplayName, r.PrincipalName, r.Rights]), [['Bob Baker', `i:0#.f|membership|${BOB}`, '1']]);
    await designs.revokeSiteDesignRights(sd.Id, [BOB]);
    assert.deepEqual(await designs.getSiteDesignRights(sd.Id), []);

    // A design with no scripts applies nothing, and is recorded as run.
    assert.deepEqual(await designs.applySiteDesign(sd.Id, spemu.site), []);
    const task = await spemu.sp.web.addSiteDesignTask(sd.Id);
    assert.match(task.ID, GUID);
    assert.equal(task.SiteDesignID, sd.Id);
    assert.equal(await designs.getSiteDesignTask(task.ID), null, 'a task runs when added: none is left pending');
    const runs = await spemu.sp.web.getSiteDesignRuns();
    assert.equal(runs[0]!.ID, task.ID, 'newest first');
    assert.equal(runs[0]!.SiteDesignTitle, 'Test_updated_sitedesign');
    assert.equal((await spemu.sp.web.getSiteDesignRuns(sd.Id)).length, 2);
    assert.deepEqual(await spemu.sp.web.getSiteDesignRunStatus(runs[0]!.ID), []);
    const absolute = await designs.addSiteDesignTask(spemu.site, sd.Id);
    assert.equal(absolute.SiteDesignID, sd.Id);

    await designs.deleteSiteDesign(sd.Id);
    assert.equal((await failure(designs.getSiteDesignMetadata(sd.Id))).status, 404);
  });

  it('applying a design runs its script: list, columns, view, nav link, logo, hub join; unsupported actions fail', async () => {
    const script = {
      $schema: 'schema.json', version: 1, actions: [
        { verb: 'createSPList', listName: 'Customer Tracking', templateType: 100, subactions: [
          { verb: 'setDescription', description: 'Customers we track' },
          { verb: 'addSPField', fieldType: 'Text', displayName: 'Customer Name', isRequired: false, addToDefaultView: true },
          { verb: 'addSPField', fieldType: 'Number', displayName: 'Revenue', internalName: 'Revenue', addToDefaultView: false },
          { verb: 'addSPView', name: 'Big customers', viewFields: ['LinkTitle', 'Revenue'], query: '<Where><Gt><FieldRef Name="Revenue" /><Value Type="Number">1000</Value></Gt></Where>', rowLimit: 50, isPaged: true },
          { verb: 'setSPFieldCustomFormatter', fieldDisplayName: 'Revenue', formatterJSON: {} },
        ] },
        { verb: 'addNavLink', url: 'Lists/Customer Tracking', displayName: 'Customers', isWebRelative: true },
        { verb: 'setSiteLogo', url: '/sites/dev/SiteAssets/logo.png' },
        { verb: 'joinHubSite', hubSiteId: hubId },
        { verb: 'applyTheme', themeName: 'Contoso' },
      ],
    };
    const created = await spemu.sp.siteScripts.createSiteScript('Customer tracking', 'desc', script);
    const sd = await spemu.sp.siteDesigns.createSiteDesign({ Title: 'Customer tracking', WebTemplate: '64', SiteScriptIds: [created.Id], Description: 'Tracks customers' });
    assert.deepEqual(sd.SiteScriptIds, [created.Id]);

    const results = await spemu.sp.siteDesigns.applySiteDesign(sd.Id, spemu.site) as unknown as Array<{ Title: string; Outcome: string; OutcomeText: string | null }>;
    assert.deepEqual(results.map((r) => [r.Title, r.Outcome]), [
      ['Create or update list Customer Tracking', '0'], ['Update list description', '0'], ['Create column Customer Name', '0'],
      ['Create column Revenue', '0'], ['Create view Big customers', '0'], ['Run action setSPFieldCustomFormatter', '1'],
      ['Add Customers to left nav', '0'], ['Set site logo', '0'], ['Add to Hub Site', '0'], ['Run action applyTheme', '1'],
    ]);
    assert.equal(results[9]!.OutcomeText, "The action 'applyTheme' is not supported by spemu.");

    const list = spemu.sp.web.lists.getByTitle('Customer Tracking');
    assert.equal((await list.select('Description')()).Description, 'Customers we track');
    const fields = await list.fields.select('InternalName', 'TypeAsString')();
    assert.equal(fields.find((f) => f.InternalName === 'Revenue')?.TypeAsString, 'Number');
    assert.ok(fields.some((f) => f.InternalName === 'Customer_x0020_Name'));
    const views = await list.views.select('Title')();
    assert.ok(views.some((v) => v.Title === 'Big customers'));
    assert.ok((await list.defaultView.fields()).Items.includes('Customer_x0020_Name'), 'addToDefaultView');
    const nav = await spemu.sp.web.navigation.quicklaunch();
    assert.ok(nav.some((n) => n.Title === 'Customers' && n.Url === '/sites/dev/Lists/Customer Tracking'));
    assert.equal((await spemu.sp.web.select('SiteLogoUrl')<{ SiteLogoUrl: string }>()).SiteLogoUrl, '/sites/dev/SiteAssets/logo.png');
    assert.equal((await spemu.sp.site.select('HubSiteId')<{ HubSiteId: string }>()).HubSiteId, hubId);

    // Applied again: what is there is left as it is (a design runs again and again).
    const again = await spemu.sp.siteDesigns.applySiteDesign(sd.Id, spemu.site) as unknown as Array<{ Outcome: string }>;
    assert.equal(again.filter((r) => r.Outcome === '0').length, 8);
    assert.equal((await spemu.sp.web.navigation.quicklaunch()).filter((n) => n.Title === 'Customers').length, 1, 'no second link');
    assert.equal((await list.fields.select('InternalName')()).filter((f) => f.InternalName === 'Revenue').length, 1, 'no second column');
    const runs = await spemu.sp.web.getSiteDesignRuns(sd.Id);
    assert.equal(runs.length, 2);
    const status = await spemu.sp.web.getSiteDesignRunStatus(runs[1]!.ID);
    assert.equal(status.length, 10);
    assert.deepEqual([status[0]!.ActionTitle, status[0]!.SiteScriptID, status[0]!.SiteScriptTitle, status[0]!.OutcomeCode], ['Create or update list Customer Tracking', created.Id, 'Customer tracking', 0]);
    assert.equal(status[9]!.OutcomeCode, 1);
    await spemu.sp.site.joinHubSite(EMPTY_GUID);
  });

  it('a script exported with list.getSiteScript() applied to a subweb makes the list again: its addSPFieldXml columns, a lookup, its views', async () => {
    const web = spemu.sp.web;
    const vendors = await web.lists.add('Vendors', 'Who we buy from', 100);
    const list = web.lists.getById(vendors.Id);
    await list.fields.addNumber('Budget');
    await list.views.add('By budget', false, { RowLimit: 20 });
    const exported = JSON.parse(await list.getSiteScript()) as { actions: Array<Record<string, unknown>> };
    const lookup = { verb: 'addSPLookupFieldXml', targetListName: 'Vendors', schemaXml: '<Field Type="Lookup" DisplayName="Vendor" Name="Vendor" ShowField="Title" />' };
    const badLookup = { verb: 'addSPLookupFieldXml', targetListName: 'Nowhere', schemaXml: '<Field Type="Lookup" DisplayName="Lost" Name="Lost" ShowField="Title" />' };
    const orders = { verb: 'createSPList', listName: 'Orders', templateType: 100, subactions: [lookup, badLookup] };
    const script = await spemu.sp.siteScripts.createSiteScript('Vendors export', '', { ...exported, actions: [...exported.actions, orders] });
    const sd = await spemu.sp.siteDesigns.createSiteDesign({ Title: 'Vendors', WebTemplate: '64', SiteScriptIds: [script.Id] });
    await web.webs.add('Designed', 'designed');
    const results = await spemu.sp.siteDesigns.applySiteDesign(sd.Id, `${spemu.site}/designed`) as unknown as Array<{ Title: string; Outcome: string; OutcomeText: string | null }>;
    assert.ok(results.some((r) => r.Title === 'Create column Budget' && r.Outcome === '0'), JSON.stringify(results));
    const lost = results.find((r) => r.Title === 'Create column Lost');
    assert.deepEqual([lost?.Outcome, lost?.OutcomeText], ['1', "The lookup list 'Nowhere' was not found in the web."]);

    const sub = pnpFor(`${spemu.site}/designed`);
    const made = sub.web.lists.getByTitle('Vendors');
    assert.equal((await made.select('Description')()).Description, 'Who we buy from');
    assert.equal((await made.fields.getByInternalNameOrTitle('Budget').select('TypeAsString')()).TypeAsString, 'Number');
    assert.ok((await made.views.select('Title')()).some((v) => v.Title === 'By budget'));
    const vendorLookup = await sub.web.lists.getByTitle('Orders').fields.getByInternalNameOrTitle('Vendor').select('TypeAsString', 'LookupList')<{ TypeAsString: string; LookupList: string }>();
    const madeVendors = await made.select('Id')();
    assert.equal(vendorLookup.TypeAsString, 'Lookup');
    assert.equal(vendorLookup.LookupList.replace(/[{}]/g, '').toLowerCase(), madeVendors.Id, 'the subweb\'s own Vendors list');
    assert.equal((await spemu.sp.web.getSiteDesignRuns(sd.Id)).length, 0, 'the run is the subweb\'s');
    assert.equal((await sub.web.getSiteDesignRuns(sd.Id)).length, 1);
  });

  it('the wire: SiteDesignMetadata in SharePoint\'s order, enums and times as strings; verbose', async () => {
    const res = await post('CreateSiteDesign', JSON.stringify({ info: { Title: 'Wire', WebTemplate: '64', Description: 'd', PreviewImageUrl: 'https://x/p.png', PreviewImageAltText: 'alt', IsDefault: true, ThumbnailUrl: 'https://x/t.png' } }));
    assert.equal(res.status, 200);
    const body = await res.json() as Record<string, unknown>;
    assert.deepEqual(Object.keys(body), ['Description', 'DesignPackageId', 'DesignType', 'ExpandedPreviewImages', 'InternalName', 'IsDefault',
      'IsOutOfBoxTemplate', 'IsTenantAdminOnly', 'ListColor', 'ListIcon', 'PreviewImageAltText', 'PreviewImageUrl', 'RequiresClassConnected',
      'RequiresGroupConnected', 'RequiresSyntexLicense', 'RequiresTeamsConnected', 'RequiresYammerConnected', 'SiteScriptIds',
      'SupportedWebTemplates', 'TargetPlatforms', 'TemplateAssets', 'TemplateFeatures', 'ThumbnailUrl', 'Title', 'WebTemplate', 'Id', 'Order', 'Version']);
    assert.deepEqual([body.DesignType, body.IsDefault, body.DesignPackageId, body.PreviewImageAltText], ['0', true, EMPTY_GUID, 'alt']);
    const id = body.Id as string;
    // UpdateSiteDesign without IsDefault resets it (Microsoft's REST page).
    const upd = await (await post('UpdateSiteDesign', JSON.stringify({ updateInfo: { Id: id, Version: 3 } }))).json() as Record<string, unknown>;
    assert.deepEqual([upd.IsDefault, upd.Version, upd.Title], [false, 3, 'Wire']);
    const verbose = await post('GetSiteDesignMetadata', JSON.stringify({ id }), {}, ACCEPT.verbose);
    const d = (await verbose.json() as { d: { GetSiteDesignMetadata: Record<string, any> } }).d.GetSiteDesignMetadata;
    assert.equal(d.__metadata.type, `${NS}.SiteDesignMetadata`);
    const task = await (await post('AddSiteDesignTaskToCurrentWeb', JSON.stringify({ siteDesignId: id }))).json() as Record<string, unknown>;
    assert.deepEqual(Object.keys(task), ['ID', 'LogonName', 'SiteDesignID', 'SiteDesignStore', 'SiteID', 'WebID']);
    const runs = await (await post('GetSiteDesignRun', JSON.stringify({ webUrl: spemu.site, siteDesignId: id }))).json() as { value: Array<Record<string, unknown>> };
    assert.deepEqual(Object.keys(runs.value[0]!), ['ActionTrigger', 'ID', 'InvokedBy', 'SiteDesignID', 'SiteDesignTitle', 'SiteDesignVersion', 'SiteID', 'StartTime', 'WebID']);
    assert.match(runs.value[0]!.StartTime as string, /^\d{13}$/);
    assert.equal(runs.value[0]!.SiteDesignVersion, 3);
    assert.equal((await post('GetSiteDesignTask', JSON.stringify({ taskId: task.ID }))).status, 200);
    const verboseApply = await post('ApplySiteDesign', JSON.stringify({ siteDesignId: id, webUrl: spemu.site }), {}, ACCEPT.verbose);
    assert.equal(verboseApply.status, 200);
    const applied = (await verboseApply.json() as { d: { ApplySiteDesign: { results: unknown[] } } }).d.ApplySiteDesign;
    assert.deepEqual(applied.results, [], 'a design with no scripts: no outcomes');
    assert.equal((await post('DeleteSiteDesign', JSON.stringify({ id }))).status, 200);
  });

  it('ExecuteSiteScriptAction runs one action on the request\'s web; a malformed definition writes nothing', async () => {
    const res = await post('ExecuteSiteScriptAction', JSON.stringify({ actionDefinition: JSON.stringify({ verb: 'createSPList', listName: 'Executed', templateType: 101 }) }));
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { value: [{ ErrorCode: 0, Outcome: '0', OutcomeText: null, Target: null, TargetId: null, Title: 'Create or update list Executed' }] });
    assert.equal((await spemu.sp.web.lists.getByTitle('Executed').select('BaseTemplate')()).BaseTemplate, 101);
    const verbose = await post('ExecuteSiteScriptAction', JSON.stringify({ actionDefinition: JSON.stringify({ verb: 'addNavLink', url: 'Executed', displayName: 'Executed', isWebRelative: true }) }), {}, ACCEPT.verbose);
    const results = (await verbose.json() as { d: { ExecuteSiteScriptAction: { results: Array<Record<string, any>> } } }).d.ExecuteSiteScriptAction.results;
    assert.deepEqual([results[0]!.__metadata.type, results[0]!.Title, results[0]!.Outcome], [`${NS}.SiteScriptActionResult`, 'Add Executed to left nav', '0']);
    const bad = await post('ExecuteSiteScriptAction', JSON.stringify({ actionDefinition: '{"verb": "createSPList", "listName": "Half' }));
    assert.equal(bad.status, 400);
    const unknownVerb = await post('ExecuteSiteScriptAction', JSON.stringify({ actionDefinition: JSON.stringify({ verb: 'makeCoffee' }) }));
    assert.equal((await errorOf(unknownVerb)).code, '-2146233086, System.ArgumentOutOfRangeException');
    const badTemplate = await (await post('ExecuteSiteScriptAction', JSON.stringify({ actionDefinition: JSON.stringify({ verb: 'createSPList', listName: 'Survey', templateType: 102 }) }))).json() as { value: Array<{ Outcome: string }> };
    assert.equal(badTemplate.value[0]!.Outcome, '1');
    assert.equal((await fetch(`${spemu.site}/_api/web/lists/getByTitle('Survey')`, { headers: { Accept: ACCEPT.nometadata } })).status, 404, 'nothing made');
    const memberRun = await post('ExecuteSiteScriptAction', JSON.stringify({ actionDefinition: JSON.stringify({ verb: 'createSPList', listName: 'ByBob' }) }), await asUser(BOB));
    assert.equal(memberRun.status, 403);
  });

  it('refusals: a non-owner writes nothing (403), a member may not apply, rights hide a design; unknown ids and bad bodies', async () => {
    const dave = await asUser(DAVE);
    // Dave owns no site collection: not a SharePoint administrator.
    const refused = await errorOf(await post('CreateSiteDesign', JSON.stringify({ info: { Title: 'Nope', WebTemplate: '64' } }), dave));
    assert.deepEqual([refused.status, refused.code], [403, '-2147024891, System.UnauthorizedAccessException']);
    assert.ok(!(await spemu.sp.siteDesigns.getSiteDesigns()).some((d) => d.Title === 'Nope'));

    const sd = await spemu.sp.siteDesigns.createSiteDesign({ Title: 'Scoped', WebTemplate: '64' });
    const bob = await asUser(BOB);
    assert.equal((await post('ApplySiteDesign', JSON.stringify({ siteDesignId: sd.Id, webUrl: spemu.site }), bob)).status, 403, 'a member may not change the web');
    assert.equal((await post('UpdateSiteDesign', JSON.stringify({ updateInfo: { Id: sd.Id, Title: 'x' } }), bob)).status, 403);
    await spemu.sp.siteDesigns.grantSiteDesignRights(sd.Id, ['alice']);
    // Granted to Alice only: Dave (a visitor) no longer sees it.
    const listed = await (await post('GetSiteDesigns', '{}', dave)).json() as { value: Array<{ Id: string }> };
    assert.ok(!listed.value.some((d) => d.Id === sd.Id));
    assert.equal((await post('GetSiteDesignMetadata', JSON.stringify({ id: sd.Id }), dave)).status, 404);

    const unknownId = '11111111-2222-3333-4444-555555555555';
    for (const [method, body] of [
      ['GetSiteDesignMetadata', { id: unknownId }], ['UpdateSiteDesign', { updateInfo: { Id: unknownId, Title: 'x' } }], ['DeleteSiteDesign', { id: unknownId }],
      ['ApplySiteDesign', { siteDesignId: unknownId, webUrl: spemu.site }], ['GetSiteDesignRights', { id: unknownId }],
      ['GetSiteDesignRunStatus', { runId: unknownId }],
    ] as const) {
      const e = await errorOf(await post(method, JSON.stringify(body)));
      assert.deepEqual([e.status, e.code, e.message], [404, '-2147024894, System.IO.FileNotFoundException', 'File Not Found.'], method);
    }
    const unknownScript = await post('CreateSiteDesign', JSON.stringify({ info: { Title: 'Ghost', WebTemplate: '64', SiteScriptIds: [unknownId] } }));
    assert.equal(unknownScript.status, 404);
    const badTemplate = await errorOf(await post('CreateSiteDesign', JSON.stringify({ info: { Title: 'Bad', WebTemplate: '99' } })));
    assert.deepEqual([badTemplate.status, badTemplate.code], [400, '-2147024809, System.ArgumentException']);
    const unknownProp = await post('CreateSiteDesign', JSON.stringify({ info: { Title: 'Bad', WebTemplate: '64', Colour: 'red' } }));
    assert.equal(unknownProp.status, 400);
    const notGuid = await post('GetSiteDesignMetadata', JSON.stringify({ id: 'nope' }));
    assert.match((await errorOf(notGuid)).message, /Edm\.Guid/);
    const malformed = await post('CreateSiteDesign', '{"info": {"Title": "Half"');
    assert.equal(malformed.status, 400);
    const nobody = await errorOf(await post('GrantSiteDesignRights', JSON.stringify({ id: sd.Id, principalNames: ['nobody@contoso.onmicrosoft.com'], grantedRights: '1' })));
    assert.deepEqual([nobody.status, nobody.message], [400, "The user or group 'nobody@contoso.onmicrosoft.com' was not found."]);
    const otherSite = await post('ApplySiteDesign', JSON.stringify({ siteDesignId: sd.Id, webUrl: spemu.server.site('/sites/pwa') }));
    assert.equal(otherSite.status, 404, 'a web of another site collection: call through that site');
    assert.ok(!(await spemu.sp.siteDesigns.getSiteDesigns()).some((d) => ['Ghost', 'Bad', 'Half'].includes(d.Title)), 'nothing written');
    assert.equal((await spemu.sp.siteDesigns.getSiteDesignRights(sd.Id)).length, 1, 'a failed grant grants nothing');
  });
});
