// Unique permissions declared in a tenant file (issue #14): a list only one user may read, an
// item of an inheriting list with its own assignments, a subweb with its own, a folder and a
// file of a library, and the root web's extra assignment; loaded by a real server on the leg's
// database and read back through an unmodified @pnp/sp 4.x client as different users
// (security trimming, HasUniqueRoleAssignments, roleAssignments), and the change log; the
// file's mistakes about permissions reported by JSON pointer before anything is loaded.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import '@pnp/sp/security/index.js';
import '@pnp/sp/site-users/index.js';
import '@pnp/sp/webs/index.js';
import '@pnp/sp/lists/index.js';
import '@pnp/sp/items/index.js';
import '@pnp/sp/folders/index.js';
import '@pnp/sp/files/index.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, testDatabase, useTestServer } from '../helpers/server.ts';
import { openPostgres, openSqlite, type Connection } from '../../src/store/sql/connect.ts';
import { exportDatabase } from '../../src/store/transfer/export.ts';
import { importDatabase } from '../../src/store/transfer/import.ts';
import { Progress } from '../../src/store/transfer/progress.ts';
import { DiskBytes } from '../../src/store/blob-disk.ts';
import { testBackend } from '../helpers/postgres.ts';
import { failure, pnpFor } from '../helpers/pnp.ts';
import { TenantFileError, validateTenant } from '../../src/tenant/validate.ts';

const OLIVIA = 'olivia@fabrikam.onmicrosoft.com';
const MIKE = 'mike@fabrikam.onmicrosoft.com';
const VERA = 'vera@fabrikam.onmicrosoft.com';
const NOAH = 'noah@fabrikam.onmicrosoft.com';
const SPARES = ['spare3@fabrikam.onmicrosoft.com', 'spare4@fabrikam.onmicrosoft.com', 'spare5@fabrikam.onmicrosoft.com'];
const AUDITORS = '6f1e2d3c-4b5a-4978-8a9b-0c1d2e3f4a5b';
const PASSWORD = 'Pass-word-1';
const READ = 1073741826;
const CONTRIBUTE = 1073741827;

const user = (upn: string, displayName: string) => ({ upn, displayName, password: PASSWORD });

const TENANT = {
  tenant: { name: 'fabrikam' },
  users: [user(OLIVIA, 'Olivia Owner'), user(MIKE, 'Mike Member'), user(VERA, 'Vera Visitor'), user(NOAH, 'Noah Nobody'), ...SPARES.map((upn) => user(upn, upn))],
  groups: [{ id: AUDITORS, displayName: 'Auditors', members: [NOAH] }],
  sites: [{
    // Site users and the default groups share principal ids in spemu's User Information List so
    // far (a third user gets id 3, the Owners group's): the three spares take ids 3 to 5 and are
    // never asked anything, so the users the test signs in as have ids of their own.
    url: '/sites/dev', title: 'Dev', owners: [OLIVIA], members: [MIKE, ...SPARES], visitors: [VERA],
    // The root web: the default groups' assignments, and Auditors may read everything that inherits.
    permissions: { assignments: [{ principal: 'Auditors', role: 'Read' }] },
    lists: [
      // Only Vera may read it (besides the owners, who are site collection administrators).
      { title: 'Salaries', items: [{ Title: 'all of them' }], permissions: { inherit: false, assignments: [{ principal: VERA, role: 'Read' }] } },
      {
        title: 'Tasks', items: [
          { Title: 'open to all' },
          // Copying keeps the inherited ones; then Vera may also contribute and Mike's group is not changed.
          { Title: 'members only', permissions: { inherit: false, assignments: [{ principal: 'Dev Members', role: 'Edit' }] } },
          { Title: 'copied', permissions: { inherit: false, copy: true, assignments: [{ principal: `i:0#.f|membership|${VERA}`, role: CONTRIBUTE }] } },
        ],
      },
      {
        title: 'Documents',
        folders: ['Public', { path: 'Board', permissions: { inherit: false, assignments: [{ principal: 'Dev Owners', role: 'Full Control' }] } }],
        files: [
          { path: 'Public/readme.txt', content: { text: 'for all' } },
          { path: 'Board/minutes.txt', content: { text: 'board only' } },
          { path: 'Public/mike.txt', content: { text: 'mike only' }, permissions: { inherit: false, assignments: [{ principal: MIKE, role: 'contribute' }] } },
        ],
      },
    ],
    webs: [{
      url: 'hr', title: 'HR', lists: [{ title: 'Policies', items: [{ Title: 'leave' }] }],
      permissions: { inherit: false, assignments: [{ principal: 'Everyone except external users', role: 'Read' }, { principal: MIKE, role: 'Full Control' }] },
    }],
  }],
};

