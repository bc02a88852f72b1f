// CLI for Microsoft 365 (@pnp/cli-microsoft365, unmodified, from the registry) against spemu
// with nothing in between: it logs in with `--authType identity` at spemu's own managed-identity
// endpoint (App Service's IDENTITY_ENDPOINT/IDENTITY_HEADER protocol), trusts spemu's CA through
// NODE_EXTRA_CA_CERTS, and runs its `spo` commands over HTTPS. Its configuration lives in a
// temporary HOME, never the user's. The CLI takes seconds to start, so each command runs once.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decodeJwt } from 'jose';
import { useTestServer } from '../helpers/server.ts';
import { tlsRequest } from '../helpers/tls-request.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const M365 = join(ROOT, 'node_modules/@pnp/cli-microsoft365/dist/index.js');
const ALICE = 'alice@contoso.onmicrosoft.com';
const IDENTITY_PATH = '/_spemu/managed-identity/token';

const dirs: string[] = [];
after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });
const tempDir = (prefix: string) => { const d = mkdtempSync(join(tmpdir(), prefix)); dirs.push(d); return d; };

type Run = { code: number; stdout: string; stderr: string };

function run(file: string, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [file, ...args], { env, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr });
    });
  });
}

/** `spemu identity-header --data <dir>`, as a user gets IDENTITY_HEADER. */
async function identityHeader(data: string): Promise<string> {
  const result = await run(join(ROOT, 'src/cli/main.ts'), ['identity-header', '--data', data], {
    PATH: process.env.PATH, NODE_OPTIONS: `--import ${import.meta.resolve('tsx')}`,
  });
  assert.equal(result.code, 0, result.stderr);
  return result.stdout.trim();
}

/**
 * A spemu over HTTPS whose managed identity is `identity` (no anonymous user: every request the
 * CLI makes must carry the token it got from spemu), and the CLI set up for it in a HOME of its own.
 */
function useCli(identity: string) {
  const data = tempDir('spemu-m365-data-');
  const context = useTestServer({ https: true, data, managedIdentity: identity, anonymousUser: undefined });
  const cli = { ca: '', site: '', env: {} as NodeJS.ProcessEnv };

  before(async () => {
    cli.ca = join(data, 'tls', 'ca.pem');
    cli.site = context.server.site('/sites/dev');
    const home = tempDir('spemu-m365-home-');
    // Only what the CLI needs: a HOME (and config folder) of its own, spemu's CA, the identity endpoint.
    cli.env = {
      PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), CLIMICROSOFT365_NOUPDATE: '1',
      NODE_EXTRA_CA_CERTS: cli.ca, IDENTITY_ENDPOINT: `${context.server.url}${IDENTITY_PATH}`, IDENTITY_HEADER: await identityHeader(data),
    };
  });

  /** One m365 command with `--output json`; fails the test unless it exits 0. */
  async function m365(...args: string[]): Promise<any> {
    const result = await run(M365, [...args, '--output', 'json'], cli.env);
    assert.equal(result.code, 0, `m365 ${args.join(' ')} failed (${result.code}): ${result.stderr}${result.stdout}`);
    return result.stdout.trim() ? JSON.parse(result.stdout) : undefined;
  }

  /** A REST read as Bob (Basic), to check what the CLI wrote independently of the CLI. */
  const restAsBob = async (path: string) => (await tlsRequest(`${cli.site}/_api/${path}`, {
    ca: readFileSync(cli.ca), headers: { Authorization: `Basic ${Buffer.from('bob@contoso.onmicrosoft.com:bob-demo-pass').toString('base64')}` },
  }));

  return { cli, m365, restAsBob };
}

