// What a repeat request's credentials proved is remembered (src/pipeline/proven-identities.ts,
// and the principal per site in site-principals.ts), but never past a change: the same Basic
// header of the same user answers by the user's role as it is now — refused a write as a
// visitor, allowed at once after being added to the owners' group, refused again at once after
// being taken out — and a wrong password for a remembered user is still a 401.
// Plain fetch, exact statuses.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useTestServer } from '../helpers/server.ts';
import { demoBasic, demoDigest } from '../helpers/pnp.ts';

const ALICE = 'alice@contoso.onmicrosoft.com';
const DAVE = 'dave@contoso.onmicrosoft.com';
const NOMETADATA = 'application/json;odata=nometadata';

describe('remembered credentials and principals follow every change', () => {
  const spemu = useTestServer();
  let site: string;
  before(() => { site = spemu.server.site('/sites/dev'); });

  const send = (method: string, path: string, authorization: string, body?: unknown, headers: Record<string, string> = {}) => fetch(`${site}/_api/${path}`, {
    method, headers: { Accept: NOMETADATA, 'Content-Type': 'application/json', Authorization: authorization, ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  async function asAlice(method: string, path: string, body?: unknown) {
    const r = await send(method, path, demoBasic(ALICE), body, { 'X-RequestDigest': (await demoDigest(site, ALICE))! });
    return { status: r.status, json: r.status === 204 ? undefined : await r.json() as Record<string, unknown> };
  }
  /** Dave adds an item to Tasks with the same Basic header every time. */
  async function daveAdds(title: string): Promise<number> {
    const digest = await demoDigest(site, DAVE);
    const r = await send('POST', "web/lists/getbytitle('Tasks')/items", demoBasic(DAVE), { Title: title }, digest ? { 'X-RequestDigest': digest } : {});
    await r.arrayBuffer();
    return r.status;
  }

  it('a role given or taken away applies to the very next request with the same header', async () => {
    // Read many times: the header and dave's principal are remembered.
    for (let i = 0; i < 3; i++) assert.equal((await send('GET', 'web?$select=Title', demoBasic(DAVE))).status, 200);
    assert.equal(await daveAdds('as a visitor'), 403);

    const owners = await asAlice('GET', 'web/associatedownergroup?$select=Id');
    assert.equal(owners.status, 200);
    const groupId = owners.json!.Id as number;
    const added = await asAlice('POST', `web/sitegroups(${groupId})/users`, { LoginName: `i:0#.f|membership|${DAVE}` });
    assert.equal(added.status, 201);
    assert.equal(await daveAdds('as an owner'), 201, 'the new role applies at once');

    const removed = await asAlice('POST', `web/sitegroups(${groupId})/users/removebyid(${added.json!.Id as number})`);
    assert.equal(removed.status, 200);
    assert.equal(await daveAdds('a visitor again'), 403, 'the role taken away applies at once');
  });

  it('a remembered user with a wrong password, or another origin\'s header, proves nothing', async () => {
    assert.equal((await send('GET', 'web?$select=Title', demoBasic(ALICE))).status, 200);
    const wrong = `Basic ${Buffer.from(`${ALICE}:not-her-password`).toString('base64')}`;
    assert.equal((await send('GET', 'web?$select=Title', wrong)).status, 401);
    assert.equal((await send('GET', 'web?$select=Title', demoBasic(ALICE))).status, 200);
  });
});
