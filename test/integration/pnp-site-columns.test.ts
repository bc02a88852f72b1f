// Site columns (issue #14) through an unmodified @pnp/sp 4.x client against a real spemu:
// `web/fields` with every typed `fields.add*` helper PnPjs's own suite calls, AddField,
// createFieldAsXml (its ID kept), look-ups on the root web's built-in columns, update,
// setShowIn*Form, delete; `availablefields` of a subweb; a site column added to a list by its
// SchemaXml; Location and Image columns with their values; Calculated columns; and the wire
// shapes and errors checked with plain fetch.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { spfi } from '@pnp/sp';
import '@pnp/sp/sites/index.js';
import { FieldTypes } from '@pnp/sp/fields/index.js';
import { failure } from '../helpers/pnp.ts';
import { usePnpSite } from '../helpers/pnp-site.ts';
import '../helpers/pnp-types.ts';
import { ACCEPT, GUID } from '../helpers/wire.ts';

const TITLE_ID = 'fa564e0f-0c70-4ab9-b863-0177e6ddd247';
const GROUP = 'PnP Test Group';

describe('PnPjs site columns against spemu', () => {
  const spemu = usePnpSite();
  /** Plain fetch below a web's /_api/ as the seed's first owner. */
  const call = async (web: string, path: string, init: { method?: string; accept?: string; body?: unknown; headers?: Record<string, string> } = {}) => {
    const r = await fetch(`${web}/_api/${path}`, {
      method: init.method ?? 'GET',
      headers: { Accept: init.accept ?? ACCEPT.nometadata, ...(init.body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await r.text();
    return { status: r.status, text, json: text ? JSON.parse(text) : undefined };
  };

  describe('the root web\'s built-in columns', () => {
    it('getById, getByTitle and getByInternalNameOrTitle find them, as PnPjs\'s suite asks', async () => {
      const title = await spemu.sp.site.rootWeb.fields.getById(TITLE_ID).select('Title')<{ Title: string }>();
      assert.equal(title.Title, 'Title');
      const byTitle = await spemu.sp.site.rootWeb.fields.getByTitle(title.Title).select('Id')<{ Id: string }>();
      assert.equal(byTitle.Id, TITLE_ID);
      const other = await spemu.sp.site.rootWeb.fields.getByInternalNameOrTitle('Other Address Country/Region').select('Title', 'InternalName', 'Group')();
      assert.deepEqual([other.Title, other.InternalName, other.Group], ['Other Address Country/Region', 'OtherAddressCountry', 'Core Contact and Calendar Columns']);
    });

    it('are read only: update and delete are refused and leave them as they were', async () => {
      const update = await failure(spemu.sp.web.fields.getById(TITLE_ID).update({ Title: 'Renamed' }, 'SP.FieldText'));
      assert.equal(update.status, 400);
      const del = await failure(spemu.sp.web.fields.getById(TITLE_ID).delete());
      assert.equal(del.status, 400);
      assert.equal((await spemu.sp.web.fields.getById(TITLE_ID)()).Title, 'Title');
    });

    it('a missing column is SharePoint\'s 404 by id, by title and by name', async () => {
      for (const call of [spemu.sp.web.fields.getById(randomUUID())(), spemu.sp.web.fields.getByTitle('Nope')(), spemu.sp.web.fields.getByInternalNameOrTitle('Nope')()]) {
        const err = await failure(call);
        assert.equal(err.status, 404);
        assert.equal(err.code, '-2147024809, System.ArgumentException');
      }
    });
  });

  describe('adding site columns', () => {
    it('every fields.add* helper of the upstream suite makes a column of its kind, in its group, listed by web/fields', async () => {
      const made: Array<[string, Promise<any>, string, number]> = [
        ['SC Add', spemu.sp.web.fields.add('SC Add', FieldTypes.Text, { Group: GROUP }), 'Text', 2],
        ['SC Text', spemu.sp.web.fields.addText('SC Text', { Group: GROUP }), 'Text', 2],
        ['SC Number', spemu.sp.web.fields.addNumber('SC Number', { Group: GROUP }), 'Number', 9],
        ['SC Date', spemu.sp.web.fields.addDateTime('SC Date', { DisplayFormat: 0, DateTimeCalendarType: 1, FriendlyDisplayFormat: 1, Group: GROUP }), 'DateTime', 4],
        ['SC Currency', spemu.sp.web.fields.addCurrency('SC Currency', { MinimumValue: 0, MaximumValue: 100, CurrencyLocaleId: 1033, Group: GROUP }), 'Currency', 10],
        ['SC Note', spemu.sp.web.fields.addMultilineText('SC Note', { NumberOfLines: 6, RichText: true, RestrictedMode: false, AppendOnly: false, AllowHyperlink: true, Group: GROUP }), 'Note', 3],
        ['SC Url', spemu.sp.web.fields.addUrl('SC Url', { DisplayFormat: 0, Group: GROUP }), 'URL', 11],
        ['SC User', spemu.sp.web.fields.addUser('SC User', { SelectionMode: 0, Group: GROUP }), 'User', 20],
        ['SC Choice', spemu.sp.web.fields.addChoice('SC Choice', { Choices: ['a', 'b'], EditFormat: 0, FillInChoice: false, Group: GROUP }), 'Choice', 6],
        ['SC Multi', spemu.sp.web.fields.addMultiChoice('SC Multi', { Choices: ['x', 'y'], FillInChoice: false, Group: GROUP }), 'MultiChoice', 15],
        ['SC Bool', spemu.sp.web.fields.addBoolean('SC Bool', { Group: GROUP }), 'Boolean', 8],
        ['SC Location', spemu.sp.web.fields.addLocation('SC Location', { Group: GROUP }), 'Location', 33],
        ['SC Image', spemu.sp.web.fields.addImageField('SC Image', { Group: GROUP }), 'Thumbnail', 34],
      ];
      for (const [title, added, type, kind] of made) {
        const field = await added;
        assert.equal(field.Title, title);
        assert.match(field.Id, GUID);
        const stored = await spemu.sp.web.fields.getByInternalNameOrTitle(title)();
        assert.deepEqual([stored.Id, stored.TypeAsString, stored.FieldTypeKind, stored.Group], [field.Id, type, kind, GROUP], title);
        assert.equal(stored.Scope, '/sites/dev');
      }
      assert.deepEqual((await spemu.sp.web.fields.getByTitle('SC Currency')() as any).MaximumValue, 100);
      assert.deepEqual((await spemu.sp.web.fields.getByTitle('SC Choice')() as any).Choices, ['a', 'b']);
      const listed = await spemu.sp.web.fields.select('Title', 'Group')();
      assert.equal(listed.filter((f) => f.Group === GROUP).length, made.length);
      assert.ok(listed.some((f) => f.Title === 'Title'), 'the root web lists the built-in columns too');
      // A site column is no list's field until a list takes it.
      const docs = await spemu.sp.web.lists.getByTitle('Documents').fields.select('Title')();
      assert.ok(!docs.some((f) => f.Title === 'SC Text'));
    });

    it('a second column of the same name is numbered, as in lists; an empty title is refused', async () => {
      await spemu.sp.web.fields.addText('Twin');
      const second = await spemu.sp.web.fields.addText('Twin');
      assert.equal(second.InternalName, 'Twin0');
      const empty = await failure(spemu.sp.web.fields.addText(''));
      assert.equal(empty.status, 400);
    });

    it('createFieldAsXml keeps the ID, name and group; the same ID twice is SharePoint\'s duplicate error', async () => {
      const id = randomUUID();
      const xml = `<Field ID="{${id}}" Name="XmlCost" DisplayName="Xml Cost" Type="Currency" Decimals="2" Min="0" Required="FALSE" Group="${GROUP}" />`;
      const field = await spemu.sp.web.fields.createFieldAsXml(xml);
      assert.equal(field.Id, id);
      const stored = await spemu.sp.web.fields.getById(id)() as any;
      assert.deepEqual([stored.InternalName, stored.Title, stored.TypeAsString, stored.Group, stored.MinimumValue], ['XmlCost', 'Xml Cost', 'Currency', GROUP, 0]);
      const again = await failure(spemu.sp.web.fields.createFieldAsXml(xml));
      assert.equal(again.status, 500);
      assert.equal(again.message, 'A duplicate field name "XmlCost" was found.');
    });

    it('addLookup (AddField) points at a list of the web; update then sets its group; a missing list is refused', async () => {
      const list = await spemu.sp.web.lists.add(`Lookup Target ${randomUUID().slice(0, 8)}`, '', 100, false);
      const field = await spemu.sp.web.fields.addLookup('SC Lookup', { LookupListId: list.Id, LookupFieldName: 'Title' });
      await spemu.sp.web.fields.getById(field.Id!).update({ Group: GROUP });
      const stored = await spemu.sp.web.fields.getById(field.Id!)() as any;
      assert.deepEqual([stored.TypeAsString, stored.Group, stored.LookupField], ['Lookup', GROUP, 'Title']);
      assert.equal(stored.LookupList.replace(/[{}]/g, ''), list.Id);
      const missing = await failure(spemu.sp.web.fields.addLookup('SC Dangling', { LookupListId: randomUUID(), LookupFieldName: 'Title' }));
      assert.equal(missing.status, 404);
      assert.equal((await failure(spemu.sp.web.fields.getByTitle('SC Dangling')())).status, 404);
    });

    it('addCalculated makes a calculated site column as the upstream suite does, with its formula and output type', async () => {
      const made = await spemu.sp.web.fields.addCalculated('SC Calc', { Formula: '=Modified+1', DateFormat: 0, FieldTypeKind: FieldTypes.Calculated, Group: GROUP });
      assert.equal(made.Title, 'SC Calc');
      const stored = await spemu.sp.web.fields.getByTitle('SC Calc')<{ TypeAsString: string; Formula: string; OutputType: number; DateFormat: number; Group: string }>();
      assert.deepEqual([stored.TypeAsString, stored.Formula, stored.OutputType, stored.DateFormat, stored.Group], ['Calculated', '=Modified+1', 2, 0, GROUP]);
      const err = await failure(spemu.sp.web.fields.addCalculated('SC Calc Bad', { Formula: '=[No Such Column]+1', FieldTypeKind: FieldTypes.Calculated }));
      assert.equal(err.status, 400);
      assert.match(err.message, /refers to a column that does not exist/);
      assert.equal((await failure(spemu.sp.web.fields.getByTitle('SC Calc Bad')())).status, 404);
    });
  });

  describe('changing site columns', () => {
    it('update (MERGE) keeps Description, Title, Required and Hidden', async () => {
      await spemu.sp.web.fields.add('SC Update', FieldTypes.Text, { Group: GROUP });
      await spemu.sp.web.fields.getByTitle('SC Update').update({ Description: 'PnPJS Test Description' });
      assert.equal((await spemu.sp.web.fields.getByTitle('SC Update')()).Description, 'PnPJS Test Description');
      await spemu.sp.web.fields.getByTitle('SC Update').update({ Title: 'SC Updated', Required: true, Hidden: true }, 'SP.FieldText');
      const stored = await spemu.sp.web.fields.getByInternalNameOrTitle('SC_x0020_Update')();
      assert.deepEqual([stored.Title, stored.Required, stored.Hidden], ['SC Updated', true, true]);
    });

    it('setShowInDisplayForm/EditForm/NewForm persist, shown in SchemaXml as SharePoint writes them', async () => {
      await spemu.sp.web.fields.add('SC Forms', FieldTypes.Text, { Group: GROUP });
      const before = await spemu.sp.web.fields.getByTitle('SC Forms')();
      assert.doesNotMatch(before.SchemaXml, /ShowIn/);
      await spemu.sp.web.fields.getByTitle('SC Forms').setShowInDisplayForm(true);
      await spemu.sp.web.fields.getByTitle('SC Forms').setShowInEditForm(false);
      await spemu.sp.web.fields.getByTitle('SC Forms').setShowInNewForm(true);
      const after = await spemu.sp.web.fields.getByTitle('SC Forms')();
      assert.match(after.SchemaXml, /ShowInDisplayForm="TRUE" ShowInEditForm="FALSE" ShowInNewForm="TRUE"/);
      assert.match(after.SchemaXml, new RegExp(`Group="${GROUP}"`));
    });

    it('delete removes the column: it is gone by id and from web/fields', async () => {
      const f = await spemu.sp.web.fields.add('SC Delete', FieldTypes.Text, { Group: GROUP });
      await spemu.sp.web.fields.getById(f.Id!).delete();
      assert.equal((await failure(spemu.sp.web.fields.getById(f.Id!)())).status, 404);
      assert.ok(!(await spemu.sp.web.fields.select('Id')()).some((x) => x.Id === f.Id));
    });
  });

  describe('subwebs', () => {
    it('web/fields is the subweb\'s own; availablefields adds its parents\' and the built-in ones', async () => {
      await spemu.sp.web.fields.addText('Parent Column');
      const leaf = randomUUID();
      const added = await spemu.sp.web.webs.add('Columns Sub', leaf) as unknown as { Url: string };
      const sub = spfi([spemu.sp.web, added.Url]);
      assert.deepEqual(await sub.web.fields(), []);
      const own = await sub.web.fields.addText('Child Column');
      assert.deepEqual((await sub.web.fields.select('Title')()).map((f) => f.Title), ['Child Column']);
      const available = await sub.web.availablefields.select('Title', 'Scope')();
      const scope = (t: string) => available.find((f) => f.Title === t)?.Scope;
      assert.equal(scope('Child Column'), `/sites/dev/${leaf}`);
      assert.equal(scope('Parent Column'), '/sites/dev');
      assert.equal(scope('Title'), '/sites/dev');
      // The parent does not see the child's column; a child's column of a parent's name is numbered.
      assert.equal((await failure(spemu.sp.web.fields.getById(own.Id!)())).status, 404);
      assert.equal((await sub.web.fields.addText('Parent Column')).InternalName, 'Parent_x0020_Column0');
      // The parent's columns are reached through the subweb's availablefields by id too.
      const parentCol = await spemu.sp.web.fields.getByTitle('Parent Column').select('Id')();
      assert.equal((await sub.web.availablefields.getById(parentCol.Id)()).Title, 'Parent Column');
      await sub.web.delete();
    });
  });

  describe('site columns on lists', () => {
    it('a site column\'s SchemaXml through list createFieldAsXml adds it to the list under the column\'s id, once', async () => {
      const column = await spemu.sp.web.fields.addChoice('Shared Status', { Choices: ['Open', 'Closed'], Group: GROUP });
      const schema = (await spemu.sp.web.fields.getById(column.Id!)()).SchemaXml;
      const list = spemu.sp.web.lists.getByTitle((await spemu.sp.web.lists.add(`Uses Column ${randomUUID().slice(0, 8)}`, '', 100)).Title);
      const field = await list.fields.createFieldAsXml(schema);
      assert.equal(field.Id, column.Id);
      const stored = await list.fields.getById(column.Id!)() as any;
      assert.deepEqual([stored.InternalName, stored.TypeAsString, stored.Group], ['Shared_x0020_Status', 'Choice', GROUP]);
      const item = await list.items.add({ Title: 'x', Shared_x0020_Status: 'Open' });
      assert.equal((await list.items.getById(item.Id).select('Shared_x0020_Status')()).Shared_x0020_Status, 'Open');
      const twice = await failure(list.fields.createFieldAsXml(schema));
      assert.equal(twice.status, 500);
    });

    it('list fields: update, setShowIn*Form and delete as the upstream suite calls them', async () => {
      const list = spemu.sp.web.lists.getByTitle('Documents');
      await list.fields.add('LF Forms', FieldTypes.Text, { Group: GROUP });
      await list.fields.getByTitle('LF Forms').update({ Description: 'described' });
      await list.fields.getByTitle('LF Forms').setShowInDisplayForm(false);
      await list.fields.getByTitle('LF Forms').setShowInEditForm(true);
      await list.fields.getByTitle('LF Forms').setShowInNewForm(false);
      const stored = await list.fields.getByTitle('LF Forms')();
      assert.equal(stored.Description, 'described');
      assert.equal(stored.Group, GROUP);
      assert.match(stored.SchemaXml, /ShowInDisplayForm="FALSE" ShowInEditForm="TRUE" ShowInNewForm="FALSE"/);
      await list.fields.getById(stored.Id).delete();
      assert.equal((await failure(list.fields.getById(stored.Id)())).status, 404);
    });

    it('Location and Image columns on a list keep their JSON values', async () => {
      const list = spemu.sp.web.lists.getByTitle((await spemu.sp.web.lists.add(`Places ${randomUUID().slice(0, 8)}`, '', 100)).Title);
      await list.fields.addLocation('Place', { Group: GROUP });
      await list.fields.addImageField('Photo', { Group: GROUP });
      assert.deepEqual([(await list.fields.getByTitle('Place')()).TypeAsString, (await list.fields.getByTitle('Photo')()).TypeAsString], ['Location', 'Thumbnail']);
      const place = JSON.stringify({ DisplayName: 'Office', Address: { City: 'Redmond' }, Coordinates: { Latitude: 47.6, Longitude: -122.1 } });
      const photo = JSON.stringify({ fileName: 'a.png', serverRelativeUrl: '/sites/dev/SiteAssets/a.png' });
      const item = await list.items.add({ Title: 'hq', Place: place, Photo: photo });
      const read = await list.items.getById(item.Id).select('Place', 'Photo')();
      assert.deepEqual([JSON.parse(read.Place), JSON.parse(read.Photo)], [JSON.parse(place), JSON.parse(photo)]);
      const bad = await failure(list.items.add({ Title: 'bad', Place: 'not json' }));
      assert.equal(bad.status, 400);
    });
  });

  describe('on the wire', () => {
    it('a site column in verbose form: its SP.Field* type and its edit link below Web/Fields', async () => {
      const r = await call(spemu.site, 'web/fields', {
        method: 'POST', accept: ACCEPT.verbose, headers: { 'Content-Type': 'application/json;odata=verbose' },
        body: { __metadata: { type: 'SP.FieldNumber' }, Title: 'Wire Number', FieldTypeKind: 9, MinimumValue: 1 },
      });
      assert.equal(r.status, 201);
      const d = r.json.d;
      assert.equal(d.__metadata.type, 'SP.FieldNumber');
      assert.equal(d.__metadata.uri, `${spemu.site}/_api/Web/Fields(guid'${d.Id}')`);
      assert.equal(d.MinimumValue, 1);
      const minimal = await call(spemu.site, `web/fields('${d.Id}')`, { accept: ACCEPT.minimal });
      assert.equal(minimal.json['odata.type'], 'SP.FieldNumber');
      assert.equal(minimal.json['odata.editLink'], `Web/Fields(guid'${d.Id}')`);
    });

    it('errors: an unknown property, a setShowIn* without a Boolean, a missing column', async () => {
      const unknown = await call(spemu.site, 'web/fields', { method: 'POST', body: { Title: 'Odd', FieldTypeKind: 2, Colour: 'red' } });
      assert.equal(unknown.status, 400);
      assert.match(unknown.json['odata.error'].message.value, /The property 'Colour' does not exist on type 'SP.Field'/);
      const bad = await call(spemu.site, `web/fields('${TITLE_ID}')/setshowinnewform('maybe')`, { method: 'POST' });
      assert.equal(bad.status, 400);
      const missing = await call(spemu.site, `web/fields/getbyinternalnameortitle('Nope')`);
      assert.equal(missing.status, 404);
      assert.equal(missing.json['odata.error'].message.value, "Field 'Nope' does not exist. It may have been deleted by another user.");
      const readOnly = await call(spemu.site, `web/fields/getbytitle('Title')/setshowinnewform(true)`, { method: 'POST' });
      assert.equal(readOnly.status, 400);
      // A dependent lookup needs a lookup as its primary (pnp-dependent-lookups.test.ts has the rest).
      const dependent = await call(spemu.site, `web/fields/adddependentlookupfield(displayName='D',primarylookupfieldid='${TITLE_ID}',showfield='Title')`, { method: 'POST' });
      assert.equal(dependent.status, 400);
    });
  });
});
