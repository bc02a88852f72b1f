// Content approval in a library (EnableModeration) through an unmodified @pnp/sp 4.x client
// (issue #11): turned on by a list update, it brings the _ModerationStatus and
// _ModerationComments fields; every new file or new content waits for approval (2), Approve
// and Deny decide (0, 1) with a comment, and turning it off brings back the default library's
// refusal. Each state is read back from the item with plain fetch too.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import '@pnp/sp/files/index.js';
import '@pnp/sp/folders/index.js';
import { useTestServer } from '../helpers/server.ts';
import { failure, pnpFor } from '../helpers/pnp.ts';
import { bearerFor } from '../helpers/bearer.ts';
import '../helpers/pnp-file-types.ts';

const SECRET = 'pnp-files-approval-secret-0123456789abcdef';
const BOB = 'bob@contoso.onmicrosoft.com'; // a member of /sites/dev
const DAVE = 'dave@contoso.onmicrosoft.com'; // a visitor of /sites/dev
const LIB = '/sites/dev/SiteAssets';
const SP_EXCEPTION = '-2146232832, Microsoft.SharePoint.SPException';

describe('PnPjs: content approval in a library against spemu', () => {
  const spemu = useTestServer({ tokenSecret: SECRET });
  let sp: SPFI;
  let member: SPFI;
  let visitor: SPFI;
  let site: string;

  before(async () => {
    site = spemu.server.site('/sites/dev');
    sp = pnpFor(site);
    member = pnpFor(site, { Authorization: await bearerFor(SECRET, BOB) });
    visitor = pnpFor(site, { Authorization: await bearerFor(SECRET, DAVE) });
  });

  const library = () => sp.web.lists.getByTitle('Site Assets');
  /** The item's approval fields, read with plain fetch in the verbose dialect. */
  async function approval(name: string): Promise<[number | null, string | null]> {
    const r = await fetch(`${site}/_api/web/GetFileByServerRelativePath(decodedurl='${encodeURIComponent(`${LIB}/${name}`)}')/ListItemAllFields?$select=OData__ModerationStatus,OData__ModerationComments`,
      { headers: { Accept: 'application/json;odata=verbose' } });
    assert.equal(r.status, 200);
    const d = ((await r.json()) as { d: { OData__ModerationStatus: number | null; OData__ModerationComments: string | null } }).d;
    return [d.OData__ModerationStatus, d.OData__ModerationComments];
  }
  const add = (name: string, content: string) => sp.web.getFolderByServerRelativePath(LIB).files.addUsingPath(name, content, { Overwrite: true });

  it('EnableModeration on: files there are approved, new content waits; Approve and Deny decide with a comment', async () => {
    await add('before.txt', 'there before');
    assert.equal((await failure(visitor.web.lists.getByTitle('Site Assets').update({ EnableModeration: true }))).status, 403, 'a list setting needs ManageLists');
    await library().update({ EnableModeration: true });
    assert.equal((await library().select('EnableModeration')()).EnableModeration, true);
    const fields = await library().fields.filter("InternalName eq '_ModerationStatus' or InternalName eq '_ModerationComments'").select('InternalName')();
    assert.deepEqual(fields.map((f) => f.InternalName).sort(), ['_ModerationComments', '_ModerationStatus']);
    assert.deepEqual(await approval('before.txt'), [0, null], 'what was there is approved');

    await add('new.txt', 'v1');
    assert.deepEqual(await approval('new.txt'), [2, null], 'a new file is pending');
    const file = sp.web.getFileByServerRelativePath(`${LIB}/new.txt`);
    assert.equal((await failure(member.web.getFileByServerRelativePath(`${LIB}/new.txt`).approve('ok'))).status, 403, 'members cannot approve');
    await file.approve('looks right');
    assert.deepEqual(await approval('new.txt'), [0, 'looks right']);
    assert.equal((await file()).UIVersionLabel, '1.0', 'approving makes no version');
    // A change of the item's fields sends it back for approval too.
    await (await file.getItem()).update({ Title: 'New title' });
    assert.deepEqual(await approval('new.txt'), [2, null], 'an edited item waits again');
    await file.approve('title is fine');

    await file.setContent('v2');
    assert.deepEqual(await approval('new.txt'), [2, null], 'new content waits again, the comment cleared');
    await file.deny("not like this");
    assert.deepEqual(await approval('new.txt'), [1, 'not like this']);
    assert.equal(await file.getText(), 'v2', 'a denied file keeps its content');

    // Publishing still needs minor versions.
    const publish = await failure(file.publish('go'));
    assert.deepEqual([publish.status, publish.code], [400, SP_EXCEPTION]);
  });

  it('EnableModeration off again: Approve is refused as in a default library, the fields stay', async () => {
    await library().update({ EnableModeration: false });
    assert.equal((await library().select('EnableModeration')()).EnableModeration, false);
    const refused = await failure(sp.web.getFileByServerRelativePath(`${LIB}/new.txt`).approve('late'));
    assert.deepEqual([refused.status, refused.message], [400, 'Content approval is not enabled for this list.']);
    await add('after.txt', 'no approval');
    assert.deepEqual(await approval('after.txt'), [null, null], 'nothing waits');
    assert.deepEqual(await approval('new.txt'), [1, 'not like this'], 'the last decision is kept');
  });

  it('a list that is no library: content approval of list items is not built, so turning it on is refused (501)', async () => {
    const refused = await failure(sp.web.lists.getByTitle('Tasks').update({ EnableModeration: true }));
    assert.deepEqual([refused.status, refused.code], [501, '-1, Microsoft.SharePoint.Client.NotSupportedException']);
    const created = await failure(sp.web.lists.add('Approved tasks', '', 100, false, { EnableModeration: true }));
    assert.equal(created.status, 501);
    assert.equal((await sp.web.lists.filter("Title eq 'Approved tasks'")()).length, 0, 'no list made');
    assert.equal((await sp.web.lists.getByTitle('Tasks').select('EnableModeration')()).EnableModeration, false);
  });
});