describe(`unique permissions in a tenant file (${testBackend()})`, () => {
  const spemu = useTestServer({ seed: TENANT });
  let site: string;
  before(() => { site = spemu.server.site('/sites/dev'); });

  /** A user's PnPjs client (Basic), with a request digest for writes. */
  async function as(upn: string, url = site): Promise<SPFI> {
    const authorization = `Basic ${Buffer.from(`${upn}:${PASSWORD}`).toString('base64')}`;
    const r = await fetch(`${url}/_api/contextinfo`, { method: 'POST', headers: { Authorization: authorization, Accept: 'application/json;odata=nometadata' } });
    const headers: Record<string, string> = { Authorization: authorization };
    if (r.ok) headers['X-RequestDigest'] = ((await r.json()) as { FormDigestValue: string }).FormDigestValue;
    return pnpFor(url, headers);
  }

  /** The assignments of a securable: [principal title, [level names]], sorted. */
  const assignments = async (securable: any) =>
    ((await securable.roleAssignments.expand('Member', 'RoleDefinitionBindings')()) as any[])
      .map((a) => [a.Member.Title, a.RoleDefinitionBindings.map((d: any) => d.Name)]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));

  it('a list whose inheritance is broken: only the one user it names reads it; the others are refused', async () => {
    const [olivia, mike, vera, noah] = [await as(OLIVIA), await as(MIKE), await as(VERA), await as(NOAH)];
    const salaries = olivia.web.lists.getByTitle('Salaries');
    assert.equal((await salaries.select('HasUniqueRoleAssignments')() as any).HasUniqueRoleAssignments, true);
    assert.deepEqual(await assignments(salaries), [['Vera Visitor', ['Read']]], 'only what the file states: no copy, no loader added');
    assert.deepEqual((await vera.web.lists.getByTitle('Salaries').items.select('Title')()).map((i) => i.Title), ['all of them']);
    assert.equal((await failure(mike.web.lists.getByTitle('Salaries').items())).status, 403, 'a member is shut out');
    assert.equal((await failure(noah.web.lists.getByTitle('Salaries').items())).status, 403, 'an auditor too: the list does not inherit the root web');
    assert.equal((await failure(vera.web.lists.getByTitle('Salaries').items.add({ Title: 'raise' }))).status, 403, 'Read does not write');
    // Tasks inherits: members and visitors as the site says, and the root web's Auditors read it.
    assert.equal((await olivia.web.lists.getByTitle('Tasks').select('HasUniqueRoleAssignments')() as any).HasUniqueRoleAssignments, false);
    assert.ok((await noah.web.lists.getByTitle('Tasks').items()).length > 0, 'Auditors read what inherits from the root web');
  });

  it('the root web keeps its default groups and adds the file\'s assignment', async () => {
    const olivia = await as(OLIVIA);
    assert.deepEqual(await assignments(olivia.web), [['Auditors', ['Read']], ['Dev Members', ['Edit']], ['Dev Owners', ['Full Control']], ['Dev Visitors', ['Read']]]);
  });

  it('an item with unique permissions in an inheriting list: trimmed from the listing of those it does not name', async () => {
    const [olivia, mike, vera] = [await as(OLIVIA), await as(MIKE), await as(VERA)];
    const tasks = olivia.web.lists.getByTitle('Tasks');
    assert.equal((await tasks.items.getById(2).select('HasUniqueRoleAssignments')() as any).HasUniqueRoleAssignments, true);
    assert.equal((await tasks.items.getById(1).select('HasUniqueRoleAssignments')() as any).HasUniqueRoleAssignments, false);
    assert.deepEqual(await assignments(tasks.items.getById(2)), [['Dev Members', ['Edit']]]);
    const titles = async (sp: SPFI) => (await sp.web.lists.getByTitle('Tasks').items.select('Title').orderBy('ID')()).map((i) => i.Title);
    assert.deepEqual(await titles(mike), ['open to all', 'members only', 'copied']);
    assert.deepEqual(await titles(vera), ['open to all', 'copied'], 'the visitor does not see the members-only item');
    assert.equal((await failure(vera.web.lists.getByTitle('Tasks').items.getById(2)())).status, 403, 'refused by id too');
    // copy: the inherited assignments and then Vera's Contribute, so Vera may edit that one item.
    assert.deepEqual(await assignments(tasks.items.getById(3)), [['Auditors', ['Read']], ['Dev Members', ['Edit']], ['Dev Owners', ['Full Control']], ['Dev Visitors', ['Read']], ['Vera Visitor', ['Contribute']]]);
    await vera.web.lists.getByTitle('Tasks').items.getById(3).update({ Title: 'copied, edited by Vera' });
    assert.equal((await failure(vera.web.lists.getByTitle('Tasks').items.getById(1).update({ Title: 'no' }))).status, 403);
  });

  it('a folder and a file of a library with their own assignments', async () => {
    const [olivia, mike, vera] = [await as(OLIVIA), await as(MIKE), await as(VERA)];
    const { Id: boardId } = await olivia.web.getFolderByServerRelativePath('/sites/dev/Shared Documents/Board').listItemAllFields.select('Id')() as { Id: number };
    const board = olivia.web.lists.getByTitle('Documents').items.getById(boardId);
    assert.equal((await board.select('HasUniqueRoleAssignments')() as any).HasUniqueRoleAssignments, true);
    assert.deepEqual(await assignments(board), [['Dev Owners', ['Full Control']]]);
    // What is inside a folder answers by the folder's permissions: minutes.txt goes with Board.
    const names = async (sp: SPFI) => (await sp.web.lists.getByTitle('Documents').items.select('FileLeafRef').orderBy('ID')())
      .map((i: any) => i.FileLeafRef).sort();
    assert.deepEqual(await names(olivia), ['Board', 'Public', 'mike.txt', 'minutes.txt', 'readme.txt']);
    assert.deepEqual(await names(mike), ['Public', 'mike.txt', 'readme.txt'], 'the folder and its file are trimmed from a member\'s listing; the file given to him is not');
    assert.deepEqual(await names(vera), ['Public', 'readme.txt']);
    assert.equal((await failure(vera.web.getFileByServerRelativePath('/sites/dev/Shared Documents/Public/mike.txt').getText())).status, 403, 'Vera may not read Mike\'s file');
    // Nor fetch it at its own URL or through download.aspx; Mike may.
    const basicOf = (upn: string) => ({ Authorization: `Basic ${Buffer.from(`${upn}:${PASSWORD}`).toString('base64')}` });
    assert.equal((await fetch(`${site}/Shared%20Documents/Public/mike.txt`, { headers: basicOf(VERA) })).status, 403);
    assert.equal((await fetch(`${site}/_layouts/15/download.aspx?SourceUrl=${encodeURIComponent('/sites/dev/Shared Documents/Public/mike.txt')}`, { headers: basicOf(VERA) })).status, 403);
    const own = await fetch(`${site}/Shared%20Documents/Public/mike.txt`, { headers: basicOf(MIKE) });
    assert.equal(await own.text(), 'mike only');
    assert.equal((await fetch(`${site}/Shared%20Documents/Public/readme.txt`, { headers: basicOf(VERA) })).status, 200, 'what inherits stays readable');
    assert.equal(await mike.web.getFileByServerRelativePath('/sites/dev/Shared Documents/Public/mike.txt').getText(), 'mike only');
    // The file in the folder only the owners may see: refused to the member at its URL, as the folder is.
    assert.equal((await fetch(`${site}/Shared%20Documents/Board/minutes.txt`, { headers: basicOf(MIKE) })).status, 403);
    assert.equal((await failure(mike.web.getFileByServerRelativePath('/sites/dev/Shared Documents/Board/minutes.txt').getText())).status, 403);
    assert.equal(await olivia.web.getFileByServerRelativePath('/sites/dev/Shared Documents/Board/minutes.txt').getText(), 'board only');
  });

  it('a subweb with its own assignments: Everyone except external users reads it, a member has Full Control there only', async () => {
    const hr = `${site}/hr`;
    const [olivia, mike, noah] = [await as(OLIVIA, hr), await as(MIKE, hr), await as(NOAH, hr)];
    assert.equal((await olivia.web.select('HasUniqueRoleAssignments')() as any).HasUniqueRoleAssignments, true);
    assert.deepEqual(await assignments(olivia.web), [['Everyone except external users', ['Read']], ['Mike Member', ['Full Control']]]);
    assert.deepEqual((await noah.web.lists.getByTitle('Policies').items.select('Title')()).map((i) => i.Title), ['leave'], 'everyone in the directory reads it');
    assert.equal((await failure(noah.web.lists.getByTitle('Policies').items.add({ Title: 'no' }))).status, 403);
    await mike.web.lists.getByTitle('Policies').items.add({ Title: 'by mike' });
    const perms = await mike.web.getCurrentUserEffectivePermissions();
    assert.ok(mike.web.hasPermissions(perms, 31 /* ManagePermissions */), 'Full Control on the subweb');
    assert.equal((await failure((await as(MIKE)).web.lists.getByTitle('Salaries').items())).status, 403, 'but not on the root web\'s private list');
    void READ;
  });

  it('breaking inheritance on load is in the change log, as breakRoleInheritance\'s is', async () => {
    const r = await fetch(`${site}/_api/web/lists/getbytitle('Salaries')/getchanges`, {
      method: 'POST', headers: { Accept: 'application/json;odata=nometadata', 'Content-Type': 'application/json;odata=nometadata' },
      body: JSON.stringify({ query: { List: true, Item: true, Add: true, SecurityPolicy: true } }),
    });
    assert.equal(r.status, 200, await r.clone().text());
    const changes = ((await r.json()) as { value: Array<{ ChangeType: number }> }).value;
    assert.ok(changes.some((c) => c.ChangeType === 17), 'a ScopeAdd change (17) for the list');
  });
});

