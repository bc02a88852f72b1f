// Subwebs declared in a tenant file (issue #14): loaded by a real server on the leg's
// database, nested two deep, each with its own libraries, lists, lookups, items and files,
// read back through each web's own `/_api` and file URLs; and the file's mistakes about webs
// (duplicate or clashing URLs, a bad URL segment, a lookup to another web) reported by
// pointer before anything is loaded.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useTestServer } from '../helpers/server.ts';
import { testBackend } from '../helpers/postgres.ts';
import { TenantFileError, validateTenant } from '../../src/tenant/validate.ts';

const OLIVIA = 'olivia@fabrikam.onmicrosoft.com';
const NOMETA = 'application/json;odata=nometadata';

function tenantWith(webs: unknown[]) {
  return {
    tenant: { name: 'fabrikam' },
    users: [{ upn: OLIVIA, displayName: 'Olivia Owner' }],
    sites: [{ url: '/sites/test', title: 'Test', owners: [OLIVIA], lists: [{ title: 'Tasks' }], webs }],
  };
}

const TENANT = tenantWith([{
  url: 'projects', title: 'Projects', description: 'All projects',
  contentTypes: [{ name: 'Client', id: '0x0100A1B2C3D4E5F60718293A4B5C6D7E8F90', group: 'Projects' }, { name: 'Loose' }],
  lists: [
    {
      title: 'Clients', items: [{ Title: 'Contoso' }, { Title: 'Fabrikam' }], contentTypes: ['Client', '0x0104'],
      views: [{ title: 'By name', fields: ['Title', 'Created By'], query: '<OrderBy><FieldRef Name="Title" Ascending="FALSE"/></OrderBy>', rowLimit: 10, default: true }],
    },
    { title: 'Tasks', fields: [{ name: 'Client', type: 'Lookup', lookupList: 'Clients' }], items: [{ Title: 'Kick-off', Client: 2 }] },
    { title: 'Documents', files: [{ path: 'Plans/plan.txt', content: { text: 'the projects plan' } }] },
  ],
  webs: [{ url: 'archive', title: 'Archive', lists: [{ title: 'Old', items: [{ Title: 'from 2019' }] }] }],
}]);

