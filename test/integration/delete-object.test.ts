// `deleteObject()` POSTed as a method (gd-sprest and CSOM-minded code delete this way): on an
// item, a field, a view, a file, a folder and a list it does what DELETE does, answers
// SharePoint's void result, and needs the same permission; it is no GET.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useTestServer } from '../helpers/server.ts';

describe('deleteObject() as a method', () => {
  const spemu = useTestServer();
  let api: string;
  before(() => { api = `${spemu.server.site('/sites/dev')}/_api/web`; });

  const call = async (method: string, path: string, body?: unknown) => {
    const r = await fetch(`${api}/${path}`, {
      method, headers: { Accept: 'application/json;odata=nometadata', 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await r.text();
    return { status: r.status, body: text ? JSON.parse(text) as any : undefined };
  };

  it('deletes items, fields, views, files, folders and lists; a GET of it is refused', async () => {
    const list = (await call('POST', 'lists', { Title: 'Doomed things', BaseTemplate: 100 })).body;
    const L = `lists(guid'${list.Id}')`;
    const item = (await call('POST', `${L}/items`, { Title: 'doomed' })).body;
    const field = (await call('POST', `${L}/fields`, { Title: 'Doomed', FieldTypeKind: 2 })).body;
    const view = (await call('POST', `${L}/views`, { Title: 'Doomed view' })).body;

    assert.equal((await call('GET', `${L}/items(${item.Id})/deleteObject`)).status, 405);
    const deleted = await call('POST', `${L}/items(${item.Id})/deleteObject`);
    assert.deepEqual(deleted, { status: 200, body: { 'odata.null': true } });
    assert.equal((await call('GET', `${L}/items(${item.Id})`)).status, 404);
    assert.equal((await call('POST', `${L}/fields(guid'${field.Id}')/deleteObject`)).status, 200);
    assert.equal((await call('GET', `${L}/fields(guid'${field.Id}')`)).status, 404);
    assert.equal((await call('POST', `${L}/views(guid'${view.Id}')/deleteObject`)).status, 200);
    assert.equal((await call('GET', `${L}/views(guid'${view.Id}')`)).status, 404);

    const folder = "GetFolderByServerRelativePath(decodedurl='/sites/dev/Shared Documents/Doomed')";
    assert.equal((await call('POST', "folders/addUsingPath(decodedurl='/sites/dev/Shared Documents/Doomed')")).status, 200);
    assert.equal((await call('POST', `${folder}/files/addUsingPath(decodedurl='a.txt')`, 'bytes')).status, 200);
    const file = "GetFileByServerRelativePath(decodedurl='/sites/dev/Shared Documents/Doomed/a.txt')";
    assert.equal((await call('POST', `${file}/deleteObject`)).status, 200);
    assert.equal((await call('GET', file)).status, 404);
    assert.equal((await call('POST', `${folder}/deleteObject`)).status, 200);
    assert.equal((await call('GET', `${folder}?$select=Exists`)).body?.Exists ?? false, false);

    assert.equal((await call('POST', `${L}/deleteObject`)).status, 200);
    assert.equal((await call('GET', L)).status, 404);
    assert.equal((await call('POST', 'deleteObject')).status, 500, 'the root web is not deleted this way either');
  });
});
