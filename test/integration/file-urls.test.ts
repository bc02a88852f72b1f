// Files outside `/_api`, as browsers and download tools fetch them (issue #11): a file's own
// URL, `_layouts/15/download.aspx` by SourceUrl and by UniqueId, and a past version's
// `_vti_history` URL. Files are uploaded through `/_api` with plain fetch; everything is read
// back with plain fetch and checked against what `/_api` says of the same file (its ETag).
// No credentials are assumed: every request carries a bearer token, so 401 and 403 are real.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { useTestServer } from '../helpers/server.ts';
import { bearerFor } from '../helpers/bearer.ts';

const SECRET = 'file-urls-secret-file-urls-secret-0123456789';
const ALICE = 'alice@contoso.onmicrosoft.com'; // owner of /sites/dev
const DAVE = 'dave@contoso.onmicrosoft.com'; // visitor of /sites/dev
const ERIN = 'erin@contoso.onmicrosoft.com'; // no role on /sites/dev
const LIB = '/sites/dev/Shared Documents';
const MiB = 1024 * 1024;

interface SpFile { ETag: string; UniqueId: string; ServerRelativeUrl: string; Length: string }

describe('file URLs and download.aspx', () => {
  const spemu = useTestServer({ tokenSecret: SECRET, anonymousUser: undefined });
  let owner: string;
  let origin: string;
  /** A GET (or other method) as `who` (owner by default; null: no credentials). */
  const get = (path: string, headers: Record<string, string> = {}, who: string | null = owner, method = 'GET') =>
    fetch(`${origin}${path}`, { method, headers: who === null ? headers : { Authorization: who, ...headers } });

  async function upload(folder: string, name: string, body: Buffer | string): Promise<SpFile> {
    const res = await fetch(`${origin}/sites/dev/_api/web/GetFolderByServerRelativeUrl('${encodeURIComponent(folder)}')/Files/add(url='${encodeURIComponent(name)}',overwrite=true)`, {
      method: 'POST', headers: { Authorization: owner, Accept: 'application/json;odata=nometadata' }, body,
    });
    assert.equal(res.status, 200, await res.clone().text());
    return (await res.json()) as SpFile;
  }

  const text = 'hello, file URLs';
  let q1: SpFile;

  before(async () => {
    origin = spemu.server.url;
    owner = await bearerFor(SECRET, ALICE);
    const folder = await fetch(`${origin}/sites/dev/_api/web/GetFolderByServerRelativeUrl('${encodeURIComponent(LIB)}')/Folders/add(url='Minutes')`, {
      method: 'POST', headers: { Authorization: owner, Accept: 'application/json;odata=nometadata' },
    });
    assert.equal(folder.status, 200, await folder.text());
    q1 = await upload(`${LIB}/Minutes`, 'Q1 plan.txt', text);
  });

  it('a file at its own URL, in any case and percent-encoded: exact bytes, type, inline, the /_api ETag, time and length', async () => {
    for (const path of ['/sites/dev/Shared Documents/Minutes/Q1 plan.txt', '/SITES/Dev/shared%20documents/minutes/q1%20PLAN.TXT', '/sites/dev/Shared%20Documents/Minutes/Q1%20plan.txt']) {
      const res = await get(path);
      assert.equal(res.status, 200, path);
      assert.equal(await res.text(), text);
      assert.equal(res.headers.get('content-type'), 'text/plain');
      assert.equal(res.headers.get('content-length'), String(Buffer.byteLength(text)));
      assert.equal(res.headers.get('etag'), q1.ETag);
      assert.match(q1.ETag, /^"\{[0-9A-F-]{36}\},\d+"$/);
      assert.equal(res.headers.get('accept-ranges'), 'bytes');
      assert.ok(!Number.isNaN(Date.parse(res.headers.get('last-modified')!)));
      assert.equal(res.headers.get('content-disposition'), `inline; filename="Q1 plan.txt"; filename*=UTF-8''Q1%20plan.txt`);
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    }
    const download = await get(`${LIB}/Minutes/Q1 plan.txt?download=1`);
    assert.match(download.headers.get('content-disposition')!, /^attachment; /);
  });

  it('If-None-Match with the ETag answers 304 without a body; a stale one 200', async () => {
    const url = `${LIB}/Minutes/Q1 plan.txt`;
    const same = await get(url, { 'If-None-Match': q1.ETag });
    assert.equal(same.status, 304);
    assert.equal(await same.text(), '');
    assert.equal(same.headers.get('etag'), q1.ETag);
    assert.equal((await get(url, { 'If-None-Match': '"{00000000-0000-0000-0000-000000000000},1"' })).status, 200);
    assert.equal((await get(url, { 'If-Modified-Since': new Date(Date.now() + 60_000).toUTCString() })).status, 304);
  });

  it('Range: a slice as 206 with Content-Range, a suffix, 416 past the end; If-Range with another etag sends it all', async () => {
    const url = `${LIB}/Minutes/Q1 plan.txt`;
    const size = Buffer.byteLength(text);
    const slice = await get(url, { Range: 'bytes=2-5' });
    assert.equal(slice.status, 206);
    assert.equal(slice.headers.get('content-range'), `bytes 2-5/${size}`);
    assert.equal(slice.headers.get('content-length'), '4');
    assert.equal(await slice.text(), text.slice(2, 6));

    const suffix = await get(url, { Range: 'bytes=-4' });
    assert.equal(suffix.status, 206);
    assert.equal(suffix.headers.get('content-range'), `bytes ${size - 4}-${size - 1}/${size}`);
    assert.equal(await suffix.text(), text.slice(-4));

    const past = await get(url, { Range: `bytes=${size}-` });
    assert.equal(past.status, 416);
    assert.equal(past.headers.get('content-range'), `bytes */${size}`);
    await past.arrayBuffer();

    const stale = await get(url, { Range: 'bytes=2-5', 'If-Range': '"{00000000-0000-0000-0000-000000000000},1"' });
    assert.equal(stale.status, 200);
    assert.equal(await stale.text(), text);
    const current = await get(url, { Range: 'bytes=2-5', 'If-Range': q1.ETag });
    assert.equal(current.status, 206);
    await current.arrayBuffer();
  });

  it('HEAD: the headers, Content-Length, no body', async () => {
    const res = await get(`${LIB}/Minutes/Q1 plan.txt`, {}, owner, 'HEAD');
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-length'), String(Buffer.byteLength(text)));
    assert.equal(res.headers.get('etag'), q1.ETag);
    assert.equal((await res.arrayBuffer()).byteLength, 0);
    const download = await get(`/sites/dev/_layouts/15/download.aspx?UniqueId=${q1.UniqueId}`, {}, owner, 'HEAD');
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('content-length'), String(Buffer.byteLength(text)));
  });

  it('download.aspx by SourceUrl (server-relative, absolute, any parameter case) and by UniqueId (braces or not): an attachment', async () => {
    const disposition = `attachment; filename="Q1 plan.txt"; filename*=UTF-8''Q1%20plan.txt`;
    const urls = [
      `/sites/dev/_layouts/15/download.aspx?SourceUrl=${encodeURIComponent(q1.ServerRelativeUrl)}`,
      `/sites/dev/_LAYOUTS/15/Download.aspx?sourceurl=${encodeURIComponent(`${origin}${encodeURI(q1.ServerRelativeUrl)}`)}`,
      `/sites/dev/_layouts/15/download.aspx?SOURCEURL=${encodeURIComponent('Shared Documents/Minutes/Q1 plan.txt')}`,
      `/sites/dev/_layouts/15/download.aspx?UniqueId=${q1.UniqueId}`,
      `/sites/dev/_layouts/15/download.aspx?uniqueid=${encodeURIComponent(`{${q1.UniqueId.toUpperCase()}}`)}&Translate=false`,
    ];
    for (const url of urls) {
      const res = await get(url);
      assert.equal(res.status, 200, `${url}: ${await res.clone().text()}`);
      assert.equal(await res.text(), text);
      assert.equal(res.headers.get('content-disposition'), disposition);
      assert.equal(res.headers.get('content-type'), 'text/plain');
      assert.equal(res.headers.get('etag'), q1.ETag);
    }
    const ranged = await get(urls[3]!, { Range: 'bytes=0-4' });
    assert.equal(ranged.status, 206);
    assert.equal(await ranged.text(), text.slice(0, 5));
  });

  it('names beyond ASCII keep their exact name in filename*', async () => {
    const name = 'Übersicht – Zahlen (1).csv';
    await upload(LIB, name, 'a,b\n1,2\n');
    const res = await get(`/sites/dev/_layouts/15/download.aspx?SourceUrl=${encodeURIComponent(`${LIB}/${name}`)}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/csv');
    assert.equal(res.headers.get('content-disposition'), `attachment; filename="_bersicht _ Zahlen (1).csv"; filename*=UTF-8''%C3%9Cbersicht%20%E2%80%93%20Zahlen%20%281%29.csv`);
    const direct = await get(`${LIB}/${encodeURIComponent(name)}`);
    assert.equal(direct.status, 200);
    await direct.arrayBuffer();
    await res.arrayBuffer();
  });

  it('HTML and SVG are never shown inline: an attachment, sandboxed, nosniff', async () => {
    await upload(LIB, 'page.html', '<script>alert(1)</script>');
    await upload(LIB, 'logo.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    for (const [name, type] of [['page.html', 'text/html'], ['logo.svg', 'image/svg+xml']] as const) {
      const res = await get(`${LIB}/${name}`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), type);
      assert.match(res.headers.get('content-disposition')!, /^attachment; /);
      assert.equal(res.headers.get('content-security-policy'), 'sandbox');
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
      await res.arrayBuffer();
    }
    const pdf = await upload(LIB, 'doc.pdf', '%PDF-1.4');
    const res = await get(pdf.ServerRelativeUrl);
    assert.equal(res.headers.get('content-type'), 'application/pdf');
    assert.match(res.headers.get('content-disposition')!, /^inline; /);
    assert.equal(res.headers.get('content-security-policy'), null);
    await res.arrayBuffer();
    const other = await upload(LIB, 'data.unknownext', 'x');
    const bin = await get(other.ServerRelativeUrl);
    assert.equal(bin.headers.get('content-type'), 'application/octet-stream');
    await bin.arrayBuffer();
  });

  it("a past version at its _vti_history URL (SP.FileVersion's Url), directly and through download.aspx; read only", async () => {
    const first = await upload(LIB, 'versioned.txt', 'version one');
    await upload(LIB, 'versioned.txt', 'version two!');
    const versions = await fetch(`${origin}/sites/dev/_api/web/GetFileByServerRelativeUrl('${encodeURIComponent(`${LIB}/versioned.txt`)}')/Versions`, {
      headers: { Authorization: owner, Accept: 'application/json;odata=nometadata' },
    });
    const { value } = (await versions.json()) as { value: Array<{ ID: number; Url: string }> };
    assert.equal(value.length, 1);
    assert.equal(value[0]!.Url, '_vti_history/512/Shared Documents/versioned.txt');

    const direct = await get(`/sites/dev/${encodeURI(value[0]!.Url)}`);
    assert.equal(direct.status, 200);
    assert.equal(await direct.text(), 'version one');
    assert.equal(direct.headers.get('etag'), first.ETag, 'the version has the etag the file had then');
    const viaDownload = await get(`/sites/dev/_layouts/15/download.aspx?SourceUrl=${encodeURIComponent(value[0]!.Url)}`);
    assert.equal(viaDownload.status, 200);
    assert.equal(await viaDownload.text(), 'version one');
    assert.equal(await (await get(`${LIB}/versioned.txt`)).text(), 'version two!');

    assert.equal((await get('/sites/dev/_vti_history/1024/Shared Documents/versioned.txt')).status, 404, 'the current version is not history');
    assert.equal((await get('/sites/dev/_vti_history/513/Shared Documents/versioned.txt')).status, 404, 'no minor versions');
    const put = await get(`/sites/dev/${encodeURI(value[0]!.Url)}`, {}, owner, 'PUT');
    assert.ok(put.status >= 400, `a version URL is not written through: ${put.status}`);
    await put.arrayBuffer();
  });

  it("a missing file is SharePoint's 404 JSON error; download.aspx without a file, too", async () => {
    const res = await get(`${LIB}/Minutes/nope.txt`, { Accept: 'application/json;odata=verbose' });
    assert.equal(res.status, 404);
    const body = (await res.json()) as { error: { code: string; message: { value: string } } };
    assert.equal(body.error.code, '-2130575338, Microsoft.SharePoint.SPException');
    assert.equal(body.error.message.value, `The file ${LIB}/Minutes/nope.txt does not exist.`);

    const folder = await get(`${LIB}/Minutes`);
    assert.equal(folder.status, 404, 'a folder is not a file');
    await folder.arrayBuffer();
    const byId = await get('/sites/dev/_layouts/15/download.aspx?UniqueId=00000000-0000-0000-0000-000000000000');
    assert.equal(byId.status, 404);
    assert.equal(((await byId.json()) as { 'odata.error': { code: string } })['odata.error'].code, '-2147024894, System.IO.FileNotFoundException');
    for (const url of ['/sites/dev/_layouts/15/download.aspx?UniqueId=not-a-guid', `/sites/nope/_layouts/15/download.aspx?SourceUrl=${encodeURIComponent('/sites/nope/a.txt')}`, '/sites/nope/Shared Documents/a.txt', '/nothing-here.txt']) {
      const r = await get(url);
      assert.equal(r.status, 404, url);
      await r.arrayBuffer();
    }
    const bare = await get('/sites/dev/_layouts/15/download.aspx');
    assert.equal(bare.status, 400);
    await bare.arrayBuffer();
  });

  it('no credentials: the same 401 challenge as /_api; a user with no role on the site: 403; a visitor reads', async () => {
    const api = await get('/sites/dev/_api/web', {}, null);
    for (const url of [`${LIB}/Minutes/Q1 plan.txt`, `/sites/dev/_layouts/15/download.aspx?UniqueId=${q1.UniqueId}`, `${LIB}/Minutes/nope.txt`]) {
      const res = await get(url, {}, null);
      assert.equal(res.status, 401, url);
      assert.equal(res.headers.get('www-authenticate'), api.headers.get('www-authenticate'));
      await res.arrayBuffer();

      const stranger = await get(url, {}, await bearerFor(SECRET, ERIN));
      assert.equal(stranger.status, 403, url);
      await stranger.arrayBuffer();
    }
    await api.arrayBuffer();
    const visitor = await get(`${LIB}/Minutes/Q1 plan.txt`, {}, await bearerFor(SECRET, DAVE));
    assert.equal(visitor.status, 200);
    assert.equal(await visitor.text(), text);
  });

  it('a file of several 1 MiB chunks: ranges across chunk boundaries are the exact slices', async () => {
    const big = randomBytes(2 * MiB + 300_000);
    const file = await upload(LIB, 'big.bin', big);
    const whole = await get(file.ServerRelativeUrl);
    assert.equal(whole.headers.get('content-type'), 'application/octet-stream');
    assert.deepEqual(Buffer.from(await whole.arrayBuffer()), big);
    for (const [start, end] of [[MiB - 7, MiB + 7], [MiB + 5, 2 * MiB + 100_000], [2 * MiB, big.length - 1]] as const) {
      const res = await get(file.ServerRelativeUrl, { Range: `bytes=${start}-${end}` });
      assert.equal(res.status, 206);
      assert.equal(res.headers.get('content-range'), `bytes ${start}-${end}/${big.length}`);
      assert.deepEqual(Buffer.from(await res.arrayBuffer()), big.subarray(start, end + 1), `${start}-${end}`);
    }
    const tail = await get(`/sites/dev/_layouts/15/download.aspx?UniqueId=${file.UniqueId}`, { Range: 'bytes=-1000' });
    assert.deepEqual(Buffer.from(await tail.arrayBuffer()), big.subarray(big.length - 1000));
  });

  it('paths other fronts answer are left to them: /_api, /_layouts, /_vti_bin', async () => {
    const api = await get('/sites/dev/_api/web?$select=Title', { Accept: 'application/json;odata=nometadata' });
    assert.equal(api.status, 200);
    assert.deepEqual(await api.json(), { Title: 'Dev' });
    const photo = await get('/sites/dev/_layouts/15/userphoto.aspx?size=S&accountname=alice%40contoso.com');
    assert.equal(photo.status, 200);
    assert.match(photo.headers.get('content-type')!, /^image\//);
    await photo.arrayBuffer();
    const clientSvc = await get('/_vti_bin/client.svc', { Authorization: 'Bearer ' }, null);
    assert.equal(clientSvc.status, 401);
    await clientSvc.arrayBuffer();
  });
});
