// A library's Forms folder files at their own URL outside `/_api` (and through download.aspx),
// as SharePoint serves any file there: the column defaults PnPjs's setDefaultColumnValues
// wrote, read back with plain fetch — bytes, type, the `/_api` ETag, 304, a range; a visitor
// with no access to the library refused as for its documents; a missing Forms file 404.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { IList } from '@pnp/sp/lists/index.js';
import '@pnp/sp/folders/index.js';
import '@pnp/sp/files/index.js';
import '@pnp/sp/column-defaults/index.js';
import '@pnp/sp/security/index.js';
import { demoBasic } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';
import '../helpers/pnp-types.ts';
import '../helpers/pnp-file-types.ts';
import '../helpers/pnp-column-default-types.ts';

const LIST = 'FormsFileUrls';
const ROOT = `/sites/dev/${LIST}`;
const FILE = `${ROOT}/Forms/client_LocationBasedDefaults.html`;
const DAVE = 'dave@contoso.onmicrosoft.com'; // visitor of /sites/dev

describe('Forms folder files at their own URL', () => {
  const spemu = usePnpSite();
  let list: IList;
  let origin: string;
  /** A GET as the anonymous user (the site's owner), or with the headers given. */
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${origin}${encodeURI(path)}`, { headers });

  before(async () => {
    origin = spemu.server.url;
    const ler = await spemu.sp.web.lists.ensure(LIST, '', 101);
    list = ler.list;
    await list.fields.addText('TextField');
    await list.rootFolder.setDefaultColumnValues([{ name: 'TextField', value: 'Text Default' }]);
    await list.rootFolder.files.addUsingPath('doc.txt', 'a document', { Overwrite: true });
  });

  it('answers 200 with the XML PnPjs wrote, its type and the /_api ETag; 304 and a range as a document', async () => {
    const written = await spemu.sp.web.getFileByServerRelativePath(FILE).getText();
    assert.match(written, /^<MetadataDefaults><a href="\/sites\/dev\/FormsFileUrls"><DefaultValue FieldName="TextField">Text Default<\/DefaultValue>/);
    const { ETag } = await spemu.sp.web.getFileByServerRelativePath(FILE)<{ ETag: string }>();
    for (const path of [FILE, FILE.toUpperCase()]) {
      const res = await get(path);
      assert.equal(res.status, 200, path);
      assert.equal(await res.text(), written);
      assert.equal(res.headers.get('content-type'), 'text/html');
      // HTML is active content: an attachment, as a document of that type.
      assert.match(res.headers.get('content-disposition')!, /^attachment; filename="client_LocationBasedDefaults.html"/);
      assert.equal(res.headers.get('content-length'), String(Buffer.byteLength(written)));
      assert.equal(res.headers.get('etag'), ETag);
      assert.equal(res.headers.get('accept-ranges'), 'bytes');
    }
    const same = await get(FILE, { 'If-None-Match': ETag });
    assert.equal(same.status, 304);
    assert.equal(await same.text(), '');
    const slice = await get(FILE, { Range: 'bytes=1-16' });
    assert.equal(slice.status, 206);
    assert.equal(await slice.text(), written.slice(1, 17));
    assert.equal(slice.headers.get('content-range'), `bytes 1-16/${Buffer.byteLength(written)}`);
    const head = await fetch(`${origin}${encodeURI(FILE)}`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('content-length'), String(Buffer.byteLength(written)));
    const download = await fetch(`${origin}/sites/dev/_layouts/15/download.aspx?SourceUrl=${encodeURIComponent(FILE)}`);
    assert.equal(download.status, 200);
    assert.equal(await download.text(), written);
  });

  it('a visitor reads it; with no access to the library, the same refusal as its documents', async () => {
    const visitor = { Authorization: demoBasic(DAVE) };
    const readable = await get(FILE, visitor);
    assert.equal(readable.status, 200);
    await readable.arrayBuffer();
    await list.breakRoleInheritance(false, false);
    const doc = await get(`${ROOT}/doc.txt`, visitor);
    const forms = await get(FILE, visitor);
    assert.equal(doc.status, 403);
    assert.equal(forms.status, doc.status);
    assert.deepEqual(await forms.json(), await doc.json());
    // The owner still reads it.
    const owner = await get(FILE);
    assert.equal(owner.status, 200);
    await owner.arrayBuffer();
  });

  it('a missing Forms file is 404 FileNotFound, as a missing document', async () => {
    const res = await get(`${ROOT}/Forms/nope.html`, { Accept: 'application/json;odata=verbose' });
    assert.equal(res.status, 404);
    const body = (await res.json()) as { error: { code: string; message: { value: string } } };
    assert.equal(body.error.code, '-2130575338, Microsoft.SharePoint.SPException');
    assert.equal(body.error.message.value, `The file ${ROOT}/Forms/nope.html does not exist.`);
    // A list that is no library has no Forms folder.
    await spemu.sp.web.lists.ensure('FormsFileUrlsList', '', 100);
    const none = await get('/sites/dev/Lists/FormsFileUrlsList/Forms/client_LocationBasedDefaults.html');
    assert.equal(none.status, 404);
    await none.arrayBuffer();
  });
});
