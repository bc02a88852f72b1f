// CSOM's ProcessQuery (`{site}/_vti_bin/client.svc/ProcessQuery`), the slice spemu serves: on
// the wire with plain fetch (the exact JSON answer, CSOM's errors), then through CLI for
// Microsoft 365 (unmodified), whose `spo propertybag` and `spo contenttype` commands send it.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { useTestServer } from '../helpers/server.ts';
import { useM365 } from '../helpers/m365-cli.ts';
import { tlsRequest } from '../helpers/tls-request.ts';

const ALICE = 'alice@contoso.onmicrosoft.com';
const CONTEXT = '<StaticProperty Id="3" TypeId="{3747adcd-a3c3-41b9-bfab-4a64dd2f1e0a}" Name="Current" />';
const request = (actions: string, paths: string) =>
  `<Request AddExpandoFieldTypeSuffix="true" SchemaVersion="15.0.0.0" LibraryVersion="16.0.0.0" ApplicationName="test" xmlns="http://schemas.microsoft.com/sharepoint/clientquery/2009"><Actions>${actions}</Actions><ObjectPaths>${paths}</ObjectPaths></Request>`;
const basic = (user: string) => `Basic ${Buffer.from(`${user}:${user.split('@')[0]}-demo-pass`).toString('base64')}`;
const GUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

