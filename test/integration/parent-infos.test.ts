// An item's parent list, with the list's root folder and web expanded below it: two levels
// of $expand, as PnPjs's item.getParentInfos() asks for them.

import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import { useTestServer } from '../helpers/server.ts';
import { pnpFor } from '../helpers/pnp.ts';
import '../helpers/pnp-types.ts';

describe('ParentList with RootFolder and ParentWeb expanded', () => {
  const spemu = useTestServer();
  let sp: SPFI;
  before(async () => {
    sp = pnpFor(spemu.server.site());
  });

  it('PnPjs getParentInfos() reads the list, its root folder and its web', async () => {
    const list = await sp.web.lists.getByTitle('Tasks')();
    const web = await sp.web();
    const infos = await sp.web.lists.getByTitle('Tasks').items.getById(1).getParentInfos();
    assert.equal(infos.Item.Id, 1);
    assert.equal(infos.ParentList.Id, list.Id);
    assert.equal(infos.ParentList.Title, 'Tasks');
    assert.equal(infos.ParentList.RootFolderServerRelativeUrl, '/sites/dev/Lists/Tasks');
    assert.deepEqual(infos.ParentList.RootFolderServerRelativePath, { DecodedUrl: '/sites/dev/Lists/Tasks' });
    assert.equal(infos.ParentList.RootFolderUniqueId, list.Id);
    assert.equal(infos.ParentWeb.Id, web.Id);
    assert.equal(infos.ParentWeb.Url, web.Url);
    assert.equal(infos.ParentWeb.ServerRelativeUrl, '/sites/dev');
  });

  it('selects only what was asked at each level', async () => {
    const r = await fetch(`${spemu.server.site()}/_api/web/lists/getbytitle('Tasks')/items(1)?$select=Id,ParentList/Title,ParentList/RootFolder/Name&$expand=ParentList,ParentList/RootFolder`,
      { headers: { accept: 'application/json;odata=nometadata' } });
    assert.equal(r.status, 200);
    assert.deepEqual(await r.json(), { ParentList: { RootFolder: { Name: 'Tasks' }, Title: 'Tasks' }, Id: 1 });
  });

  it('refuses what cannot be expanded below ParentList', async () => {
    const r = await fetch(`${spemu.server.site()}/_api/web/lists/getbytitle('Tasks')/items(1)?$expand=ParentList/Items`,
      { headers: { accept: 'application/json;odata=nometadata' } });
    assert.equal(r.status, 400);
  });
});
