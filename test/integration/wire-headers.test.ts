// The header block of an answer held whole (pipeline/send.ts writes it to node as one flat list):
// each header once, in SharePoint's spelling; Content-Length the body's bytes; none on a 204;
// a HEAD keeps the length of what a GET would send and sends no body. Read off the socket with
// node:http, whose rawHeaders keep names and repeats as they arrived.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { useTestServer } from '../helpers/server.ts';
import { demoBasic, demoDigest } from '../helpers/pnp.ts';

const ALICE = 'alice@contoso.onmicrosoft.com';

interface Raw { status: number; names: string[]; header: (name: string) => string[]; body: Buffer }

function raw(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const names: string[] = [];
        const values = new Map<string, string[]>();
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          names.push(res.rawHeaders[i]!);
          const key = res.rawHeaders[i]!.toLowerCase();
          values.set(key, [...(values.get(key) ?? []), res.rawHeaders[i + 1]!]);
        }
        resolve({ status: res.statusCode!, names, header: (n) => values.get(n.toLowerCase()) ?? [], body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the header block of an answer', () => {
  const spemu = useTestServer();
  let site: string;
  before(() => { site = spemu.server.site('/sites/dev'); });

  it('names each header once, as SharePoint spells them, with the body\'s length in bytes', async () => {
    const r = await raw(`${site}/_api/web/lists/getbytitle('Tasks')/items(1)?$select=Title`, 'GET', { Authorization: demoBasic(ALICE), Accept: 'application/json' });
    assert.equal(r.status, 200);
    for (const name of ['SPRequestGuid', 'request-id', 'X-SharePointHealthScore', 'MicrosoftSharePointTeamServices', 'X-Content-Type-Options', 'DATASERVICEVERSION', 'Content-Type', 'Content-Length', 'ETag']) {
      assert.equal(r.names.filter((n) => n === name).length, 1, `${name} once, spelled so: ${r.names.join(', ')}`);
    }
    assert.equal(new Set(r.names.map((n) => n.toLowerCase())).size, r.names.length, 'no header twice in any spelling');
    assert.equal(Number(r.header('content-length')[0]), r.body.length);
    assert.equal(r.header('sprequestguid')[0], r.header('request-id')[0]);
    // A non-ASCII title: the length counts bytes, not characters.
    const digest = (await demoDigest(site, ALICE))!;
    const added = await raw(`${site}/_api/web/lists/getbytitle('Tasks')/items`, 'POST', { Authorization: demoBasic(ALICE), Accept: 'application/json;odata=nometadata', 'Content-Type': 'application/json', 'X-RequestDigest': digest }, JSON.stringify({ Title: 'Größe – 東京 🙂' }));
    assert.equal(added.status, 201);
    assert.equal(Number(added.header('content-length')[0]), added.body.length);
    assert.match(added.body.toString('utf8'), /Größe – 東京 🙂/);
  });

  it('a 204 has neither Content-Length nor Content-Type; a 401 names both of its challenges', async () => {
    const digest = (await demoDigest(site, ALICE))!;
    const merged = await raw(`${site}/_api/web/lists/getbytitle('Tasks')/items(1)`, 'POST', {
      Authorization: demoBasic(ALICE), Accept: 'application/json', 'Content-Type': 'application/json', 'X-RequestDigest': digest, 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*',
    }, JSON.stringify({ Title: 'merged' }));
    assert.equal(merged.status, 204);
    assert.deepEqual([merged.header('content-length'), merged.header('content-type'), merged.body.length], [[], [], 0]);
    const refused = await raw(`${site}/_api/web`, 'GET', { Accept: 'application/json', Authorization: `Basic ${Buffer.from(`${ALICE}:wrong`).toString('base64')}` });
    assert.equal(refused.status, 401);
    assert.deepEqual(refused.header('www-authenticate').map((v) => v.split(' ')[0]), ['Bearer', 'Basic']);
  });

  it('a HEAD of a file keeps the file\'s length and sends no body', async () => {
    const digest = (await demoDigest(site, ALICE))!;
    const uploaded = await raw(`${site}/_api/web/getfolderbyserverrelativeurl('/sites/dev/Shared Documents')/files/add(url='head.txt',overwrite=true)`, 'POST',
      { Authorization: demoBasic(ALICE), Accept: 'application/json', 'X-RequestDigest': digest }, 'a file of some length: Größe');
    assert.equal(uploaded.status, 200);
    const file = `${site}/Shared Documents/head.txt`;
    const got = await raw(encodeURI(file), 'GET', { Authorization: demoBasic(ALICE) });
    assert.equal(got.status, 200);
    const head = await raw(encodeURI(file), 'HEAD', { Authorization: demoBasic(ALICE) });
    assert.equal(head.status, 200);
    assert.equal(got.body.toString('utf8'), 'a file of some length: Größe');
    assert.equal(Number(head.header('content-length')[0]), got.body.length);
    assert.equal(head.body.length, 0);
  });
});