describe('CLI for Microsoft 365 against spemu over HTTPS, logged in as its managed identity (a user)', () => {
  const { cli, m365, restAsBob } = useCli(ALICE);
  const env = () => cli.env;
  let site = '';
  before(() => { site = cli.site; });

  it('logs in with --authType identity and names the connection after the token spemu issued', async () => {
    await m365('login', '--authType', 'identity');
    const status = await m365('status');
    assert.equal(status.connectedAs, ALICE);
    assert.equal(status.authType, 'identity');
    // The token the CLI keeps is spemu's, for Microsoft Graph (the CLI's default resource), with Entra's claims.
    const stored = JSON.parse(readFileSync(join(env().HOME!, '.cli-m365-connection.json'), 'utf8'));
    const graph = decodeJwt(stored.accessTokens['https://graph.microsoft.com'].accessToken);
    assert.equal(graph.upn, ALICE);
    assert.equal(graph.aud, 'https://graph.microsoft.com');
    assert.match(String(graph.tid), /^[0-9a-f-]{36}$/);
    assert.equal(stored.identityId, graph.oid);
  });

  it('spo web get (--withGroups: the associated groups expanded)', async () => {
    const web = await m365('spo', 'web', 'get', '--url', site, '--withGroups');
    assert.equal(web.Title, 'Dev');
    assert.equal(web.Url, site);
    assert.equal(web.AssociatedOwnerGroup.Title, 'Dev Owners');
    assert.equal(web.AssociatedMemberGroup.Title, 'Dev Members');
  });

  it('spo list list (RootFolder expanded over the collection)', async () => {
    const lists = await m365('spo', 'list', 'list', '--webUrl', site);
    const tasks = lists.find((l: any) => l.Title === 'Tasks');
    assert.ok(tasks, JSON.stringify(lists.map((l: any) => l.Title)));
    assert.equal(tasks.RootFolder.ServerRelativeUrl, '/sites/dev/Lists/Tasks');
    assert.ok(lists.some((l: any) => l.Title === 'Projects'));
  });

  it('spo list get of a library --withPermissions (its version policies, role assignments two levels deep)', async () => {
    const list = await m365('spo', 'list', 'get', '--webUrl', site, '--title', 'Documents', '--withPermissions');
    assert.equal(list.BaseTemplate, 101);
    assert.equal(list.HasUniqueRoleAssignments, false);
    assert.equal(list.VersionPolicies.DefaultTrimModeValue, 'NoExpiration');
    const owners = list.RoleAssignments.find((a: any) => a.Member.Title === 'Dev Owners');
    assert.equal(owners.Member.PrincipalTypeString, 'SharePointGroup');
    assert.equal(owners.RoleDefinitionBindings[0].Name, 'Full Control');
  });

  it('spo list view list', async () => {
    const views = await m365('spo', 'list', 'view', 'list', '--webUrl', site, '--listTitle', 'Tasks');
    const all = views.find((v: any) => v.DefaultView === true);
    assert.equal(all.Title, 'All Items');
    assert.match(all.ListViewXml, /<View /);
  });

  it('spo contenttype list', async () => {
    const types = await m365('spo', 'contenttype', 'list', '--webUrl', site);
    const item = types.find((t: any) => t.Name === 'Item');
    assert.equal(item.StringId, '0x01');
    assert.equal(item.Id.StringValue, '0x01');
  });

  it('spo listitem list', async () => {
    const items = await m365('spo', 'listitem', 'list', '--webUrl', site, '--listTitle', 'Tasks', '--fields', 'Id,Title');
    assert.deepEqual(items[0], { Id: 1, Title: 'Write spec' });
    assert.ok(items.length >= 8);
  });

  it('spo listitem get', async () => {
    const item = await m365('spo', 'listitem', 'get', '--webUrl', site, '--listTitle', 'Tasks', '--id', '1');
    assert.equal(item.Id, 1);
    assert.equal(item.Title, 'Write spec');
    assert.equal(item.Status, 'Done');
  });

  let added = 0;
  it('spo listitem add writes as the managed identity (AddValidateUpdateItemUsingPath)', async () => {
    const item = await m365('spo', 'listitem', 'add', '--webUrl', site, '--listTitle', 'Tasks', '--Title', 'Added by m365', '--Status', 'In Progress');
    added = item.Id;
    assert.equal(item.Title, 'Added by m365');
    const res = await restAsBob(`web/lists/getbytitle('Tasks')/items(${added})?$select=Title,Status,Author/Title&$expand=Author`);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual({ title: res.json().Title, status: res.json().Status, author: res.json().Author.Title }, { title: 'Added by m365', status: 'In Progress', author: 'Alice Adams' });
  });

  it('spo listitem set (ValidateUpdateListItem)', async () => {
    await m365('spo', 'listitem', 'set', '--webUrl', site, '--listTitle', 'Tasks', '--id', String(added), '--Title', 'Changed by m365');
    const res = await restAsBob(`web/lists/getbytitle('Tasks')/items(${added})?$select=Title,Status`);
    assert.deepEqual({ title: res.json().Title, status: res.json().Status }, { title: 'Changed by m365', status: 'In Progress' });
  });

  it('spo user ensure', async () => {
    const user = await m365('spo', 'user', 'ensure', '--webUrl', site, '--userName', 'carol@contoso.onmicrosoft.com');
    assert.equal(user.LoginName, 'i:0#.f|membership|carol@contoso.onmicrosoft.com');
    assert.equal(user.UserPrincipalName, 'carol@contoso.onmicrosoft.com');
    assert.ok(user.Id > 0);
  });
});

describe('CLI for Microsoft 365 logged in as a managed identity that is an app (app-only tokens)', () => {
  const DEMO_APP = '5d1f3c2e-8a4b-4f6e-9c7d-2b1a0e9f8d7c';
  const { cli, m365, restAsBob } = useCli(DEMO_APP);

  it('logs in, and its spo commands act as the app (SHAREPOINT\\app)', async () => {
    await m365('login', '--authType', 'identity', '--userName', DEMO_APP);
    const stored = JSON.parse(readFileSync(join(cli.env.HOME!, '.cli-m365-connection.json'), 'utf8'));
    assert.equal(stored.identityName, 'spemu demo app (local use only)');
    const item = await m365('spo', 'listitem', 'add', '--webUrl', cli.site, '--listTitle', 'Tasks', '--Title', 'Added by the app');
    const res = await restAsBob(`web/lists/getbytitle('Tasks')/items(${item.Id})?$select=Title,Author/Title&$expand=Author`);
    assert.deepEqual({ title: res.json().Title, author: res.json().Author.Title }, { title: 'Added by the app', author: 'SharePoint App' });
  });
});
