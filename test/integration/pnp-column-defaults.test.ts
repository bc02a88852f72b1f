// Column defaults per folder through an unmodified @pnp/sp 4.x client (`@pnp/sp/column-defaults`),
// as the upstream column-defaults.ts drives them: the library's
// `Forms/client_LocationBasedDefaults.html` read (404 when there is none) and written,
// `vti_x005f_listname` from a folder's property bag, the LocationBasedMetadataDefaultsReceiver
// looked for and added. Then what SharePoint's receiver does with them: a new file takes the
// default of its nearest folder entry; new content for a file there does not; a broken defaults
// file breaks no upload.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { IList } from '@pnp/sp/lists/index.js';
import '@pnp/sp/folders/index.js';
import '@pnp/sp/files/index.js';
import '@pnp/sp/column-defaults/index.js';
import '@pnp/sp/batching.js';
import { failure, pnpAsDemoUser, pnpFor } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';
import '../helpers/pnp-types.ts';
import '../helpers/pnp-file-types.ts';
import '../helpers/pnp-batching-types.ts';
import '../helpers/pnp-column-default-types.ts';

const LIST = 'DefaultColumnValuesTests';
const ROOT = `/sites/dev/${LIST}`;
const FILE = `${ROOT}/Forms/client_LocationBasedDefaults.html`;

type Values = { TextField: string | null; NumberField: number | null; MultiChoiceField: string[] | null };

