// Site scripts through an unmodified @pnp/sp 4.x client (`sp.siteScripts`, the calls of PnPjs's
// own test/sp/site-scripts.ts): created (a title with an apostrophe too), read with and without
// their JSON, updated, listed and deleted; a script with no actions, an unknown verb and a null
// id refused; list.getSiteScript() and web.getSiteScript() made from a real list. Plain fetch
// checks the wire (SiteScriptMetadata's properties in order, the JSON kept as sent, the
// underscore spelling, verbose), who may write (a user who owns no site: 403; a visitor reads),
// SharePoint's errors, app-only callers (Full Control writes, others read), and that scripts
// outlive a restart and travel with export/import. Requests act as Alice, an owner of
// /sites/dev (spemu's stand-in for a SharePoint administrator), unless credentials are given.

import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import '@pnp/sp/site-scripts/index.js';
import '@pnp/sp/navigation/index.js';
import '@pnp/sp/views/index.js';
import { demoBasic, demoDigest, failure, pnpFor } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';
import { sharedTestDatabase, startTestServer, useTestServer } from '../helpers/server.ts';
import { APPS, TENANT_ID, appCertificate, identityTenant, tokenRequest } from '../helpers/identity.ts';
import { ACCEPT, GUID } from '../helpers/wire.ts';
import { openPostgres, openSqlite } from '../../src/store/sql/connect.ts';
import { DiskBytes } from '../../src/store/blob-disk.ts';
import { exportDatabase } from '../../src/store/transfer/export.ts';
import { importDatabase } from '../../src/store/transfer/import.ts';
import { Progress } from '../../src/store/transfer/progress.ts';
import '../helpers/pnp-types.ts';
import '../helpers/pnp-navigation-types.ts';
import '../helpers/pnp-view-types.ts';
import '../helpers/pnp-site-script-types.ts';

const UTILITY = '_api/Microsoft.Sharepoint.Utilities.WebTemplateExtensions.SiteScriptUtility';
const METADATA = 'Microsoft.SharePoint.Utilities.WebTemplateExtensions.SiteScriptMetadata';
const BOB = 'bob@contoso.onmicrosoft.com';
const DAVE = 'dave@contoso.onmicrosoft.com';

/** A JSON light answer without its annotations (PnPjs asks for `application/json`: minimal metadata). */
const unannotated = (o: object) => Object.fromEntries(Object.entries(o).filter(([k]) => !k.startsWith('odata.')));
const theme = (name: string, version = 1) => ({ $schema: 'schema.json', actions: [{ themeName: name, verb: 'applyTheme' }], bindata: {}, version });

