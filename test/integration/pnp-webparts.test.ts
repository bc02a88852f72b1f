// Web parts through an unmodified @pnp/sp 4.x client: a file's limited web part manager
// (`getLimitedWebPartManager(scope)`: its Scope, its WebParts — none, spemu keeps no classic web
// parts and a modern page keeps its content in its item) and the client-side web parts a web
// offers (`GetClientSideWebParts`: SharePoint's own, with their real ids, usable by PnPjs's
// ClientsideWebpart.fromComponentDef). Then the wire (plain fetch, verbose and nometadata), bad
// input (scopes, ids, a missing file: the files' own 404), and who may (read access to the file).

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import '@pnp/sp/folders/index.js';
import '@pnp/sp/files/index.js';
import '@pnp/sp/security/index.js';
import '@pnp/sp/site-groups/index.js';
import '@pnp/sp/webparts/index.js';
import '@pnp/sp/clientside-pages/index.js';
import { ClientsideWebpart } from '@pnp/sp/clientside-pages/index.js';
import { WebPartsPersonalizationScope } from '@pnp/sp/webparts/index.js';
import '../helpers/pnp-file-types.ts';
import '../helpers/pnp-webpart-types.ts';
import { demoBasic, demoDigest, failure, pnpAsDemoUser } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';
import { ACCEPT, GUID } from '../helpers/wire.ts';

const DAVE = 'dave@contoso.onmicrosoft.com'; // a visitor of /sites/dev
const ERIN = 'erin@contoso.onmicrosoft.com'; // no role on /sites/dev
const LIB = '/sites/dev/Shared Documents';
const PAGES = '/sites/dev/SitePages';
const EMBED = '490d7c76-1824-45b2-9de3-676421c997fa';
const COMPONENT = 'Microsoft.SharePoint.ClientSideComponent.SPClientSideComponentQueryResult';
const READ = 1073741826;

