// SP.Web and SP.List with a plain `$select` are made from the properties it names only
// (src/fronts/rest/api/entity-shape.ts, issue #13), a field's SP.Field entity once per field
// record (request-cache.ts `derivedFrom`), through a route kept per URL, an API root
// kept with it and absolute URLs resolved once (request-cache.ts). Two things must hold:
// - the answer is the general path's: each property selected alone, and several together, are
//   exactly what the whole entity has, deferred links (verbose) included;
// - nothing is answered from a past state: a web, list or field renamed, an item added, inheritance
//   broken through one instance is seen at once on the same URLs, on that instance and on a
//   second one sharing the database (a SQLite file on that leg, as --workers run; PostgreSQL on
//   the other) — each URL first read through both, so both hold whatever they keep.
// Plain fetch, exact bodies.

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startSharedInstances, type TestServer } from '../helpers/server.ts';
import { testBackend } from '../helpers/postgres.ts';
import { demoBasic, demoDigest } from '../helpers/pnp.ts';

const ALICE = 'alice@contoso.onmicrosoft.com';
const DAVE = 'dave@contoso.onmicrosoft.com';
const NOMETADATA = 'application/json;odata=nometadata';
const VERBOSE = 'application/json;odata=verbose';
type Json = Record<string, unknown>;