describe('PnPjs site scripts against spemu', () => {
  const spemu = usePnpSite();

  /** POST to a SiteScriptUtility method with a body as text; `headers` may carry credentials. */
  const post = (method: string, body?: string, headers: Record<string, string> = {}, accept: string = ACCEPT.nometadata) =>
    fetch(`${spemu.site}/${UTILITY}.${method}`, { method: 'POST', headers: { Accept: accept, 'Content-Type': 'application/json', ...headers }, body });
  const asUser = async (upn: string) => ({ Authorization: demoBasic(upn), 'X-RequestDigest': (await demoDigest(spemu.site, upn))! });

  it('createSiteScript, getSiteScriptMetadata, updateSiteScript, getSiteScripts, deleteSiteScript (PnPjs\'s own calls)', async () => {
    const scripts = spemu.sp.siteScripts;
    const created = await scripts.createSiteScript('Test_create_sitescript', 'A description', theme('Dummy Theme'));
    assert.match(created.Id, GUID);
    assert.deepEqual(unannotated(created), { Content: null, ContentByteArray: null, Description: 'A description', Id: created.Id, IsSiteScriptPackage: false, Title: 'Test_create_sitescript', Version: 0 });

    // PnPjs doubles the apostrophe inside the quoted alias value: SharePoint reads it back as one.
    const quoted = await scripts.createSiteScript("Bad title'", 'desc', theme('Dummy Theme'));
    assert.equal(quoted.Title, "Bad title'");

    const read = await scripts.getSiteScriptMetadata(created.Id);
    assert.equal(read.Content, JSON.stringify(theme('Dummy Theme')), 'the JSON as PnPjs sent it');
    assert.deepEqual([read.Title, read.Description, read.Version], ['Test_create_sitescript', 'A description', 0]);

    const updated = await scripts.updateSiteScript({ Id: created.Id, Title: 'Test_updated_title' }, theme('Dummy Theme 2', 2));
    assert.deepEqual([updated.Id, updated.Title, updated.Description, updated.Version], [created.Id, 'Test_updated_title', 'A description', 0]);
    assert.equal(updated.Content, JSON.stringify(theme('Dummy Theme 2', 2)));
    assert.equal((await scripts.updateSiteScript({ Id: created.Id, Version: '3', Description: 'Changed' })).Version, 3);
    const again = await scripts.getSiteScriptMetadata(created.Id);
    assert.deepEqual([again.Title, again.Description, again.Version, again.Content], ['Test_updated_title', 'Changed', 3, JSON.stringify(theme('Dummy Theme 2', 2))]);

    const all = await scripts.getSiteScripts();
    assert.deepEqual(all.map((s) => [s.Id, s.Title, s.Content]), [[created.Id, 'Test_updated_title', null], [quoted.Id, "Bad title'", null]]);

    await scripts.deleteSiteScript(quoted.Id);
    const gone = await failure(scripts.getSiteScriptMetadata(quoted.Id));
    assert.deepEqual(gone, { status: 404, code: '-2147024894, System.IO.FileNotFoundException', message: 'File Not Found.' });
    assert.equal((await failure(scripts.deleteSiteScript(quoted.Id))).status, 404, 'deleted once');
    assert.deepEqual((await scripts.getSiteScripts()).map((s) => s.Id), [created.Id]);
    await scripts.deleteSiteScript(created.Id);
    assert.deepEqual(await scripts.getSiteScripts(), []);
  });

  it('refused: no actions, an unknown verb or subaction, a null id, a script that is not JSON; nothing is stored', async () => {
    const scripts = spemu.sp.siteScripts;
    const outOfRange = { status: 400, code: '-2146233086, System.ArgumentOutOfRangeException', message: 'Specified argument was out of the range of valid values.' };
    assert.deepEqual(await failure(scripts.createSiteScript('No actions', 'd', { $schema: 'schema.json', actions: [], bindata: {}, version: 1 })), outOfRange);
    assert.deepEqual(await failure(scripts.createSiteScript('No verb', 'd', { actions: [{ themeName: 'x' }] })), outOfRange);
    assert.deepEqual(await failure(scripts.createSiteScript('Unknown verb', 'd', { actions: [{ verb: 'makeCoffee' }] })), outOfRange);
    assert.deepEqual(await failure(scripts.createSiteScript('Subaction', 'd', {
      actions: [{ verb: 'createSPList', listName: 'L', templateType: 100, subactions: [{ verb: 'SetDescription', description: 'x' }] }],
    })), outOfRange, 'verbs are compared exactly');
    const nullId = await failure(scripts.deleteSiteScript(null as unknown as string));
    assert.equal(nullId.status, 400);
    assert.equal(nullId.code, '-1, Microsoft.SharePoint.Client.InvalidClientQueryException');
    assert.match(nullId.message, /^A null value was found for the property named 'id', which has the expected type 'Edm\.Guid\[Nullable=False\]'/);
    assert.equal((await failure(scripts.getSiteScriptMetadata('not a guid'))).status, 400);

    const kept = await scripts.createSiteScript('Kept', 'd', theme('T'));
    assert.deepEqual(await failure(scripts.updateSiteScript({ Id: kept.Id, Title: 'Changed', Content: '{"actions":[]}' })), outOfRange);
    assert.equal((await failure(scripts.updateSiteScript({ Id: kept.Id, Content: 'not json' }))).status, 400);
    assert.deepEqual(await failure(scripts.updateSiteScript({ Id: '7647d3d6-1046-41fe-a798-4ff66b099d12', Title: 'x' })),
      { status: 404, code: '-2147024894, System.IO.FileNotFoundException', message: 'File Not Found.' });
    assert.deepEqual((await scripts.getSiteScripts()).map((s) => s.Title), ['Kept'], 'a refused write changes nothing');
    assert.equal((await scripts.getSiteScriptMetadata(kept.Id)).Title, 'Kept');
    await scripts.deleteSiteScript(kept.Id);
  });

  it('list.getSiteScript() and web.getSiteScript(): createSPList with the list\'s own columns and views, and its quick launch link', async () => {
    const web = spemu.sp.web;
    const added = await web.lists.add('sc_list_one', 'Customers and orders', 100);
    const list = web.lists.getById(added.Id);
    await list.fields.addText('CustomerName');
    await list.views.add('By customer', false, { RowLimit: 50 });
    await web.navigation.quicklaunch.add('Customers', `${new URL(spemu.site).pathname}/Lists/sc_list_one`);

    const text = await list.getSiteScript();
    assert.equal(typeof text, 'string');
    const script = JSON.parse(text) as { $schema: string; actions: Array<Record<string, any>>; version: number };
    assert.equal(script.$schema, 'https://developer.microsoft.com/json-schemas/sp/site-design-script-actions.schema.json');
    const [create, nav] = script.actions;
    assert.deepEqual([create!.verb, create!.listName, create!.templateType], ['createSPList', 'sc_list_one', 100]);
    const subactions = create!.subactions as Array<Record<string, any>>;
    assert.deepEqual(subactions.map((s) => s.verb), ['setDescription', 'addSPFieldXml', 'addSPView', 'addSPView']);
    assert.equal(subactions[0]!.description, 'Customers and orders');
    assert.match(subactions[1]!.schemaXml, /^<Field Type="Text" DisplayName="CustomerName" .* Name="CustomerName"/);
    assert.deepEqual(subactions.slice(2).map((v) => [v.name, v.rowLimit, v.makeDefault]), [['All Items', 30, true], ['By customer', 50, false]]);
    assert.deepEqual(subactions[2]!.viewFields, ['LinkTitle']);
    assert.deepEqual(nav, { verb: 'addNavLink', url: 'Lists/sc_list_one/AllItems.aspx', displayName: 'Customers', isWebRelative: true });

    // The script is one SharePoint stores.
    const stored = await spemu.sp.siteScripts.createSiteScript('From a list', '', JSON.parse(text));
    await spemu.sp.siteScripts.deleteSiteScript(stored.Id);

    const fromWeb = await web.getSiteScript({ IncludedLists: ['Lists/sc_list_one', 'Lists/none'], IncludeLinksToExportedItems: false });
    assert.deepEqual(JSON.parse(fromWeb.JSON).actions, [create], 'no quick launch link unless asked');
    assert.deepEqual(fromWeb.Warnings, ["The list 'Lists/none' was not found in the web."]);
  });

  it('through a subweb (as PnPjs\'s own suite calls them): the same tenant-wide scripts, and a subweb list\'s script', async () => {
    await spemu.sp.web.webs.add('Scripts sub', 'scripts-sub');
    const sub = pnpFor(`${spemu.site}/scripts-sub`);
    const made = await sub.siteScripts.createSiteScript('From the subweb', '', theme('T'));
    assert.deepEqual((await spemu.sp.siteScripts.getSiteScripts()).map((s) => s.Title), ['From the subweb'], 'one store for the tenant');
    const added = await sub.web.lists.add('sc_list_sub');
    const script = JSON.parse(await sub.web.lists.getById(added.Id).getSiteScript()) as { actions: Array<Record<string, unknown>> };
    assert.deepEqual(script.actions.map((a) => [a.verb, a.listName]), [['createSPList', 'sc_list_sub']]);
    await sub.siteScripts.deleteSiteScript(made.Id);
  });

  it('the wire: SiteScriptMetadata in order, the JSON kept as sent, the underscore spelling, verbose; GET and unknown methods', async () => {
    const body = '{\r\n  "$schema": "schema.json",\r\n  "actions": [ { "verb": "applyTheme", "themeName": "Custom Cyan" } ],\r\n  "bindata": { },\r\n  "version": 1\r\n}';
    const created = await post("CreateSiteScript(Title=@title)?@title='Contoso%20theme'", body);
    assert.equal(created.status, 200);
    const createdText = await created.text();
    const id = (JSON.parse(createdText) as { Id: string }).Id;
    assert.equal(createdText, `{"Content":null,"ContentByteArray":null,"Description":null,"Id":"${id}","IsSiteScriptPackage":false,"Title":"Contoso theme","Version":0}`);

    const meta = await post('GetSiteScriptMetadata', JSON.stringify({ id: `{${id.toUpperCase()}}` }), {}, ACCEPT.minimal);
    const metaBody = await meta.json() as Record<string, unknown>;
    assert.equal(metaBody['odata.metadata'], `${spemu.site}/_api/$metadata#${METADATA}`);
    assert.equal(metaBody.Content, body, 'byte for byte, CRLFs and all');

    const underscored = await fetch(`${spemu.site}/_api/Microsoft_SharePoint_Utilities_WebTemplateExtensions_SiteScriptUtility_GetSiteScripts`,
      { method: 'POST', headers: { Accept: ACCEPT.nometadata } });
    assert.deepEqual(await underscored.json(), { value: [{ Content: null, ContentByteArray: null, Description: null, Id: id, IsSiteScriptPackage: false, Title: 'Contoso theme', Version: 0 }] });

    const verbose = await post('GetSiteScriptMetadata', JSON.stringify({ id }), {}, ACCEPT.verbose);
    const d = (await verbose.json() as { d: { GetSiteScriptMetadata: Record<string, any> } }).d.GetSiteScriptMetadata;
    assert.deepEqual([d.__metadata.type, d.Title, d.Content], [METADATA, 'Contoso theme', body]);

    assert.equal((await fetch(`${spemu.site}/${UTILITY}.GetSiteScripts`, { headers: { Accept: ACCEPT.nometadata } })).status, 405, 'POST only');
    const notJson = await post("CreateSiteScript(Title=@title)?@title='x'", '{"actions": [');
    assert.equal(notJson.status, 400);
    const notJsonError = (await notJson.json() as { 'odata.error': { code: string; message: { value: string } } })['odata.error'];
    assert.equal(notJsonError.code, '-1, Microsoft.SharePoint.Client.InvalidClientQueryException');
    assert.match(notJsonError.message.value, /^Invalid JSON\. /);
    // A whole script is no action: its top level names no verb (pnp-site-designs.test.ts runs actions).
    assert.equal((await post('executeSiteScriptAction', JSON.stringify({ actionDefinition: body }))).status, 400);
    assert.equal((await post('NoSuchMethod', '{}')).status, 404);
    const missingList = await post('GetSiteScriptFromList', JSON.stringify({ listUrl: `${spemu.site}/Lists/nothing-here` }));
    assert.equal(missingList.status, 404);
    assert.equal((await post('DeleteSiteScript', JSON.stringify({ id }))).status, 200);
  });

  it('a user who owns no site collection is refused every write with SharePoint\'s 403; a visitor reads', async () => {
    const script = await spemu.sp.siteScripts.createSiteScript('Owned by the tenant', '', theme('T'));
    const denied = { code: '-2147024891, System.UnauthorizedAccessException', message: 'Access denied. You do not have permission to perform this action or access this resource.' };
    const bob = await asUser(BOB); // a member of /sites/dev, owner of nothing
    for (const [method, body] of [
      ["CreateSiteScript(Title=@t)?@t='by bob'", JSON.stringify(theme('T'))],
      ['UpdateSiteScript', JSON.stringify({ updateInfo: { Id: script.Id, Title: 'by bob' } })],
      ['DeleteSiteScript', JSON.stringify({ id: script.Id })],
    ] as const) {
      const r = await post(method, body, bob);
      assert.equal(r.status, 403, method);
      assert.deepEqual((await r.json() as { 'odata.error': { code: string; message: { value: string } } })['odata.error'], { code: denied.code, message: { lang: 'en-US', value: denied.message } });
    }
    const dave = await asUser(DAVE); // a visitor
    const read = await post('GetSiteScripts', undefined, dave);
    assert.equal(read.status, 200);
    assert.deepEqual((await read.json() as { value: Array<{ Title: string }> }).value.map((s) => s.Title), ['Owned by the tenant'], 'nothing bob sent was kept');
    assert.equal((await post('GetSiteScriptMetadata', JSON.stringify({ id: script.Id }), dave)).status, 200);
    await spemu.sp.siteScripts.deleteSiteScript(script.Id);
  });
});