describe('PnPjs web parts against spemu', () => {
  const spemu = usePnpSite();
  const CLASSIC = `${LIB}/classic.aspx`;

  before(async () => {
    const docs = spemu.sp.web.getFolderByServerRelativePath(LIB).files;
    await docs.addUsingPath('classic.aspx', '<%@ Page Language="C#" %><html></html>', { Overwrite: true });
    await docs.addUsingPath('notes.txt', 'not a page', { Overwrite: true });
    await spemu.sp.web.getFolderByServerRelativePath(PAGES).files.addUsingPath('Uploaded page.aspx', '<html></html>', { Overwrite: true });
  });

  /** A plain request below `_api/`, as the test's owner or a demo user. */
  async function call(path: string, accept: string = ACCEPT.nometadata, init: { method?: string; body?: unknown; upn?: string } = {}) {
    const auth: Record<string, string> = init.upn ? { Authorization: demoBasic(init.upn) } : {};
    if (init.upn && init.method === 'POST') auth['X-RequestDigest'] = (await demoDigest(spemu.site, init.upn)) ?? '';
    const r = await fetch(`${spemu.site}/_api/${path}`, {
      method: init.method ?? 'GET', headers: { Accept: accept, 'Content-Type': 'application/json', ...auth },
      ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) as any : undefined };
  }
  const manager = (url: string, scope: string) => `web/getfilebyserverrelativeurl('${encodeURIComponent(url)}')/getlimitedwebpartmanager(${scope})`;

  it('the calls PnPjs\'s own tests make: Scope of a Shared and a User manager on Site Pages\' Home.aspx, an empty WebParts', async () => {
    const home = spemu.sp.web.folders.getByUrl('SitePages').files.getByUrl('Home.aspx');
    assert.equal(await home.getLimitedWebPartManager(WebPartsPersonalizationScope.Shared).scope(), 1);
    assert.equal(await home.getLimitedWebPartManager(WebPartsPersonalizationScope.User).scope(), 0);
    const byUrl = spemu.sp.web.getFileByUrl(`${PAGES}/Uploaded page.aspx`).getLimitedWebPartManager();
    const parts = await byUrl.webparts();
    assert.ok(Array.isArray(parts));
    assert.equal(parts.length, 0);
    assert.equal(await byUrl.scope(), 1, 'Shared when PnPjs is given no scope');
  });

  it('any file has one: a classic page and a text file in Documents, by path and by id; none has web parts', async () => {
    for (const name of ['classic.aspx', 'notes.txt']) {
      const file = spemu.sp.web.getFileByServerRelativePath(`${LIB}/${name}`);
      assert.equal(await file.getLimitedWebPartManager(WebPartsPersonalizationScope.User).scope(), 0, name);
      assert.deepEqual(await file.getLimitedWebPartManager(WebPartsPersonalizationScope.Shared).webparts(), [], name);
      const { UniqueId } = await file.select('UniqueId')();
      assert.equal(await spemu.sp.web.getFileById(UniqueId).getLimitedWebPartManager(WebPartsPersonalizationScope.Shared).scope(), 1);
    }
  });

  it('getClientsideWebParts: SharePoint\'s own web parts with their ids, manifests PnPjs can place on a page', async () => {
    const parts = await spemu.sp.web.getClientsideWebParts();
    assert.ok(parts.length >= 10, 'a fixed set of first-party web parts');
    assert.equal(new Set(parts.map((p) => p.Id)).size, parts.length, 'ids are unique');
    for (const p of parts) {
      assert.match(p.Id, GUID);
      assert.equal(p.Name, p.Id, 'SharePoint names its own components by their id');
      assert.equal(p.ComponentType, 1, 'all web parts');
      const manifest = JSON.parse(p.Manifest);
      assert.equal(manifest.id, p.Id);
      assert.equal(manifest.componentType, 'WebPart');
      assert.ok(manifest.preconfiguredEntries[0].title.default.length > 0);
    }
    const embed = parts.filter((c) => c.Id === EMBED)[0];
    assert.ok(embed, 'the Embed web part PnPjs\'s test places, by its bare id');
    const part = ClientsideWebpart.fromComponentDef(embed);
    assert.equal(part.title, 'Embed');
    part.setProperties<{ embedCode: string }>({ embedCode: 'https://www.youtube.com/watch?v=IWQFZ7Lx-rg' });
    assert.equal(part.getProperties<{ embedCode: string }>().embedCode, 'https://www.youtube.com/watch?v=IWQFZ7Lx-rg');
    for (const id of ['d1d91016-032f-456d-98a4-721247c305e8', 'c4bd7b2f-7b6e-4599-8485-16504575f590', 'c70391ea-0b10-4ee9-b2b4-006d3fcad0cd', '8654b779-4886-46d4-8ffb-b5ed960ee986']) {
      assert.ok(parts.some((p) => p.Id === id), `Image, Hero, Quick links, Spacer: ${id}`);
    }
  });

  it('the wire: the manager, its Scope and WebParts in verbose and nometadata', async () => {
    const verbose = await call(manager(CLASSIC, 'scope=1'), ACCEPT.verbose);
    assert.equal(verbose.status, 200);
    assert.equal(verbose.body.d.__metadata.type, 'SP.WebParts.LimitedWebPartManager');
    assert.match(verbose.body.d.__metadata.uri, /GetLimitedWebPartManager\(scope=1\)$/);
    assert.match(verbose.body.d.WebParts.__deferred.uri, /GetLimitedWebPartManager\(scope=1\)\/WebParts$/);
    assert.equal(verbose.body.d.Scope, 1);
    assert.equal(verbose.body.d.HasPersonalizedParts, false);
    assert.deepEqual((await call(manager(CLASSIC, 'scope=0'))).body, { HasPersonalizedParts: false, Scope: 0 });
    assert.deepEqual((await call(manager(CLASSIC, '0'))).body, { HasPersonalizedParts: false, Scope: 0 }, 'positional');

    assert.deepEqual((await call(`${manager(CLASSIC, 'scope=0')}/Scope`, ACCEPT.verbose)).body, { d: { Scope: 0 } });
    assert.deepEqual((await call(`${manager(CLASSIC, 'scope=1')}/scope`)).body, { value: 1 });
    const minimal = await call(`${manager(CLASSIC, 'scope=1')}/Scope`, ACCEPT.minimal);
    assert.equal(minimal.body.value, 1);
    assert.match(minimal.body['odata.metadata'], /\$metadata#Edm\.Int32$/);
    assert.deepEqual((await call(`${manager(CLASSIC, 'scope=1')}/HasPersonalizedParts`)).body, { value: false });
    assert.deepEqual((await call(`${manager(CLASSIC, 'scope=1')}/WebParts`, ACCEPT.verbose)).body, { d: { results: [] } });
    assert.deepEqual((await call(`${manager(CLASSIC, 'scope=1')}/webparts`)).body, { value: [] });
  });

  it('the wire: GetClientSideWebParts, verbose (as PnP Core reads it, GET or POST) and nometadata', async () => {
    for (const method of ['GET', 'POST']) {
      const verbose = await call('web/GetClientSideWebParts', ACCEPT.verbose, { method });
      assert.equal(verbose.status, 200, method);
      const results = verbose.body.d.GetClientSideWebParts.results as any[];
      assert.ok(results.length > 0);
      assert.equal(results[0].__metadata.type, COMPONENT);
    }
    const light = await call('web/getclientsidewebparts(includeErrors=true)');
    assert.equal(light.status, 200);
    const embed = (light.body.value as any[]).find((c) => c.Id === EMBED);
    assert.deepEqual(Object.keys(embed), ['ComponentType', 'Id', 'Manifest', 'ManifestType', 'Name', 'Status']);
    assert.equal(typeof embed.Manifest, 'string');
    assert.equal(embed.Status, 0);
    const minimal = await call('web/GetClientSideWebParts', ACCEPT.minimal);
    assert.match(minimal.body['odata.metadata'], new RegExp(`\\$metadata#Collection\\(${COMPONENT.replace(/\./g, '\\.')}\\)$`));
  });

  it('bad input: scopes other than 0 and 1, a missing file (the files\' own 404), web part ids, Export and Import', async () => {
    for (const scope of ['scope=2', 'scope=-1', "scope='Shared'", '']) {
      const bad = await call(manager(CLASSIC, scope));
      assert.equal(bad.status, 400, scope);
      assert.equal(bad.body['odata.error'].code, '-2147024809, System.ArgumentException');
    }
    const missing = `${LIB}/nope.aspx`;
    const file = await call(`web/getfilebyserverrelativeurl('${encodeURIComponent(missing)}')`);
    const viaManager = await call(manager(missing, 'scope=1'));
    assert.equal(file.status, 404);
    assert.deepEqual(viaManager, file, 'the same 404 envelope as reading the file');
    assert.equal((await call(`${manager(missing, 'scope=1')}/WebParts`, ACCEPT.verbose)).status, 404);

    const webParts = `${manager(CLASSIC, 'scope=1')}/webparts`;
    assert.equal((await call(`${webParts}/getbyid('not-a-guid')`)).status, 400);
    const none = await call(`${webParts}/getbyid('11111111-2222-3333-4444-555555555555')`);
    assert.equal(none.status, 404);
    assert.equal(none.body['odata.error'].code, '-1, Microsoft.SharePoint.Client.ResourceNotFoundException');
    assert.equal((await call(`${webParts}/getbycontrolid('g_1')`)).status, 404);
    assert.equal((await call(`${webParts}(guid'11111111-2222-3333-4444-555555555555')`)).status, 404);

    const exported = await call(`${manager(CLASSIC, 'scope=1')}/ExportWebPart`, ACCEPT.nometadata, { method: 'POST', body: { webPartId: '11111111-2222-3333-4444-555555555555' } });
    assert.equal(exported.status, 404, 'nothing to export');
    assert.equal((await call(`${manager(CLASSIC, 'scope=1')}/ExportWebPart`, ACCEPT.nometadata, { method: 'POST', body: { webPartId: 'x' } })).status, 400);
    assert.equal((await call(`${manager(CLASSIC, 'scope=1')}/ExportWebPart`, ACCEPT.nometadata, { method: 'POST', body: {} })).status, 400);
    assert.equal((await call(`${manager(CLASSIC, 'scope=1')}/ExportWebPart`)).status, 405, 'an action is POSTed');
    const imported = await failure(spemu.sp.web.getFileByServerRelativePath(CLASSIC).getLimitedWebPartManager().import('<webParts/>'));
    assert.equal(imported.status, 501);
    assert.equal((await call(`${manager(CLASSIC, 'scope=1')}/NoSuchThing`)).status, 404);
  });

  it('who may: a visitor reads a manager and the catalogue but may not import; no role, nothing; a file hidden from the caller, none', async () => {
    const dave = await pnpAsDemoUser(spemu.site, DAVE);
    assert.equal(await dave.web.getFileByServerRelativePath(CLASSIC).getLimitedWebPartManager(WebPartsPersonalizationScope.User).scope(), 0);
    assert.deepEqual(await dave.web.getFileByServerRelativePath(CLASSIC).getLimitedWebPartManager().webparts(), []);
    assert.ok((await dave.web.getClientsideWebParts()).length > 0);
    const exported = await call(`${manager(CLASSIC, 'scope=1')}/ExportWebPart`, ACCEPT.nometadata, { method: 'POST', body: { webPartId: '11111111-2222-3333-4444-555555555555' }, upn: DAVE });
    assert.equal(exported.status, 404, 'reading rights are enough to ask');
    assert.equal((await failure(dave.web.getFileByServerRelativePath(CLASSIC).getLimitedWebPartManager().import('<webParts/>'))).status, 403);

    assert.equal((await call(manager(CLASSIC, 'scope=1'), ACCEPT.nometadata, { upn: ERIN })).status, 403);
    assert.equal((await call('web/GetClientSideWebParts', ACCEPT.nometadata, { upn: ERIN })).status, 403);

    const secret = `${LIB}/secret.aspx`;
    await spemu.sp.web.getFolderByServerRelativePath(LIB).files.addUsingPath('secret.aspx', '<html></html>', { Overwrite: true });
    const item = await spemu.sp.web.getFileByServerRelativePath(secret).getItem();
    const visitors = await spemu.sp.web.associatedVisitorGroup();
    await item.breakRoleInheritance(true, false);
    await item.roleAssignments.remove(visitors.Id, READ);
    const asFile = await call(`web/getfilebyserverrelativeurl('${encodeURIComponent(secret)}')`, ACCEPT.nometadata, { upn: DAVE });
    assert.notEqual(asFile.status, 200);
    assert.deepEqual(await call(manager(secret, 'scope=1'), ACCEPT.nometadata, { upn: DAVE }), asFile, 'refused as the file itself is');
    assert.equal(await spemu.sp.web.getFileByServerRelativePath(secret).getLimitedWebPartManager().scope(), 1, 'the owner still may');
  });
});