describe(`unique permissions of a tenant file through spemu export and import (${testBackend()})`, () => {
  /** A database of the leg's backend that outlives a server: a SQLite file (its bytes beside it), or a PostgreSQL database. */
  const database = async () => (testBackend() === 'sqlite' ? { db: join(mkdtempSync(join(tmpdir(), 'spemu-perm-')), 'spemu.db'), drop: async () => {} } : testDatabase());
  const connect = async (db: string): Promise<Connection & { clearStatementCache?: () => void }> =>
    (testBackend() === 'sqlite' ? openSqlite({ file: db }) : openPostgres({ url: db, statementTimeoutMs: 0 }));
  const bytesOf = (db: string) => (testBackend() === 'sqlite' ? { bytes: new DiskBytes(`${db}-blobs`) } : {});
  const quiet = () => new Progress('x', process.stderr, true);

  it('the imported workspace has the same unique scopes and assignments, and trims as the source did', async () => {
    const [source, target] = [await database(), await database()];
    const dump = join(mkdtempSync(join(tmpdir(), 'spemu-perm-dump-')), 'workspace.jsonl.gz');
    try {
      await (await startTestServer({ db: source.db, seed: TENANT })).close();
      const from = await connect(source.db);
      try { await exportDatabase(from, dump, { progress: quiet(), ...bytesOf(source.db) }); } finally { await from.db.destroy(); }
      const to = await connect(target.db);
      try { await importDatabase(to, dump, { progress: quiet(), clearStatementCache: to.clearStatementCache, ...bytesOf(target.db) }); } finally { await to.db.destroy(); }
      const server = await startTestServer({ db: target.db, seed: TENANT });
      try {
        const site = server.site('/sites/dev');
        const as = (upn: string) => pnpFor(site, { Authorization: `Basic ${Buffer.from(`${upn}:${PASSWORD}`).toString('base64')}` });
        const salaries = as(OLIVIA).web.lists.getByTitle('Salaries');
        assert.equal((await salaries.select('HasUniqueRoleAssignments')() as any).HasUniqueRoleAssignments, true);
        const assigned = (await salaries.roleAssignments.expand('Member', 'RoleDefinitionBindings')()) as any[];
        assert.deepEqual(assigned.map((a) => [a.Member.Title, a.RoleDefinitionBindings.map((d: any) => d.Name)]), [['Vera Visitor', ['Read']]]);
        assert.equal((await as(VERA).web.lists.getByTitle('Salaries').items()).length, 1);
        assert.equal((await failure(as(MIKE).web.lists.getByTitle('Salaries').items())).status, 403);
        assert.deepEqual((await as(VERA).web.lists.getByTitle('Tasks').items.select('Title')()).map((i) => i.Title), ['open to all', 'copied']);
      } finally {
        await server.close();
      }
    } finally {
      await source.drop();
      await target.drop();
    }
  });
});

