// Property names in `$select`, `$expand`, `$filter` and `$orderby` over SharePoint's
// fixed-shape entities (webs, lists, fields, views…) match in any letter case, as SharePoint's
// do (PnPjs's own tests send `$select=ID` on a list); the answer keeps SharePoint's spelling.
// An empty `$select=` (CLI for Microsoft 365 sends one) is no `$select` at all.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useTestServer } from '../helpers/server.ts';

describe('property names in query options, whatever their case', () => {
  const spemu = useTestServer();
  let api: string;
  before(() => { api = `${spemu.server.site('/sites/dev')}/_api`; });

  const get = async (path: string) => {
    const r = await fetch(`${api}/${path}`, { headers: { Accept: 'application/json;odata=nometadata' } });
    return { status: r.status, body: await r.json() as any };
  };

  it('$select and $expand find properties in any case and answer them as SharePoint spells them', async () => {
    assert.deepEqual((await get('web?$select=title')).body, { Title: 'Dev' });
    const list = (await get("web/lists/getbytitle('Tasks')?$select=ID,title,ROOTFOLDER/name&$expand=rootfolder")).body;
    assert.deepEqual(Object.keys(list).sort(), ['Id', 'RootFolder', 'Title']);
    assert.equal(list.RootFolder.Name, 'Tasks');
    const web = (await get('web?$select=parentweb/title,Title&$expand=PARENTWEB')).body;
    assert.deepEqual(web, { ParentWeb: null, Title: 'Dev' });
    assert.equal((await get('web?$select=NoSuchThing')).status, 400, 'an unknown name is still refused');
  });

  it('$filter and $orderby over a collection find properties in any case', async () => {
    const lists = (await get("web/lists?$select=title&$filter=HIDDEN eq false and basetemplate eq 100&$orderby=TITLE desc")).body.value;
    const titles = lists.map((l: any) => l.Title);
    assert.ok(titles.length >= 2 && titles.includes('Tasks'));
    assert.deepEqual(titles, [...titles].sort((a: string, b: string) => b.toLowerCase().localeCompare(a.toLowerCase())));
  });

  it('$expand of a list\'s RootFolder, ParentWeb and DefaultView, over the collection as on one list', async () => {
    const lists = (await get("web/lists?$select=Title,RootFolder/ServerRelativeUrl,DefaultView/Title&$expand=RootFolder,DefaultView&$filter=Title eq 'Tasks' or Title eq 'Documents'&$orderby=Title")).body.value;
    assert.deepEqual(lists, [
      { DefaultView: { Title: 'All Documents' }, RootFolder: { ServerRelativeUrl: '/sites/dev/Shared Documents' }, Title: 'Documents' },
      { DefaultView: { Title: 'All Items' }, RootFolder: { ServerRelativeUrl: '/sites/dev/Lists/Tasks' }, Title: 'Tasks' },
    ]);
    const one = (await get("web/lists/getbytitle('Tasks')?$select=ParentWeb/Title,DefaultView/RowLimit&$expand=ParentWeb,DefaultView")).body;
    assert.deepEqual(one, { DefaultView: { RowLimit: 30 }, ParentWeb: { Title: 'Dev' } });
  });

  it('an empty $select is no $select', async () => {
    const { status, body } = await get('web?$select=');
    assert.equal(status, 200);
    assert.equal(body.Title, 'Dev');
    assert.ok('Url' in body && 'ServerRelativeUrl' in body, 'the whole entity');
  });
});