describe('CSOM ProcessQuery on the wire', () => {
  const context = useTestServer({ anonymousUser: undefined });
  const site = () => context.server.site('/sites/dev');

  async function digest(user: string): Promise<string> {
    const res = await fetch(`${site()}/_api/contextinfo`, { method: 'POST', headers: { Authorization: basic(user), Accept: 'application/json;odata=nometadata' } });
    return ((await res.json()) as { FormDigestValue: string }).FormDigestValue;
  }
  async function processQuery(body: string, user = ALICE, headers: Record<string, string> = {}) {
    const res = await fetch(`${site()}/_vti_bin/client.svc/ProcessQuery`, {
      method: 'POST', body, headers: { 'Content-Type': 'text/xml', Authorization: basic(user), 'X-RequestDigest': await digest(user), ...headers },
    });
    const text = await res.text();
    return { status: res.status, res, text, json: JSON.parse(text) as any[] };
  }
  const webQuery = (properties: string) => request(
    `<Query Id="1" ObjectPathId="5"><Query SelectAllProperties="false"><Properties>${properties}</Properties></Query></Query>`,
    `<Property Id="5" ParentId="3" Name="Web" />${CONTEXT}`);

  it('the current web: header, then the action id and the object with its type, identity and the properties asked for', async () => {
    const { status, res, json } = await processQuery(webQuery('<Property Name="ServerRelativeUrl" ScalarProperty="true" /><Property Name="Title" ScalarProperty="true" />'));
    assert.equal(status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(json.length, 3);
    const [head, id, web] = json;
    assert.deepEqual(Object.keys(head), ['SchemaVersion', 'LibraryVersion', 'ErrorInfo', 'TraceCorrelationId']);
    assert.equal(head.SchemaVersion, '15.0.0.0');
    assert.equal(head.ErrorInfo, null);
    assert.equal(head.TraceCorrelationId, res.headers.get('sprequestguid'));
    assert.equal(id, 1);
    assert.deepEqual(Object.keys(web), ['_ObjectType_', '_ObjectIdentity_', 'ServerRelativeUrl', 'Title']);
    assert.equal(web._ObjectType_, 'SP.Web');
    assert.match(web._ObjectIdentity_, new RegExp(`^${GUID}\\|740c6a0b-85e2-48a0-a494-e0f1759d4aa7:site:${GUID}:web:${GUID}$`));
    assert.equal(web.ServerRelativeUrl, '/sites/dev');
    assert.equal(web.Title, 'Dev');
  });

  it('AllProperties: set with SetFieldValue + Update, read back (CSOM and REST), removed with a Null value', async () => {
    const identity = (await processQuery(webQuery('<Property Name="Id" ScalarProperty="true" />'))).json[2]._ObjectIdentity_ as string;
    const set = (value: string) => request(
      `<Method Name="SetFieldValue" Id="206" ObjectPathId="205"><Parameters><Parameter Type="String">spemu_key</Parameter>${value}</Parameters></Method><Method Name="Update" Id="207" ObjectPathId="198" />`,
      `<Property Id="205" ParentId="198" Name="AllProperties" /><Identity Id="198" Name="${identity}" />`);
    const written = await processQuery(set('<Parameter Type="String">a &amp; b</Parameter>'));
    assert.deepEqual(written.json.slice(1), []);
    assert.equal(written.json[0].ErrorInfo, null);
    const bag = async () => (await processQuery(request(
      '<Query Id="97" ObjectPathId="5"><Query SelectAllProperties="false"><Properties><Property Name="AllProperties" SelectAll="true"><Query SelectAllProperties="false"><Properties /></Query></Property></Properties></Query></Query>',
      `<Identity Id="5" Name="${identity}" />`))).json[2].AllProperties;
    const read = await bag();
    assert.equal(read._ObjectType_, 'SP.PropertyValues');
    assert.equal(read.spemu_key, 'a & b');
    assert.equal(read.vti_defaultlanguage, 'en-us');
    const rest = await fetch(`${site()}/_api/web/AllProperties`, { headers: { Authorization: basic(ALICE), Accept: 'application/json;odata=nometadata' } });
    assert.equal(((await rest.json()) as Record<string, string>).spemu_x005f_key, 'a & b');
    await processQuery(set('<Parameter Type="Null" />'));
    assert.equal(Object.hasOwn(await bag(), 'spemu_key'), false);
  });

  it('a member (Edit: no ManageWeb) is refused the write with System.UnauthorizedAccessException, and nothing is written', async () => {
    const identity = (await processQuery(webQuery('<Property Name="Id" ScalarProperty="true" />'), 'bob@contoso.onmicrosoft.com')).json[2]._ObjectIdentity_ as string;
    const { status, json } = await processQuery(request(
      '<Method Name="SetFieldValue" Id="2" ObjectPathId="1"><Parameters><Parameter Type="String">bobs</Parameter><Parameter Type="String">x</Parameter></Parameters></Method><Method Name="Update" Id="3" ObjectPathId="0" />',
      `<Property Id="1" ParentId="0" Name="AllProperties" /><Identity Id="0" Name="${identity}" />`), 'bob@contoso.onmicrosoft.com');
    assert.equal(status, 200);
    assert.equal(json.length, 1);
    assert.equal(json[0].ErrorInfo.ErrorTypeName, 'System.UnauthorizedAccessException');
    assert.equal(json[0].ErrorInfo.ErrorCode, -2147024891);
    assert.match(json[0].ErrorInfo.ErrorMessage, /^Access denied/);
    const rest = await fetch(`${site()}/_api/web/AllProperties`, { headers: { Authorization: basic(ALICE), Accept: 'application/json;odata=nometadata' } });
    assert.equal(Object.hasOwn((await rest.json()) as object, 'bobs'), false);
  });

  it('a web content type added with the Id given (ContentTypes.Add), then renamed with SetProperty + Update(false)', async () => {
    const add = await processQuery(request(
      '<ObjectPath Id="8" ObjectPathId="7" /><ObjectPath Id="10" ObjectPathId="9" /><ObjectIdentityQuery Id="11" ObjectPathId="9" />',
      '<Property Id="7" ParentId="5" Name="ContentTypes" /><Method Id="9" ParentId="7" Name="Add"><Parameters><Parameter TypeId="{168f3091-4554-4f14-8866-b20d48e45b54}"><Property Name="Description" Type="String">d</Property><Property Name="Group" Type="Null" /><Property Name="Id" Type="String">0x0100A1B2C3D4E5F60718293A4B5C6D7E8F90</Property><Property Name="Name" Type="String">Wire Type</Property><Property Name="ParentContentType" Type="Null" /></Parameter></Parameters></Method>'
      + `<Property Id="5" ParentId="3" Name="Web" />${CONTEXT}`));
    assert.equal(add.json[0].ErrorInfo, null, add.text);
    assert.deepEqual(add.json.slice(1, 5), [8, { IsNull: false }, 10, { IsNull: false }]);
    assert.equal(add.json[5], 11);
    assert.equal(add.json[6]._ObjectType_, 'SP.ContentType');
    assert.match(add.json[6]._ObjectIdentity_, /:contenttype:0x0100A1B2C3D4E5F60718293A4B5C6D7E8F90$/);
    const rename = await processQuery(request(
      '<SetProperty Id="1" ObjectPathId="9" Name="Name"><Parameter Type="String">Wire Type 2</Parameter></SetProperty><Method Name="Update" Id="2" ObjectPathId="9"><Parameters><Parameter Type="Boolean">false</Parameter></Parameters></Method>',
      `<Identity Id="9" Name="${add.json[6]._ObjectIdentity_}" />`));
    assert.equal(rename.json[0].ErrorInfo, null, rename.text);
    const rest = await fetch(`${site()}/_api/web/contenttypes('0x0100A1B2C3D4E5F60718293A4B5C6D7E8F90')`, { headers: { Authorization: basic(ALICE), Accept: 'application/json;odata=nometadata' } });
    const type = (await rest.json()) as { Name: string; Description: string };
    assert.deepEqual([type.Name, type.Description], ['Wire Type 2', 'd']);
  });

  it("a content type's field links: FieldLinks.Add with a site column, Required through the link's own identity, then the type's Update (one object per thing in a request)", async () => {
    const type = '0x0100A1B2C3D4E5F60718293A4B5C6D7E8F90';
    const auth = { Authorization: basic(ALICE), Accept: 'application/json;odata=nometadata' };
    const column = await (await fetch(`${site()}/_api/web/fields`, {
      method: 'POST', body: JSON.stringify({ Title: 'LinkedColumn', FieldTypeKind: 2 }),
      headers: { ...auth, 'Content-Type': 'application/json;odata=nometadata', 'X-RequestDigest': await digest(ALICE) },
    })).json() as { Id: string };
    const webIdentity = (await processQuery(webQuery('<Property Name="Id" ScalarProperty="true" />'))).json[2]._ObjectIdentity_ as string;
    const added = await processQuery(request(
      '<ObjectPath Id="5" ObjectPathId="4" /><ObjectIdentityQuery Id="6" ObjectPathId="4" /><Method Name="Update" Id="7" ObjectPathId="1"><Parameters><Parameter Type="Boolean">false</Parameter></Parameters></Method>',
      `<Identity Id="2" Name="${webIdentity}:field:${column.Id}" /><Method Id="4" ParentId="3" Name="Add"><Parameters><Parameter TypeId="{63fb2c92-8f65-4bbb-a658-b6cd294403f4}"><Property Name="Field" ObjectPathId="2" /></Parameter></Parameters></Method><Identity Id="1" Name="${webIdentity}:contenttype:${type}" /><Property Id="3" ParentId="1" Name="FieldLinks" />`));
    assert.equal(added.json[0].ErrorInfo, null, added.text);
    assert.equal(added.json[4]._ObjectType_, 'SP.FieldLink');
    assert.equal(added.json[4]._ObjectIdentity_, `${added.json[0].TraceCorrelationId}|${webIdentity.split('|')[1]}:contenttype:${type}:fl:${column.Id}`);
    const required = await processQuery(request(
      '<SetProperty Id="122" ObjectPathId="121" Name="Required"><Parameter Type="Boolean">true</Parameter></SetProperty><Method Name="Update" Id="124" ObjectPathId="19"><Parameters><Parameter Type="Boolean">false</Parameter></Parameters></Method>',
      `<Identity Id="121" Name="${webIdentity}:contenttype:${type}:fl:${column.Id}" /><Identity Id="19" Name="${webIdentity}:contenttype:${type}" />`));
    assert.equal(required.json[0].ErrorInfo, null, required.text);
    const links = await (await fetch(`${site()}/_api/web/contenttypes('${type}')/fieldlinks`, { headers: auth })).json() as { value: Array<{ Id: string; Name: string; Required: boolean }> };
    assert.deepEqual(links.value.find((l) => l.Id === column.Id), { ...links.value.find((l) => l.Id === column.Id), Name: 'LinkedColumn', Required: true });
    // Update(true) would push the change down to child types: not served, and nothing is written.
    const pushed = await processQuery(request(
      '<Method Name="DeleteObject" Id="2" ObjectPathId="1" /><Method Name="Update" Id="3" ObjectPathId="0"><Parameters><Parameter Type="Boolean">true</Parameter></Parameters></Method>',
      `<Identity Id="1" Name="${webIdentity}:contenttype:${type}:fl:${column.Id}" /><Identity Id="0" Name="${webIdentity}:contenttype:${type}" />`));
    assert.equal(pushed.json[0].ErrorInfo.ErrorTypeName, 'System.NotImplementedException');
    const still = await (await fetch(`${site()}/_api/web/contenttypes('${type}')/fieldlinks`, { headers: auth })).json() as { value: Array<{ Id: string }> };
    assert.ok(still.value.some((l) => l.Id === column.Id));
  });

  it("a list's settings: Lists.GetByTitle, SetProperty Description, Update (REST reads it); an unknown title is SharePoint's ArgumentException", async () => {
    const lists = '<Property Id="7" ParentId="5" Name="Lists" /><Property Id="5" ParentId="3" Name="Web" />' + CONTEXT;
    const byTitle = (title: string) => `<Method Id="9" ParentId="7" Name="GetByTitle"><Parameters><Parameter Type="String">${title}</Parameter></Parameters></Method>`;
    const set = await processQuery(request(
      '<ObjectPath Id="10" ObjectPathId="9" /><SetProperty Id="11" ObjectPathId="9" Name="Description"><Parameter Type="String">set over CSOM</Parameter></SetProperty><Method Name="Update" Id="12" ObjectPathId="9" /><Query Id="13" ObjectPathId="9"><Query SelectAllProperties="false"><Properties><Property Name="Title" ScalarProperty="true" /><Property Name="Description" ScalarProperty="true" /></Properties></Query></Query>',
      byTitle('Tasks') + lists));
    assert.equal(set.json[0].ErrorInfo, null, set.text);
    assert.deepEqual(set.json.slice(1, 3), [10, { IsNull: false }]);
    assert.equal(set.json[3], 13);
    assert.equal(set.json[4]._ObjectType_, 'SP.List');
    assert.deepEqual([set.json[4].Title, set.json[4].Description], ['Tasks', 'set over CSOM']);
    const rest = await fetch(`${site()}/_api/web/lists/getbytitle('Tasks')?$select=Description`, { headers: { Authorization: basic(ALICE), Accept: 'application/json;odata=nometadata' } });
    assert.equal(((await rest.json()) as { Description: string }).Description, 'set over CSOM');
    const missing = await processQuery(request('<ObjectPath Id="10" ObjectPathId="9" />', byTitle('Nope') + lists));
    assert.equal(missing.json.length, 1);
    assert.equal(missing.json[0].ErrorInfo.ErrorTypeName, 'System.ArgumentException');
    assert.equal(missing.json[0].ErrorInfo.ErrorMessage, `List 'Nope' does not exist at site with URL '${site()}'.`);
  });

  it('XML that is not well-formed: InvalidClientQueryException in the ErrorInfo', async () => {
    const { status, json } = await processQuery('<Request><Actions>');
    assert.equal(status, 200);
    assert.deepEqual(json.length, 1);
    assert.equal(json[0].ErrorInfo.ErrorTypeName, 'Microsoft.SharePoint.Client.InvalidClientQueryException');
    assert.equal(json[0].ErrorInfo.ErrorCode, -2147024809);
    assert.match(json[0].ErrorInfo.ErrorMessage, /^The request XML is not valid/);
  });

  it('a DTD whose entities expand past the parser\'s limit: InvalidClientQueryException, not a 500', async () => {
    const body = `<!DOCTYPE Request [<!ENTITY b "${'y'.repeat(1000)}">]><Request><Actions>${'&b;'.repeat(200)}</Actions></Request>`;
    const { status, json, text } = await processQuery(body);
    assert.equal(status, 200, text.slice(0, 300));
    assert.equal(json.length, 1);
    assert.equal(json[0].ErrorInfo.ErrorTypeName, 'Microsoft.SharePoint.Client.InvalidClientQueryException');
  });

  it('what spemu does not serve (an unknown static type, a member it lacks): the not-implemented ErrorInfo, no results', async () => {
    const unknown = await processQuery(request('<ObjectPath Id="1" ObjectPathId="0" />', '<StaticProperty Id="0" TypeId="{d89f0b18-614e-4b4a-bac0-fd6142b55448}" Name="Current" />'));
    assert.equal(unknown.json.length, 1);
    assert.equal(unknown.json[0].ErrorInfo.ErrorTypeName, 'System.NotImplementedException');
    assert.equal(unknown.json[0].ErrorInfo.ErrorCode, -2147467263);
    assert.match(unknown.json[0].ErrorInfo.ErrorMessage, /not implemented by spemu/);
    const member = await processQuery(webQuery('<Property Name="Navigation" ScalarProperty="true" />'));
    assert.equal(member.json.length, 1);
    assert.match(member.json[0].ErrorInfo.ErrorMessage, /SP\.Web\.Navigation/);
  });

  it('object paths that name each other in a cycle: InvalidClientQueryException, not a stack overflow', async () => {
    const { status, json } = await processQuery(request('<ObjectPath Id="9" ObjectPathId="1" />', '<Property Id="1" ParentId="2" Name="Web" /><Property Id="2" ParentId="1" Name="Web" />'));
    assert.equal(status, 200);
    assert.equal(json.length, 1);
    assert.equal(json[0].ErrorInfo.ErrorTypeName, 'Microsoft.SharePoint.Client.InvalidClientQueryException');
    const self = await processQuery(request('<ObjectPath Id="9" ObjectPathId="1" />', '<Method Id="1" ParentId="1" Name="GetList"><Parameters><Parameter Type="String">x</Parameter></Parameters></Method>'));
    assert.equal(self.json[0].ErrorInfo.ErrorTypeName, 'Microsoft.SharePoint.Client.InvalidClientQueryException');
    // A path that is its own parameter would wait on itself: refused too, not a request that never answers.
    const waits = await processQuery(request('<ObjectPath Id="9" ObjectPathId="1" />', `<Method Id="1" ParentId="5" Name="GetList"><Parameters><Parameter ObjectPathId="1" /></Parameters></Method><Property Id="5" ParentId="3" Name="Web" />${CONTEXT}`));
    assert.equal(waits.json[0].ErrorInfo.ErrorTypeName, 'Microsoft.SharePoint.Client.InvalidClientQueryException');
    // A long (acyclic) chain of parents is no stack overflow either: the answer is CSOM's, whatever it says.
    const chain = Array.from({ length: 20000 }, (_, i) => `<Property Id="${i + 10}" ParentId="${i + 11}" Name="Web" />`).join('');
    const long = await processQuery(request('<ObjectPath Id="9" ObjectPathId="10" />', `${chain}<Property Id="20010" ParentId="3" Name="Web" />${CONTEXT}`));
    assert.equal(long.status, 200);
    assert.ok(long.json[0].ErrorInfo, long.text.slice(0, 300));
  });

  it('a property bag key named __proto__ is refused (ArgumentException), never answered as written and dropped; constructor is kept', async () => {
    const identity = (await processQuery(webQuery('<Property Name="Id" ScalarProperty="true" />'))).json[2]._ObjectIdentity_ as string;
    const set = (key: string) => processQuery(request(
      `<Method Name="SetFieldValue" Id="2" ObjectPathId="1"><Parameters><Parameter Type="String">${key}</Parameter><Parameter Type="String">v</Parameter></Parameters></Method><Method Name="Update" Id="4" ObjectPathId="0" />`,
      `<Property Id="1" ParentId="0" Name="AllProperties" /><Identity Id="0" Name="${identity}" />`));
    const proto = await set('__proto__');
    assert.equal(proto.json[0].ErrorInfo?.ErrorTypeName, 'System.ArgumentException', proto.text);
    const ctor = await set('constructor');
    assert.equal(ctor.json[0].ErrorInfo, null, ctor.text);
    const rest = await fetch(`${site()}/_api/web/AllProperties`, { headers: { Authorization: basic(ALICE), Accept: 'application/json;odata=nometadata' } });
    assert.equal(Object.getOwnPropertyDescriptor(await rest.json(), 'constructor')?.value, 'v');
  });

  it('a list with unique permissions the caller holds nothing in: refused (UnauthorizedAccessException), its settings not read', async () => {
    const auth = { Authorization: basic(ALICE), Accept: 'application/json;odata=nometadata' };
    const made = await fetch(`${site()}/_api/web/lists`, { method: 'POST', body: JSON.stringify({ Title: 'CsomPrivate', BaseTemplate: 100, Description: 'secret' }), headers: { ...auth, 'Content-Type': 'application/json;odata=nometadata', 'X-RequestDigest': await digest(ALICE) } });
    assert.equal(made.status, 201);
    const broke = await fetch(`${site()}/_api/web/lists/getbytitle('CsomPrivate')/breakroleinheritance(copyRoleAssignments=false,clearSubscopes=true)`, { method: 'POST', headers: { ...auth, 'X-RequestDigest': await digest(ALICE) } });
    assert.equal(broke.status, 200);
    const rest = await fetch(`${site()}/_api/web/lists/getbytitle('CsomPrivate')`, { headers: { Authorization: basic('bob@contoso.onmicrosoft.com'), Accept: 'application/json;odata=nometadata' } });
    assert.equal(rest.status, 403, 'REST refuses it');
    const read = await processQuery(request(
      '<Query Id="13" ObjectPathId="9"><Query SelectAllProperties="false"><Properties><Property Name="Description" ScalarProperty="true" /></Properties></Query></Query>',
      `<Method Id="9" ParentId="7" Name="GetByTitle"><Parameters><Parameter Type="String">CsomPrivate</Parameter></Parameters></Method><Property Id="7" ParentId="5" Name="Lists" /><Property Id="5" ParentId="3" Name="Web" />${CONTEXT}`), 'bob@contoso.onmicrosoft.com');
    assert.equal(read.json.length, 1, read.text);
    assert.equal(read.json[0].ErrorInfo.ErrorTypeName, 'System.UnauthorizedAccessException');
    assert.doesNotMatch(read.text, /secret/);
  });

  it('Basic without a request digest: refused (as REST writes are), in the ErrorInfo', async () => {
    const { json } = await processQuery(webQuery('<Property Name="Title" ScalarProperty="true" />'), ALICE, { 'X-RequestDigest': '' });
    assert.equal(json.length, 1);
    assert.match(json[0].ErrorInfo.ErrorMessage, /security validation/);
  });

  it('without credentials, the 401 challenge as everywhere', async () => {
    const res = await fetch(`${site()}/_vti_bin/client.svc/ProcessQuery`, { method: 'POST', body: webQuery(''), headers: { 'Content-Type': 'text/xml' } });
    assert.equal(res.status, 401);
    assert.match(res.headers.get('www-authenticate') ?? '', /Bearer realm=/);
  });
});

describe('CLI for Microsoft 365 over CSOM: spo propertybag set|list|get|remove, spo contenttype add|set|field remove', () => {
  const cli = useM365(ALICE);
  const site = () => cli.server.site('/sites/dev');

  it('propertybag set, list, get, remove: the web property bag round-trips', async () => {
    await cli.m365('spo', 'propertybag', 'set', '--webUrl', site(), '--key', 'spemu-cli', '--value', 'hello <world>');
    const listed = await cli.m365('spo', 'propertybag', 'list', '--webUrl', site()) as Array<{ key: string; value: unknown }>;
    assert.deepEqual(listed.find((p) => p.key === 'spemu-cli'), { key: 'spemu-cli', value: 'hello <world>' });
    assert.ok(listed.some((p) => p.key === 'vti_defaultlanguage' && p.value === 'en-us'));
    assert.equal(await cli.m365('spo', 'propertybag', 'get', '--webUrl', site(), '--key', 'spemu-cli'), 'hello <world>');
    await cli.m365('spo', 'propertybag', 'remove', '--webUrl', site(), '--key', 'spemu-cli', '--force');
    const after = await cli.m365('spo', 'propertybag', 'list', '--webUrl', site()) as Array<{ key: string }>;
    assert.equal(after.some((p) => p.key === 'spemu-cli'), false);
  });

  it("propertybag list --folder: a library folder's bag (read only); set --folder is CSOM's not-implemented answer, not a fake success", async () => {
    const listed = await cli.m365('spo', 'propertybag', 'list', '--webUrl', site(), '--folder', '/Shared Documents') as Array<{ key: string; value: unknown }>;
    const listId = (await tlsRequest(`${site()}/_api/web/lists/getbytitle('Documents')?$select=Id`, {
      ca: cli.ca, headers: { Authorization: basic(ALICE), Accept: 'application/json;odata=nometadata' },
    })).json().Id as string;
    assert.deepEqual(listed.find((p) => p.key === 'vti_listname'), { key: 'vti_listname', value: `{${listId.toUpperCase()}}` });
    const set = await cli.runTimed(['spo', 'propertybag', 'set', '--webUrl', site(), '--folder', '/Shared Documents', '--key', 'k', '--value', 'v']);
    assert.notEqual(set.code, 0);
    assert.match(set.stderr.map((l) => l.text).join('\n'), /not implemented by spemu/);
  });

  it('contenttype add (a site content type with the id given), then contenttype set renames it', async () => {
    const id = '0x0100C5D6E7F8091A2B3C4D5E6F708192A3B4';
    const added = await cli.m365('spo', 'contenttype', 'add', '--webUrl', site(), '--id', id, '--name', 'CLI Type', '--group', 'CLI Group', '--description', 'made over CSOM');
    assert.equal(added.Name, 'CLI Type');
    assert.equal(added.Id.StringValue, id);
    assert.equal(added.Group, 'CLI Group');
    await cli.m365('spo', 'contenttype', 'set', '--webUrl', site(), '--id', id, '--Name', 'CLI Type 2');
    const res = await tlsRequest(`${site()}/_api/web/contenttypes('${id}')`, {
      ca: cli.ca, headers: { Authorization: basic(ALICE), Accept: 'application/json;odata=nometadata' },
    });
    assert.equal(res.json().Name, 'CLI Type 2');
    // contenttype field remove: FieldLinks.GetById, DeleteObject, then the type's Update(false).
    const title = 'fa564e0f-0c70-4ab9-b863-0177e6ddd247';
    await cli.m365('spo', 'contenttype', 'field', 'remove', '--webUrl', site(), '--contentTypeId', id, '--id', title, '--force');
    const links = await tlsRequest(`${site()}/_api/web/contenttypes('${id}')/fieldlinks`, {
      ca: cli.ca, headers: { Authorization: basic(ALICE), Accept: 'application/json;odata=nometadata' },
    });
    assert.equal(links.json().value.some((l: { Id: string }) => l.Id === title), false);
  });
});

describe('CLI for Microsoft 365 over CSOM: spo field set, on a site column and on a list field', () => {
  const cli = useM365(ALICE);
  const site = () => cli.server.site('/sites/dev');
  const rest = async (path: string) => (await tlsRequest(`${site()}/_api/${path}`, {
    ca: cli.ca, headers: { Authorization: basic(ALICE), Accept: 'application/json;odata=nometadata' },
  })).json();

  it("field set --listTitle: the list field's title and description change (Lists.GetByTitle, Fields.GetByInternalNameOrTitle, SetProperty, UpdateAndPushChanges)", async () => {
    const before = await rest("web/lists/getbytitle('Tasks')/fields?$filter=Hidden eq false&$select=InternalName,Title,Description,ReadOnlyField");
    const field = before.value.find((f: any) => !f.ReadOnlyField && f.InternalName !== 'Title');
    assert.ok(field, JSON.stringify(before));
    await cli.m365('spo', 'field', 'set', '--webUrl', site(), '--listTitle', 'Tasks', '--internalName', field.InternalName, '--Title', 'Renamed over CSOM', '--Description', 'via CLI');
    const after = await rest(`web/lists/getbytitle('Tasks')/fields/getbyinternalnameortitle('${field.InternalName}')?$select=Title,Description`);
    assert.deepEqual([after.Title, after.Description], ['Renamed over CSOM', 'via CLI']);
  });

  it('field set on a site column by id (Web.Fields.GetById, then its identity)', async () => {
    const created = (await tlsRequest(`${site()}/_api/web/fields`, {
      ca: cli.ca, method: 'POST',
      headers: {
        Authorization: basic(ALICE), Accept: 'application/json;odata=nometadata', 'Content-Type': 'application/json;odata=nometadata',
        'X-RequestDigest': (await tlsRequest(`${site()}/_api/contextinfo`, { ca: cli.ca, method: 'POST', headers: { Authorization: basic(ALICE), Accept: 'application/json;odata=nometadata' } })).json().FormDigestValue,
      },
      body: JSON.stringify({ Title: 'CsomColumn', FieldTypeKind: 2 }),
    })).json();
    assert.ok(created.Id, JSON.stringify(created));
    await cli.m365('spo', 'field', 'set', '--webUrl', site(), '--id', created.Id, '--Group', 'CSOM Group');
    assert.equal((await rest(`web/fields('${created.Id}')?$select=Group`)).Group, 'CSOM Group');
  });
});