describe('unique permissions in a tenant file: mistakes reported by pointer', () => {
  const problems = (site: object) => {
    try {
      validateTenant({ tenant: { name: 'fabrikam' }, users: [user(OLIVIA, 'Olivia Owner')], groups: [{ id: AUDITORS, displayName: 'Auditors' }], sites: [{ url: '/sites/dev', title: 'Dev', owners: [OLIVIA], ...site }] });
      return [];
    } catch (error) {
      assert.ok(error instanceof TenantFileError);
      return error.problems.map((p) => `${p.path}: ${p.message}`);
    }
  };

  it('unknown principals and roles, assignments without inherit false, the root web told to inherit', () => {
    const found = problems({
      permissions: { inherit: true, copy: true, assignments: [{ principal: 'Dev Members', role: 'Read' }] },
      lists: [
        { title: 'A', permissions: { assignments: [{ principal: OLIVIA, role: 'Read' }] } },
        { title: 'B', permissions: { inherit: false, assignments: [{ principal: 'nobody@fabrikam.onmicrosoft.com', role: 'Reader' }, { principal: 'Test Members', role: 1073741825 }, { principal: 'Auditors', role: 42 }] } },
        { title: 'C', items: [{ Title: 'x', permissions: { copy: true } }], folders: [{ path: 'F', permissions: { inherit: false, assignments: [{ principal: `c:0t.c|tenant|${AUDITORS.replace('6f', '7f')}`, role: 'Edit' }] } }] },
      ],
      webs: [{ url: 'w', title: 'W', permissions: { inherit: false, assignments: [{ principal: 'Dev Owners', role: 'Owner' }] } }],
    });
    assert.deepEqual(found.sort(), [
      '/sites/0/lists/0/permissions/assignments: needs "inherit": false: an object that inherits has its parent\'s assignments, not its own',
      '/sites/0/lists/1/permissions/assignments/0/principal: "nobody@fabrikam.onmicrosoft.com" is not a directory user',
      '/sites/0/lists/1/permissions/assignments/0/role: "Reader" is no permission level: Full Control, Design, Edit, Contribute, Read',
      '/sites/0/lists/1/permissions/assignments/1/principal: "Test Members" is neither a user UPN, a group id or display name, nor a SharePoint group of this site ("Dev Owners", "Dev Visitors", "Dev Members"), Everyone or Everyone except external users',
      '/sites/0/lists/1/permissions/assignments/1/role: Limited Access cannot be assigned: SharePoint gives it by itself',
      '/sites/0/lists/1/permissions/assignments/2/role: 42 is no role definition id (1073741829 Full Control, 1073741828 Design, 1073741830 Edit, 1073741827 Contribute, 1073741826 Read)',
      `/sites/0/lists/2/folders/0/permissions/assignments/0/principal: "${AUDITORS.replace('6f', '7f')}" is not a directory group id`,
      '/sites/0/lists/2/items/0/permissions/copy: applies only with "inherit": false',
      '/sites/0/permissions/copy: does not apply to a site\'s root web: its assignments are added to its default groups\'',
      '/sites/0/permissions/inherit: the root web of a site collection has no parent to inherit from (leave inherit out, or false)',
      '/sites/0/webs/0/permissions/assignments/0/role: "Owner" is no permission level: Full Control, Design, Edit, Contribute, Read',
    ].sort());
  });

  it('the schema refuses unknown keys and a missing role; a field may not be named permissions', () => {
    const found = problems({ lists: [
      { title: 'A', fields: [{ name: 'permissions', type: 'Text' }], permissions: { inherit: false, clearSubscopes: true, assignments: [{ principal: OLIVIA }] } },
      { title: 'B', template: 101, folders: ['Fine', { path: 'Bad?Name', permissions: { inherit: false } }, { path: 'Fine' }, { permissions: {} }] },
    ] });
    assert.deepEqual(found.sort(), [
      '/sites/0/lists/1/folders/1/path: "Bad?Name": The name contains a character that is not allowed: " * : < > ? / \\ |',
      '/sites/0/lists/1/folders/3/path: is required',
      '/sites/0/lists/0/fields/0/name: "permissions" is where an item states its permissions; name the field otherwise',
      '/sites/0/lists/0/permissions/assignments/0/role: is required',
      '/sites/0/lists/0/permissions/clearSubscopes: is not an allowed property',
    ].sort());
  });

  it('a valid file passes: every kind of principal and role', () => {
    assert.deepEqual(problems({
      permissions: { inherit: false, assignments: [{ principal: 'everyone', role: 'read' }] },
      lists: [{ title: 'A', permissions: { inherit: false, copy: true, assignments: [
        { principal: OLIVIA, role: 'Full Control' }, { principal: AUDITORS, role: 1073741830 }, { principal: 'auditors', role: 'Design' },
        { principal: 'dev visitors', role: 'Contribute' }, { principal: 'Everyone except external users', role: 'Read' }, { principal: `i:0#.f|membership|${OLIVIA}`, role: 'Edit' },
      ] } }],
    }), []);
  });
});
