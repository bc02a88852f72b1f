// Minor versions (drafts) in a library through an unmodified @pnp/sp 4.x client (issue #11):
// EnableMinorVersions set by a list update; new files and new content are drafts (0.1, 0.2, …),
// Publish makes the next major version, UnPublish turns a major one back into a draft, a major
// check-in publishes, and past versions keep their VersionIds (512 × major + minor). With content
// approval too, drafts wait as drafts (3), Publish submits (2) and Approve gives the major number.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import '@pnp/sp/files/index.js';
import '@pnp/sp/folders/index.js';
import { CheckinType } from '@pnp/sp/files/index.js';
import { failure } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';
import '../helpers/pnp-file-types.ts';

const LIB = '/sites/dev/Shared Documents';
const ASSETS = '/sites/dev/SiteAssets';
const SP_EXCEPTION = '-2146232832, Microsoft.SharePoint.SPException';

describe('PnPjs: minor versions in a library against spemu', () => {
  const spemu = usePnpSite();

  const add = (folder: string, name: string, content: string) => spemu.sp.web.getFolderByServerRelativePath(folder).files.addUsingPath(name, content, { Overwrite: true });
  const label = async (url: string) => (await spemu.sp.web.getFileByServerRelativePath(url)()).UIVersionLabel;
  const history = async (url: string) => (await spemu.sp.web.getFileByServerRelativePath(url).versions()).map((v) => [v.VersionLabel, v.ID]).sort((a, b) => Number(a[1]) - Number(b[1]));
  /** A past version's bytes at its `_vti_history` URL, plain fetch. */
  const pastBytes = async (id: number, path: string) => (await fetch(`${spemu.site}/_vti_history/${id}/${path}`)).text();

  it('only a library may have minor versions; turning them on turns versioning on', async () => {
    const refused = await failure(spemu.sp.web.lists.getByTitle('Tasks').update({ EnableMinorVersions: true }));
    assert.deepEqual([refused.status, refused.code, refused.message], [400, SP_EXCEPTION, 'The list does not support minor versioning.']);
    assert.equal((await spemu.sp.web.lists.getByTitle('Tasks').select('EnableMinorVersions')()).EnableMinorVersions, false);
    const docs = spemu.sp.web.lists.getByTitle('Documents');
    await docs.update({ EnableVersioning: false });
    await docs.update({ EnableMinorVersions: true });
    const settings = await docs.select('EnableMinorVersions', 'EnableVersioning')();
    assert.deepEqual([settings.EnableMinorVersions, settings.EnableVersioning], [true, true]);
  });

  it('drafts, Publish, UnPublish, and past versions with their VersionIds and bytes', async () => {
    const url = `${LIB}/plan.txt`;
    const file = spemu.sp.web.getFileByServerRelativePath(url);
    const added = await add(LIB, 'plan.txt', 'draft one');
    assert.deepEqual([added.UIVersionLabel, added.MajorVersion, added.MinorVersion, added.UIVersion], ['0.1', 0, 1, 1], 'a new file is the draft 0.1');
    await file.setContent('draft two');
    assert.equal(await label(url), '0.2');
    const item = await file.getItem<{ OData__UIVersionString: string }>('OData__UIVersionString');
    assert.equal(item.OData__UIVersionString, '0.2');

    await file.publish('first release');
    const published = await file();
    assert.deepEqual([published.UIVersionLabel, published.UIVersion, published.CheckInComment], ['1.0', 512, 'first release']);
    assert.deepEqual(await history(url), [['0.1', 1], ['0.2', 2]]);
    assert.equal(await pastBytes(1, 'Shared Documents/plan.txt'), 'draft one');
    assert.equal(await file.getText(), 'draft two', 'publishing keeps the content');

    const again = await failure(file.publish('twice'));
    assert.deepEqual([again.status, again.code, again.message], [400, SP_EXCEPTION, 'The file "sites/dev/Shared Documents/plan.txt" is already published.']);
    await file.setContent('work on 2');
    assert.equal(await label(url), '1.1');
    const draftUnpublish = await failure(file.unpublish('no'));
    assert.deepEqual([draftUnpublish.status, draftUnpublish.message], [400, 'The file "sites/dev/Shared Documents/plan.txt" has no published version to unpublish.']);
    await file.publish('second');
    assert.equal(await label(url), '2.0');
    await file.unpublish('not yet');
    const unpublished = await file();
    assert.deepEqual([unpublished.UIVersionLabel, unpublished.CheckInComment], ['2.1', 'not yet']);
    assert.deepEqual((await history(url)).map(([l]) => l), ['0.1', '0.2', '1.0', '1.1', '2.0'], 'the major version stays in the history');

    // The list item's versions name them alike.
    const itemVersions = await spemu.sp.web.lists.getByTitle('Documents').items.getById((await file.getItem<{ Id: number }>('Id')).Id).versions();
    assert.deepEqual(itemVersions.map((v) => [v.VersionLabel, v.VersionId]).slice(0, 3), [['2.1', 1025], ['2.0', 1024], ['1.1', 513]]);
  });

  it('a major check-in publishes a draft; a minor one keeps its number', async () => {
    const url = `${LIB}/checked.txt`;
    const file = spemu.sp.web.getFileByServerRelativePath(url);
    await add(LIB, 'checked.txt', 'a');
    await file.checkout();
    await file.setContent('b');
    assert.equal(await label(url), '0.2');
    await file.checkin('still a draft', CheckinType.Minor);
    assert.equal(await label(url), '0.2');
    await file.checkout();
    await file.checkin('ready', CheckinType.Major);
    const after = await file();
    assert.deepEqual([after.UIVersionLabel, after.CheckInComment, after.CheckOutType], ['1.0', 'ready', 2]);
    const badType = await failure(spemu.sp.web.getFileByServerRelativePath(url).checkin('x', 7 as CheckinType));
    assert.equal(badType.status, 400);
  });

  it('versions by label and id: restore, delete, recycle and get a draft', async () => {
    const url = `${LIB}/labels.txt`;
    const file = spemu.sp.web.getFileByServerRelativePath(url);
    await add(LIB, 'labels.txt', 'v0.1');
    await file.setContent('v0.2');
    await file.publish('');
    await file.setContent('v1.1');
    assert.equal((await file.versions.getById(2)()).VersionLabel, '0.2');
    await file.versions.restoreByLabel('0.1');
    assert.deepEqual([await label(url), await file.getText()], ['1.2', 'v0.1'], 'a restore is a new draft');
    await file.versions.deleteByLabel('0.2');
    await file.versions.recycleByID(513);
    assert.deepEqual((await history(url)).map(([l]) => l), ['0.1', '1.0']);
    assert.equal((await failure(file.versions.deleteByLabel('1.2'))).status, 400, 'the current version stays');
  });

  it('with content approval too: drafts are drafts (3), Publish submits (2), Approve gives the major number', async () => {
    const assets = spemu.sp.web.lists.getByTitle('Site Assets');
    await assets.update({ EnableMinorVersions: true, EnableModeration: true });
    const url = `${ASSETS}/page.txt`;
    const file = spemu.sp.web.getFileByServerRelativePath(url);
    const status = async () => (await file.getItem<{ OData__ModerationStatus: number; OData__ModerationComments: string | null }>(
      'OData__ModerationStatus', 'OData__ModerationComments'));
    await add(ASSETS, 'page.txt', 'text');
    assert.deepEqual([await label(url), (await status()).OData__ModerationStatus], ['0.1', 3]);
    await file.publish('please');
    assert.deepEqual([await label(url), (await status()).OData__ModerationStatus], ['0.1', 2], 'submitted, still 0.1');
    await file.unpublish('withdrawn');
    assert.equal((await status()).OData__ModerationStatus, 3, 'taken back to draft');
    await file.publish('please again');
    await file.approve('fine');
    const approved = await status();
    assert.deepEqual([await label(url), approved.OData__ModerationStatus, approved.OData__ModerationComments], ['1.0', 0, 'fine']);
    await file.setContent('more');
    assert.deepEqual([await label(url), (await status()).OData__ModerationStatus], ['1.1', 3]);
    await file.publish('');
    await file.deny('no');
    assert.deepEqual([await label(url), (await status()).OData__ModerationStatus], ['1.1', 1], 'a denied draft keeps its number');
  });

  it('versioning off turns minor versions off; the next change is a major version again', async () => {
    const docs = spemu.sp.web.lists.getByTitle('Documents');
    await docs.update({ EnableVersioning: false });
    assert.equal((await docs.select('EnableMinorVersions')()).EnableMinorVersions, false);
    await docs.update({ EnableVersioning: true });
    const file = spemu.sp.web.getFileByServerRelativePath(`${LIB}/plan.txt`);
    assert.equal(await label(`${LIB}/plan.txt`), '2.1');
    await file.setContent('major again');
    assert.equal(await label(`${LIB}/plan.txt`), '3.0');
    const refused = await failure(file.publish(''));
    assert.equal(refused.message, 'You can only publish, unpublish  documents in a minor version enabled list');
  });
});
