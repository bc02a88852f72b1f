// An item attachment's content carries an ETag and honours If-Match, as a library file's does:
// `GET …/AttachmentFiles('name')/$value` (and `…/AttachmentFiles/getByFileName('name')/$value`)
// answers `ETag: "{GUID},N"`; each overwrite bumps N; a save (`PUT`, or `POST` with
// `X-HTTP-Method: PUT` as PnPjs's setContent sends) whose If-Match names another version answers
// files' 412 and writes nothing; the current etag, `*` or none writes. The check is made inside
// the write, so of saves sent at once with one etag exactly one wins.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import '@pnp/sp/webs/index.js';
import '@pnp/sp/lists/index.js';
import '@pnp/sp/items/index.js';
import '@pnp/sp/attachments/index.js';
import { InjectHeaders } from '@pnp/queryable';
import { demoBasic, demoDigest } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';
import { bodyHeldUntil } from '../helpers/held-body.ts';

const ALICE = 'alice@contoso.onmicrosoft.com';
const ETAG_FORM = /^"\{[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}\},\d+"$/;

describe('item attachments: ETag on $value and If-Match on saves', () => {
  const spemu = usePnpSite();
  let id: number;
  const items = () => `${spemu.site}/_api/web/lists/getbytitle('Attachment Etags')/items(${id})`;
  const byKey = (name: string) => `${items()}/AttachmentFiles('${name}')/$value`;
  const byFileName = (name: string) => `${items()}/AttachmentFiles/getByFileName('${name}')/$value`;

  async function headers(extra: Record<string, string> = {}): Promise<Record<string, string>> {
    return { Authorization: demoBasic(ALICE), Accept: 'application/json;odata=nometadata', 'X-RequestDigest': (await demoDigest(spemu.site, ALICE))!, ...extra };
  }
  const read = async (url: string) => {
    const r = await fetch(url, { headers: await headers() });
    assert.equal(r.status, 200);
    return { etag: r.headers.get('etag')!, text: await r.text() };
  };
  /** A save as PnPjs's setContent sends it (POST + X-HTTP-Method: PUT), or a real PUT. */
  const save = async (url: string, body: string, ifMatch?: string, verb: 'PUT' | 'POST' = 'POST') => {
    const extra: Record<string, string> = verb === 'POST' ? { 'X-HTTP-Method': 'PUT' } : {};
    if (ifMatch !== undefined) extra['If-Match'] = ifMatch;
    const r = await fetch(url, { method: verb, body, headers: await headers(extra) });
    return { status: r.status, text: await r.text() };
  };

  before(async () => {
    const { list } = await spemu.sp.web.lists.ensure('Attachment Etags');
    ({ Id: id } = await list.items.add({ Title: 'with files' }));
    await list.items.getById(id).attachmentFiles.add('a.txt', 'v1');
    await list.items.getById(id).attachmentFiles.add('b.txt', 'b1');
  });

  it('$value GET carries "{GUID},N", the same by key and by getByFileName, its own per attachment', async () => {
    const a = await read(byKey('a.txt'));
    assert.match(a.etag, ETAG_FORM);
    assert.equal(a.text, 'v1');
    assert.ok(a.etag.endsWith(',1"'), 'a new attachment is version 1');
    assert.deepEqual(await read(byFileName('a.txt')), a);
    assert.deepEqual(await read(byFileName('A.TXT')), a, 'names match in any case');
    const b = await read(byKey('b.txt'));
    assert.match(b.etag, ETAG_FORM);
    assert.notEqual(b.etag.split(',')[0], a.etag.split(',')[0], 'each attachment has its own GUID');
  });

  it('an overwrite bumps the version; a stale If-Match gets files\' 412 and writes nothing; current, * and none write', async () => {
    const first = (await read(byKey('a.txt'))).etag;
    assert.equal((await save(byKey('a.txt'), 'v2', first)).status, 204, 'the current etag writes (204, as a file\'s save)');
    const after = await read(byKey('a.txt'));
    assert.equal(after.text, 'v2');
    assert.notEqual(after.etag, first);
    assert.equal(after.etag.split(',')[0], first.split(',')[0], 'the GUID stays; the version moves');
    assert.equal(Number(after.etag.split(',')[1]!.replace('"', '')), Number(first.split(',')[1]!.replace('"', '')) + 1);

    for (const url of [byKey('a.txt'), byFileName('a.txt')]) {
      for (const verb of ['POST', 'PUT'] as const) {
        const stale = await save(url, 'lost', first, verb);
        assert.equal(stale.status, 412, `${verb} ${url}: ${stale.text}`);
        const error = JSON.parse(stale.text)['odata.error'];
        assert.equal(error.code, '-1, Microsoft.SharePoint.Client.ClientServiceException');
        assert.equal(error.message.value, `The request ETag value '${first}' does not match the object's ETag value '${after.etag}'.`);
      }
    }
    assert.deepEqual(await read(byKey('a.txt')), after, 'nothing written, the version did not move');
    assert.equal((await save(byKey('a.txt'), 'bad', '"not an etag"')).status, 412, 'an etag that names no version');
    assert.equal((await save(byKey('a.txt'), 'bad', first.replace(/,\d+"$/, ',99"'))).status, 412, 'a version ahead');

    // The bare version (`"2"`, `2`) names it as well, as for files and items.
    const version = after.etag.split(',')[1]!.replace('"', '');
    assert.equal((await save(byFileName('a.txt'), 'v3', `"${version}"`, 'PUT')).status, 204, 'a real PUT as well');
    assert.equal((await read(byKey('a.txt'))).text, 'v3');
    assert.equal((await save(byKey('a.txt'), 'v4', '*')).status, 204, 'If-Match: * always matches');
    assert.equal((await save(byKey('a.txt'), 'v5')).status, 204, 'no If-Match: the save overwrites');
    const last = await read(byKey('a.txt'));
    assert.equal(last.text, 'v5');
    assert.ok(last.etag.endsWith(',5"'), `five contents, version 5: ${last.etag}`);
    assert.equal((await read(byKey('b.txt'))).text, 'b1', 'the other attachment untouched');
  });

  it('PnPjs setContent overwrites and bumps the version; a stale If-Match through PnPjs is refused', async () => {
    const item = spemu.sp.web.lists.getByTitle('Attachment Etags').items.getById(id);
    const before = (await read(byKey('b.txt'))).etag;
    await item.attachmentFiles.getByName('b.txt').setContent('b2');
    assert.equal(await item.attachmentFiles.getByName('b.txt').getText(), 'b2');
    const after = (await read(byKey('b.txt'))).etag;
    assert.notEqual(after, before);
    // setContent sends no If-Match of its own; a caller adds one with PnPjs's InjectHeaders behaviour.
    await assert.rejects(
      item.attachmentFiles.getByName('b.txt').using(InjectHeaders({ 'If-Match': before })).setContent('lost'),
      (e: { status?: number }) => e.status === 412,
    );
    assert.equal(await item.attachmentFiles.getByName('b.txt').getText(), 'b2');
    await item.attachmentFiles.getByName('b.txt').using(InjectHeaders({ 'If-Match': after })).setContent('b3');
    assert.equal(await item.attachmentFiles.getByName('b.txt').getText(), 'b3');
  });

  it('a deleted and re-added attachment of the same name has a new GUID, so a new ETag text', async () => {
    const item = spemu.sp.web.lists.getByTitle('Attachment Etags').items.getById(id);
    await item.attachmentFiles.add('c.txt', 'old');
    const old = (await read(byKey('c.txt'))).etag;
    await item.attachmentFiles.getByName('c.txt').delete();
    await item.attachmentFiles.add('c.txt', 'new');
    const fresh = (await read(byKey('c.txt'))).etag;
    assert.ok(fresh.endsWith(',1"') && old.endsWith(',1"'));
    assert.notEqual(fresh, old);
  });

  it('saves sent at once with one etag: exactly one is written, the others answer 412', async () => {
    const current = (await read(byKey('a.txt'))).etag;
    // Each body's last bytes wait until every save has been checked before its body is read:
    // only the check inside the write tells them apart.
    let release!: () => void;
    const held = new Promise<void>((resolve) => { release = resolve; });
    const slowSave = async (text: string) => {
      const body = bodyHeldUntil(text, held);
      const r = await fetch(byKey('a.txt'), { method: 'POST', body, duplex: 'half', headers: await headers({ 'X-HTTP-Method': 'PUT', 'If-Match': current }) } as RequestInit);
      return { status: r.status, text: await r.text() };
    };
    const names = ['a', 'b', 'c', 'd', 'e'];
    const racing = names.map((n) => slowSave(`racer ${n}`));
    setTimeout(release, 500);
    const answers = await Promise.all(racing);
    assert.deepEqual(answers.map((a) => a.status).sort(), [204, 412, 412, 412, 412], JSON.stringify(answers));
    const winner = names[answers.findIndex((a) => a.status === 204)];
    assert.equal((await read(byKey('a.txt'))).text, `racer ${winner}`);
  });
});
