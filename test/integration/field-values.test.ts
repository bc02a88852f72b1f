// FieldValuesAsText / AsHtml: each field as the text SharePoint shows for it.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { DEMO_TENANT, useTestServer } from '../helpers/server.ts';

const demo = JSON.parse(readFileSync(DEMO_TENANT, 'utf8'));
const devSite = demo.sites.find((s: { url: string }) => s.url === '/sites/dev');
const tasks = devSite.lists.find((l: { title: string }) => l.title === 'Tasks');
const first = tasks.items[0];
const displayName = (upn: string) => demo.users.find((u: { upn: string }) => u.upn === upn).displayName;

describe('item FieldValuesAsText', () => {
  const spemu = useTestServer();

  const read = async (path: string) => {
    const r = await fetch(`${spemu.server.site()}/_api/web/lists/getbytitle('Tasks')/items(1)/${path}`, { headers: { accept: 'application/json;odata=nometadata' } });
    assert.equal(r.status, 200);
    return r.json() as Promise<Record<string, string>>;
  };

  it('shows people and lookups by name, booleans as Yes/No, dates in en-US form', async () => {
    const v = await read('FieldValuesAsText');
    assert.equal(v.Title, first.Title);
    assert.equal(v.Author, displayName(first.author));
    assert.equal(v.Editor, displayName(first.editor));
    assert.equal(v.Reviewers, first.Reviewers.map(displayName).join('; '));
    assert.equal(v.Done, first.Done ? 'Yes' : 'No');
    const created = new Date(first.created);
    const hour = created.getUTCHours() % 12 || 12;
    const expected = `${created.getUTCMonth() + 1}/${created.getUTCDate()}/${created.getUTCFullYear()} ${hour}:${String(created.getUTCMinutes()).padStart(2, '0')} ${created.getUTCHours() < 12 ? 'AM' : 'PM'}`;
    assert.equal(v.Created, expected);
    assert.equal(v.ID, '1');
  });

  it('encodes underscores in keys as SharePoint does', async () => {
    const v = await read('FieldValuesAsText');
    assert.equal(v.OData__x005f_UIVersionString, '1.0');
    assert.ok(!('OData__UIVersionString' in v));
  });

  it('escapes HTML in FieldValuesAsHtml', async () => {
    const r = await fetch(`${spemu.server.site()}/_api/web/lists/getbytitle('Tasks')/items`, {
      method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/json' }, body: JSON.stringify({ Title: '<b>"x" & y</b>' }),
    });
    const id = ((await r.json()) as { Id: number }).Id;
    const html = await fetch(`${spemu.server.site()}/_api/web/lists/getbytitle('Tasks')/items(${id})/FieldValuesAsHtml`, { headers: { accept: 'application/json;odata=nometadata' } });
    assert.equal(((await html.json()) as { Title: string }).Title, '&lt;b&gt;&quot;x&quot; &amp; y&lt;/b&gt;');
  });
});
