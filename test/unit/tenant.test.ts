import assert from 'node:assert/strict';
import { mkdtemp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { loadTenantFile, TenantFileError, validateTenant } from '../../src/tenant/validate.ts';
import type { TenantFile } from '../../src/tenant/types.ts';

const DEMO = fileURLToPath(new URL('../../demo/tenant.json', import.meta.url));
const ALICE = 'alice@contoso.onmicrosoft.com';
const BOB = 'bob@contoso.onmicrosoft.com';
const GROUP_ID = '0f8fad5b-d9cb-469f-a165-70867728950e';

/** Runs `action`, expects a TenantFileError and returns it. */
async function tenantError(action: () => unknown): Promise<TenantFileError> {
  try {
    await action();
  } catch (error) {
    assert.ok(error instanceof TenantFileError, `expected a TenantFileError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a TenantFileError');
}

function minimalTenant(): TenantFile {
  return {
    tenant: { name: 'contoso' },
    users: [{ upn: ALICE, displayName: 'Alice Adams' }, { upn: BOB, displayName: 'Bob Baker' }],
    sites: [{ url: '/sites/dev', title: 'Dev', owners: [ALICE] }],
  };
}

/** The minimal tenant with these lists on its site. */
function withLists(lists: unknown[]): unknown {
  const t = minimalTenant();
  return { ...t, sites: [{ ...t.sites![0]!, lists }] };
}

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'spemu-tenant-'));
}

describe('demo tenant', () => {
  it('loads and validates, pictures included', async () => {
    const { tenant, baseDir } = await loadTenantFile(DEMO);
    assert.equal(baseDir, join(DEMO, '..'));
    assert.equal(tenant.tenant.name, 'contoso');
    assert.equal(tenant.users.length, 5);
    assert.deepEqual(tenant.sites.map((site) => site.url), ['/sites/dev', '/sites/pwa']);
    const tasks = tenant.sites[0]?.lists?.find((list) => list.title === 'Tasks');
    assert.deepEqual(
      { title: tasks?.items?.[0]?.Title, author: tasks?.items?.[0]?.author, editor: tasks?.items?.[0]?.editor },
      { title: 'Write spec', author: ALICE, editor: BOB },
    );
    const pwa = tenant.projectData?.['/sites/pwa'] as Record<string, unknown[]> | undefined;
    assert.equal(pwa?.dates, 'online');
    for (const set of ['Projects', 'Tasks', 'TaskBaselines', 'Resources', 'Assignments']) assert.ok((pwa?.[set]?.length ?? 0) >= 2, set);
  });

  it('validates from parsed JSON', async () => {
    const data: unknown = JSON.parse(await readFile(DEMO, 'utf8'));
    assert.equal(validateTenant(data), data);
  });
});

describe('validateTenant', () => {
  it('accepts a minimal tenant', () => {
    assert.doesNotThrow(() => validateTenant(minimalTenant()));
  });

  it('reports every problem of a broken document, each at its JSON pointer', async () => {
    const broken = {
      tenant: { name: 'Contoso' },
      users: [
        { upn: ALICE, displayName: 'Alice', shoeSize: 42 },
        { upn: 'ALICE@contoso.onmicrosoft.com', displayName: 'Alice again' },
        { upn: BOB },
      ],
      groups: [
        { id: GROUP_ID, displayName: 'Eng', members: [BOB, 'nobody@contoso.onmicrosoft.com'] },
        { id: GROUP_ID.toUpperCase(), displayName: 'Eng 2' },
      ],
      sites: [
        {
          url: '/sites/dev', title: 'Dev', owners: [ALICE], members: ['ghost@contoso.onmicrosoft.com'], visitors: ['Eng'],
          lists: [
            {
              title: 'Tasks',
              fields: [
                { name: 'Priority', type: 'Number' },
                { name: 'Status', type: 'Choice', choices: ['Open', 'Done'] },
                { name: 'priority', type: 'Text' },
                { name: 'Created', type: 'DateTime' },
                { name: 'Owner', type: 'User' },
                { name: 'Project', type: 'Lookup', lookupList: 'Nope' },
                { name: 'Parent', type: 'Lookup' },
                { name: 'Kind', type: 'Blob' },
              ],
              items: [
                { Title: 'fine', Priority: 1, Status: 'Open', author: ALICE, created: '2026-01-05T10:00:00Z', modified: '2026-01-06T08:30:00Z' },
                {
                  Title: 'bad', Priority: 'high', Status: 'Closed', Owner: 'ghost@contoso.onmicrosoft.com', Colour: 'red',
                  author: 'ghost@contoso.onmicrosoft.com', created: '2026-01-06T00:00:00Z', modified: '2026-01-05T00:00:00Z',
                },
                { created: '2026-01-05 10:00' },
              ],
            },
            { title: 'TASKS' },
          ],
        },
        { url: '/sites/DEV', title: 'Dev again' },
        { url: '/personal/x', title: 'Personal' },
      ],
      projectData: { '/sites/pwa': {} },
    };
    const error = await tenantError(() => validateTenant(broken));
    const list = '/sites/0/lists/0';
    const expected: [string, RegExp][] = [
      ['/tenant/name', /pattern/],
      ['/users/0/shoeSize', /not an allowed property/],
      ['/users/1/upn', /duplicate UPN .*\/users\/0\/upn/],
      ['/users/2/displayName', /is required/],
      ['/groups/0/members/1', /neither a user UPN nor a group id/],
      ['/groups/1/id', /duplicate group id/],
      ['/sites/0/members/0', /"ghost@contoso.onmicrosoft.com" is neither/],
      [`${list}/fields/2/name`, /duplicate field name "priority"/],
      [`${list}/fields/3/name`, /built-in/],
      [`${list}/fields/5/lookupList`, /no list titled "Nope"/],
      [`${list}/fields/6/lookupList`, /is required/],
      [`${list}/fields/7/type`, /must be one of Text, Note/],
      [`${list}/items/1/Priority`, /must be a number/],
      [`${list}/items/1/Status`, /"Closed" is not one of the choices/],
      [`${list}/items/1/Owner`, /not a directory user/],
      [`${list}/items/1/Colour`, /no field named "Colour" in list "Tasks"/],
      [`${list}/items/1/author`, /not a directory user/],
      [`${list}/items/1/modified`, /before created/],
      [`${list}/items/2/created`, /ISO 8601/],
      ['/sites/0/lists/1/title', /duplicate list title "TASKS"/],
      ['/sites/1/url', /duplicate site URL/],
      ['/sites/2/url', /pattern/],
      ['/projectData/~1sites~1pwa', /not the URL of a site/],
    ];
    assert.deepEqual(error.problems.map((p) => p.path).sort(), expected.map(([path]) => path).sort());
    for (const [path, message] of expected) {
      const problem = error.problems.find((p) => p.path === path);
      assert.match(problem?.message ?? '', message, path);
      assert.ok(error.message.includes(`\n${path}: ${problem?.message}`), `message lists ${path}`);
    }
  });

  it('checks a list\'s rating settings: one of Ratings and Likes, and no field of a rating field\'s name', async () => {
    assert.doesNotThrow(() => validateTenant(withLists([{ title: 'Ideas', ratings: 'Likes' }])));
    const error = await tenantError(() => validateTenant(withLists([
        { title: 'Stars', ratings: 'Stars' },
        { title: 'Clash', ratings: 'Ratings', fields: [{ name: 'LikesCount', type: 'Number' }] },
        { title: 'Written', ratings: 'Likes', items: [{ Title: 'x', LikesCount: 3 }] },
    ])));
    assert.deepEqual(error.problems.map((p) => p.path).sort(), ['/sites/0/lists/0/ratings', '/sites/0/lists/1/ratings', '/sites/0/lists/2/items/0/LikesCount']);
    assert.match(error.problems.find((p) => p.path === '/sites/0/lists/1/ratings')!.message, /field named "LikesCount"/);
  });

  it('checks item values against their field types', async () => {
    const tenant = minimalTenant();
    tenant.sites[0]!.lists = [
      { title: 'Projects', items: [{ Title: 'One' }, { Title: 'Two' }] },
      {
        title: 'Tasks',
        fields: [
          { name: 'Reviewers', type: 'UserMulti' },
          { name: 'Project', type: 'Lookup', lookupList: 'projects' },
          { name: 'Website', type: 'URL' },
          { name: 'Tags', type: 'MultiChoice', choices: ['a', 'b'] },
          { name: 'Due', type: 'DateTime' },
          { name: 'Count', type: 'Integer', min: 0 },
          { name: 'Code', type: 'Text', maxLength: 3, choices: ['x'] },
        ],
        items: [
          { Reviewers: [ALICE, BOB], Project: 2, Website: { Url: 'https://contoso.com', Description: 'Home' }, Tags: ['a'], Due: '2026-02-01', Count: 3, Code: 'abc' },
          { Reviewers: [ALICE, 'zoe@contoso.com'], Project: 3, Website: 'not a url', Tags: 'a', Due: '2026-02-30T10:00:00Z', Count: -1.5, Code: 'abcd', priority: 1 },
          { Reviewers: null, Project: null, Website: '/sites/dev', Tags: ['a', 'c'], Due: null, Count: null, Code: null },
        ],
      },
    ];
    const error = await tenantError(() => validateTenant(tenant));
    const items = '/sites/0/lists/1/items';
    assert.deepEqual(error.problems.map((p) => p.path).sort(), [
      '/sites/0/lists/1/fields/6/choices',
      `${items}/1/Count`,
      `${items}/1/Code`,
      `${items}/1/Due`,
      `${items}/1/Project`,
      `${items}/1/Reviewers/1`,
      `${items}/1/Tags`,
      `${items}/1/Website`,
      `${items}/1/priority`,
      `${items}/2/Tags/1`,
    ].sort());
    assert.match(error.problems.find((p) => p.path === `${items}/1/Project`)?.message ?? '', /list "Projects" has no item 3/);
  });

  it('resolves site roles to users, group ids and group names', () => {
    const tenant = minimalTenant();
    tenant.groups = [{ id: GROUP_ID, displayName: 'Engineering', members: [BOB] }];
    tenant.sites[0]!.members = ['engineering', GROUP_ID, 'BOB@contoso.onmicrosoft.com'];
    assert.doesNotThrow(() => validateTenant(tenant));
  });

  it('accepts libraries with folders and files, the site\'s Documents library by its title', () => {
    const tenant = minimalTenant();
    tenant.sites[0]!.lists = [
      {
        title: 'documents', fields: [{ name: 'Kind', type: 'Choice', choices: ['Report'] }], folders: ['Reports/2024', 'Empty'],
        files: [
          { path: 'Reports/2024/q1.txt', content: { text: 'Q1' }, Title: 'First quarter', Kind: 'Report', author: BOB, created: '2024-04-01T10:00:00Z' },
          { path: 'Reports/2024/q2.txt', content: { base64: 'UTI=' } },
          { path: 'logo.png', content: { file: 'documents/logo.png' } },
        ],
      },
      { title: 'Contracts', template: 101, url: 'Contracts', files: [{ path: 'a/b/c.pdf', content: { file: './c.pdf' } }] },
      { title: 'Tasks', folders: ['Backlog'] },
    ];
    assert.doesNotThrow(() => validateTenant(tenant));
  });

  it('reports every problem of folders and files at its JSON pointer', async () => {
    const tenant = minimalTenant();
    tenant.sites[0]!.lists = [
      {
        title: 'Documents', template: 100, url: 'Docs', folders: ['Reports/2024', '/rooted', 'a//b', 'what?'],
        files: [
          { path: 'Reports/2024/q1.txt', content: { text: 'Q1' }, Colour: 'red', author: 'ghost@contoso.onmicrosoft.com' },
          { path: 'reports/2024/Q1.TXT', content: { base64: 'UTI' } },
          { path: 'Reports', content: { file: '../outside.pdf' } },
          { path: 'empty.txt', content: {} },
          { path: 'both.txt', content: { text: 'a', base64: 'YQ==' } },
          { path: 'abs.txt', content: { file: '/etc/passwd' } },
          { path: 'none.txt' },
          { path: 'late.txt', content: { text: '' }, created: '2026-01-06T00:00:00Z', modified: '2026-01-05T00:00:00Z' },
        ],
      },
      { title: 'Tasks', url: 'Shared Documents', files: [{ path: 'a.txt', content: { text: '' } }] },
    ] as never;
    const error = await tenantError(() => validateTenant(tenant));
    const lib = '/sites/0/lists/0';
    const expected: [string, RegExp][] = [
      [`${lib}/template`, /Documents is the site's own document library: its template is 101/],
      [`${lib}/url`, /at "Shared Documents"/],
      [`${lib}/files`, /files go in a document library \(template 101\); this list's template is 100/],
      [`${lib}/folders/1`, /must be a path inside the list/],
      [`${lib}/folders/2`, /empty name/],
      [`${lib}/folders/3`, /"what\?": The name contains a character that is not allowed/],
      [`${lib}/files/0/Colour`, /no field named "Colour" in list "Documents"/],
      [`${lib}/files/0/author`, /not a directory user/],
      [`${lib}/files/1/path`, /duplicate file path "reports\/2024\/Q1.TXT" \(also \/sites\/0\/lists\/0\/files\/0\/path\)/],
      [`${lib}/files/1/content/base64`, /is not base64/],
      [`${lib}/files/2/path`, /"Reports" is also a folder \(\/sites\/0\/lists\/0\/folders\/0\)/],
      [`${lib}/files/2/content/file`, /climbs out of the tenant file's folder/],
      [`${lib}/files/3/content`, /exactly one of text, base64 or file/],
      [`${lib}/files/4/content`, /exactly one of text, base64 or file/],
      [`${lib}/files/5/content/file`, /relative to the tenant file's folder/],
      [`${lib}/files/6/content`, /is required/],
      [`${lib}/files/7/modified`, /before created/],
      ['/sites/0/lists/1/url', /"Shared Documents" is the URL of the site's Documents library/],
      ['/sites/0/lists/1/files', /files go in a document library/],
    ];
    assert.deepEqual(error.problems.map((p) => p.path).sort(), expected.map(([path]) => path).sort());
    for (const [path, message] of expected) assert.match(error.problems.find((p) => p.path === path)?.message ?? '', message, path);
  });

  it('rejects a document that is not an object', async () => {
    const error = await tenantError(() => validateTenant([]));
    assert.deepEqual(error.problems, [{ path: '', message: 'the document must be a JSON object' }]);
  });
});

describe('loadTenantFile', () => {
  it('says when the file does not exist', async () => {
    const file = join(await tempDir(), 'missing.json');
    const error = await tenantError(() => loadTenantFile(file));
    assert.match(error.message, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\s\\S]*file not found`));
  });

  it('locates a JSON syntax error', async () => {
    const file = join(await tempDir(), 'tenant.json');
    await writeFile(file, '{\n  "tenant": { "name": "contoso" },\n}\n');
    const error = await tenantError(() => loadTenantFile(file));
    assert.ok(error.message.includes(file), error.message);
    assert.match(error.message, /invalid JSON at line 3, column 1 \(position 37\)/);
  });

  it('reports a truncated file at its end', async () => {
    const file = join(await tempDir(), 'tenant.json');
    await writeFile(file, '{ "tenant": ');
    const error = await tenantError(() => loadTenantFile(file));
    assert.match(error.message, /invalid JSON at line 1, column 13/);
  });

  it('reports picture files that do not exist, relative to the file', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'pictures'));
    await writeFile(join(dir, 'pictures', 'alice.png'), await readFile(join(DEMO, '..', 'pictures', 'alice.png')));
    const tenant = minimalTenant();
    tenant.users[0]!.picture = 'pictures/alice.png';
    tenant.users[1]!.picture = 'pictures/bob.png';
    await writeFile(join(dir, 'tenant.json'), JSON.stringify(tenant));
    const error = await tenantError(() => loadTenantFile(join(dir, 'tenant.json')));
    assert.deepEqual(error.problems, [{ path: '/users/1/picture', message: `file not found: ${join(dir, 'pictures', 'bob.png')}` }]);
  });

  it('reports content files that do not exist, relative to the file', async () => {
    const dir = await tempDir();
    await mkdir(join(dir, 'documents'));
    await writeFile(join(dir, 'documents', 'here.txt'), 'here');
    const tenant = minimalTenant();
    tenant.sites[0]!.lists = [{
      title: 'Documents',
      files: [{ path: 'here.txt', content: { file: 'documents/here.txt' } }, { path: 'gone.txt', content: { file: 'documents/gone.txt' } }, { path: 'dir', content: { file: 'documents' } }],
    }];
    await writeFile(join(dir, 'tenant.json'), JSON.stringify(tenant));
    const error = await tenantError(() => loadTenantFile(join(dir, 'tenant.json')));
    assert.deepEqual(error.problems, [
      { path: '/sites/0/lists/0/files/1/content/file', message: `file not found: ${join(dir, 'documents', 'gone.txt')}` },
      { path: '/sites/0/lists/0/files/2/content/file', message: `file not found: ${join(dir, 'documents')}` },
    ]);
  });
});
