// A list's forms and renderListFormData through an unmodified @pnp/sp 4.x client (issue #14):
// `list.forms()` (display, edit and new at SharePoint's URLs; a library's under Forms/),
// `forms.getById` as the upstream forms.ts calls it, and `renderListFormData(itemId, formId,
// mode)` as the upstream lists.ts calls it (`1, "editform", ControlMode.Edit`) and as the older
// suite does (a form id, Display): the item's values, ListSchema, the control modes; a missing
// item, form or mode answer errors.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import '@pnp/sp/forms/index.js';
import { ControlMode } from '@pnp/sp/lists/index.js';
import { PageType } from '@pnp/sp/types.js';
import { useTestServer } from '../helpers/server.ts';
import { failure, pnpFor } from '../helpers/pnp.ts';
import '../helpers/pnp-types.ts';
import '../helpers/pnp-form-types.ts';

describe('PnPjs list forms against spemu', () => {
  const spemu = useTestServer();
  let sp: SPFI;

  before(() => { sp = pnpFor(spemu.server.site('/sites/dev')); });

  it('forms(): display, edit and new at their pages; a library keeps them under Forms/; getById finds each', async () => {
    const forms = await sp.web.lists.getByTitle('Tasks').forms();
    assert.deepEqual(forms.map((f) => [f.FormType, f.ServerRelativeUrl]), [
      [PageType.DisplayForm, '/sites/dev/Lists/Tasks/DispForm.aspx'],
      [PageType.EditForm, '/sites/dev/Lists/Tasks/EditForm.aspx'],
      [PageType.NewForm, '/sites/dev/Lists/Tasks/NewForm.aspx'],
    ]);
    assert.equal(forms[0]!.ResourcePath.DecodedUrl, '/sites/dev/Lists/Tasks/DispForm.aspx');
    const library = await sp.web.lists.getByTitle('Documents').forms();
    assert.match(library[0]!.ServerRelativeUrl, /^\/sites\/dev\/Shared Documents\/Forms\/DispForm\.aspx$/);
    // As the upstream forms.ts: the first form's id, then getById.
    const form = await sp.web.lists.getByTitle('Documents').forms.getById(library[0]!.Id)<{ Id: string }>();
    assert.equal(form.Id, library[0]!.Id);
    const again = await sp.web.lists.getByTitle('Documents').forms();
    assert.deepEqual(again.map((f) => f.Id), library.map((f) => f.Id), 'the same ids on every request');
    assert.notEqual(forms[0]!.Id, library[0]!.Id, 'each list has its own');
    const edit = await sp.web.lists.getByTitle('Tasks').forms.filter(`FormType eq ${PageType.EditForm}`)();
    assert.equal(edit.length, 1);
    assert.equal((await failure(sp.web.lists.getByTitle('Tasks').forms.getById('00000000-0000-0000-0000-000000000001')())).status, 404);
  });

  it('renderListFormData(1, "editform", Edit) as the upstream lists.ts calls it: the item, its schema, the modes', async () => {
    const { list } = await sp.web.lists.ensure('pnp testing renderListFormData');
    await list.items.add({ Title: 'Item 1' });
    const data = await list.renderListFormData(1, 'editform', ControlMode.Edit);
    assert.equal(data.Title, 'Item 1');
    assert.equal(data.FormControlMode, ControlMode.Edit);
    assert.equal(data.FieldControlModes?.Title, ControlMode.Edit);
    assert.equal(data.ListSchema.Title.Name, 'Title');
    assert.equal(data.ListSchema.Title.FieldType, 'Text');
    assert.equal(data.ListSchema.Title.Required, true);
    assert.equal(data.ItemAttributes?.Id, 1);
    assert.equal(data.ListAttributes?.ListTemplateType, 100);
    assert.equal(data.ItemContentTypeName, 'Item');
    assert.match(String(data.ItemContentTypeId), /^0x01/);
    assert.equal(data.WebAttributes?.WebUrl, '/sites/dev');
    assert.equal(data.ItemAttributes?.Url, '/sites/dev/Lists/pnp testing renderListFormData/1_.000');
  });

  it('a display form by id (the older suite), a new form without an item', async () => {
    const list = sp.web.lists.getByTitle('pnp testing renderListFormData');
    const [display] = await list.forms.select('Id').filter(`FormType eq ${PageType.DisplayForm}`)();
    const shown = await list.renderListFormData(1, display!.Id, ControlMode.Display);
    assert.equal(shown.Title, 'Item 1');
    assert.equal(shown.FormControlMode, ControlMode.Display);
    const blank = await list.renderListFormData(0, 'newform', ControlMode.New);
    assert.equal(blank.FormControlMode, ControlMode.New);
    assert.equal(blank.Title, '', 'no item: empty values');
    assert.equal(blank.ListSchema.Title.Name, 'Title');
    // A library's item is its folder or file: the form's item URL is its own (item 1 of the demo's is the folder Reports).
    const doc = await sp.web.lists.getByTitle('Documents').renderListFormData(1, 'dispform', ControlMode.Display);
    assert.deepEqual([doc.ItemAttributes?.Url, doc.ItemAttributes?.FsObjType], ['/sites/dev/Shared Documents/Reports', 1]);
    assert.equal(doc.ListAttributes?.BaseType, 1);
  });

  it('a missing item is 404, an unknown form or mode 400', async () => {
    const list = sp.web.lists.getByTitle('pnp testing renderListFormData');
    assert.equal((await failure(list.renderListFormData(999, 'editform', ControlMode.Edit))).status, 404);
    assert.equal((await failure(list.renderListFormData(1, 'nosuchform', ControlMode.Edit))).status, 400);
    assert.equal((await failure(list.renderListFormData(1, 'editform', 7 as ControlMode))).status, 400);
  });
});