describe(`subwebs in a tenant file (${testBackend()})`, () => {
  const spemu = useTestServer({ seed: TENANT });
  let site: string;
  before(() => { site = spemu.server.site('/sites/test'); });

  const json = async (url: string) => {
    const r = await fetch(url, { headers: { Accept: NOMETA } });
    assert.equal(r.status, 200, `${url}: ${r.status}`);
    return r.json() as Promise<any>;
  };

  it('each web answers at its URL with its own lists, items, lookups and files', async () => {
    const projects = await json(`${site}/projects/_api/web?$select=Title,Description,ServerRelativeUrl`);
    assert.deepEqual([projects.Title, projects.Description, projects.ServerRelativeUrl], ['Projects', 'All projects', '/sites/test/projects']);
    const titles = (await json(`${site}/projects/_api/web/lists?$select=Title&$filter=Hidden eq false`)).value.map((l: any) => l.Title).sort();
    assert.deepEqual(titles, ['Clients', 'Documents', 'Site Assets', 'Site Pages', 'Tasks']);
    // Two lists called Tasks, one per web, each with its own items.
    const task = (await json(`${site}/projects/_api/web/lists/getbytitle('Tasks')/items?$select=Title,Client/Title&$expand=Client`)).value;
    assert.deepEqual(task.map((t: any) => [t.Title, t.Client.Title]), [['Kick-off', 'Fabrikam']], 'the lookup names the list of its own web');
    assert.deepEqual((await json(`${site}/_api/web/lists/getbytitle('Tasks')/items`)).value, []);
    const file = await fetch(`${site}/projects/Shared%20Documents/Plans/plan.txt`);
    assert.equal(await file.text(), 'the projects plan');

    const archive = await json(`${site}/projects/archive/_api/web?$select=Title,ServerRelativeUrl`);
    assert.equal(archive.ServerRelativeUrl, '/sites/test/projects/archive');
    assert.deepEqual((await json(`${site}/projects/archive/_api/web/lists/getbytitle('Old')/items?$select=Title`)).value.map((i: any) => i.Title), ['from 2019']);
    assert.deepEqual((await json(`${site}/_api/web/webs?$select=Title`)).value.map((w: any) => w.Title), ['Projects']);
    assert.deepEqual((await json(`${site}/projects/_api/web/webinfos?$select=Title`)).value.map((w: any) => w.Title), ['Archive']);
  });

  it('content types and views declared in the file: a web\'s own types (an id given or made), bound to a list; views with their columns', async () => {
    const own = (await json(`${site}/projects/_api/web/contenttypes?$filter=Group eq 'Projects' or Name eq 'Loose'&$select=Name,StringId`)).value;
    assert.deepEqual(own.map((t: any) => t.Name).sort(), ['Client', 'Loose']);
    assert.equal(own.find((t: any) => t.Name === 'Client').StringId, '0x0100A1B2C3D4E5F60718293A4B5C6D7E8F90');
    assert.match(own.find((t: any) => t.Name === 'Loose').StringId, /^0x0100[0-9A-F]{32}$/);
    const bound = (await json(`${site}/projects/_api/web/lists/getbytitle('Clients')/contenttypes?$select=Name,StringId`)).value;
    assert.deepEqual(bound.map((t: any) => t.Name), ['Item', 'Folder', 'Client', 'Announcement']);
    assert.match(bound[2].StringId, /^0x0100A1B2C3D4E5F60718293A4B5C6D7E8F9000[0-9A-F]{32}$/);
    const views = (await json(`${site}/projects/_api/web/lists/getbytitle('Clients')/views?$select=Title,DefaultView,RowLimit`)).value;
    assert.deepEqual(views.map((v: any) => [v.Title, v.DefaultView, v.RowLimit]), [['By name', true, 10], ['All Items', false, 30]]);
    const byName = await json(`${site}/projects/_api/web/lists/getbytitle('Clients')/defaultview/viewfields`);
    assert.deepEqual(byName.Items, ['Title', 'Author']);
  });
});

describe('a tenant file\'s mistakes about subwebs', () => {
  const problems = (webs: unknown[]) => {
    try {
      validateTenant(tenantWith(webs));
    } catch (e) {
      assert.ok(e instanceof TenantFileError, String(e));
      return e.problems.map((p) => `${p.path}: ${p.message}`);
    }
    return [];
  };

  it('duplicate URLs among siblings, a URL of a parent\'s library, a bad segment, a lookup to another web', () => {
    assert.deepEqual(problems([{ url: 'a', title: 'A' }, { url: 'A', title: 'B' }]), ['/sites/0/webs/1/url: duplicate web URL "A" (also /sites/0/webs/0/url)']);
    assert.deepEqual(problems([{ url: 'SiteAssets', title: 'A' }]), ['/sites/0/webs/0/url: "SiteAssets" is the URL of a list or library of the parent web']);
    assert.equal(problems([{ url: 'a/b', title: 'A' }]).length, 1);
    assert.equal(problems([{ url: '.hidden', title: 'A' }]).length, 1);
    assert.equal(problems([{ url: 'ok', title: '' }]).length, 1);
    const lookup = problems([{ url: 'w', title: 'W', lists: [{ title: 'L', fields: [{ name: 'T', type: 'Lookup', lookupList: 'Tasks' }] }] }]);
    assert.equal(lookup.length, 1, 'Tasks is a list of the root web, not of this one');
    assert.match(lookup[0]!, /^\/sites\/0\/webs\/0\/lists\/0\/fields\/0\/lookupList/);
    assert.deepEqual(problems([{ url: 'w', title: 'W', webs: [{ url: 'w', title: 'Inner W' }] }]), [], 'the same segment at another level is fine');
  });
});