describe(`SP.Web and SP.List under a plain $select: the general path's answer, never a past one, on both instances (${testBackend()})`, () => {
  const servers: TestServer[] = [];
  let close: () => Promise<void>;
  const sites = () => servers.map((s) => s.site('/sites/dev'));

  before(async () => {
    const shared = await startSharedInstances('spemu-entity-select-');
    close = shared.close;
    servers.push(...shared.servers);
  });
  after(async () => { await close(); });

  async function get(site: string, path: string, options: { user?: string; accept?: string } = {}): Promise<{ status: number; body: Json }> {
    const r = await fetch(`${site}/_api/${path}`, { headers: { Accept: options.accept ?? NOMETADATA, Authorization: demoBasic(options.user ?? ALICE) } });
    return { status: r.status, body: await r.json() as Json };
  }
  /** A write through the first instance, as Alice. */
  async function write(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<number> {
    const site = sites()[0]!;
    const r = await fetch(`${site}/_api/${path}`, {
      method,
      headers: { Accept: NOMETADATA, 'Content-Type': 'application/json', Authorization: demoBasic(ALICE), 'X-RequestDigest': (await demoDigest(site, ALICE))!, ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    await r.arrayBuffer();
    return r.status;
  }
  /** The same URL through each instance, read twice (the second answer comes from whatever was kept). */
  async function everywhere(path: string, expected: Json, when: string, user = ALICE): Promise<void> {
    for (const [i, site] of sites().entries()) {
      for (const read of [1, 2]) {
        const { status, body } = await get(site, path, { user });
        assert.equal(status, 200, `${when}: ${path} through instance ${i + 1}`);
        assert.deepEqual(body, expected, `${when}: ${path} through instance ${i + 1}, read ${read}`);
      }
    }
  }

  it('each property of the web and of a list, selected alone or together, is what the whole entity has', async () => {
    const site = sites()[0]!;
    const tasks = (await get(site, "web/lists/getbytitle('Tasks')?$select=Id")).body.Id as string;
    for (const path of ['web', "web/lists/getbytitle('Tasks')", `web/lists(guid'${tasks}')`]) {
      const whole = (await get(site, path)).body;
      const names = Object.keys(whole).filter((n) => n !== 'CurrentChangeToken');
      assert.ok(names.length > 30, `${path}: ${names.length} properties`);
      for (const name of names) {
        // Any case, as SharePoint matches `$select`; the answer keeps the entity's spelling.
        assert.deepEqual((await get(site, `${path}?$select=${name.toLowerCase()}`)).body, { [name]: whole[name] }, `${path}?$select=${name}`);
      }
      // Together, in reverse and repeated: the entity's order, each once.
      const together = (await get(site, `${path}?$select=${[...names].reverse().join(',')},${names[0]}`)).body;
      assert.deepEqual(Object.keys(together), names, path);
      assert.deepEqual(together, Object.fromEntries(names.map((n) => [n, whole[n]])), path);
      // A navigation property named alone keeps its deferred link (verbose), and the securable properties follow the fixed ones.
      const verbose = (await get(site, `${path}?$select=RoleAssignments,HasUniqueRoleAssignments,Title,EffectiveBasePermissions`, { accept: VERBOSE })).body.d as Json;
      assert.deepEqual(Object.keys(verbose), ['__metadata', 'RoleAssignments', 'Title', 'EffectiveBasePermissions', 'HasUniqueRoleAssignments'], path);
      assert.match((verbose.RoleAssignments as { __deferred: { uri: string } }).__deferred.uri, /\/RoleAssignments$/);
      assert.equal(typeof verbose.HasUniqueRoleAssignments, 'boolean');
      // An unknown name is still SharePoint's 400.
      assert.equal((await get(site, `${path}?$select=Title,NoSuchProperty`)).status, 400);
    }
    // The web's lists: each as the whole collection has it, paged alike.
    const lists = (await get(site, 'web/lists')).body.value as Json[];
    const names = ['Title', 'Id', 'ItemCount', 'Hidden', 'ParentWebUrl', 'ImagePath'];
    const pick = (l: Json) => Object.fromEntries(names.map((n) => [n, l[n]]));
    assert.deepEqual((await get(site, `web/lists?$select=${names.join(',')}`)).body, { value: lists.map(pick) });
    assert.deepEqual((await get(site, `web/lists?$select=${names.join(',')}&$skip=1&$top=2`)).body, { value: lists.slice(1, 3).map(pick) });
  });

  it('a web renamed through one instance answers by its new title and description at once, on both', async () => {
    const paths = ['web?$select=Title', 'web?$select=Description,Title', 'web?$select=title'];
    const before = (await get(sites()[0]!, 'web?$select=Title,Description')).body as { Title: string; Description: string };
    for (const path of paths) await everywhere(path, path === 'web?$select=Description,Title' ? before : { Title: before.Title }, 'before');

    assert.equal(await write('POST', 'web', { Title: 'Renamed once', Description: 'first' }, { 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*' }), 204);
    for (const path of paths) await everywhere(path, path === 'web?$select=Description,Title' ? { Description: 'first', Title: 'Renamed once' } : { Title: 'Renamed once' }, 'renamed');

    assert.equal(await write('POST', 'web', { Title: before.Title, Description: before.Description }, { 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*' }), 204);
    for (const path of paths) await everywhere(path, path === 'web?$select=Description,Title' ? before : { Title: before.Title }, 'renamed back');
  });

  it('a list renamed, added to, or made unique answers by its new state at once, on both, for each caller', async () => {
    assert.equal(await write('POST', 'web/lists', { Title: 'Selected', BaseTemplate: 100 }), 201);
    const id = (await get(sites()[0]!, "web/lists/getbytitle('Selected')?$select=Id")).body.Id as string;
    const byGuid = `web/lists(guid'${id}')?$select=Title,ItemCount`;
    const byTitle = (title: string) => `web/lists/getbytitle('${title}')?$select=ItemCount,Title`;
    await everywhere(byGuid, { ItemCount: 0, Title: 'Selected' }, 'new');
    await everywhere(byTitle('Selected'), { ItemCount: 0, Title: 'Selected' }, 'new');

    assert.equal(await write('POST', "web/lists/getbytitle('Selected')/items", { Title: 'one' }), 201);
    await everywhere(byGuid, { ItemCount: 1, Title: 'Selected' }, 'an item added');
    await everywhere(byTitle('Selected'), { ItemCount: 1, Title: 'Selected' }, 'an item added');

    assert.equal(await write('POST', `web/lists(guid'${id}')`, { Title: 'Reselected' }, { 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*' }), 204);
    await everywhere(byGuid, { ItemCount: 1, Title: 'Reselected' }, 'renamed');
    await everywhere(byTitle('Reselected'), { ItemCount: 1, Title: 'Reselected' }, 'renamed');
    for (const site of sites()) assert.equal((await get(site, byTitle('Selected'))).status, 404, 'the old title');
    for (const [i, site] of sites().entries()) {
      const titles = ((await get(site, 'web/lists?$select=Title,ItemCount')).body.value as Json[]).filter((l) => String(l.Title).endsWith('elected'));
      assert.deepEqual(titles, [{ Title: 'Reselected', ItemCount: 1 }], `the web's lists, renamed, through instance ${i + 1}`);
    }

    // Dave (a visitor) reads the list; once it stops inheriting (no assignment copied) he may not,
    // while Alice, its owner, still sees it unique — the same URLs, on both instances.
    const security = `web/lists(guid'${id}')?$select=HasUniqueRoleAssignments,Title`;
    await everywhere(security, { Title: 'Reselected', HasUniqueRoleAssignments: false }, 'inheriting');
    await everywhere(security, { Title: 'Reselected', HasUniqueRoleAssignments: false }, 'inheriting, as Dave', DAVE);
    assert.equal(await write('POST', `web/lists(guid'${id}')/breakroleinheritance(copyRoleAssignments=false,clearSubscopes=false)`), 200);
    await everywhere(security, { Title: 'Reselected', HasUniqueRoleAssignments: true }, 'unique');
    for (const [i, site] of sites().entries()) assert.equal((await get(site, security, { user: DAVE })).status, 403, `Dave, unique, through instance ${i + 1}`);
  });

  it('a field changed through one instance answers by its new definition at once, on both (one field, the collection, a site column)', async () => {
    assert.equal(await write('POST', 'web/lists', { Title: 'Shaded', BaseTemplate: 100 }), 201);
    assert.equal(await write('POST', "web/lists/getbytitle('Shaded')/fields", { Title: 'Shade', FieldTypeKind: 2 }), 201);
    assert.equal(await write('POST', 'web/fields', { Title: 'Tint', FieldTypeKind: 2 }), 201);
    const one = "web/lists/getbytitle('Shaded')/fields/getbyinternalnameortitle('Shade')?$select=Title,Description,MaxLength";
    const all = "web/lists/getbytitle('Shaded')/fields?$filter=InternalName eq 'Shade'&$select=Title,Description";
    const column = "web/fields/getbyinternalnameortitle('Tint')?$select=Title,Description";
    await everywhere(one, { Title: 'Shade', Description: '', MaxLength: 255 }, 'new');
    await everywhere(all, { value: [{ Title: 'Shade', Description: '' }] }, 'new');
    await everywhere(column, { Title: 'Tint', Description: '' }, 'new');

    const merge = { 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*' };
    assert.equal(await write('POST', "web/lists/getbytitle('Shaded')/fields/getbyinternalnameortitle('Shade')", { Title: 'Hue', Description: 'changed' }, merge), 204);
    assert.equal(await write('POST', "web/fields/getbyinternalnameortitle('Tint')", { Title: 'Tone', Description: 'changed too' }, merge), 204);
    await everywhere(one.replace("'Shade'", "'Hue'"), { Title: 'Hue', Description: 'changed', MaxLength: 255 }, 'changed');
    await everywhere(all, { value: [{ Title: 'Hue', Description: 'changed' }] }, 'changed');
    await everywhere(column.replace("'Tint'", "'Tone'"), { Title: 'Tone', Description: 'changed too' }, 'changed');
  });
});