describe('site scripts and app-only callers', () => {
  const spemu = useTestServer(() => ({ seed: identityTenant(appCertificate()), anonymousUser: undefined }));
  const token = async (app: { clientId: string; secret: string }) => {
    const r = await tokenRequest(`${spemu.server.url}/${TENANT_ID}/oauth2/v2.0/token`,
      { grant_type: 'client_credentials', client_id: app.clientId, client_secret: app.secret, scope: `${spemu.server.url}/.default` });
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return r.body.access_token as string;
  };
  const call = async (app: { clientId: string; secret: string }, method: string, body?: string) =>
    fetch(`${spemu.server.site('/sites/test')}/${UTILITY}.${method}`,
      { method: 'POST', headers: { Accept: ACCEPT.nometadata, 'Content-Type': 'application/json', Authorization: `Bearer ${await token(app)}` }, body });

  it('Sites.FullControl.All writes; Sites.Read.All and a Sites.Selected write grant read but are refused writes (403)', async () => {
    const made = await call(APPS.full, "CreateSiteScript(Title=@t)?@t='By an app'", JSON.stringify(theme('T')));
    assert.equal(made.status, 200);
    const { Id: id } = await made.json() as { Id: string };
    for (const app of [APPS.reader, APPS.selected]) {
      assert.equal((await call(app, "CreateSiteScript(Title=@t)?@t='refused'", JSON.stringify(theme('T')))).status, 403, app.clientId);
      assert.equal((await call(app, 'DeleteSiteScript', JSON.stringify({ id }))).status, 403, app.clientId);
      const listed = await call(app, 'GetSiteScripts');
      assert.deepEqual((await listed.json() as { value: Array<{ Id: string }> }).value.map((s) => s.Id), [id], app.clientId);
    }
    assert.equal((await call(APPS.full, 'DeleteSiteScript', JSON.stringify({ id }))).status, 200);
  });
});

