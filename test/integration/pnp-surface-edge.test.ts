// Hostile and edge-case input on the PnPjs surface (versions, permissions, web extras), by plain
// fetch: every refusal is SharePoint's error envelope (never a 500 or a stack trace), and
// version history stays numbered without gaps or duplicates under concurrent updates.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useTestServer } from '../helpers/server.ts';
import { ACCEPT } from '../helpers/wire.ts';

const MERGE = { 'X-HTTP-Method': 'MERGE', 'IF-MATCH': '*' };

describe('PnPjs surface: edge cases', () => {
  const spemu = useTestServer();
  let call: (path: string, init?: { method?: string; body?: unknown; headers?: Record<string, string> }) =>
    Promise<{ status: number; text: string; json: any }>;

  before(async () => {
    call = async (path, init = {}) => {
      const r = await fetch(`${spemu.server.site('/sites/dev')}/_api/${path}`, {
        method: init.method ?? 'GET',
        headers: { Accept: ACCEPT.nometadata, ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...init.headers },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await r.text();
      return { status: r.status, text, json: text ? JSON.parse(text) : undefined };
    };
    assert.equal((await call('web/lists', { method: 'POST', body: { Title: 'Edge Versions', BaseTemplate: 100, EnableVersioning: true } })).status, 201);
  });

  const items = "web/lists/getbytitle('Edge Versions')/items";

  it('junk version ids and query options answer SharePoint errors, not 500s', async () => {
    const { json: created } = await call(items, { method: 'POST', body: { Title: 'a' } });
    const base = `${items}(${created.Id})`;
    assert.equal((await call(base, { method: 'POST', body: { Title: 'b' }, headers: MERGE })).status, 204);
    const cases: Array<[string, string, number]> = [
      ['GET', 'versions(abc)', 400], ['GET', 'versions(0)', 404], ['GET', 'versions(513)', 404],
      ['GET', 'versions(999999999999)', 404], ['GET', 'versions(9999999999999999999999)', 404],
      ['GET', "versions/getbyid('x')", 404], ['GET', 'versions(562949953421312)/CreatedBy', 404],
      ['GET', 'versions?$select=Nope', 400], ['GET', 'versions?$expand=Nope', 400], ['GET', 'versions?$expand=CreatedBy/Groups', 400],
      ['GET', 'versions?$filter=Nope eq 1', 400], ['GET', 'versions?$orderby=Nope', 400], ['GET', 'versions?$top=-1', 400],
      ['DELETE', 'versions(1024)', 400], ['DELETE', 'versions(562949953421312)', 404], ['DELETE', 'versions(513)', 404],
      ['POST', 'versions', 405],
    ];
    for (const [method, path, status] of cases) {
      const r = await call(`${base}/${path}`, { method });
      assert.equal(r.status, status, `${method} ${path}: ${r.text}`);
      assert.ok(r.json['odata.error']?.code, `${method} ${path}: ${r.text}`);
      assert.doesNotMatch(r.text, /\bat .*\.ts:\d+/);
    }
    const security: Array<[string, number]> = [
      ["web/roledefinitions/getbyname('')", 404], ['web/roledefinitions/getbytype(99)', 404], ['web/roledefinitions?$select=Nope', 400],
      ['web/roleassignments?$expand=Nope', 400], ['web/roleassignments(99999999999)', 404],
      ["web/getUserEffectivePermissions(@u)?@u='junk'", 404], ["web/getUserEffectivePermissions(@u)?@u=''", 404],
      ["web/lists/getbytitle('Edge Versions')/reservelistitemid", 405], ['web/lists/ensuresiteassetslibrary', 405],
      ["web/webs(guid'zz')", 400], ['web/allproperties?$select=a/b', 400],
    ];
    for (const [path, status] of security) {
      const r = await call(path);
      assert.equal(r.status, status, `${path}: ${r.text}`);
      assert.ok(r.json['odata.error']?.code, `${path}: ${r.text}`);
    }
  });

  it("a list field named like a version's own property does not overwrite it", async () => {
    await call('web/lists', { method: 'POST', body: { Title: 'Edge Clash', BaseTemplate: 100, EnableVersioning: true } });
    const list = "web/lists/getbytitle('Edge Clash')";
    for (const title of ['VersionLabel', 'IsCurrentVersion', 'VersionId', 'CreatedBy']) {
      assert.equal((await call(`${list}/fields`, { method: 'POST', body: { Title: title, FieldTypeKind: 2 } })).status, 201);
    }
    const { json: created } = await call(`${list}/items`, { method: 'POST', body: { Title: 'a', VersionLabel: 'mine', IsCurrentVersion: 'x', CreatedBy: 'y' } });
    await call(`${list}/items(${created.Id})`, { method: 'POST', body: { Title: 'b' }, headers: MERGE });
    const r = await call(`${list}/items(${created.Id})/versions`);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.value.map((v: any) => [v.VersionLabel, v.IsCurrentVersion, v.VersionId, v.Title]),
      [['2.0', true, 1024, 'b'], ['1.0', false, 512, 'a']]);
    // Each property once on the wire.
    assert.equal(r.text.match(/"VersionLabel"/g)?.length, 2);
    const one = await call(`${list}/items(${created.Id})/versions(512)?$expand=CreatedBy&$select=VersionLabel,CreatedBy/Title`);
    assert.equal(one.status, 200, one.text);
    assert.equal(one.json.VersionLabel, '1.0');
    assert.equal(typeof one.json.CreatedBy.Title, 'string');
  });

  it('concurrent updates, with versioning toggled meanwhile, keep versions numbered without gaps or duplicates', async () => {
    const { json: created } = await call(items, { method: 'POST', body: { Title: 'start' } });
    const base = `${items}(${created.Id})`;
    const update = (t: string) => call(base, { method: 'POST', body: { Title: t }, headers: MERGE });
    const toggle = (on: boolean) => call("web/lists/getbytitle('Edge Versions')", { method: 'POST', body: { EnableVersioning: on }, headers: MERGE });
    const results = await Promise.all([
      ...Array.from({ length: 8 }, (_, i) => update(`a${i}`)), toggle(false),
      ...Array.from({ length: 8 }, (_, i) => update(`b${i}`)), toggle(true),
      ...Array.from({ length: 8 }, (_, i) => update(`c${i}`)),
    ]);
    for (const r of results) assert.ok(r.status === 204 || r.status === 200, r.text);
    const { json } = await call(`${base}/versions?$select=VersionId,VersionLabel,IsCurrentVersion`);
    const numbers = json.value.map((v: any) => v.VersionId / 512);
    const current = json.value.filter((v: any) => v.IsCurrentVersion);
    assert.equal(current.length, 1);
    assert.equal(numbers[0], current[0].VersionId / 512);
    // Newest first, one apart, down to 1.0.
    assert.deepEqual(numbers, Array.from({ length: numbers.length }, (_, i) => numbers.length - i));
    const item = await call(`${base}?$select=OData__UIVersionString`);
    assert.equal(item.json.OData__UIVersionString, `${numbers.length}.0`);
  });
});
