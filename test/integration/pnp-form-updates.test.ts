// Item writes as SharePoint's forms make them (issue #14), through an unmodified @pnp/sp 4.x
// client: validateUpdateListItem and addValidateUpdateItemUsingPath with form text (en-US
// numbers and dates, people-picker JSON, lookups, choices), history fields (Author, Editor,
// Created, Modified), bNewDocumentUpdate keeping the version, a folder made by path; a field
// that fails answers HasException and nothing at all is written. The verbose wire shape.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { usePnpSite } from '../helpers/pnp-site.ts';

describe('PnPjs form updates against spemu', () => {
  const spemu = usePnpSite();

  async function formList(title: string) {
    const { list } = await spemu.sp.web.lists.ensure(title, '', 100);
    await list.fields.addNumber('Cost');
    await list.fields.addDateTime('Due');
    await list.fields.addBoolean('Done');
    await list.fields.addChoice('Status', { Choices: ['Open', 'Closed'] });
    await list.fields.addUser('Owner', { SelectionMode: 0 });
    return list;
  }

  it('validateUpdateListItem reads form text, sets history, and keeps the version with bNewDocumentUpdate', async () => {
    const list = await formList('Form A');
    const { Id: id } = await list.items.add({ Title: 'first' });
    const results = await list.items.getById(id).validateUpdateListItem([
      { FieldName: 'Title', FieldValue: 'changed' },
      { FieldName: 'Cost', FieldValue: '1,234.5' },
      { FieldName: 'Due', FieldValue: '12/31/2024 10:30 PM' },
      { FieldName: 'Done', FieldValue: 'Yes' },
      { FieldName: 'Status', FieldValue: 'Closed' },
      { FieldName: 'Owner', FieldValue: JSON.stringify([{ Key: 'i:0#.f|membership|bob@contoso.onmicrosoft.com' }]) },
    ]);
    assert.deepEqual(results.map((r: any) => [r.FieldName, r.HasException, r.ErrorMessage, r.ItemId]), [
      ['Title', false, null, id], ['Cost', false, null, id], ['Due', false, null, id], ['Done', false, null, id], ['Status', false, null, id], ['Owner', false, null, id],
    ]);
    const item = await list.items.getById(id).select('Title', 'Cost', 'Due', 'Done', 'Status', 'Owner/Title', 'OData__UIVersionString').expand('Owner')();
    assert.deepEqual([item.Title, item.Cost, item.Due, item.Done, item.Status, item.Owner.Title], ['changed', 1234.5, '2024-12-31T22:30:00Z', true, 'Closed', 'Bob Baker']);
    const version = item.OData__UIVersionString;

    await list.items.getById(id).validateUpdateListItem([
      { FieldName: 'Editor', FieldValue: JSON.stringify([{ Key: 'bob@contoso.onmicrosoft.com' }]) },
      { FieldName: 'Modified', FieldValue: '1/2/2020 8:00 AM' },
      { FieldName: 'Created', FieldValue: '2020-01-01T09:00:00Z' },
    ], true);
    const history = await list.items.getById(id).select('Editor/Title', 'Modified', 'Created', 'OData__UIVersionString').expand('Editor')();
    assert.deepEqual([history.Editor.Title, history.Modified, history.Created], ['Bob Baker', '2020-01-02T08:00:00Z', '2020-01-01T09:00:00Z']);
    assert.equal(history.OData__UIVersionString, version, 'bNewDocumentUpdate keeps the version');
  });

  it('a field that fails answers HasException and nothing is written', async () => {
    const list = await formList('Form B');
    const { Id: id } = await list.items.add({ Title: 'kept' });
    const results = await list.items.getById(id).validateUpdateListItem([
      { FieldName: 'Title', FieldValue: 'not kept' },
      { FieldName: 'Due', FieldValue: '13/45/2024' },
      { FieldName: 'Cost', FieldValue: 'lots' },
      { FieldName: 'NoSuchField', FieldValue: 'x' },
    ]);
    assert.deepEqual(results.map((r: any) => [r.FieldName, r.HasException]), [['Title', false], ['Due', true], ['Cost', true], ['NoSuchField', true]]);
    const due = results.find((r: any) => r.FieldName === 'Due') as any;
    assert.deepEqual([due.ErrorCode, due.ErrorMessage], [-2146232832, 'You must specify a valid date within the range of 1/1/1900 and 12/31/8900.']);
    assert.equal((await list.items.getById(id)()).Title, 'kept');
  });

  it('addValidateUpdateItemUsingPath adds an item, or a folder by path; the verbose wire shape', async () => {
    const list = await formList('Form C');
    const added = await list.addValidateUpdateItemUsingPath([{ FieldName: 'Title', FieldValue: 'by form' }, { FieldName: 'Status', FieldValue: 'Open' }], '/sites/dev/Lists/Form C');
    const idResult = added.find((r: any) => r.FieldName === 'Id') as any;
    assert.ok(idResult && /^\d+$/.test(idResult.FieldValue));
    const byForm = await list.items.getById(Number(idResult.FieldValue)).select('Title', 'Status')();
    assert.deepEqual([byForm.Title, byForm.Status], ['by form', 'Open']);

    const { list: docs } = await spemu.sp.web.lists.ensure('Form library', '', 101);
    const folder = await docs.addValidateUpdateItemUsingPath([{ FieldName: 'Title', FieldValue: 'A folder' }], '/sites/dev/Form library', false, undefined, { leafName: 'Made by form', objectType: 1 });
    assert.equal(folder.at(-1)!.FieldName, 'Id');
    const made = await docs.items.getById(Number(folder.at(-1)!.FieldValue)).select('FileLeafRef', 'FSObjType', 'Title')();
    assert.deepEqual([made.FileLeafRef, made.FSObjType, made.Title], ['Made by form', '1', 'A folder'], 'FSObjType is text, as SharePoint writes it');

    const r = await fetch(`${spemu.site}/_api/web/lists/getbytitle('Form C')/items(${idResult.FieldValue})/ValidateUpdateListItem`, {
      method: 'POST', headers: { Accept: 'application/json;odata=verbose', 'Content-Type': 'application/json;odata=verbose' },
      body: JSON.stringify({ formValues: [{ FieldName: 'Title', FieldValue: 'verbose' }], bNewDocumentUpdate: false }),
    });
    const body = await r.json() as any;
    assert.equal(r.status, 200);
    assert.deepEqual(body.d.ValidateUpdateListItem.results[0], {
      __metadata: { type: 'SP.ListItemFormUpdateValue' }, ErrorCode: 0, ErrorMessage: null, FieldName: 'Title', FieldValue: 'verbose', HasException: false, ItemId: Number(idResult.FieldValue),
    });
    const bad = await fetch(`${spemu.site}/_api/web/lists/getbytitle('Form C')/items(${idResult.FieldValue})/ValidateUpdateListItem`, {
      method: 'POST', headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, body: JSON.stringify({ formValues: 'nope' }),
    });
    assert.equal(bad.status, 400);
  });
});
