// Authentication, permissions, request digests and contextinfo against a real spemu (demo
// tenant, :memory:, no anonymous user): Basic, Bearer (strict and loose), cookie sessions,
// the 401 challenge, site roles (direct, through a group, none), digest validation with an
// injected clock, contextinfo in every dialect, PnPjs 4 unmodified, and `spemu token`.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { SignJWT } from 'jose';
import { spfi, DefaultHeaders, DefaultInit, RequestDigest } from '@pnp/sp';
import { BearerToken, BrowserFetch, DefaultParse, InjectHeaders } from '@pnp/queryable';
import '@pnp/sp/webs/index.js';
import '@pnp/sp/lists/index.js';
import '@pnp/sp/items/index.js';
import '@pnp/sp/sites/index.js';
import '@pnp/sp/context-info/index.js';
import { startTestServer, useTestServer } from '../helpers/server.ts';
import '../helpers/pnp-types.ts';
import type { ISite } from '@pnp/sp/sites/types.js';
import type { IContextInfo } from '@pnp/sp/context-info/index.js';
import { ACCEPT } from '../helpers/wire.ts';

// @pnp/sp's own augmentations use extensionless paths nodenext cannot resolve (see pnp-types.ts).
declare module '@pnp/sp/fi.js' {
  interface SPFI {
    readonly site: ISite;
  }
}
declare module '@pnp/sp/spqueryable.js' {
  interface _SPQueryable {
    getContextInfo(path?: string): Promise<IContextInfo>;
  }
}

const ALICE = 'alice@contoso.onmicrosoft.com'; // owner of /sites/dev and /sites/pwa
const BOB = 'bob@contoso.onmicrosoft.com'; // member of /sites/dev
const CAROL = 'carol@contoso.onmicrosoft.com'; // member of /sites/dev through the Engineering group
const DAVE = 'dave@contoso.onmicrosoft.com'; // visitor of /sites/dev
const ERIN = 'erin@contoso.onmicrosoft.com'; // in the directory, no role on /sites/dev
const PASSWORDS: Record<string, string> = {
  [ALICE]: 'alice-demo-pass', [BOB]: 'bob-demo-pass', [CAROL]: 'carol-demo-pass', [DAVE]: 'dave-demo-pass', [ERIN]: 'erin-demo-pass',
};
const SECRET = 'test-secret-test-secret-test-secret-0123456789';
const OTHER_SECRET = 'another-tenants-secret-another-tenants-secret';

/** SharePoint Online's challenge, naming spemu's own authority (the origin the request came in on and the realm) as its issuer and authorization_uri. */
const BEARER_CHALLENGE = /^Bearer realm="([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})",client_id="00000003-0000-0ff1-ce00-000000000000",trusted_issuers="00000001-0000-0000-c000-000000000000@\*,D3776938-3DBA-481F-A652-4BEDFCAB7CD8@\*,http:\/\/127\.0\.0\.1:\d+\/\*\/,00000003-0000-0ff1-ce00-000000000000@90140122-8516-11e1-8eff-49304924019b",authorization_uri="http:\/\/127\.0\.0\.1:\d+\/\1\/oauth2\/authorize"$/;
const DIGEST = /^0x[0-9A-F]{128},\d{2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4} \d{2}:\d{2}:\d{2} -0000$/;
const ACCESS_DENIED = '-2147024891, System.UnauthorizedAccessException';
const DIGEST_INVALID = '-2130575251, Microsoft.SharePoint.SPException';
const DIGEST_EXPIRED = '-2130575252, Microsoft.SharePoint.SPException';

const basic = (upn: string, password = PASSWORDS[upn]!) => `Basic ${Buffer.from(`${upn}:${password}`).toString('base64')}`;

async function token(upn: string, options: { secret?: string; exp?: number; nbf?: number; claim?: string; alg?: string } = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ [options.claim ?? 'upn']: upn })
    .setProtectedHeader({ alg: options.alg ?? 'HS256' })
    .setIssuedAt(now).setNotBefore(options.nbf ?? now).setExpirationTime(options.exp ?? now + 3600)
    .sign(new TextEncoder().encode(options.secret ?? SECRET));
}
const bearer = async (upn: string, options?: Parameters<typeof token>[1]) => `Bearer ${await token(upn, options)}`;

interface Call { method?: string; auth?: string; cookie?: string; digest?: string; accept?: string; body?: unknown }

function call(url: string, c: Call = {}): Promise<Response> {
  const headers: Record<string, string> = { Accept: c.accept ?? ACCEPT.minimal };
  if (c.auth) headers.Authorization = c.auth;
  if (c.cookie) headers.Cookie = c.cookie;
  if (c.digest) headers['X-RequestDigest'] = c.digest;
  if (c.body !== undefined) headers['Content-Type'] = 'application/json';
  return fetch(url, { method: c.method ?? 'GET', headers, body: c.body === undefined ? undefined : JSON.stringify(c.body) });
}

async function errorCode(r: Response): Promise<string> {
  const body = await r.json() as { 'odata.error'?: { code: string }; error?: { code: string } };
  return (body['odata.error'] ?? body.error)!.code;
}

