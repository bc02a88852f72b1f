// Calculated columns (issue #14) through an unmodified @pnp/sp 4.x client against a real
// spemu: `fields.addCalculated` as PnPjs's upstream suite calls it, AddField and Field XML
// with a <Formula>; values computed on item create and update (the item's other values
// merged with the change), stored typed by the output type so `$filter`/`$orderby` and CAML
// use them; a new column computing existing items; a changed formula recomputing; evaluation
// errors stored as SharePoint's error text; refused formulas making nothing.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import { FieldTypes } from '@pnp/sp/fields/index.js';
import type { IList } from '@pnp/sp/lists/index.js';
import { useTestServer } from '../helpers/server.ts';
import { failure, pnpFor } from '../helpers/pnp.ts';
import '../helpers/pnp-types.ts';

describe('PnPjs calculated columns against spemu', () => {
  const spemu = useTestServer();
  let sp: SPFI;
  let list: IList;
  let api: (path: string, init?: { method?: string; body?: unknown }) => Promise<{ status: number; json: any }>;

  before(async () => {
    const site = spemu.server.site('/sites/dev');
    sp = pnpFor(site);
    api = async (path, init = {}) => {
      const r = await fetch(`${site}/_api/${path}`, {
        method: init.method ?? 'GET',
        headers: { Accept: 'application/json;odata=nometadata', ...(init.body ? { 'Content-Type': 'application/json;odata=verbose' } : {}) },
        body: init.body ? JSON.stringify(init.body) : undefined,
      });
      const text = await r.text();
      return { status: r.status, json: text ? JSON.parse(text) : undefined };
    };
    await sp.web.lists.add('Orders', 'calculated columns under test', 100);
    list = sp.web.lists.getByTitle('Orders');
    await list.fields.addNumber('Quantity');
    await list.fields.addCurrency('Unit Price');
    await list.fields.addDateTime('Ordered', { DisplayFormat: 0 });
    await list.fields.addText('Code');
    await list.fields.addBoolean('Rush');
    // An item made before the calculated columns: it gets their values when they are added.
    await list.items.add({ Title: 'early', Quantity: 2, Unit_x0020_Price: 10, Ordered: '2024-03-05T00:00:00Z', Code: ' ab ', Rush: true });
  });

  it('addCalculated as the upstream suite calls it makes the column, with Formula, OutputType and DateFormat on the wire', async () => {
    const added: any = await list.fields.addCalculated('Next Day', { Formula: '=Modified+1', DateFormat: 0, FieldTypeKind: FieldTypes.Calculated, Group: 'PnP' });
    assert.equal(added.Title, 'Next Day');
    assert.equal(added.__metadata?.type, 'SP.FieldCalculated');
    assert.deepEqual([added.FieldTypeKind, added.TypeAsString, added.Formula, added.OutputType, added.DateFormat], [17, 'Calculated', '=Modified+1', 2, 0]);
    assert.match(added.SchemaXml, /<Field Type="Calculated"[^>]*ResultType="Text"[^>]*><Formula>=Modified\+1<\/Formula><\/Field>/);
  });

  it('a Number output computes on create, for items made before it, and filters and sorts in the database', async () => {
    await list.fields.addCalculated('Total', { Formula: '=[Quantity]*[Unit Price]', OutputType: FieldTypes.Number });
    const early = await list.items.getById(1).select('Total')<{ Total: number }>();
    assert.equal(early.Total, 20);
    await list.items.add({ Title: 'b', Quantity: 5, Unit_x0020_Price: 3 });
    await list.items.add({ Title: 'c', Quantity: 1, Unit_x0020_Price: 7.5 });
    const all = await list.items.select('Title', 'Total').orderBy('Total', false)<Array<{ Title: string; Total: number }>>();
    assert.deepEqual(all.map((i) => [i.Title, i.Total]), [['early', 20], ['b', 15], ['c', 7.5]]);
    const big = await list.items.select('Title').filter('Total gt 10')<Array<{ Title: string }>>();
    assert.deepEqual(big.map((i) => i.Title).sort(), ['b', 'early']);
    // A number on the wire is a JSON number in every dialect, as the output type's values are.
    const raw = await api(`web/lists/getbytitle('Orders')/items(3)?$select=Total`);
    assert.equal(raw.json.Total, 7.5);
  });

  it('an update recomputes from the item\'s current values merged with the change', async () => {
    await list.items.getById(2).update({ Quantity: 6 });
    assert.equal((await list.items.getById(2).select('Total')<{ Total: number }>()).Total, 18);
    await list.items.getById(2).update({ Unit_x0020_Price: 4 });
    assert.equal((await list.items.getById(2).select('Total')<{ Total: number }>()).Total, 24);
  });

  it('text, date and logical outputs: &, TEXT, IF, AND/OR, string functions, date math', async () => {
    await list.fields.addCalculated('Label', { Formula: '=UPPER(TRIM([Code]))&"-"&TEXT([Quantity],"0.00")&IF(AND([Rush],[Quantity]>1)," rush","")' });
    await list.fields.addCalculated('Due', { Formula: '=[Ordered]+30', OutputType: FieldTypes.DateTime, DateFormat: 0 });
    await list.fields.addCalculated('Ordered Month', { Formula: '=TEXT([Ordered],"mmmm")&" "&YEAR([Ordered])' });
    await list.fields.addCalculated('Big', { Formula: '=OR([Quantity]>=5,[Unit Price]>100)', OutputType: FieldTypes.Boolean });
    const item = await list.items.getById(1).select('Label', 'Due', 'Ordered_x0020_Month', 'Big')<any>();
    assert.equal(item.Label, 'AB-2.00 rush');
    assert.equal(item.Due, '2024-04-04T00:00:00Z');
    assert.equal(item.Ordered_x0020_Month, 'March 2024');
    assert.equal(item.Big, false);
    assert.equal((await list.items.getById(2).select('Big')<any>()).Big, true);
    const withDue = await list.items.select('Title').filter("Due eq datetime'2024-04-04T00:00:00Z'")<Array<{ Title: string }>>();
    assert.deepEqual(withDue.map((i) => i.Title), ['early']);
  });

  it('an evaluation error is stored as SharePoint\'s error text, not a failed write', async () => {
    await list.fields.addCalculated('Ratio', { Formula: '=TEXT([Quantity]/([Unit Price]-[Unit Price]),"0")' });
    await list.fields.addCalculated('Code Number', { Formula: '=[Code]+1', OutputType: FieldTypes.Number });
    await list.items.add({ Title: 'errors', Quantity: 1, Unit_x0020_Price: 2, Code: 'abc' });
    const item = (await list.items.filter("Title eq 'errors'").select('Ratio', 'Code_x0020_Number')<any[]>())[0];
    assert.equal(item.Ratio, '#DIV/0!');
    assert.equal(item.Code_x0020_Number, null);
  });

  it('a changed formula recomputes every item', async () => {
    await list.fields.getByTitle('Total').update({ Formula: '=[Quantity]*[Unit Price]*2' }, 'SP.FieldCalculated');
    const all = await list.items.select('Title', 'Total').filter("Title ne 'errors'").orderBy('ID')<Array<{ Total: number }>>();
    assert.deepEqual(all.map((i) => i.Total), [40, 48, 15]);
  });

  it('CAML sorts and filters on a Number output as on a number column', async () => {
    const rows = await list.getItemsByCAMLQuery({
      ViewXml: '<View><Query><Where><Geq><FieldRef Name="Total"/><Value Type="Number">40</Value></Geq></Where><OrderBy><FieldRef Name="Total" Ascending="FALSE"/></OrderBy></Query></View>',
    });
    assert.deepEqual(rows.map((r: any) => [r.Title, r.Total]), [['b', 48], ['early', 40]]);
  });

  it('AddField parameters and createFieldAsXml with a <Formula> make calculated columns too', async () => {
    const viaXml: any = await list.fields.createFieldAsXml(
      '<Field Type="Calculated" DisplayName="Double Qty" Name="DoubleQty" ResultType="Number"><Formula>=[Quantity]*2</Formula></Field>');
    assert.equal(viaXml.Formula, '=[Quantity]*2');
    assert.equal(viaXml.OutputType, 9);
    assert.equal((await list.items.getById(1).select('DoubleQty')<any>()).DoubleQty, 4);
    const viaAddField = await api(`web/lists/getbytitle('Orders')/fields/addfield`, {
      method: 'POST',
      body: { parameters: { __metadata: { type: 'SP.FieldCreationInformation' }, Title: 'Qty Plus', FieldTypeKind: 17, Formula: '=Quantity+1', OutputType: 9 } },
    });
    assert.equal(viaAddField.status, 201);
    assert.equal(viaAddField.json.Formula, '=Quantity+1');
    assert.equal((await list.items.getById(1).select('Qty_x0020_Plus')<any>()).Qty_x0020_Plus, 3);
  });

  it('TODAY, ME, lookups, other calculated columns, unknown columns and broken syntax are refused with SharePoint\'s messages; nothing is made', async () => {
    await list.fields.addLookup('Parent', { LookupListId: (await list.select('Id')()).Id, LookupFieldName: 'Title' });
    const cases: Array<[string, string, RegExp]> = [
      ['R Today', '=TODAY()+1', /volatile functions like Today and Me/],
      ['R Me', '=[Me]', /volatile functions like Today and Me/],
      ['R Lookup', '=[Parent]&"x"', /not supported in formulas/],
      ['R Calc', '=[Total]+1', /not supported in formulas/],
      ['R Unknown', '=[Nope]+1', /refers to a column that does not exist/],
      ['R Syntax', '=[Quantity]+*2', /syntax error or is not supported/],
      ['R Function', '=VLOOKUP([Quantity])', /syntax error or is not supported/],
    ];
    for (const [title, formula, message] of cases) {
      const err = await failure(list.fields.addCalculated(title, { Formula: formula }));
      assert.equal(err.status, 400, title);
      assert.match(err.message, message, title);
      assert.equal((await failure(list.fields.getByTitle(title)())).status, 404, title);
    }
    const change = await failure(list.fields.getByTitle('Total').update({ Formula: '=NOW()' }, 'SP.FieldCalculated'));
    assert.match(change.message, /volatile/);
  });

  it('a value written to a calculated column is refused', async () => {
    const err = await failure(list.items.add({ Title: 'x', Total: 5 }));
    assert.equal(err.status, 500);
    assert.match(err.message, /'Total' is read-only/);
    assert.equal((await list.items.filter("Title eq 'x'")()).length, 0);
  });
});
