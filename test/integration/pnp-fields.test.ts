// Fields through an unmodified @pnp/sp 4.x client against a real spemu (demo tenant, :memory:):
// every typed `fields.add*` helper (verbose bodies), AddField (addLookup), createFieldAsXml,
// lookups by name or title, update, delete and Required enforcement on items.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import type { IList } from '@pnp/sp/lists/index.js';
import { useTestServer } from '../helpers/server.ts';
import { failure, pnpFor } from '../helpers/pnp.ts';
import '../helpers/pnp-types.ts';
import { GUID } from '../helpers/wire.ts';

describe('PnPjs fields against spemu', () => {
  const spemu = useTestServer();
  let sp: SPFI;
  let list: IList;
  let listId: string;
  let api: (path: string) => Promise<{ status: number; json: any }>;

  /** The field as the server now describes it, by internal name or title, via PnPjs. */
  const field = (name: string): Promise<any> => list.fields.getByInternalNameOrTitle(name)();

  before(async () => {
    sp = pnpFor(spemu.server.site('/sites/dev'));
    api = async (path) => {
      const r = await fetch(`${spemu.server.site('/sites/dev')}/_api/${path}`, { headers: { Accept: 'application/json;odata=nometadata' } });
      return { status: r.status, json: r.status === 204 ? undefined : await r.json() };
    };
    listId = (await sp.web.lists.add('Field Lab', 'fields under test', 100)).Id;
    list = sp.web.lists.getByTitle('Field Lab');
  });

  it('addText: a Text field with its MaxLength, returned in verbose form and stored', async () => {
    const added: any = await list.fields.addText('Code', { MaxLength: 20 });
    // fields.add* ask for odata=verbose: PnPjs hands back the `d` object with __metadata.
    assert.equal(added.__metadata?.type, 'SP.FieldText');
    assert.equal(added.Title, 'Code');
    assert.equal(added.InternalName, 'Code');
    assert.match(added.Id, GUID);

    const stored = await field('Code');
    assert.equal(stored.Id, added.Id);
    assert.equal(stored.TypeAsString, 'Text');
    assert.equal(stored.FieldTypeKind, 2);
    assert.equal(stored.MaxLength, 20);
    assert.equal(stored.Required, false);

    // MaxLength is enforced on items.
    const tooLong = await failure(list.items.add({ Title: 'x', Code: 'x'.repeat(21) }));
    assert.ok(tooLong.status >= 400 && tooLong.status < 600);
    const ok = await list.items.add({ Title: 'x', Code: 'x'.repeat(20) });
    assert.equal(ok.Code, 'x'.repeat(20));
  });

  it('addNumber with MinimumValue/MaximumValue: stored, and enforced on items', async () => {
    await list.fields.addNumber('Score', { MinimumValue: 0, MaximumValue: 100 });
    const stored = await field('Score');
    assert.equal(stored.TypeAsString, 'Number');
    assert.equal(stored.FieldTypeKind, 9);
    assert.equal(stored.MinimumValue, 0);
    assert.equal(stored.MaximumValue, 100);

    const above = await failure(list.items.add({ Title: 'too high', Score: 101 }));
    assert.equal(above.status, 500);
    const below = await failure(list.items.add({ Title: 'too low', Score: -0.5 }));
    assert.equal(below.status, 500);
    const item = await list.items.add({ Title: 'fine', Score: 99.5 });
    assert.equal((await list.items.getById(item.Id).select('Score')()).Score, 99.5);
  });

  it('addCurrency, addDateTime, addBoolean, addUrl, addMultilineText: types and kinds', async () => {
    await list.fields.addCurrency('Price');
    await list.fields.addDateTime('Starts');
    await list.fields.addDateTime('Ends', { DisplayFormat: 1 });
    await list.fields.addBoolean('Active');
    await list.fields.addUrl('Homepage');
    await list.fields.addMultilineText('Body');
    const expected: Array<[string, string, number]> = [
      ['Price', 'Currency', 10], ['Starts', 'DateTime', 4], ['Ends', 'DateTime', 4], ['Active', 'Boolean', 8],
      ['Homepage', 'URL', 11], ['Body', 'Note', 3],
    ];
    for (const [name, type, kind] of expected) {
      const stored = await field(name);
      assert.equal(stored.TypeAsString, type, name);
      assert.equal(stored.FieldTypeKind, kind, name);
      assert.equal(stored.InternalName, name);
    }
    // addDateTime defaults to date only (DisplayFormat 0); the explicit 1 is date and time.
    assert.equal((await field('Starts')).DisplayFormat, 0);
    assert.equal((await field('Ends')).DisplayFormat, 1);
    // addMultilineText sends RichText:true.
    assert.equal((await field('Body')).RichText, true);
    assert.equal((await field('Price')).CurrencyLocaleId, 1033);
  });

  it('addChoice and addMultiChoice keep their Choices in order', async () => {
    await list.fields.addChoice('Color', { Choices: ['Red', 'Green', 'Blue'] });
    await list.fields.addMultiChoice('Tags', { Choices: ['alpha', 'beta', 'gamma & delta'] });
    const color = await field('Color');
    assert.equal(color.TypeAsString, 'Choice');
    assert.equal(color.FieldTypeKind, 6);
    assert.deepEqual(color.Choices, ['Red', 'Green', 'Blue']);
    const tags = await field('Tags');
    assert.equal(tags.TypeAsString, 'MultiChoice');
    assert.equal(tags.FieldTypeKind, 15);
    assert.deepEqual(tags.Choices, ['alpha', 'beta', 'gamma & delta']);

    const item = await list.items.add({ Title: 'colourful', Color: 'Green', Tags: ['beta', 'gamma & delta'] });
    const read = await list.items.getById(item.Id).select('Color', 'Tags')();
    assert.equal(read.Color, 'Green');
    assert.deepEqual(read.Tags, ['beta', 'gamma & delta']);
  });

  it('addUser: a User field whose item value is <Name>Id', async () => {
    await list.fields.addUser('Reviewer');
    const stored = await field('Reviewer');
    assert.equal(stored.TypeAsString, 'User');
    assert.equal(stored.FieldTypeKind, 20);
    assert.equal(stored.AllowMultipleValues, false);

    const users = await sp.web.lists.getByTitle('User Information List').items.filter("Title eq 'Bob Baker'").select('Id', 'Title')();
    assert.equal(users.length, 1);
    const bobId = users[0].Id;
    const item = await list.items.add({ Title: 'reviewed', ReviewerId: bobId });
    const read = await list.items.getById(item.Id).select('ReviewerId', 'Reviewer/Title').expand('Reviewer')();
    assert.equal(read.ReviewerId, bobId);
    assert.equal(read.Reviewer.Title, 'Bob Baker');
  });

  it('addLookup (AddField) to another list: LookupList and LookupField, and items resolve through it', async () => {
    const categories = await sp.web.lists.add('Categories', '', 100);
    const cats = sp.web.lists.getByTitle('Categories');
    const hardware = await cats.items.add({ Title: 'Hardware' });
    await cats.items.add({ Title: 'Software' });

    const added: any = await list.fields.addLookup('Category', { LookupListId: categories.Id, LookupFieldName: 'Title' });
    assert.equal(added.Title, 'Category');
    assert.equal(added.TypeAsString, 'Lookup');
    const stored = await field('Category');
    assert.equal(stored.TypeAsString, 'Lookup');
    assert.equal(stored.FieldTypeKind, 7);
    assert.equal(stored.LookupList.replace(/[{}]/g, '').toLowerCase(), categories.Id.toLowerCase());
    assert.equal(stored.LookupField, 'Title');
    // Apps follow LookupList ('{guid}', braces and all) straight into lists.getById.
    const target = await sp.web.lists.getById(stored.LookupList)();
    assert.equal(target.Title, 'Categories');

    const item = await list.items.add({ Title: 'with category', CategoryId: hardware.Id });
    const read = await list.items.getById(item.Id).select('CategoryId', 'Category/Title').expand('Category')();
    assert.equal(read.CategoryId, hardware.Id);
    assert.equal(read.Category.Title, 'Hardware');
  });

  it('addLookup to a list that does not exist is refused and adds nothing', async () => {
    const before = (await list.fields.select('InternalName')()).length;
    const err = await failure(list.fields.addLookup('Dangling', { LookupListId: '0f0f0f0f-0000-4000-8000-000000000000', LookupFieldName: 'Title' }));
    assert.equal(err.status, 404);
    assert.equal((await list.fields.select('InternalName')()).length, before);
  });

  it('createFieldAsXml: Number, Choice and LookupMulti fields from SchemaXml', async () => {
    const cost: any = await list.fields.createFieldAsXml('<Field Type="Number" DisplayName="Unit Cost" Name="UnitCost" Required="FALSE" />');
    assert.equal(cost.InternalName, 'UnitCost');
    assert.equal(cost.Title, 'Unit Cost');
    const byName = await field('UnitCost');
    const byTitle = await field('Unit Cost');
    assert.equal(byName.Id, cost.Id);
    assert.equal(byTitle.Id, cost.Id);
    assert.equal(byName.TypeAsString, 'Number');
    assert.equal(byName.FieldTypeKind, 9);

    await list.fields.createFieldAsXml(
      '<Field Type="Choice" DisplayName="Phase" Name="Phase"><CHOICES><CHOICE>Plan</CHOICE><CHOICE>Build</CHOICE><CHOICE>Run</CHOICE></CHOICES></Field>');
    const phase = await field('Phase');
    assert.equal(phase.TypeAsString, 'Choice');
    assert.deepEqual(phase.Choices, ['Plan', 'Build', 'Run']);

    const categories = await sp.web.lists.getByTitle('Categories')();
    await list.fields.createFieldAsXml(
      `<Field Type="LookupMulti" Mult="TRUE" DisplayName="Also In" Name="AlsoIn" List="{${categories.Id}}" ShowField="Title" />`);
    const alsoIn = await field('AlsoIn');
    assert.equal(alsoIn.TypeAsString, 'LookupMulti');
    assert.equal(alsoIn.FieldTypeKind, 7);
    assert.equal(alsoIn.AllowMultipleValues, true);
    const catItems = await sp.web.lists.getByTitle('Categories').items.select('Id').orderBy('Id')();
    const ids = catItems.map((c: any) => c.Id);
    const item = await list.items.add({ Title: 'multi', AlsoInId: ids });
    assert.deepEqual((await list.items.getById(item.Id).select('AlsoInId')()).AlsoInId, ids);
  });

  it('getByInternalNameOrTitle finds a field by title with spaces; getById and getByTitle agree', async () => {
    await list.fields.addText('Due Note');
    const byTitle = await field('Due Note');
    assert.equal(byTitle.InternalName, 'Due_x0020_Note');
    assert.equal(byTitle.Title, 'Due Note');
    const byName = await field('Due_x0020_Note');
    assert.equal(byName.Id, byTitle.Id);
    const byId = await list.fields.getById(byTitle.Id)();
    assert.equal(byId.InternalName, 'Due_x0020_Note');
    const viaGetByTitle = await list.fields.getByTitle('Due Note')();
    assert.equal(viaGetByTitle.Id, byTitle.Id);
    // The item property is the internal name.
    const item = await list.items.add({ Title: 'x', Due_x0020_Note: 'soon' });
    assert.equal((await list.items.getById(item.Id).select('Due_x0020_Note')()).Due_x0020_Note, 'soon');

    const missing = await failure(list.fields.getByInternalNameOrTitle('NoSuchField')());
    assert.equal(missing.status, 404);
  });

  it('a field added to a list that already has items reads null on the old items', async () => {
    await sp.web.lists.add('Late Fields', '', 100);
    const late = sp.web.lists.getByTitle('Late Fields');
    const old1 = await late.items.add({ Title: 'old 1' });
    const old2 = await late.items.add({ Title: 'old 2' });
    await late.fields.addText('Extra');
    await late.fields.addNumber('Amount');
    await late.fields.addDateTime('When', { DisplayFormat: 1 });
    await late.fields.addChoice('Level', { Choices: ['Low', 'High'] });
    await late.fields.addUser('Person');
    const fresh = await late.items.add({ Title: 'new', Extra: 'e', Amount: 5, When: '2026-05-01T12:00:00Z', Level: 'High' });

    for (const id of [old1.Id, old2.Id]) {
      const read = await late.items.getById(id)();
      assert.ok('Extra' in read && 'Amount' in read && 'When' in read && 'Level' in read && 'PersonId' in read, 'new fields appear on old items');
      assert.equal(read.Extra, null);
      assert.equal(read.Amount, null);
      assert.equal(read.When, null);
      assert.equal(read.Level, null);
      assert.equal(read.PersonId, null);
      assert.equal(read.Title, id === old1.Id ? 'old 1' : 'old 2');
    }
    const read = await late.items.getById(fresh.Id)();
    assert.equal(read.Extra, 'e');
    assert.equal(read.Amount, 5);
    assert.equal(read.When, '2026-05-01T12:00:00Z');
    assert.equal(read.Level, 'High');
    // Old items can now be given a value for the new field.
    await late.items.getById(old1.Id).update({ Extra: 'later' });
    assert.equal((await late.items.getById(old1.Id)()).Extra, 'later');
  });

  it('field.update({Title}) renames the field; the internal name stays', async () => {
    const added: any = await list.fields.addText('Nickname');
    await list.fields.getByInternalNameOrTitle('Nickname').update({ Title: 'Alias' });
    const byId = await list.fields.getById(added.Id)();
    assert.equal(byId.Title, 'Alias');
    assert.equal(byId.InternalName, 'Nickname');
    const byNewTitle = await field('Alias');
    assert.equal(byNewTitle.Id, added.Id);
    const fetched = await api(`web/lists(guid'${listId}')/fields('${added.Id}')`);
    assert.equal(fetched.json.Title, 'Alias');

    // Description and Required update too (the update body is JSON light, no __metadata).
    await list.fields.getById(added.Id).update({ Description: 'what friends call you', Required: true });
    const again = await list.fields.getById(added.Id)();
    assert.equal(again.Description, 'what friends call you');
    assert.equal(again.Required, true);
    await list.fields.getById(added.Id).update({ Required: false });
    assert.equal((await list.fields.getById(added.Id)()).Required, false);
  });

  it("renaming the built-in Title field changes its display name only", async () => {
    await sp.web.lists.add('Renamed Title', '', 100);
    const renamed = sp.web.lists.getByTitle('Renamed Title');
    await renamed.fields.getByInternalNameOrTitle('Title').update({ Title: 'Product Name' });
    const byTitle = await renamed.fields.getByInternalNameOrTitle('Product Name')();
    assert.equal(byTitle.InternalName, 'Title');
    assert.equal(byTitle.Title, 'Product Name');
    const item = await renamed.items.add({ Title: 'still Title on the wire' });
    assert.equal((await renamed.items.getById(item.Id)()).Title, 'still Title on the wire');
  });

  it("field.update({Choices}) replaces a choice field's choices", async () => {
    await list.fields.addChoice('Stage', { Choices: ['Draft', 'Final'] });
    await list.fields.getByInternalNameOrTitle('Stage').update({ Choices: ['Draft', 'Review', 'Final'] });
    assert.deepEqual((await field('Stage')).Choices, ['Draft', 'Review', 'Final']);
    // The verbose collection form, with the type name given so PnPjs skips its lookup.
    await list.fields.getByInternalNameOrTitle('Stage').update({ Choices: { results: ['One', 'Two'] } }, 'SP.FieldChoice');
    assert.deepEqual((await field('Stage')).Choices, ['One', 'Two']);
  });

  it('field.delete() removes the field and its values', async () => {
    const added: any = await list.fields.addText('Temporary');
    const item = await list.items.add({ Title: 'has temp', Temporary: 'value' });
    assert.equal((await list.items.getById(item.Id)()).Temporary, 'value');

    await list.fields.getById(added.Id).delete();
    const gone = await failure(list.fields.getByInternalNameOrTitle('Temporary')());
    assert.equal(gone.status, 404);
    const byId = await failure(list.fields.getById(added.Id)());
    assert.equal(byId.status, 404);
    const read = await list.items.getById(item.Id)();
    assert.equal(read.Title, 'has temp');
    assert.ok(!('Temporary' in read), 'the deleted field no longer appears on items');
    const selectGone = await failure(list.items.getById(item.Id).select('Temporary')());
    assert.equal(selectGone.status, 400);
    const writeGone = await failure(list.items.add({ Title: 'x', Temporary: 'v' }));
    assert.equal(writeGone.status, 400);

    // A field of the same name can come back, empty.
    await list.fields.addText('Temporary');
    assert.equal((await list.items.getById(item.Id)()).Temporary, null);
  });

  it('built-in fields cannot be deleted', async () => {
    const err = await failure(list.fields.getByInternalNameOrTitle('Created').delete());
    assert.ok(err.status >= 400);
    assert.equal((await field('Created')).InternalName, 'Created');
  });

  it('Required is enforced: an item without the field is refused, with it accepted', async () => {
    await sp.web.lists.add('Strict', '', 100);
    const strict = sp.web.lists.getByTitle('Strict');
    await strict.fields.addText('Mandatory', { Required: true });
    assert.equal((await strict.fields.getByInternalNameOrTitle('Mandatory')()).Required, true);
    const before = (await sp.web.lists.getByTitle('Strict').select('ItemCount')()).ItemCount;

    const missing = await failure(strict.items.add({ Title: 'no value' }));
    assert.equal(missing.status, 500);
    assert.match(missing.message, /Mandatory|required/i);
    const empty = await failure(strict.items.add({ Title: 'empty value', Mandatory: '' }));
    assert.equal(empty.status, 500);
    assert.equal((await sp.web.lists.getByTitle('Strict').select('ItemCount')()).ItemCount, before, 'refused items are not stored');

    const ok = await strict.items.add({ Title: 'has value', Mandatory: 'here' });
    assert.equal(ok.Mandatory, 'here');
    // Updating other fields leaves it alone; clearing it is refused.
    await strict.items.getById(ok.Id).update({ Title: 'renamed' });
    const cleared = await failure(strict.items.getById(ok.Id).update({ Mandatory: null }));
    assert.equal(cleared.status, 500);
    assert.equal((await strict.items.getById(ok.Id)()).Mandatory, 'here');
  });

  it('a Required field added with AddField parameters is enforced too', async () => {
    await sp.web.lists.add('Strict Two', '', 100);
    const strict = sp.web.lists.getByTitle('Strict Two');
    await strict.fields.addField('Must', 2, { Required: true });
    const stored = await strict.fields.getByInternalNameOrTitle('Must')();
    assert.equal(stored.TypeAsString, 'Text');
    assert.equal(stored.Required, true);
    assert.equal((await failure(strict.items.add({ Title: 'x' }))).status, 500);
    assert.equal((await strict.items.add({ Title: 'x', Must: 'y' })).Must, 'y');
  });
});