describe('PnPjs column defaults against spemu', () => {
  const spemu = usePnpSite();
  let list: IList;

  before(async () => {
    const sp = spemu.sp;
    const ler = await sp.web.lists.ensure(LIST, '', 101);
    list = ler.list;
    assert.equal(ler.created, true);
    const [batchSP, execute] = sp.batched();
    const fields = batchSP.web.lists.getByTitle(LIST).fields;
    void fields.addText('TextField');
    void fields.addNumber('NumberField');
    void fields.addMultiChoice('MultiChoiceField', { Choices: ['Item 1', 'Item 2', 'Item 3'] });
    await execute();
  });

  const valuesOf = async (url: string): Promise<Values> =>
    spemu.sp.web.getFileByServerRelativePath(url).getItem<Values>('TextField', 'NumberField', 'MultiChoiceField');

  it('a library without defaults: its defaults file is 404 (FileNotFound), so none; no receiver', async () => {
    const missing = await failure(spemu.sp.web.getFileByServerRelativePath(FILE)());
    assert.equal(missing.status, 404);
    assert.equal(missing.code, '-2130575338, Microsoft.SharePoint.SPException');
    assert.equal(missing.message, `The file ${FILE} does not exist.`);
    assert.deepEqual(await list.getDefaultColumnValues(), []);
    assert.deepEqual(await list.rootFolder.getDefaultColumnValues(), []);
    assert.deepEqual(await list.eventReceivers(), []);
  });

  it('set root folder default values: read back as the file stores them', async () => {
    await list.rootFolder.setDefaultColumnValues([
      { name: 'TextField', value: 'Text Default' }, { name: 'NumberField', value: 1 }, { name: 'MultiChoiceField', value: ['Item 1', 'Item 3'] },
    ]);
    const defaults = await list.rootFolder.getDefaultColumnValues();
    assert.deepEqual(defaults.map((d) => [d.name, d.path, d.value]).sort(), [
      ['MultiChoiceField', ROOT, 'Item 1;Item 3'], ['NumberField', ROOT, '1'], ['TextField', ROOT, 'Text Default'],
    ]);
    // The file is in the library's Forms folder, which is no item and no listed folder.
    const xml = await spemu.sp.web.getFileByServerRelativePath(FILE).getText();
    assert.match(xml, /^<MetadataDefaults><a href="\/sites\/dev\/DefaultColumnValuesTests"><DefaultValue FieldName="TextField">Text Default<\/DefaultValue>/);
    const forms = await spemu.sp.web.getFolderByServerRelativePath(`${ROOT}/Forms`)<{ Name: string; ItemCount: number }>();
    assert.equal(forms.Name, 'Forms');
    assert.equal(forms.ItemCount, 1);
    assert.equal((await list.items()).length, 0);
    // PnPjs added the receiver once: it is listed now, and a second set finds it and adds none.
    const receivers = await list.eventReceivers() as Array<{ ReceiverName: string; EventType: number }>;
    assert.deepEqual(receivers.map((r) => [r.ReceiverName, r.EventType]), [['LocationBasedMetadataDefaultsReceiver ItemAdded', 10001]]);
  });

  it('set sub folder default values: the folder reads only its own', async () => {
    const far = await list.rootFolder.folders.addUsingPath('fld_sub');
    const folder = list.rootFolder.folders.getByUrl(far.Name);
    await folder.setDefaultColumnValues([
      { name: 'TextField', value: '#PnPjs' }, { name: 'NumberField', value: 14 }, { name: 'MultiChoiceField', value: ['Item 1', 'Item 2'] },
    ]);
    const defaults = await folder.getDefaultColumnValues();
    assert.deepEqual(defaults.map((d) => [d.name, d.value]).sort(), [['MultiChoiceField', 'Item 1;Item 2'], ['NumberField', '14'], ['TextField', '#PnPjs']]);
    // merge: the root's stay.
    assert.equal((await list.getDefaultColumnValues()).length, 6);
  });

  it('set list values: every path, as written', async () => {
    await list.rootFolder.folders.addUsingPath('fld_list');
    await list.setDefaultColumnValues([
      { name: 'TextField', path: ROOT, value: '#PnPjs Rocks!' },
      { name: 'NumberField', path: ROOT, value: 42 },
      { name: 'MultiChoiceField', path: ROOT, value: ['Item 1', 'Item 2'] },
      { name: 'TextField', path: `${ROOT}/fld_list`, value: '#PnPjs Rocks in subfolders too!' },
      { name: 'MultiChoiceField', path: `${ROOT}/fld_list`, value: ['Item 1'] },
    ]);
    const defaults = await list.getDefaultColumnValues();
    assert.deepEqual(defaults.map((d) => [d.path, d.name, d.value]), [
      [ROOT, 'TextField', '#PnPjs Rocks!'], [ROOT, 'NumberField', '42'], [ROOT, 'MultiChoiceField', 'Item 1;Item 2'],
      [`${ROOT}/fld_list`, 'TextField', '#PnPjs Rocks in subfolders too!'], [`${ROOT}/fld_list`, 'MultiChoiceField', 'Item 1'],
    ]);
  });

  it('a new file takes its nearest folder entry per column; new content for a file there keeps its values', async () => {
    await spemu.sp.web.getFolderByServerRelativePath(ROOT).files.addUsingPath('root.txt', 'root');
    assert.deepEqual({ ...pick(await valuesOf(`${ROOT}/root.txt`)) }, { TextField: '#PnPjs Rocks!', NumberField: 42, MultiChoiceField: ['Item 1', 'Item 2'] });
    // fld_list's own entry wins for TextField and MultiChoiceField; NumberField comes from the root.
    await spemu.sp.web.getFolderByServerRelativePath(`${ROOT}/fld_list`).folders.addUsingPath('deeper');
    await spemu.sp.web.getFolderByServerRelativePath(`${ROOT}/fld_list/deeper`).files.addUsingPath('a.txt', 'a');
    assert.deepEqual(pick(await valuesOf(`${ROOT}/fld_list/deeper/a.txt`)), { TextField: '#PnPjs Rocks in subfolders too!', NumberField: 42, MultiChoiceField: ['Item 1'] });
    // An explicit value wins: set on the file, then new content (overwrite) is no ItemAdded.
    const item = await spemu.sp.web.getFileByServerRelativePath(`${ROOT}/fld_list/deeper/a.txt`).getItem();
    await item.update({ TextField: 'mine', NumberField: 7 });
    await spemu.sp.web.getFolderByServerRelativePath(`${ROOT}/fld_list/deeper`).files.addUsingPath('a.txt', 'again', { Overwrite: true });
    assert.deepEqual(pick(await valuesOf(`${ROOT}/fld_list/deeper/a.txt`)), { TextField: 'mine', NumberField: 7, MultiChoiceField: ['Item 1'] });
  });

  it('clear all defaults: setDefaultColumnValues([]) leaves none, and new files take none', async () => {
    assert.ok((await list.getDefaultColumnValues()).length > 0);
    await list.setDefaultColumnValues([]);
    assert.deepEqual(await list.getDefaultColumnValues(), []);
    await spemu.sp.web.getFolderByServerRelativePath(ROOT).files.addUsingPath('after-clear.txt', 'x');
    assert.deepEqual(pick(await valuesOf(`${ROOT}/after-clear.txt`)), { TextField: null, NumberField: null, MultiChoiceField: [] });
  });

  it('clear folder defaults: the folder has none left, the others stay', async () => {
    await list.rootFolder.setDefaultColumnValues([{ name: 'TextField', value: 'root text' }]);
    const far = await list.rootFolder.folders.addUsingPath('fld_clear');
    const folder = list.rootFolder.folders.getByUrl(far.Name);
    await folder.setDefaultColumnValues([
      { name: 'TextField', value: '#PnPjs Rocks!' }, { name: 'NumberField', value: 42 }, { name: 'MultiChoiceField', value: ['Item 1', 'Item 2'] },
    ]);
    assert.equal((await folder.getDefaultColumnValues()).length, 3);
    await folder.clearDefaultColumnValues();
    assert.deepEqual(await folder.getDefaultColumnValues(), []);
    assert.deepEqual((await list.getDefaultColumnValues()).map((d) => [d.path, d.name, d.value]), [[ROOT, 'TextField', 'root text']]);
    // Its files now take the root's.
    await spemu.sp.web.getFolderByServerRelativePath(`${ROOT}/fld_clear`).files.addUsingPath('c.txt', 'c');
    assert.equal((await valuesOf(`${ROOT}/fld_clear/c.txt`)).TextField, 'root text');
  });

  it('a malformed defaults file breaks no upload: what reads is applied, the rest passed over', async () => {
    const forms = spemu.sp.web.getFolderByServerRelativePath(`${ROOT}/Forms`);
    await forms.files.addUsingPath('client_LocationBasedDefaults.html',
      `<MetadataDefaults><a href="${ROOT.replace(/ /g, '%20')}"><DefaultValue FieldName="NumberField">not a number</DefaultValue>`
      + '<DefaultValue FieldName="NoSuchField">x</DefaultValue><DefaultValue FieldName="TextField">ok &amp; fine</DefaultValue></a><a href=', { Overwrite: true });
    await spemu.sp.web.getFolderByServerRelativePath(ROOT).files.addUsingPath('m1.txt', 'm');
    assert.deepEqual(pick(await valuesOf(`${ROOT}/m1.txt`)), { TextField: 'ok & fine', NumberField: null, MultiChoiceField: [] });
    await forms.files.addUsingPath('client_LocationBasedDefaults.html', new Uint8Array([0xff, 0xfe, 0x00, 0x3c, 0x61]).buffer, { Overwrite: true });
    await spemu.sp.web.getFolderByServerRelativePath(ROOT).files.addUsingPath('m2.txt', 'm');
    assert.deepEqual(pick(await valuesOf(`${ROOT}/m2.txt`)), { TextField: null, NumberField: null, MultiChoiceField: [] });
  });

  it('writing the defaults takes Manage Lists (a visitor is refused); a member\'s upload takes them', async () => {
    await list.rootFolder.setDefaultColumnValues([{ name: 'TextField', value: 'owner set' }]);
    const dave = await pnpAsDemoUser(spemu.site, 'dave@contoso.onmicrosoft.com');
    const denied = await failure(dave.web.lists.getByTitle(LIST).setDefaultColumnValues([{ name: 'TextField', path: ROOT, value: 'dave' }]));
    assert.equal(denied.status, 403);
    assert.deepEqual((await dave.web.lists.getByTitle(LIST).getDefaultColumnValues()).map((d) => d.value), ['owner set'], 'a visitor reads them');
    const bob = await pnpAsDemoUser(spemu.site, 'bob@contoso.onmicrosoft.com');
    await bob.web.getFolderByServerRelativePath(ROOT).files.addUsingPath('bob.txt', 'b');
    assert.equal((await valuesOf(`${ROOT}/bob.txt`)).TextField, 'owner set');
  });

  it('the defaults file as a file: new content by setContent, then deleted (no defaults, no receiver)', async () => {
    const file = spemu.sp.web.getFileByServerRelativePath(FILE);
    const before = await file<{ UIVersion: number; Name: string }>();
    assert.equal(before.Name, 'client_LocationBasedDefaults.html');
    await file.setContent(`<MetadataDefaults><a href="${ROOT}"><DefaultValue FieldName="NumberField">5</DefaultValue></a></MetadataDefaults>`);
    assert.deepEqual((await list.getDefaultColumnValues()).map((d) => [d.name, d.value]), [['NumberField', '5']]);
    assert.equal((await file<{ UIVersion: number }>()).UIVersion, before.UIVersion + 512, 'a save is a new version of it');
    await file.delete();
    assert.equal((await failure(file())).status, 404);
    assert.deepEqual(await list.getDefaultColumnValues(), []);
    assert.deepEqual(await list.eventReceivers(), []);
    await spemu.sp.web.getFolderByServerRelativePath(ROOT).files.addUsingPath('no-defaults.txt', 'n');
    assert.equal((await valuesOf(`${ROOT}/no-defaults.txt`)).NumberField, null);
  });

  it('in a subweb, as the upstream suite runs (its test web): the web found from the folder\'s Properties', async () => {
    await spemu.sp.web.webs.add('Column defaults web', 'coldefaults');
    const sub = pnpFor(`${spemu.site}/coldefaults`);
    const { list: lib } = await sub.web.lists.ensure('SubLib', '', 101);
    await lib.fields.addText('TextField');
    await lib.rootFolder.setDefaultColumnValues([{ name: 'TextField', value: 'in the subweb' }]);
    assert.deepEqual((await lib.rootFolder.getDefaultColumnValues()).map((d) => [d.path, d.value]), [['/sites/dev/coldefaults/SubLib', 'in the subweb']]);
    await sub.web.getFolderByServerRelativePath('/sites/dev/coldefaults/SubLib').files.addUsingPath('s.txt', 's');
    const item = await sub.web.getFileByServerRelativePath('/sites/dev/coldefaults/SubLib/s.txt').getItem<{ TextField: string }>('TextField');
    assert.equal(item.TextField, 'in the subweb');
    // A library with a defaults file deletes (its Forms files go with it), and one made again under its name has none.
    await lib.delete();
    const { list: again } = await sub.web.lists.ensure('SubLib', '', 101);
    assert.deepEqual(await again.getDefaultColumnValues(), []);
  });

  it('a list that is no library has no Forms folder: its files are refused as a missing folder would be', async () => {
    const { list: plain } = await spemu.sp.web.lists.ensure('ColumnDefaultsPlain', '', 100);
    const root = (await plain.rootFolder<{ ServerRelativeUrl: string }>()).ServerRelativeUrl;
    const url = `${root}/Forms/client_LocationBasedDefaults.html`;
    assert.equal((await failure(spemu.sp.web.getFileByServerRelativePath(url)())).status, 404);
    assert.deepEqual(await plain.getDefaultColumnValues(), []);
  });
});

function pick(v: Values): Values {
  return { TextField: v.TextField ?? null, NumberField: v.NumberField ?? null, MultiChoiceField: v.MultiChoiceField ?? null };
}
