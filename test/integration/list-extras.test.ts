// What spemu answers from what it knows, without storing anything (issue #14): a list's event
// receivers (none; adding one is refused, a POST to them whatever its body), the lookups that point at a list, its IRM settings
// (off); a web's templates for new subwebs, its custom list templates (none) and mapToIcon.
// Through PnPjs 4 where it has the call, plain fetch for the wire.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import { useTestServer } from '../helpers/server.ts';
import { pnpFor } from '../helpers/pnp.ts';
import '@pnp/sp/sites/index.js';

describe('what lists and webs answer without storing anything', () => {
  const spemu = useTestServer();
  let sp: SPFI;
  let api: string;
  before(() => {
    sp = pnpFor(spemu.server.site('/sites/dev'));
    api = `${spemu.server.site('/sites/dev')}/_api/web`;
  });
  const call = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${api}/${path}`, { method, headers: { Accept: 'application/json;odata=nometadata', 'Content-Type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) });
    return { status: r.status, body: await r.json() as any };
  };

  it('a list\'s event receivers, related fields and IRM settings', async () => {
    const { list: target } = await sp.web.lists.ensure('Related target', '', 100);
    const { list: other } = await sp.web.lists.ensure('Related source', '', 100);
    const targetId = (await target.select('Id')()).Id;
    const lookup = await other.fields.addLookup('Target', { LookupListId: targetId, LookupFieldName: 'Title' });
    const related = await call('GET', "lists/getbytitle('Related target')/getRelatedFields");
    assert.equal(related.status, 200);
    assert.deepEqual(related.body.value.map((f: any) => f.FieldId), [lookup.Id]);
    assert.deepEqual((await call('GET', "lists/getbytitle('Related source')/getRelatedFields")).body.value, []);
    assert.deepEqual((await call('GET', "lists/getbytitle('Related target')/eventReceivers")).body.value, []);
    const add = await call('POST', "lists/getbytitle('Related target')/eventReceivers", { ReceiverName: 'r', EventType: 10001, ReceiverUrl: 'https://x' });
    assert.equal(add.status, 501, 'spemu calls no remote event receivers, so it refuses to register one');
    // POST to the collection never reads its body: 501 even for one that is no JSON.
    const post = (path: string, body: string) => fetch(`${api}/${path}`, { method: 'POST', headers: { Accept: 'application/json;odata=nometadata', 'Content-Type': 'application/json' }, body });
    assert.equal((await post("lists/getbytitle('Related target')/eventReceivers", '{"ReceiverName":')).status, 501);
    // eventReceivers/add reads its body to know which receiver it names: a readable one naming a
    // remote receiver is 501, one that is no JSON SharePoint's 400, as any method's.
    const remote = JSON.stringify({ eventReceiverCreationInformation: { ReceiverName: 'r', EventType: 10001, ReceiverUrl: 'https://x' } });
    assert.equal((await post("lists/getbytitle('Documents')/eventReceivers/add", remote)).status, 501, 'a remote receiver on a library');
    assert.equal((await post("lists/getbytitle('Related target')/eventReceivers/add", remote)).status, 501, 'any receiver on a list that is no library');
    const malformed = await post("lists/getbytitle('Documents')/eventReceivers/add", '{"eventReceiverCreationInformation":');
    assert.equal(malformed.status, 400);
    assert.ok((await malformed.json() as { 'odata.error'?: unknown })['odata.error'], 'SharePoint\'s error envelope');
    assert.deepEqual((await call('GET', "lists/getbytitle('Documents')/eventReceivers")).body.value, [], 'nothing was registered');
    const irm = await call('GET', "lists/getbytitle('Related target')/InformationRightsManagementSettings");
    assert.equal(irm.status, 200);
    assert.equal(irm.body.EnableDocumentAccessExpire, false);
  });

  it('a web\'s templates, custom list templates and icons', async () => {
    const templates = await sp.web.availableWebTemplates()();
    assert.deepEqual(templates.map((t: any) => t.Name), ['STS#3', 'STS#0']);
    assert.deepEqual((await call('GET', 'getCustomListTemplates')).body.value, []);
    assert.equal(await sp.web.mapToIcon('report.docx'), 'icdocx.png');
    assert.equal(await sp.web.mapToIcon('report.DOCX', 1), 'lg_icdocx.png');
    assert.equal(await sp.web.mapToIcon('archive.xyz'), 'icgen.gif');
  });

  it('SP.Web and SP.Site static methods: a web\'s libraries, the web of a page, whether a site exists', async () => {
    const site = spemu.server.site('/sites/dev');
    const libraries = await sp.site.getDocumentLibraries(site);
    const titles = libraries.map((l) => l.Title).sort();
    assert.ok(titles.includes('Documents') && titles.includes('Site Assets') && !titles.includes('Tasks'), titles.join());
    assert.equal(libraries.find((l) => l.Title === 'Documents')!.IsDefaultDocumentLibrary, true);
    await sp.web.webs.add('Static sub', 'static-sub');
    assert.equal(await sp.site.getWebUrlFromPageUrl(`${site}/static-sub/SitePages/Home.aspx`), `${site}/static-sub`);
    assert.equal(await sp.site.getWebUrlFromPageUrl(`${site}/SitePages/Home.aspx`), site);
    assert.equal(await sp.site.exists(site), true);
    assert.equal(await sp.site.exists(`${site}/RANDOM`), false);
  });

  it('a web\'s and a list\'s title and description per UI culture: the one value a one-language site has', async () => {
    const culture = async (path: string) => (await call('POST', `${path}/getValueForUICulture`, { cultureName: 'en-us' })).body.value;
    assert.equal(await culture('TitleResource'), 'Dev');
    assert.equal(await culture("lists/getbytitle('Tasks')/TitleResource"), 'Tasks');
    assert.equal(typeof await culture('DescriptionResource'), 'string');
    assert.equal((await call('POST', 'TitleResource/setValueForUICulture', { cultureName: 'de-de', value: 'x' })).status, 501);
  });
});
