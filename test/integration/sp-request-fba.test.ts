// sp-request 3 (node-sp-auth inside), unmodified, logging in to spemu with forms authentication
// (`{ username, password, fba: true }`): it posts SOAP Login to `/_vti_bin/authentication.asmx`,
// keeps the FedAuth cookie it is given and sends it on every request. Reads, writes with the
// digest from `/_api/contextinfo` (`spr.requestDigest`), updates and deletes are checked against
// a second path (plain fetch with a bearer token). A wrong password gets node-sp-auth's own
// failure; Windows credentials (NTLM, node-sp-auth's default) fail at once and say why.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { describe, it, before } from 'node:test';
import { useTestServer } from '../helpers/server.ts';
import { bearerFor } from '../helpers/bearer.ts';

const require = createRequire(import.meta.url);
const sprequest = require('sp-request') as typeof import('sp-request');

const SECRET = 'sp-request-fba-secret-0123456789-abcdefghij';
const ALICE = 'alice@contoso.onmicrosoft.com';
const BOB = 'bob@contoso.onmicrosoft.com';
const VERBOSE = 'application/json;odata=verbose';

/** Forms credentials (node-sp-auth's IOnpremiseFbaCredentials, which its IAuthOptions union leaves out). */
const fba = (username: string, password: string) => {
  const credentials = { username, password, fba: true };
  return credentials;
};

type Verbose<T> = { d: T };
type Results<T> = { d: { results: T[] } };
interface TaskItem { Id: number; Title: string; AuthorId: number; EditorId: number }