async function digestOf(siteUrl: string, c: Call): Promise<string> {
  const r = await call(`${siteUrl}/_api/contextinfo`, { ...c, method: 'POST' });
  assert.equal(r.status, 200, await r.clone().text());
  return (await r.json() as { FormDigestValue: string }).FormDigestValue;
}

/** The headers that identify a response, without the per-request ids and the date. */
function stableHeaders(r: Response): string {
  return [...r.headers].filter(([k]) => !['date', 'sprequestguid', 'request-id'].includes(k)).map(([k, v]) => `${k}: ${v}`).join('\n');
}

describe('authentication and permissions (demo tenant, no anonymous user)', () => {
  const spemu = useTestServer({ anonymousUser: undefined, tokenSecret: SECRET, clock: () => new Date(Date.now() + offsetMs) });
  let dev: string;
  let pwa: string;
  /** The server's clock runs with the real one, shifted by this much (to age digests). */
  let offsetMs = 0;
  /** Runs `request` with the server's clock `seconds` ahead, then puts it back. */
  async function later<T>(seconds: number, request: () => Promise<T>): Promise<T> {
    offsetMs = seconds * 1000;
    try {
      return await request();
    } finally {
      offsetMs = 0;
    }
  }
  const tasks = () => `${dev}/_api/web/lists/getbytitle('Tasks')/items`;

  before(async () => {
    dev = spemu.server.site('/sites/dev');
    pwa = spemu.server.site('/sites/pwa');
  });

  /** A write of a new Tasks item. */
  const addTask = (c: Call, title = 'auth test') => call(tasks(), { ...c, method: 'POST', body: { Title: title } });

  interface Case { name: string; run: () => Promise<Response>; status: number; code?: string; check?: (r: Response) => void | Promise<void> }
  const cases: Case[] = [
    {
      name: 'no credentials → 401, the Bearer and Basic challenges, a SharePoint body',
      run: () => call(`${dev}/_api/web`), status: 401, code: ACCESS_DENIED,
      check: (r) => {
        const challenge = r.headers.get('www-authenticate')!;
        assert.ok(challenge.endsWith(', Basic realm="spemu"'), challenge);
        assert.match(challenge.slice(0, -', Basic realm="spemu"'.length), BEARER_CHALLENGE);
        assert.equal(r.headers.get('x-ms-diagnostics'), null);
      },
    },
    {
      name: 'no credentials, verbose → the verbose error envelope',
      run: () => call(`${dev}/_api/web`, { accept: ACCEPT.verbose }), status: 401,
      check: async (r) => {
        const body = await r.clone().json() as { error: { code: string; message: { value: string } } };
        assert.equal(body.error.code, ACCESS_DENIED);
        assert.equal(body.error.message.value, 'Access denied. You do not have permission to perform this action or access this resource.');
      },
    },
    { name: 'no credentials on a site that does not exist → 401, not 404', run: () => call(`${spemu.server.url}/sites/nope/_api/web`), status: 401, code: ACCESS_DENIED },
    { name: 'an empty Bearer (realm discovery) → 401', run: () => call(`${dev}/_api/web`, { auth: 'Bearer' }), status: 401 },
    { name: 'an unsupported scheme → 401', run: () => call(`${dev}/_api/web`, { auth: 'NTLM TlRMTVNTUAABAAAA' }), status: 401 },
    { name: 'Basic, right password → 200', run: () => call(`${dev}/_api/web`, { auth: basic(ALICE) }), status: 200 },
    { name: 'Basic by email instead of UPN → 200', run: () => call(`${dev}/_api/web`, { auth: basic('alice@contoso.com', PASSWORDS[ALICE]) }), status: 200 },
    { name: 'Bearer, valid → 200', run: async () => call(`${dev}/_api/web`, { auth: await bearer(BOB) }), status: 200 },
    ...['unique_name', 'preferred_username', 'email'].map((claim): Case => ({
      name: `Bearer naming the user in ${claim} → 200`, run: async () => call(`${dev}/_api/web`, { auth: await bearer(claim === 'email' ? 'bob@contoso.com' : BOB, { claim }) }), status: 200,
    })),
    {
      name: 'Bearer, expired → 401 with x-ms-diagnostics',
      run: async () => call(`${dev}/_api/web`, { auth: await bearer(BOB, { exp: Math.floor(Date.now() / 1000) - 60, nbf: Math.floor(Date.now() / 1000) - 3600 }) }),
      status: 401, code: ACCESS_DENIED,
      check: (r) => assert.equal(r.headers.get('x-ms-diagnostics'), '3000007;reason="Token is expired.";category="invalid_client"'),
    },
    {
      name: 'Bearer, not yet valid → 401',
      run: async () => call(`${dev}/_api/web`, { auth: await bearer(BOB, { nbf: Math.floor(Date.now() / 1000) + 600 }) }), status: 401,
      check: (r) => assert.equal(r.headers.get('x-ms-diagnostics'), '3000008;reason="Token is not yet valid.";category="invalid_client"'),
    },
    {
      name: 'Bearer, forged signature → 401, SharePoint Online\'s diagnostics',
      run: async () => call(`${dev}/_api/web`, { auth: await bearer(ALICE, { secret: OTHER_SECRET }) }), status: 401, code: ACCESS_DENIED,
      check: (r) => {
        assert.equal(r.headers.get('x-ms-diagnostics'), '3000006;reason="Token contains invalid signature.";category="invalid_client"');
        assert.match(r.headers.get('www-authenticate')!, /^Bearer realm=/);
      },
    },
    {
      name: 'Bearer, another algorithm → 401 "does not contain valid algorithm"',
      run: async () => call(`${dev}/_api/web`, { auth: await bearer(ALICE, { alg: 'HS512' }) }), status: 401,
      check: (r) => assert.equal(r.headers.get('x-ms-diagnostics'), '3005004;reason="The token does not contain valid algorithm in header.";category="invalid_client"'),
    },
    { name: 'Bearer, not a JWT → 401', run: () => call(`${dev}/_api/web`, { auth: 'Bearer not-a-token' }), status: 401 },
    { name: 'Bearer for a user not in the directory → 401', run: async () => call(`${dev}/_api/web`, { auth: await bearer('mallory@contoso.onmicrosoft.com') }), status: 401 },
    // Permissions.
    { name: 'outsider (a directory user without a role) reads → 403', run: () => call(`${dev}/_api/web`, { auth: basic(ERIN) }), status: 403, code: ACCESS_DENIED },
    { name: 'outsider asks for a digest → 403', run: () => call(`${dev}/_api/contextinfo`, { method: 'POST', auth: basic(ERIN) }), status: 403, code: ACCESS_DENIED },
    { name: 'outsider writes with a bearer token → 403', run: async () => addTask({ auth: await bearer(ERIN) }), status: 403, code: ACCESS_DENIED },
    { name: 'visitor reads → 200', run: () => call(tasks(), { auth: basic(DAVE) }), status: 200 },
    { name: 'visitor asks for a digest → 200', run: () => call(`${dev}/_api/contextinfo`, { method: 'POST', auth: basic(DAVE) }), status: 200 },
    { name: 'visitor writes with a valid digest → 403', run: async () => addTask({ auth: basic(DAVE), digest: await digestOf(dev, { auth: basic(DAVE) }) }), status: 403, code: ACCESS_DENIED },
    { name: 'visitor writes with a bearer token → 403', run: async () => addTask({ auth: await bearer(DAVE) }), status: 403, code: ACCESS_DENIED },
    {
      name: 'visitor deletes an item → 403',
      run: async () => call(`${tasks()}(1)`, { method: 'DELETE', auth: await bearer(DAVE) }), status: 403, code: ACCESS_DENIED,
    },
    {
      name: 'owner writes (Basic + digest) → 201, and is the Author',
      run: async () => addTask({ auth: basic(ALICE), digest: await digestOf(dev, { auth: basic(ALICE) }) }, 'by alice'), status: 201,
      check: async (r) => assert.equal(await authorTitle(r), 'Alice Adams'),
    },
    {
      name: 'member writes an item (Basic + digest) → 201',
      run: async () => addTask({ auth: basic(BOB), digest: await digestOf(dev, { auth: basic(BOB) }) }, 'by bob'), status: 201,
      check: async (r) => assert.equal(await authorTitle(r), 'Bob Baker'),
    },
    {
      name: 'member through the Engineering group writes (Bearer) → 201, as a member',
      run: async () => addTask({ auth: await bearer(CAROL) }, 'by carol'), status: 201,
      check: async (r) => assert.equal(await authorTitle(r), 'Carol Chen'),
    },
    { name: 'member through the Engineering group reads → 200', run: () => call(tasks(), { auth: basic(CAROL) }), status: 200 },
    {
      name: 'member creates a list (SharePoint\'s Edit level manages lists) → 201',
      run: async () => call(`${dev}/_api/web/lists`, { method: 'POST', auth: await bearer(BOB), body: { Title: 'Bob list', BaseTemplate: 100 } }), status: 201,
    },
    // Digests.
    { name: 'Basic write without a digest → 403 -2130575251', run: () => addTask({ auth: basic(ALICE) }), status: 403, code: DIGEST_INVALID },
    { name: 'Basic write with a made-up digest → 403 -2130575251', run: () => addTask({ auth: basic(ALICE), digest: `0x${'AB'.repeat(64)},01 Jan 2026 00:00:00 -0000` }), status: 403, code: DIGEST_INVALID },
    { name: 'Basic write with garbage for a digest → 403 -2130575251', run: () => addTask({ auth: basic(ALICE), digest: 'hello' }), status: 403, code: DIGEST_INVALID },
    { name: 'Bearer write without a digest → 201', run: async () => addTask({ auth: await bearer(ALICE) }), status: 201 },
    { name: 'Bearer write with a bad digest (a sent digest is always checked) → 403', run: async () => addTask({ auth: await bearer(ALICE), digest: 'hello' }), status: 403, code: DIGEST_INVALID },
    { name: 'Bearer write with its own digest → 201', run: async () => addTask({ auth: await bearer(ALICE), digest: await digestOf(dev, { auth: await bearer(ALICE) }) }), status: 201 },
    {
      name: 'another site\'s digest → 403 -2130575251',
      run: async () => addTask({ auth: basic(ALICE), digest: await digestOf(pwa, { auth: basic(ALICE) }) }), status: 403, code: DIGEST_INVALID,
    },
    {
      name: 'another user\'s digest → 403 -2130575251',
      run: async () => addTask({ auth: basic(ALICE), digest: await digestOf(dev, { auth: basic(BOB) }) }), status: 403, code: DIGEST_INVALID,
    },
    {
      name: 'a digest with its time changed → 403 -2130575251',
      run: async () => {
        const digest = await digestOf(dev, { auth: basic(ALICE) });
        const year = Number(/ (\d{4}) /.exec(digest)![1]);
        return addTask({ auth: basic(ALICE), digest: digest.replace(` ${year} `, ` ${year + 1} `) });
      },
      status: 403, code: DIGEST_INVALID,
    },
    {
      name: 'an expired digest → 403 -2130575252',
      run: async () => {
        const digest = await digestOf(dev, { auth: basic(ALICE) });
        return later(1801, () => addTask({ auth: basic(ALICE), digest }));
      },
      status: 403, code: DIGEST_EXPIRED,
    },
    {
      name: 'a digest still within its 1800 seconds → 201',
      run: async () => {
        const digest = await digestOf(dev, { auth: basic(ALICE) });
        return later(1790, () => addTask({ auth: basic(ALICE), digest }));
      },
      status: 201,
    },
    {
      name: 'MERGE through X-HTTP-Method needs a digest too',
      run: () => fetch(`${tasks()}(1)`, { method: 'POST', headers: { Authorization: basic(ALICE), 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*', 'Content-Type': 'application/json', Accept: ACCEPT.minimal }, body: '{"Title":"x"}' }),
      status: 403, code: DIGEST_INVALID,
    },
    { name: 'DELETE with Basic needs a digest', run: () => call(`${tasks()}(1)`, { method: 'DELETE', auth: basic(ALICE) }), status: 403, code: DIGEST_INVALID },
    { name: 'authenticated, a site that does not exist → 404', run: () => call(`${spemu.server.url}/sites/nope/_api/web`, { auth: basic(ALICE) }), status: 404 },
    { name: 'contextinfo needs no digest', run: () => call(`${dev}/_api/contextinfo`, { method: 'POST', auth: basic(BOB) }), status: 200 },
    { name: 'GET contextinfo → 405', run: () => call(`${dev}/_api/contextinfo`, { auth: basic(BOB) }), status: 405 },
  ];

  async function authorTitle(created: Response): Promise<string> {
    const id = (await created.clone().json() as { Id: number }).Id;
    const r = await call(`${tasks()}(${id})?$select=Author/Title&$expand=Author`, { auth: await bearer(ALICE) });
    return (await r.json() as { Author: { Title: string } }).Author.Title;
  }

  for (const c of cases) {
    it(c.name, async () => {
      const r = await c.run();
      assert.equal(r.status, c.status, await r.clone().text());
      if (c.code) assert.equal(await errorCode(r.clone()), c.code);
      await c.check?.(r);
    });
  }

  it('a bearer token verified once is remembered only until its exp: then it is refused as expired', async () => {
    const exp = Math.floor(Date.now() / 1000) + 120;
    const auth = await bearer(BOB, { exp });
    // Twice: the second is answered from the verified-token cache.
    for (let i = 0; i < 2; i++) assert.equal((await call(`${dev}/_api/web`, { auth })).status, 200);
    const r = await later(180, () => call(`${dev}/_api/web`, { auth }));
    assert.equal(r.status, 401);
    assert.equal(r.headers.get('x-ms-diagnostics'), '3000007;reason="Token is expired.";category="invalid_client"');
    // A token with a bad signature is never remembered, however often it is sent.
    const forged = `${auth.slice(0, -4)}AAAA`;
    for (let i = 0; i < 2; i++) assert.equal((await call(`${dev}/_api/web`, { auth: forged })).status, 401);
  });

  it('a wrong password and an unknown user get byte-identical answers', async () => {
    const wrong = await call(`${dev}/_api/web`, { auth: basic(ALICE, 'not-the-password') });
    const unknown = await call(`${dev}/_api/web`, { auth: basic('nobody@contoso.onmicrosoft.com', 'not-the-password') });
    const noPassword = await call(`${dev}/_api/web`, { auth: basic(ALICE, '') });
    assert.equal(wrong.status, 401);
    const body = await wrong.text();
    for (const other of [unknown, noPassword]) {
      assert.equal(other.status, wrong.status);
      assert.equal(stableHeaders(other), stableHeaders(wrong));
      assert.equal(await other.text(), body);
    }
  });

  it('the X-HTTP-Method MERGE with a digest succeeds for a member', async () => {
    const r = await fetch(`${tasks()}(1)`, {
      method: 'POST',
      headers: { Authorization: basic(BOB), 'X-RequestDigest': await digestOf(dev, { auth: basic(BOB) }), 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*', 'Content-Type': 'application/json', Accept: ACCEPT.minimal },
      body: JSON.stringify({ Title: 'merged by bob' }),
    });
    assert.equal(r.status, 204, await r.text());
  });

  describe('contextinfo (reference §6)', () => {
    const post = (accept: string) => call(`${dev}/_api/contextinfo`, { method: 'POST', auth: basic(BOB), accept });

    it('minimal: odata.metadata, then the properties at the top level', async () => {
      const r = await post(ACCEPT.minimal);
      assert.equal(r.status, 200);
      const body = await r.json() as Record<string, unknown>;
      assert.deepEqual(Object.keys(body), ['odata.metadata', 'FormDigestTimeoutSeconds', 'FormDigestValue', 'LibraryVersion', 'SiteFullUrl', 'SupportedSchemaVersions', 'WebFullUrl']);
      assert.equal(body['odata.metadata'], `${dev}/_api/$metadata#SP.ContextWebInformation`);
      assert.equal(body.FormDigestTimeoutSeconds, 1800);
      assert.match(body.FormDigestValue as string, DIGEST);
      assert.match(body.LibraryVersion as string, /^16\.0\.\d+\.\d+$/);
      assert.equal(body.SiteFullUrl, dev);
      assert.equal(body.WebFullUrl, dev);
      assert.deepEqual(body.SupportedSchemaVersions, ['14.0.0.0', '15.0.0.0']);
    });

    it('plain application/json is minimal', async () => {
      const body = await (await post('application/json')).json() as Record<string, unknown>;
      assert.equal(body['odata.metadata'], `${dev}/_api/$metadata#SP.ContextWebInformation`);
    });

    it('nometadata: the same without odata.metadata', async () => {
      const body = await (await post(ACCEPT.nometadata)).json() as Record<string, unknown>;
      assert.deepEqual(Object.keys(body), ['FormDigestTimeoutSeconds', 'FormDigestValue', 'LibraryVersion', 'SiteFullUrl', 'SupportedSchemaVersions', 'WebFullUrl']);
      assert.match(body.FormDigestValue as string, DIGEST);
    });

    it('verbose: d.GetContextWebInformation with SP.ContextWebInformation and Collection(Edm.String)', async () => {
      const r = await post(ACCEPT.verbose);
      assert.equal(r.headers.get('content-type'), 'application/json;odata=verbose;charset=utf-8');
      const body = await r.json() as { d: { GetContextWebInformation: Record<string, unknown> } };
      assert.deepEqual(Object.keys(body), ['d']);
      assert.deepEqual(Object.keys(body.d), ['GetContextWebInformation']);
      const info = body.d.GetContextWebInformation;
      assert.deepEqual(Object.keys(info), ['__metadata', 'FormDigestTimeoutSeconds', 'FormDigestValue', 'LibraryVersion', 'SiteFullUrl', 'SupportedSchemaVersions', 'WebFullUrl']);
      assert.deepEqual(info.__metadata, { type: 'SP.ContextWebInformation' });
      assert.deepEqual(info.SupportedSchemaVersions, { __metadata: { type: 'Collection(Edm.String)' }, results: ['14.0.0.0', '15.0.0.0'] });
      assert.match(info.FormDigestValue as string, DIGEST);
      assert.equal(info.FormDigestTimeoutSeconds, 1800);
    });

    it('the digest carries the issue time (UTC) after the comma', async () => {
      const body = await (await post(ACCEPT.nometadata)).json() as { FormDigestValue: string };
      const when = new Date(body.FormDigestValue.split(',')[1]!.replace(' -0000', ' UTC'));
      assert.ok(Math.abs(when.getTime() - Date.now()) < 3000, body.FormDigestValue);
    });

    it('each site issues its own digest, with its own URLs', async () => {
      const body = await (await call(`${pwa}/_api/contextinfo`, { method: 'POST', auth: basic(ALICE), accept: ACCEPT.nometadata })).json() as Record<string, unknown>;
      assert.equal(body.SiteFullUrl, pwa);
      assert.equal(body.WebFullUrl, pwa);
    });
  });
});

describe('cookie sessions (/_spemu/login)', () => {
  const spemu = useTestServer({ anonymousUser: undefined, tokenSecret: SECRET });
  let dev: string;
  before(async () => {
    dev = spemu.server.site('/sites/dev');
  });

  const login = (body: string, contentType: string, accept = '*/*') =>
    fetch(`${spemu.server.url}/_spemu/login`, { method: 'POST', headers: { 'Content-Type': contentType, Accept: accept }, body, redirect: 'manual' });
  const cookieOf = (r: Response) => r.headers.get('set-cookie')!.split(';')[0]!;

  it('GET serves a self-contained HTML sign-in page', async () => {
    const r = await fetch(`${spemu.server.url}/_spemu/login`);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type')!, /^text\/html/);
    assert.match(r.headers.get('content-security-policy')!, /default-src 'none'/);
    const html = await r.text();
    assert.match(html, /<form method="post" action="\/_spemu\/login">/);
    assert.match(html, /name="upn"/);
    assert.match(html, /name="password" type="password"/);
    assert.doesNotMatch(html, /(src|href)="(https?:)?\/\//);
  });

  it('a form login sets an HttpOnly, SameSite=Lax, expiring cookie that authenticates reads', async () => {
    const r = await login(new URLSearchParams({ upn: BOB, password: PASSWORDS[BOB]! }).toString(), 'application/x-www-form-urlencoded');
    assert.equal(r.status, 200);
    const setCookie = r.headers.get('set-cookie')!;
    assert.match(setCookie, /^FedAuth=[^;]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    assert.doesNotMatch(setCookie, new RegExp(PASSWORDS[BOB]!));
    assert.match(await r.text(), /Signed in as <strong>bob@contoso\.onmicrosoft\.com<\/strong>/);
    const read = await call(`${dev}/_api/web`, { cookie: cookieOf(r) });
    assert.equal(read.status, 200);
  });

  it('a form login with a returnUrl redirects there, only to a local path', async () => {
    const ok = await login(new URLSearchParams({ upn: BOB, password: PASSWORDS[BOB]!, returnUrl: '/sites/dev/_api/web' }).toString(), 'application/x-www-form-urlencoded');
    assert.equal(ok.status, 303);
    assert.equal(ok.headers.get('location'), '/sites/dev/_api/web');
    const evil = await login(new URLSearchParams({ upn: BOB, password: PASSWORDS[BOB]!, returnUrl: '//evil.example/' }).toString(), 'application/x-www-form-urlencoded');
    assert.equal(evil.status, 200);
    assert.equal(evil.headers.get('location'), null);
  });

  it('a JSON login answers JSON; wrong password and unknown user are the same 401', async () => {
    const ok = await login(JSON.stringify({ upn: ALICE, password: PASSWORDS[ALICE] }), 'application/json');
    assert.equal(ok.status, 200);
    const body = await ok.json() as { upn: string; expires: string };
    assert.equal(body.upn, ALICE);
    assert.ok(Date.parse(body.expires) > Date.now());
    const wrong = await login(JSON.stringify({ upn: ALICE, password: 'nope' }), 'application/json');
    const unknown = await login(JSON.stringify({ upn: 'ghost@contoso.onmicrosoft.com', password: 'nope' }), 'application/json');
    assert.equal(wrong.status, 401);
    assert.equal(unknown.status, 401);
    assert.equal(wrong.headers.get('set-cookie'), null);
    assert.equal(await wrong.text(), await unknown.text());
    const wrongForm = await login(new URLSearchParams({ upn: ALICE, password: 'nope' }).toString(), 'application/x-www-form-urlencoded');
    const unknownForm = await login(new URLSearchParams({ upn: 'ghost@contoso.onmicrosoft.com', password: 'nope' }).toString(), 'application/x-www-form-urlencoded');
    assert.equal(wrongForm.status, 401);
    const [a, b] = [await wrongForm.text(), await unknownForm.text()];
    assert.equal(a.replace(ALICE, '@'), b.replace('ghost@contoso.onmicrosoft.com', '@'));
  });

  it('cookie writes need the digest; with it they succeed', async () => {
    const cookie = cookieOf(await login(JSON.stringify({ upn: BOB, password: PASSWORDS[BOB] }), 'application/json'));
    const url = `${dev}/_api/web/lists/getbytitle('Tasks')/items`;
    const without = await call(url, { method: 'POST', cookie, body: { Title: 'cookie, no digest' } });
    assert.equal(without.status, 403);
    assert.equal(await errorCode(without), DIGEST_INVALID);
    const digest = await digestOf(dev, { cookie });
    const withDigest = await call(url, { method: 'POST', cookie, digest, body: { Title: 'cookie + digest' } });
    assert.equal(withDigest.status, 201, await withDigest.clone().text());
  });

  it('a tampered or foreign cookie → 401', async () => {
    const cookie = cookieOf(await login(JSON.stringify({ upn: DAVE, password: PASSWORDS[DAVE] }), 'application/json'));
    const [name, value] = cookie.split('=') as [string, string];
    const [payload, mac] = value.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { upn: string; exp: number };
    const forged = Buffer.from(JSON.stringify({ ...claims, upn: ALICE })).toString('base64url');
    assert.equal((await call(`${dev}/_api/web`, { cookie: `${name}=${forged}.${mac}` })).status, 401);
    assert.equal((await call(`${dev}/_api/web`, { cookie: 'FedAuth=77u/PD94bWwgdmVyc2lvbj0iMS4wIj8+' })).status, 401);
  });

  it('logout clears the cookie', async () => {
    const r = await fetch(`${spemu.server.url}/_spemu/logout`, { method: 'POST', redirect: 'manual' });
    assert.equal(r.status, 303);
    assert.match(r.headers.get('set-cookie')!, /^FedAuth=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax$/);
  });

  it('PnPjs 4 unmodified: cookie auth, RequestDigest() fetches contextinfo and sends X-RequestDigest', async () => {
    const cookie = cookieOf(await login(JSON.stringify({ upn: CAROL, password: PASSWORDS[CAROL] }), 'application/json'));
    const sp = spfi(dev).using(DefaultHeaders(), DefaultInit(), BrowserFetch(), DefaultParse(), InjectHeaders({ Cookie: cookie }), RequestDigest());
    const added = await sp.web.lists.getByTitle('Tasks').items.add({ Title: 'pnp cookie' }) as { Id: number };
    const item = await sp.web.lists.getByTitle('Tasks').items.getById(added.Id).select('Title', 'Author/Title').expand('Author')() as { Title: string; Author: { Title: string } };
    assert.equal(item.Title, 'pnp cookie');
    assert.equal(item.Author.Title, 'Carol Chen');
    await sp.web.lists.getByTitle('Tasks').items.getById(added.Id).update({ Title: 'pnp cookie, updated' });
    await sp.web.lists.getByTitle('Tasks').items.getById(added.Id).delete();
    // Without the behaviour, the same write is refused: the digest is what made it work.
    const bare = spfi(dev).using(DefaultHeaders(), DefaultInit(), BrowserFetch(), DefaultParse(), InjectHeaders({ Cookie: cookie }));
    await assert.rejects(bare.web.lists.getByTitle('Tasks').items.add({ Title: 'no digest' }), /\[403\].*-2130575251/);
  });
});

describe('PnPjs 4 with bearer tokens', () => {
  const spemu = useTestServer({ anonymousUser: undefined, tokenSecret: SECRET });
  let dev: string;
  before(async () => {
    dev = spemu.server.site('/sites/dev');
  });

  it('BearerToken(): writes without a digest (PnPjs skips it when Authorization is set)', async () => {
    const sp = spfi(dev).using(DefaultHeaders(), DefaultInit(), BrowserFetch(), DefaultParse(), BearerToken(await token(BOB)), RequestDigest());
    const added = await sp.web.lists.getByTitle('Tasks').items.add({ Title: 'pnp bearer' }) as { Id: number };
    const item = await sp.web.lists.getByTitle('Tasks').items.getById(added.Id).select('Author/Title').expand('Author')() as { Author: { Title: string } };
    assert.equal(item.Author.Title, 'Bob Baker');
  });

  it('InjectHeaders({ Authorization: "Bearer …" }): writes, and visitors are refused', async () => {
    const sp = spfi(dev).using(DefaultHeaders(), DefaultInit(), BrowserFetch(), DefaultParse(), InjectHeaders({ Authorization: `Bearer ${await token(ALICE)}` }));
    const list = await sp.web.lists.add('Bearer list', '', 100) as { Id: string };
    assert.match(list.Id, /^[0-9a-f-]{36}$/);
    const visitor = spfi(dev).using(DefaultHeaders(), DefaultInit(), BrowserFetch(), DefaultParse(), InjectHeaders({ Authorization: `Bearer ${await token(DAVE)}` }));
    assert.equal((await visitor.web.lists.getByTitle('Tasks').items.top(1)()).length, 1);
    await assert.rejects(visitor.web.lists.getByTitle('Tasks').items.add({ Title: 'x' }), /\[403\].*-2147024891/);
  });

  it('site.getContextInfo() and web.getContextInfo()', async () => {
    const sp = spfi(dev).using(DefaultHeaders(), DefaultInit(), BrowserFetch(), DefaultParse(), BearerToken(await token(BOB)));
    for (const info of [await sp.site.getContextInfo(), await sp.web.getContextInfo()]) {
      assert.match(String(info.FormDigestValue), DIGEST);
      assert.equal(info.FormDigestTimeoutSeconds, 1800);
      assert.equal(info.WebFullUrl, dev);
      assert.equal(info.SiteFullUrl, dev);
      assert.deepEqual(info.SupportedSchemaVersions, ['14.0.0.0', '15.0.0.0']);
    }
  });
});

describe('server options: --auth loose, --anonymous-user, --require-digest, --no-basic-auth, --digest-timeout', () => {
  it('--auth loose accepts a foreign-signed token and still maps its upn; unknown users and expired tokens are still refused', async () => {
    const server = await startTestServer({ anonymousUser: undefined, tokenSecret: SECRET, auth: 'loose' });
    try {
      const dev = server.site('/sites/dev');
      const foreign = await token(DAVE, { secret: OTHER_SECRET, claim: 'unique_name' });
      const r = await call(`${dev}/_api/web`, { auth: `Bearer ${foreign}` });
      assert.equal(r.status, 200);
      // Mapped to Dave, a visitor: the write is refused as his.
      const w = await call(`${dev}/_api/web/lists/getbytitle('Tasks')/items`, { method: 'POST', auth: `Bearer ${foreign}`, body: { Title: 'x' } });
      assert.equal(w.status, 403);
      assert.equal(await errorCode(w), ACCESS_DENIED);
      assert.equal((await call(`${dev}/_api/web`, { auth: `Bearer ${await token('ghost@contoso.onmicrosoft.com', { secret: OTHER_SECRET })}` })).status, 401);
      const expired = await token(DAVE, { secret: OTHER_SECRET, exp: Math.floor(Date.now() / 1000) - 10, nbf: Math.floor(Date.now() / 1000) - 100 });
      assert.equal((await call(`${dev}/_api/web`, { auth: `Bearer ${expired}` })).status, 401);
    } finally {
      await server.close();
    }
  });

  it('strict mode (the default) refuses the same foreign token', async () => {
    const server = await startTestServer({ anonymousUser: undefined, tokenSecret: SECRET });
    try {
      const r = await call(`${server.site('/sites/dev')}/_api/web`, { auth: `Bearer ${await token(DAVE, { secret: OTHER_SECRET })}` });
      assert.equal(r.status, 401);
    } finally {
      await server.close();
    }
  });

  it('--anonymous-user: requests without credentials act as that user (no digest needed); bad credentials are still 401', async () => {
    const server = await startTestServer({ anonymousUser: BOB, tokenSecret: SECRET });
    try {
      const dev = server.site('/sites/dev');
      const created = await call(`${dev}/_api/web/lists/getbytitle('Tasks')/items?$select=Author/Title&$expand=Author`, { method: 'POST', body: { Title: 'anonymous' } });
      assert.equal(created.status, 201, await created.clone().text());
      const item = await call(`${dev}/_api/web/lists/getbytitle('Tasks')/items(${(await created.json() as { Id: number }).Id})?$select=Author/Title&$expand=Author`);
      assert.equal((await item.json() as { Author: { Title: string } }).Author.Title, 'Bob Baker');
      // A sent digest is checked even then.
      assert.equal((await call(`${dev}/_api/web/lists/getbytitle('Tasks')/items`, { method: 'POST', digest: 'junk', body: { Title: 'x' } })).status, 403);
      assert.equal((await call(`${dev}/_api/web`, { auth: basic(BOB, 'wrong') })).status, 401);
    } finally {
      await server.close();
    }
  });

  it('--anonymous-user naming nobody in the directory is refused at start', async () => {
    await assert.rejects(startTestServer({ anonymousUser: 'ghost@contoso.onmicrosoft.com' }), /not a user of the tenant's directory/);
  });

  it('--require-digest: bearer writes need one too', async () => {
    const server = await startTestServer({ anonymousUser: undefined, tokenSecret: SECRET, requireDigest: true });
    try {
      const dev = server.site('/sites/dev');
      const auth = await bearer(ALICE);
      const url = `${dev}/_api/web/lists/getbytitle('Tasks')/items`;
      const without = await call(url, { method: 'POST', auth, body: { Title: 'x' } });
      assert.equal(without.status, 403);
      assert.equal(await errorCode(without), DIGEST_INVALID);
      assert.equal((await call(url, { method: 'POST', auth, digest: await digestOf(dev, { auth }), body: { Title: 'x' } })).status, 201);
    } finally {
      await server.close();
    }
  });

  it('--no-basic-auth: Basic is refused and not offered', async () => {
    const server = await startTestServer({ anonymousUser: undefined, basicAuth: false });
    try {
      const r = await call(`${server.site('/sites/dev')}/_api/web`, { auth: basic(ALICE) });
      assert.equal(r.status, 401);
      assert.match(r.headers.get('www-authenticate')!, BEARER_CHALLENGE);
    } finally {
      await server.close();
    }
  });

  it('--digest-timeout sets FormDigestTimeoutSeconds and the lifetime', async () => {
    let nowMs = Date.now();
    const server = await startTestServer({ anonymousUser: undefined, digestTimeout: 60, clock: () => new Date(nowMs) });
    try {
      const dev = server.site('/sites/dev');
      const r = await call(`${dev}/_api/contextinfo`, { method: 'POST', auth: basic(ALICE), accept: ACCEPT.nometadata });
      const { FormDigestValue, FormDigestTimeoutSeconds } = await r.json() as { FormDigestValue: string; FormDigestTimeoutSeconds: number };
      assert.equal(FormDigestTimeoutSeconds, 60);
      nowMs += 61_000;
      const w = await call(`${dev}/_api/web/lists/getbytitle('Tasks')/items`, { method: 'POST', auth: basic(ALICE), digest: FormDigestValue, body: { Title: 'x' } });
      assert.equal(w.status, 403);
      assert.equal(await errorCode(w), DIGEST_EXPIRED);
    } finally {
      await server.close();
    }
  });

  it('a short --token-secret is refused', async () => {
    await assert.rejects(startTestServer({ tokenSecret: 'short' }), /at least 32 characters/);
  });
});

describe('spemu token (CLI)', () => {
  const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
  const run = promisify(execFile);

  it('prints a token that a server on the same workspace accepts; the secret file is owner-only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spemu-token-'));
    try {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', MAIN, 'token', '--upn', BOB, '--expires', '10m', '--data', dir], { env: { ...process.env, SPEMU_TOKEN_SECRET: undefined } });
      const jwt = stdout.trim();
      assert.match(jwt, /^[\w-]+\.[\w-]+\.[\w-]+$/);
      const claims = JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as { upn: string; exp: number; nbf: number };
      assert.equal(claims.upn, BOB);
      assert.ok(claims.exp - claims.nbf === 600);
      if (process.platform !== 'win32') assert.equal(statSync(join(dir, 'token-secret')).mode & 0o777, 0o600);
      const server = await startTestServer({ data: dir, anonymousUser: undefined });
      try {
        const r = await call(`${server.site('/sites/dev')}/_api/web/lists/getbytitle('Tasks')/items`, { method: 'POST', auth: `Bearer ${jwt}`, body: { Title: 'cli token' } });
        assert.equal(r.status, 201, await r.clone().text());
      } finally {
        await server.close();
      }
      // A server on another workspace (another secret) refuses it.
      const other = await startTestServer({ anonymousUser: undefined });
      try {
        assert.equal((await call(`${other.site('/sites/dev')}/_api/web`, { auth: `Bearer ${jwt}` })).status, 401);
      } finally {
        await other.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('--token-secret signs with the given secret; a bad --expires is refused', async () => {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', MAIN, 'token', '--upn', ALICE, '--token-secret', SECRET]);
    const server = await startTestServer({ anonymousUser: undefined, tokenSecret: SECRET });
    try {
      assert.equal((await call(`${server.site('/sites/dev')}/_api/web`, { auth: `Bearer ${stdout.trim()}` })).status, 200);
    } finally {
      await server.close();
    }
    await assert.rejects(run(process.execPath, ['--import', 'tsx', MAIN, 'token', '--upn', ALICE, '--token-secret', SECRET, '--expires', 'soon']), /--expires must be a duration/);
  });
});
