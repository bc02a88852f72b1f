// Saving a file's content with `PUT …/$value` honours If-Match, as SharePoint's file saves do: an
// etag that does not name the file's version now answers 412 and changes nothing; the current one,
// `*` or none writes. The check is made inside the write, so of saves sent at once with one etag
// exactly one wins (the others 412), whatever their bodies' timing.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import '@pnp/sp/files/index.js';
import '@pnp/sp/folders/index.js';
import { demoBasic, demoDigest } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';
import { bodyHeldUntil } from '../helpers/held-body.ts';

const ALICE = 'alice@contoso.onmicrosoft.com';

describe('PUT $value of a file with If-Match', () => {
  const spemu = usePnpSite();
  const fileUrl = () => `${new URL(spemu.site).pathname}/Shared Documents/if-match.txt`;
  const valueUrl = () => `${spemu.site}/_api/web/getFileByServerRelativePath(decodedurl=@p)/$value?@p='${encodeURIComponent(fileUrl())}'`;

  async function headers(extra: Record<string, string> = {}): Promise<Record<string, string>> {
    return { Authorization: demoBasic(ALICE), Accept: 'application/json;odata=nometadata', 'X-RequestDigest': (await demoDigest(spemu.site, ALICE))!, ...extra };
  }
  const put = async (body: string, ifMatch?: string) => {
    const r = await fetch(valueUrl(), { method: 'PUT', body, headers: await headers(ifMatch === undefined ? {} : { 'If-Match': ifMatch }) });
    return { status: r.status, text: await r.text() };
  };
  const content = async () => (await fetch(valueUrl(), { headers: await headers() })).text();
  const etag = async () => (await fetch(valueUrl(), { headers: await headers() })).headers.get('etag')!;

  it('a stale etag is refused with 412 and nothing written; the current one, * and none write', async () => {
    await spemu.sp.web.getFolderByServerRelativePath(`${new URL(spemu.site).pathname}/Shared Documents`).files.addUsingPath('if-match.txt', 'v1', { Overwrite: true });
    const first = await etag();
    assert.match(first, /^"\{[0-9A-F-]{36}\},\d+"$/);
    assert.equal((await put('v2', first)).status, 204, 'the current etag writes');
    assert.equal(await content(), 'v2');
    const second = await etag();
    assert.notEqual(second, first);

    const stale = await put('lost', first);
    assert.equal(stale.status, 412, stale.text);
    const error = JSON.parse(stale.text)['odata.error'];
    assert.equal(error.code, '-1, Microsoft.SharePoint.Client.ClientServiceException');
    assert.equal(error.message.value, `The request ETag value '${first}' does not match the object's ETag value '${second}'.`);
    assert.equal(await content(), 'v2', 'nothing written');
    assert.equal(await etag(), second, 'the version did not move');

    assert.equal((await put('bad', '"not an etag"')).status, 412, 'an etag that names no version');
    assert.equal((await put('v3', '*')).status, 204);
    assert.equal(await content(), 'v3');
    assert.equal((await put('v4')).status, 204, 'no If-Match: the save overwrites');
    assert.equal(await content(), 'v4');
  });

  it('saves sent at once with one etag: exactly one is written, the others answer 412', async () => {
    const current = await etag();
    // Each body's last bytes wait until every save has been checked before its body is read (the
    // check made before a byte is stored passes for all): only the check inside the write tells them apart.
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    const slowPut = async (text: string) => {
      const body = bodyHeldUntil(text, held);
      const r = await fetch(valueUrl(), { method: 'PUT', body, duplex: 'half', headers: await headers({ 'If-Match': current }) } as RequestInit);
      return { status: r.status, text: await r.text() };
    };
    const racing = ['a', 'b', 'c', 'd', 'e'].map((body) => slowPut(`racer ${body}`));
    setTimeout(release, 500);
    const answers = await Promise.all(racing);
    const statuses = answers.map((a) => a.status).sort();
    assert.deepEqual(statuses, [204, 412, 412, 412, 412], JSON.stringify(answers));
    const winner = ['a', 'b', 'c', 'd', 'e'][answers.findIndex((a) => a.status === 204)];
    assert.equal(await content(), `racer ${winner}`);
  });
});