describe('sp-request with forms credentials against spemu', () => {
  const spemu = useTestServer({ anonymousUser: undefined, tokenSecret: SECRET });
  let site: string;
  let check: (path: string) => Promise<Response>;
  const items = "/_api/web/lists/getbytitle('Tasks')/items";

  before(async () => {
    site = spemu.server.site('/sites/dev');
    const bearer = await bearerFor(SECRET, ALICE);
    check = (path) => fetch(`${site}${path}`, { headers: { Authorization: bearer, Accept: 'application/json;odata=nometadata' } });
  });

  const alice = () => sprequest.create(fba(ALICE, 'alice-demo-pass'));

  it('reads the web and a list\'s items in verbose JSON, as the signed-in user', async () => {
    const spr = alice();
    const web = await spr.get(`${site}/_api/web`);
    assert.equal(web.statusCode, 200);
    const expected = (await (await check('/_api/web?$select=Title,Id')).json()) as { Title: string; Id: string };
    const body = web.body as Verbose<{ Title: string; Id: string; __metadata: { type: string } }>;
    assert.equal(body.d.__metadata.type, 'SP.Web');
    assert.equal(body.d.Title, expected.Title);
    assert.equal(body.d.Id, expected.Id);

    const listed = await spr.get(`${site}${items}?$select=Id,Title&$orderby=Id`);
    const rows = (listed.body as Results<TaskItem>).d.results;
    const again = ((await (await check(`${items}?$select=Id,Title&$orderby=Id`)).json()) as { value: TaskItem[] }).value;
    assert.ok(rows.length > 0);
    assert.deepEqual(rows.map((r) => [r.Id, r.Title]), again.map((r) => [r.Id, r.Title]));

    const me = (await spr.get(`${site}/_api/web/currentuser?$select=UserPrincipalName,Email`)).body as Verbose<{ UserPrincipalName: string }>;
    assert.equal(me.d.UserPrincipalName, ALICE);
  });

  it('writes with the request digest it gets from /_api/contextinfo: create, update, delete', async () => {
    const spr = alice();
    const digest = await spr.requestDigest(site);
    assert.match(digest, /^0x[0-9A-F]+,/);

    const created = await spr.post(`${site}${items}`, {
      headers: { 'X-RequestDigest': digest },
      body: { __metadata: { type: 'SP.Data.TasksListItem' }, Title: 'Filed through sp-request' },
    });
    assert.equal(created.statusCode, 201);
    const id = (created.body as Verbose<TaskItem>).d.Id;
    const stored = (await (await check(`${items}(${id})?$select=Title,Author/EMail&$expand=Author`)).json()) as { Title: string; Author: { EMail: string } };
    assert.equal(stored.Title, 'Filed through sp-request');
    assert.equal(stored.Author.EMail.toLowerCase(), 'alice@contoso.com', 'the item is the signed-in user\'s');

    const updated = await spr.post(`${site}${items}(${id})`, {
      headers: { 'X-RequestDigest': digest, 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*' },
      body: { __metadata: { type: 'SP.Data.TasksListItem' }, Title: 'Renamed through sp-request' },
    });
    assert.equal(updated.statusCode, 204);
    assert.equal(((await (await check(`${items}(${id})?$select=Title`)).json()) as { Title: string }).Title, 'Renamed through sp-request');

    const deleted = await spr.post(`${site}${items}(${id})`, { headers: { 'X-RequestDigest': digest, 'X-HTTP-Method': 'DELETE', 'IF-MATCH': '*' } });
    assert.equal(deleted.statusCode, 200);
    assert.equal((await check(`${items}(${id})`)).status, 404);
  });

  it('a write without the digest is refused (403), as SharePoint refuses a cookie session\'s', async () => {
    const spr = alice();
    await assert.rejects(
      spr.post(`${site}${items}`, { body: { __metadata: { type: 'SP.Data.TasksListItem' }, Title: 'no digest' } }),
      (e: { response?: { statusCode: number; body: { error: { code: string } } } }) => {
        assert.equal(e.response?.statusCode, 403);
        assert.equal(e.response?.body.error.code, '-2130575251, Microsoft.SharePoint.SPException');
        return true;
      },
    );
    const titles = ((await (await check(`${items}?$select=Title`)).json()) as { value: TaskItem[] }).value.map((r) => r.Title);
    assert.ok(!titles.includes('no digest'));
  });

  it('a member signs in as herself: her writes carry her name', async () => {
    const spr = sprequest.create(fba(BOB, 'bob-demo-pass'));
    const digest = await spr.requestDigest(site);
    const created = await spr.post(`${site}${items}`, { headers: { 'X-RequestDigest': digest }, body: { __metadata: { type: 'SP.Data.TasksListItem' }, Title: 'Bob was here' } });
    const id = (created.body as Verbose<TaskItem>).d.Id;
    const stored = (await (await check(`${items}(${id})?$select=Author/EMail&$expand=Author`)).json()) as { Author: { EMail: string } };
    assert.equal(stored.Author.EMail.toLowerCase(), 'bob@contoso.com');
  });

  it('a wrong password, or an unknown user, gets node-sp-auth\'s PasswordNotMatch failure', async () => {
    for (const [username, password] of [[ALICE, 'not-her-password'], ['nobody@contoso.onmicrosoft.com', 'alice-demo-pass']]) {
      const spr = sprequest.create(fba(username!, password!));
      await assert.rejects(spr.get(`${site}/_api/web`), (e: Error) => {
        // node-sp-auth's own text for ErrorCode PasswordNotMatch (sic).
        assert.equal(e.message, 'Password doesn\'t not match');
        return true;
      });
    }
  });

  it('Windows credentials (node-sp-auth\'s NTLM, its default for user and domain) fail at once: spemu offers no NTLM', async () => {
    const started = Date.now();
    for (const credentials of [{ username: 'alice', password: 'alice-demo-pass', domain: 'CONTOSO' }, { username: ALICE, password: 'alice-demo-pass' }]) {
      const spr = sprequest.create(credentials);
      // node-ntlm-client reads the challenge to its type 1 message, finds no NTLM offer there and throws.
      await assert.rejects(spr.get(`${site}/_api/web`), (e: Error) => {
        assert.match(e.message, /^Invalid message signature: Bearer realm="[0-9a-f-]{36}"/);
        assert.doesNotMatch(e.message, /NTLM/);
        return true;
      });
    }
    assert.ok(Date.now() - started < 10_000, 'no hang');
  });

  it('on the wire: an NTLM or Negotiate Authorization is a 401 offering only Bearer and Basic, with a message saying why', async () => {
    // The type 1 message node-ntlm-client sends first.
    const type1 = `NTLM ${Buffer.concat([Buffer.from('NTLMSSP\0', 'ascii'), Buffer.from([1, 0, 0, 0, 7, 0x82, 0x08, 0xa2]), Buffer.alloc(16)]).toString('base64')}`;
    for (const authorization of [type1, 'Negotiate YIIBhwYGKwYBBQUCoIIBezCCAXeg']) {
      const res = await fetch(`${site}/_api/web`, { headers: { Authorization: authorization, Accept: 'application/json;odata=verbose' } });
      assert.equal(res.status, 401);
      const offers = res.headers.get('www-authenticate') ?? '';
      assert.match(offers, /^Bearer realm=/);
      assert.doesNotMatch(offers, /NTLM|Negotiate/);
      const body = (await res.json()) as { error: { code: string; message: { value: string } } };
      assert.equal(body.error.code, '-2147024891, System.UnauthorizedAccessException');
      assert.match(body.error.message.value, /does not support NTLM or Negotiate .*fba: true/);
    }
    // Any other refused credential keeps SharePoint's exact text.
    const plain = await fetch(`${site}/_api/web`, { headers: { Authorization: 'Digest x', Accept: VERBOSE } });
    assert.equal(((await plain.json()) as { error: { message: { value: string } } }).error.message.value,
      'Access denied. You do not have permission to perform this action or access this resource.');
  });
});

// Why spemu does not offer NTLM (docs/compatibility.md): even where a server offers it, node-sp-auth's
// NTLM (node-ntlm-client) builds its answer from the password's MD4 hash, which Node's OpenSSL 3 does not
// provide unless started with --openssl-legacy-provider. A stand-in server offering an NTLM challenge
// (not spemu: spemu offers none) shows what the client does then, on this Node.
describe('node-sp-auth\'s NTLM on this Node, against a server that does offer NTLM', () => {
  it('needs MD4 for its Type 3 message: without it (Node 17+ by default) it fails with ERR_OSSL_EVP_UNSUPPORTED', async () => {
    const type2 = Buffer.alloc(48);
    type2.write('NTLMSSP\0', 0, 'ascii');
    type2.writeUInt32LE(2, 8); // a challenge
    type2.writeUInt32LE(48, 16); // empty target name, after the header
    type2.writeUInt32LE(0x00080201, 20); // Unicode, NTLM, NTLM2 session key
    type2.write('0123456789abcdef', 24, 'hex'); // the server's challenge
    const seen: string[] = [];
    const server = createServer((req, res) => {
      const [scheme = '', token = ''] = String(req.headers.authorization ?? '').split(' ');
      const message = Buffer.from(token, 'base64');
      seen.push(`${scheme}:${message.length >= 12 ? message.readUInt32LE(8) : '-'}`);
      res.writeHead(401, { 'WWW-Authenticate': `NTLM ${type2.toString('base64')}` }).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const site = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sites/dev`;
      const spr = sprequest.create({ username: 'alice', password: 'alice-demo-pass', domain: 'CONTOSO' });
      const md4 = (() => { try { createHash('md4'); return true; } catch { return false; } })();
      if (!md4) {
        await assert.rejects(spr.get(`${site}/_api/web`), (e: Error & { code?: string }) => {
          assert.equal(e.code, 'ERR_OSSL_EVP_UNSUPPORTED');
          return true;
        });
        assert.deepEqual(seen, ['NTLM:1'], 'only the Type 1 message was sent');
      } else {
        // With the legacy provider it gets as far as its Type 3 message (the stand-in refuses it).
        await assert.rejects(spr.get(`${site}/_api/web`));
        assert.deepEqual(seen, ['NTLM:1', 'NTLM:3']);
      }
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
