// `--max-file-size` (issue #11): a file, a chunk or an attachment larger than the limit is
// refused with 413 before anything is written; one at the limit is stored whole.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { useTestServer } from '../helpers/server.ts';

const LIMIT = 64 * 1024;

describe('--max-file-size', () => {
  const spemu = useTestServer({ maxFileSize: LIMIT });
  let api: string;
  before(() => { api = `${spemu.server.site('/sites/dev')}/_api`; });
  const files = "web/GetFolderByServerRelativePath(decodedurl='/sites/dev/Shared Documents')/Files";
  const post = (path: string, body: Uint8Array | string) => fetch(`${api}/${path}`, { method: 'POST', body, headers: { Accept: 'application/json;odata=nometadata' } });

  it('a file at the limit is stored; one byte more is 413 and leaves no file', async () => {
    const exact = randomBytes(LIMIT);
    assert.equal((await post(`${files}/AddUsingPath(decodedurl='exact.bin',overwrite=true)`, exact)).status, 200);
    const back = await fetch(`${api}/web/GetFileByServerRelativePath(decodedurl='/sites/dev/Shared Documents/exact.bin')/$value`);
    assert.ok(Buffer.from(await back.arrayBuffer()).equals(exact));

    const over = await post(`${files}/AddUsingPath(decodedurl='over.bin',overwrite=true)`, randomBytes(LIMIT + 1));
    assert.equal(over.status, 413);
    assert.match(((await over.json()) as { 'odata.error': { message: { value: string } } })['odata.error'].message.value, new RegExp(`${LIMIT} bytes`));
    const listed = (await (await fetch(`${api}/${files}`, { headers: { Accept: 'application/json;odata=nometadata' } })).json()) as { value: Array<{ Name: string }> };
    assert.ok(!listed.value.some((f) => f.Name === 'over.bin'));
  });

  it('a chunk over the limit is refused; the file keeps its content', async () => {
    await post(`${files}/AddUsingPath(decodedurl='chunked.bin',overwrite=true)`, 'before');
    const file = "web/GetFileByServerRelativePath(decodedurl='/sites/dev/Shared Documents/chunked.bin')";
    const id = '2b5f3f52-8c1a-4c3e-9d8e-0a1b2c3d4e5f';
    assert.equal((await post(`${file}/StartUpload(uploadId=guid'${id}')`, randomBytes(LIMIT + 1))).status, 413);
    assert.equal(await (await fetch(`${api}/${file}/$value`)).text(), 'before');
  });

  it('an attachment over the limit is refused', async () => {
    const list = await fetch(`${api}/web/lists`, { method: 'POST', headers: { 'Content-Type': 'application/json', Accept: 'application/json;odata=nometadata' },
      body: JSON.stringify({ Title: 'Limit Attachments', BaseTemplate: 100 }) });
    assert.equal(list.status, 201);
    await fetch(`${api}/web/lists/getbytitle('Limit Attachments')/items`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ Title: 'x' }) });
    assert.equal((await post("web/lists/getbytitle('Limit Attachments')/items(1)/AttachmentFiles/add(FileName='big.bin')", randomBytes(LIMIT + 1))).status, 413);
    const all = (await (await fetch(`${api}/web/lists/getbytitle('Limit Attachments')/items(1)/AttachmentFiles`, { headers: { Accept: 'application/json;odata=nometadata' } })).json()) as { value: unknown[] };
    assert.deepEqual(all.value, []);
  });
});