describe('site scripts outlive a restart and travel with an export', () => {
  const cleanups: Array<() => Promise<void>> = [];
  after(async () => { for (const c of cleanups.reverse()) await c(); });

  it('a script made before the server stops is there, JSON and all, after it starts again', async () => {
    const database = await sharedTestDatabase('spemu-site-scripts-');
    cleanups.push(() => database.drop());
    const body = JSON.stringify(theme('Persisted'));
    const first = await startTestServer({ db: database.db, shared: true });
    let id: string;
    try {
      const r = await fetch(`${first.site()}/${UTILITY}.CreateSiteScript(Title=@t,Description=@d)?@t='Kept'&@d='over a restart'`,
        { method: 'POST', headers: { Accept: ACCEPT.nometadata, 'Content-Type': 'application/json' }, body });
      assert.equal(r.status, 200);
      id = (await r.json() as { Id: string }).Id;
    } finally {
      await first.close();
    }
    const second = await startTestServer({ db: database.db, shared: true });
    cleanups.push(() => second.close());
    const r = await fetch(`${second.site()}/${UTILITY}.GetSiteScriptMetadata`,
      { method: 'POST', headers: { Accept: ACCEPT.nometadata, 'Content-Type': 'application/json' }, body: JSON.stringify({ id }) });
    assert.deepEqual(await r.json(), { Content: body, ContentByteArray: null, Description: 'over a restart', Id: id, IsSiteScriptPackage: false, Title: 'Kept', Version: 0 });
  });

  it('exported from a SQLite workspace and imported into the leg\'s database, a script answers the same', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spemu-site-scripts-transfer-'));
    cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
    const source = join(dir, 'source.db');
    const body = JSON.stringify(theme('Exported'));
    const server = await startTestServer({ db: source, shared: true });
    let created: Record<string, unknown>;
    try {
      const r = await fetch(`${server.site()}/${UTILITY}.CreateSiteScript(Title=@t)?@t='Travels'`,
        { method: 'POST', headers: { Accept: ACCEPT.nometadata, 'Content-Type': 'application/json' }, body });
      created = await r.json() as Record<string, unknown>;
    } finally {
      await server.close();
    }
    const dump = join(dir, 'dump.jsonl.gz');
    const quiet = () => new Progress('x', process.stderr, true);
    const from = await openSqlite({ file: source });
    try { await exportDatabase(from, dump, { progress: quiet(), bytes: new DiskBytes(`${source}-blobs`) }); } finally { await from.db.destroy(); }

    const target = await sharedTestDatabase('spemu-site-scripts-target-');
    cleanups.push(() => target.drop());
    // The bytes of the demo tenant's files: beside a SQLite file, in PostgreSQL itself.
    const postgres = target.db.startsWith('postgres');
    const to = postgres ? await openPostgres({ url: target.db, statementTimeoutMs: 0 }) : await openSqlite({ file: target.db });
    try {
      await importDatabase(to, dump, {
        progress: quiet(), clearStatementCache: (to as { clearStatementCache?: () => void }).clearStatementCache,
        ...(postgres ? {} : { bytes: new DiskBytes(`${target.db}-blobs`) }),
      });
    } finally { await to.db.destroy(); }
    const imported = await startTestServer({ db: target.db, shared: true });
    cleanups.push(() => imported.close());
    const r = await fetch(`${imported.site()}/${UTILITY}.GetSiteScripts`, { method: 'POST', headers: { Accept: ACCEPT.nometadata } });
    assert.deepEqual(await r.json(), { value: [created] });
    const meta = await fetch(`${imported.site()}/${UTILITY}.GetSiteScriptMetadata`,
      { method: 'POST', headers: { Accept: ACCEPT.nometadata, 'Content-Type': 'application/json' }, body: JSON.stringify({ id: created.Id }) });
    assert.equal((await meta.json() as { Content: string }).Content, body);
  });
});
