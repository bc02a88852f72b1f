// Dependent (secondary) lookups through an unmodified @pnp/sp 4.x client (issue #14):
// `fields.addDependentLookupField(displayName, primaryLookupFieldId, showField)` on a list and
// on the web, as PnPjs's upstream fields.ts calls it. The field is a read-only lookup of the
// primary's list (IsDependentLookup, PrimaryFieldId, LookupField = showField); an item's value
// is the primary's target item's showField, read through $select/$expand and CAML; it cannot be
// written; deleting the primary takes it along; a primary that is not a lookup is refused.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import type { IList } from '@pnp/sp/lists/index.js';
import { useTestServer } from '../helpers/server.ts';
import { failure, pnpFor } from '../helpers/pnp.ts';
import '../helpers/pnp-types.ts';

describe('PnPjs dependent lookups against spemu', () => {
  const spemu = useTestServer();
  let sp: SPFI;
  let countries: IList;
  let offices: IList;
  let primaryId: string;
  let countriesId: string;

  before(async () => {
    sp = pnpFor(spemu.server.site('/sites/dev'));
    const made = await sp.web.lists.add('Countries', 'lookup target', 100);
    countriesId = made.Id;
    countries = sp.web.lists.getByTitle('Countries');
    await countries.fields.addText('Code');
    await countries.items.add({ Title: 'France', Code: 'FR' });
    await countries.items.add({ Title: 'Japan', Code: 'JP' });
    await sp.web.lists.add('Offices', 'lookup source', 100);
    offices = sp.web.lists.getByTitle('Offices');
    const primary = await offices.fields.addLookup('Country', { LookupListId: countriesId, LookupFieldName: 'Title' });
    primaryId = primary.Id!;
    await offices.items.add({ Title: 'Paris', CountryId: 1 });
    await offices.items.add({ Title: 'Tokyo', CountryId: 2 });
    await offices.items.add({ Title: 'Nowhere' });
  });

  it('a list field: read-only, dependent on the primary, showing the field asked for', async () => {
    const dep: any = await offices.fields.addDependentLookupField('Country Code', primaryId, 'Code');
    assert.equal(dep.Title, 'Country Code');
    assert.equal(dep.InternalName, 'Country_x0020_Code');
    assert.equal(dep.IsDependentLookup, true);
    assert.equal(dep.PrimaryFieldId, primaryId);
    assert.equal(dep.LookupField, 'Code');
    assert.equal(dep.LookupList, `{${countriesId}}`);
    assert.equal(dep.ReadOnlyField, true);
    assert.equal(dep.FieldTypeKind, 7);
    const primary: any = await offices.fields.getById(primaryId)();
    assert.equal(primary.IsDependentLookup, false, 'the primary stays a plain lookup');
    const again = await offices.fields.getByInternalNameOrTitle('Country_x0020_Code')();
    assert.equal(again.Id, dep.Id);
  });

  it("an item's value is the primary's target item's show field, through $select/$expand and CAML", async () => {
    const items = await offices.items.select('Title', 'Country_x0020_Code/Code', 'Country_x0020_CodeId').expand('Country_x0020_Code').orderBy('ID')();
    assert.deepEqual(items.map((i: any) => [i.Title, i.Country_x0020_CodeId, i.Country_x0020_Code?.Code ?? null]),
      [['Paris', 1, 'FR'], ['Tokyo', 2, 'JP'], ['Nowhere', null, null]]);
    // A change of the primary moves the dependent with it.
    await offices.items.getById(1).update({ CountryId: 2 });
    const paris = await offices.items.getById(1).select('Country_x0020_Code/Code').expand('Country_x0020_Code')();
    assert.equal((paris as any).Country_x0020_Code.Code, 'JP');
    const rows = await offices.renderListDataAsStream({
      ViewXml: '<View><ViewFields><FieldRef Name="Title"/><FieldRef Name="Country_x0020_Code"/></ViewFields><Query><OrderBy><FieldRef Name="ID"/></OrderBy></Query></View>',
    });
    assert.deepEqual(rows.Row.map((r: any) => r.Country_x0020_Code?.[0]?.lookupValue ?? ''), ['JP', 'JP', '']);
    await offices.items.getById(1).update({ CountryId: 1 });
  });

  it('cannot be written; a primary that is not a lookup is refused and makes nothing', async () => {
    const write = await failure(offices.items.getById(2).update({ Country_x0020_CodeId: 1 }));
    assert.equal(write.status, 400);
    const titleId = (await offices.fields.getByInternalNameOrTitle('Title')()).Id;
    const refused = await failure(offices.fields.addDependentLookupField('Not Dependent', titleId, 'Code'));
    assert.equal(refused.status, 400);
    assert.equal((await offices.fields.filter("Title eq 'Not Dependent'")()).length, 0);
    // Its values are the primary's column: indexing goes through the primary.
    const dep = offices.fields.getByInternalNameOrTitle('Country_x0020_Code');
    assert.equal((await failure(dep.update({ Indexed: true }))).status, 400);
    await offices.fields.getById(primaryId).update({ Indexed: true });
    const filtered = await offices.items.filter('Country_x0020_CodeId eq 2').select('Title')();
    assert.deepEqual(filtered.map((i: any) => i.Title), ['Tokyo']);
  });

  it('a site column depending on a site lookup column (as the upstream suite adds it)', async () => {
    const primary = await sp.web.fields.addLookup('Office Country', { LookupListId: countriesId, LookupFieldName: 'Title' });
    const dep: any = await sp.web.fields.addDependentLookupField('Office Country Code', primary.Id!, 'Code');
    assert.equal(dep.Title, 'Office Country Code');
    assert.equal(dep.IsDependentLookup, true);
    assert.equal(dep.PrimaryFieldId, primary.Id);
    assert.equal(dep.LookupField, 'Code');
    const listed = await sp.web.fields.getById(dep.Id)();
    assert.equal(listed.ReadOnlyField, true);
  });

  it('deleting the primary takes its dependents along; the items keep reading', async () => {
    await offices.fields.addDependentLookupField('Country Title', primaryId, 'Title');
    await offices.fields.getById(primaryId).delete();
    const left = (await offices.fields.select('InternalName')()).map((f: any) => f.InternalName);
    assert.ok(!left.includes('Country') && !left.includes('Country_x0020_Code') && !left.includes('Country_x0020_Title'), left.join(','));
    assert.equal((await offices.items.select('Title')()).length, 3);
  });
});
