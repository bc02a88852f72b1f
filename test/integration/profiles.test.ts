// SP.UserProfiles.PeopleManager and userphoto.aspx against the demo tenant (reference §4):
// exact PersonProperties shapes per dialect, every call form clients use, writing profile
// properties, SetMyProfilePicture with real images, and the photos served back, resized.
// The last part drives the same endpoints with an unmodified PnPjs 4.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useTestServer } from '../helpers/server.ts';
import { pnpFor } from '../helpers/pnp.ts';
import { basic, bmp, call, DEMO, type DemoUser, describeImage, digestFor, login, picture, PNG_SIGNATURE } from '../helpers/profiles.ts';
import '@pnp/sp/profiles/index.js';
import type { IProfiles } from '@pnp/sp/profiles/types.js';
import { ACCEPT, GUID } from '../helpers/wire.ts';

// @pnp/sp's own augmentation of SPFI uses a path nodenext cannot resolve (see pnp-types.ts).
declare module '@pnp/sp/fi.js' {
  interface SPFI {
    readonly profiles: IProfiles;
  }
}

const PERSON_KEYS = ['AccountName', 'DirectReports', 'DisplayName', 'Email', 'ExtendedManagers', 'ExtendedReports', 'IsFollowed',
  'LatestPost', 'Peers', 'PersonalSiteHostUrl', 'PersonalUrl', 'PictureUrl', 'Title', 'UserProfileProperties', 'UserUrl'];
const PROFILE_KEYS = ['UserProfile_GUID', 'SID', 'ADGuid', 'AccountName', 'FirstName', 'LastName', 'PreferredName', 'WorkPhone',
  'Department', 'Title', 'Manager', 'AboutMe', 'PictureURL', 'UserName', 'SPS-SipAddress', 'WorkEmail', 'SPS-UserPrincipalName',
  'SPS-PictureTimestamp', 'SPS-PicturePlaceholderState', 'SPS-PictureExchangeSyncState', 'msOnline-ObjectId'];

const ALICE = login(DEMO.alice.upn);
const enc = encodeURIComponent;
const keys = (o: object) => Object.keys(o);
const prop = (props: Array<{ Key: string; Value: string }>, key: string) => props.find((p) => p.Key === key)?.Value;

function pm(site: string, rest: string): string {
  return `${site}/_api/SP.UserProfiles.PeopleManager/${rest}`;
}

const forAlice = (site: string, extra = '') => pm(site, `GetPropertiesFor(accountName=@v)?@v='${enc(ALICE)}'${extra}`);

describe('PeopleManager: PersonProperties shapes per dialect (§4.2)', () => {
  const spemu = useTestServer();
  let site: string;
  let photoUrl: string;
  before(async () => {
    site = spemu.server.site('/sites/dev');
    photoUrl = `${spemu.server.url}/_layouts/15/userphoto.aspx?size=L&accountname=alice%40contoso.com`;
  });

  it('nometadata: exactly the CLI sample\'s keys, with values from the directory and the profile', async () => {
    const r = await call(forAlice(site), { accept: ACCEPT.nometadata });
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /odata=nometadata/);
    const p = r.json;
    assert.deepEqual(keys(p), PERSON_KEYS);
    assert.equal(p.AccountName, ALICE);
    assert.deepEqual(p.DirectReports, []);
    assert.equal(p.DisplayName, 'Alice Adams');
    assert.equal(p.Email, 'alice@contoso.com');
    assert.deepEqual(p.ExtendedManagers, []);
    assert.deepEqual(p.ExtendedReports, [ALICE]);
    assert.equal(p.IsFollowed, false);
    assert.equal(p.LatestPost, null);
    assert.deepEqual(p.Peers, []);
    assert.equal(p.PersonalSiteHostUrl, `${spemu.server.url}/`);
    assert.equal(p.PersonalUrl, `${spemu.server.url}/personal/alice_contoso_onmicrosoft_com/`);
    assert.equal(p.PictureUrl, photoUrl);
    assert.equal(p.Title, 'Engineering Manager');
    // `.` as %2E and upper-case hex, as the CONFIRMED CLI sample writes it.
    assert.equal(p.UserUrl, `${spemu.server.url}/Person.aspx?accountname=i%3A0%23%2Ef%7Cmembership%7Calice%40contoso%2Eonmicrosoft%2Ecom`);
    const props = p.UserProfileProperties as Array<{ Key: string; Value: string; ValueType: string }>;
    assert.deepEqual(props.map((x) => x.Key).slice(0, PROFILE_KEYS.length), PROFILE_KEYS);
    for (const x of props) {
      assert.deepEqual(keys(x), ['Key', 'Value', 'ValueType']);
      assert.equal(typeof x.Value, 'string');
      assert.equal(x.ValueType, 'Edm.String');
    }
    assert.match(prop(props, 'UserProfile_GUID')!, GUID);
    assert.match(prop(props, 'SID')!, /^i:0h\.f\|membership\|[0-9a-f]{16}@live\.com$/);
    assert.equal(prop(props, 'ADGuid'), 'System.Byte[]');
    assert.equal(prop(props, 'AccountName'), ALICE);
    assert.equal(prop(props, 'FirstName'), 'Alice');
    assert.equal(prop(props, 'LastName'), 'Adams');
    assert.equal(prop(props, 'PreferredName'), 'Alice Adams');
    assert.equal(prop(props, 'Department'), 'Engineering');
    assert.equal(prop(props, 'Title'), 'Engineering Manager');
    assert.equal(prop(props, 'AboutMe'), 'Runs the platform team. Ask me about roadmaps and release dates.');
    assert.equal(prop(props, 'PictureURL'), photoUrl);
    assert.equal(prop(props, 'UserName'), DEMO.alice.upn);
    assert.equal(prop(props, 'SPS-SipAddress'), DEMO.alice.upn);
    assert.equal(prop(props, 'WorkEmail'), 'alice@contoso.com');
    assert.equal(prop(props, 'SPS-UserPrincipalName'), DEMO.alice.upn);
    assert.match(prop(props, 'SPS-PictureTimestamp')!, /^6\d{10}$/);
    assert.equal(prop(props, 'SPS-PicturePlaceholderState'), '0');
    assert.match(prop(props, 'msOnline-ObjectId')!, GUID);
  });

  it('minimal (and plain application/json): odata.metadata …/@Element, odata.type, odata.id, odata.editLink; KeyValues untyped', async () => {
    for (const accept of [ACCEPT.minimal, ACCEPT.plain]) {
      const r = await call(forAlice(site), { accept });
      assert.equal(r.status, 200);
      const p = r.json;
      assert.deepEqual(keys(p), ['odata.metadata', 'odata.type', 'odata.id', 'odata.editLink', ...PERSON_KEYS]);
      assert.equal(p['odata.metadata'], `${site}/_api/$metadata#SP.UserProfiles.PersonProperties/@Element`);
      assert.equal(p['odata.type'], 'SP.UserProfiles.PersonProperties');
      assert.match(p['odata.editLink'], /^SP\.UserProfiles\.PersonProperties[0-9a-f-]{36}$/);
      assert.equal(p['odata.id'], `${site}/_api/${p['odata.editLink']}`);
      assert.deepEqual(p.DirectReports, []);
      assert.deepEqual(keys(p.UserProfileProperties[0]), ['Key', 'Value', 'ValueType']);
      assert.equal(p.PictureUrl, photoUrl);
    }
  });

  it('verbose: __metadata {id, uri, type}, string collections {"results":[…]}, SP.KeyValue items', async () => {
    const r = await call(forAlice(site), { accept: ACCEPT.verbose });
    assert.equal(r.status, 200);
    const d = r.json.d;
    assert.deepEqual(keys(d), ['__metadata', ...PERSON_KEYS]);
    assert.deepEqual(keys(d.__metadata), ['id', 'uri', 'type']);
    assert.equal(d.__metadata.type, 'SP.UserProfiles.PersonProperties');
    assert.equal(d.__metadata.id, d.__metadata.uri);
    assert.match(d.__metadata.uri, new RegExp(`^${site.replace(/[.]/g, '\\.')}/_api/SP\\.UserProfiles\\.PersonProperties[0-9a-f-]{36}$`));
    assert.deepEqual(d.DirectReports, { results: [] });
    assert.deepEqual(d.ExtendedManagers, { results: [] });
    assert.deepEqual(d.ExtendedReports, { results: [ALICE] });
    assert.deepEqual(d.Peers, { results: [] });
    assert.ok(!r.text.includes('Collection(Edm.String)'));
    const first = d.UserProfileProperties.results[0];
    assert.deepEqual(first, { __metadata: { type: 'SP.KeyValue' }, Key: 'UserProfile_GUID', Value: first.Value, ValueType: 'Edm.String' });
    assert.deepEqual(keys(d.UserProfileProperties), ['results']);
    assert.equal(d.IsFollowed, false);
    assert.equal(d.LatestPost, null);
  });

  it('OData v4: @odata.context …/$entity and #-prefixed type', async () => {
    const r = await call(forAlice(site), { accept: ACCEPT.v4minimal, v4: true });
    assert.equal(r.status, 200);
    assert.equal(r.json['@odata.context'], `${site}/_api/$metadata#SP.UserProfiles.PersonProperties/$entity`);
    assert.equal(r.json['@odata.type'], '#SP.UserProfiles.PersonProperties');
    assert.equal(r.json.AccountName, ALICE);
    assert.deepEqual(r.json.DirectReports, []);
  });

  it('$select=PictureUrl returns only PictureUrl (null for a user without a photo)', async () => {
    const n = await call(forAlice(site, '&$select=PictureUrl'), { accept: ACCEPT.nometadata });
    assert.deepEqual(n.json, { PictureUrl: photoUrl });
    const m = await call(forAlice(site, '&$select=PictureUrl'), { accept: ACCEPT.plain });
    assert.deepEqual(keys(m.json), ['odata.metadata', 'odata.type', 'odata.id', 'odata.editLink', 'PictureUrl']);
    assert.equal(m.json['odata.metadata'], `${site}/_api/$metadata#SP.UserProfiles.PersonProperties/@Element&$select=PictureUrl`);
    const v = await call(forAlice(site, '&$select=PictureUrl'), { accept: ACCEPT.verbose });
    assert.deepEqual(keys(v.json.d), ['__metadata', 'PictureUrl']);
    const dave = await call(pm(site, `GetPropertiesFor(accountName=@v)?@v='${enc(login(DEMO.dave.upn))}'&$select=PictureUrl`), { accept: ACCEPT.nometadata });
    assert.deepEqual(dave.json, { PictureUrl: null });
    const full = await call(pm(site, `GetPropertiesFor(accountName=@v)?@v='${enc(DEMO.dave.upn)}'`), { accept: ACCEPT.nometadata });
    assert.equal(prop(full.json.UserProfileProperties, 'PictureURL'), '');
    assert.equal(prop(full.json.UserProfileProperties, 'SPS-PictureTimestamp'), '');
    assert.equal(prop(full.json.UserProfileProperties, 'SPS-PicturePlaceholderState'), '1');
    const bad = await call(forAlice(site, '&$select=NoSuchProperty'), { accept: ACCEPT.nometadata });
    assert.equal(bad.status, 400);
  });

  it('every call form: named, positional, alias, literal, spaces, plain UPN, email, any case', async () => {
    const forms = [
      pm(site, `GetPropertiesFor(accountName=@v)?@v='${enc(ALICE)}'`),
      `${site}/_api/sp.userprofiles.peoplemanager/getpropertiesfor(@v)?@v='${enc(ALICE)}'`,
      `${site}/_api/SP.USERPROFILES.PEOPLEMANAGER/GETPROPERTIESFOR(ACCOUNTNAME=@v)?@v='${enc(ALICE)}'`,
      pm(site, `GetPropertiesFor('${enc(ALICE)}')`),
      pm(site, `GetPropertiesFor(accountName='${enc(ALICE)}')`),
      pm(site, `GetPropertiesFor(${enc(' accountName = @v ')})?@v='${enc(ALICE)}'`),
      pm(site, `GetPropertiesFor(accountName=@v)?@v='${enc(DEMO.alice.upn)}'`),
      pm(site, `GetPropertiesFor(accountName=@v)?@v='${enc(DEMO.alice.email)}'`),
      pm(site, `GetPropertiesFor(accountName=@v)?@v='${enc('I:0#.F|MEMBERSHIP|ALICE@CONTOSO.ONMICROSOFT.COM')}'`),
      pm(site, `GetPropertiesFor('${enc(DEMO.alice.email.toUpperCase())}')`),
    ];
    for (const url of forms) {
      const r = await call(url, { accept: ACCEPT.nometadata });
      assert.equal(r.status, 200, url);
      assert.equal(r.json.AccountName, ALICE, url);
    }
    // gosip POSTs GetPropertiesFor and GetMyProperties.
    const posted = await call(pm(site, `GetPropertiesFor('${enc(ALICE)}')`), { accept: ACCEPT.nometadata, method: 'POST' });
    assert.equal(posted.status, 200);
    assert.equal(posted.json.AccountName, ALICE);
  });

  it('unknown account: 200 with a null result in every dialect (§4.4)', async () => {
    const url = pm(site, `GetPropertiesFor(accountName=@v)?@v='${enc('i:0#.f|membership|nobody@contoso.com')}'`);
    const n = await call(url, { accept: ACCEPT.nometadata });
    assert.equal(n.status, 200);
    assert.deepEqual(n.json, { 'odata.null': true });
    const m = await call(url, { accept: ACCEPT.plain });
    assert.deepEqual(m.json, { 'odata.metadata': `${site}/_api/$metadata#Edm.Null`, 'odata.null': true });
    const v = await call(url, { accept: ACCEPT.verbose });
    assert.deepEqual(v.json, { d: { GetPropertiesFor: null } });
    const sel = await call(`${url}&$select=PictureUrl`, { accept: ACCEPT.nometadata });
    assert.deepEqual(sel.json, { 'odata.null': true });
    const p = await call(pm(site, `GetUserProfilePropertyFor(accountName=@v,propertyName='PictureURL')?@v='nobody@contoso.com'`), { accept: ACCEPT.nometadata });
    assert.deepEqual(p.json, { 'odata.null': true });
    const missing = await call(pm(site, 'GetPropertiesFor()'), { accept: ACCEPT.nometadata });
    assert.equal(missing.status, 400);
    assert.match(missing.json['odata.error'].code, /^-1, /);
  });

  it('GetMyProperties answers GET and POST for the signed-in user', async () => {
    const g = await call(pm(site, 'GetMyProperties'), { accept: ACCEPT.nometadata });
    assert.equal(g.status, 200);
    assert.equal(g.json.AccountName, ALICE);
    const p = await call(pm(site, 'getmyproperties'), { accept: ACCEPT.verbose, method: 'POST' });
    assert.equal(p.status, 200);
    assert.equal(p.json.d.AccountName, ALICE);
    const bob = await call(pm(site, 'GetMyProperties?$select=AccountName,DisplayName'), { accept: ACCEPT.nometadata, as: DEMO.bob });
    assert.deepEqual(bob.json, { AccountName: login(DEMO.bob.upn), DisplayName: 'Bob Baker' });
  });

  it('GetUserProfilePropertyFor: a primitive Edm.String result; named, positional, spaces', async () => {
    const url = pm(site, `GetUserProfilePropertyFor(accountName=@v,propertyName='PictureURL')?@v='${enc(ALICE)}'`);
    const m = await call(url, { accept: ACCEPT.plain });
    assert.equal(m.status, 200);
    assert.deepEqual(m.json, { 'odata.metadata': `${site}/_api/$metadata#Edm.String`, value: photoUrl });
    const v = await call(url, { accept: ACCEPT.verbose });
    assert.deepEqual(v.json, { d: { GetUserProfilePropertyFor: photoUrl } });
    const n = await call(url, { accept: ACCEPT.nometadata });
    assert.deepEqual(n.json, { value: photoUrl });
    const pnpForm = `${site}/_api/sp.userprofiles.peoplemanager/getuserprofilepropertyfor(${enc("accountname=@v, propertyname='AboutMe'")})?@v='${enc(ALICE)}'`;
    assert.equal((await call(pnpForm, { accept: ACCEPT.nometadata })).json.value, 'Runs the platform team. Ask me about roadmaps and release dates.');
    const positional = pm(site, `GetUserProfilePropertyFor('${enc(DEMO.alice.email)}','Department')`);
    assert.equal((await call(positional, { accept: ACCEPT.nometadata })).json.value, 'Engineering');
    const anyCase = pm(site, `GetUserProfilePropertyFor(accountName=@v,propertyName='firstname')?@v='${enc(ALICE)}'`);
    assert.equal((await call(anyCase, { accept: ACCEPT.nometadata })).json.value, 'Alice');
    const unknown = pm(site, `GetUserProfilePropertyFor(accountName=@v,propertyName='NoSuchThing')?@v='${enc(ALICE)}'`);
    assert.deepEqual((await call(unknown, { accept: ACCEPT.nometadata })).json, { value: '' });
  });
});

describe('PeopleManager: writing profile properties', () => {
  const spemu = useTestServer();
  let site: string;
  before(async () => {
    site = spemu.server.site('/sites/dev');
  });

  const readProps = async (upn: string) =>
    (await call(pm(site, `GetPropertiesFor(accountName=@v)?@v='${enc(login(upn))}'`), { accept: ACCEPT.nometadata })).json;

  it('SetSingleValueProfileProperty on one\'s own profile, read back everywhere', async () => {
    const r = await call(pm(site, 'SetSingleValueProfileProperty'), {
      method: 'POST', accept: ACCEPT.nometadata, as: DEMO.bob,
      body: { accountName: login(DEMO.bob.upn), propertyName: 'AboutMe', propertyValue: 'Now on the storage team.' },
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json, { 'odata.null': true });
    const p = await readProps(DEMO.bob.upn);
    assert.equal(prop(p.UserProfileProperties, 'AboutMe'), 'Now on the storage team.');
    const one = await call(pm(site, `GetUserProfilePropertyFor(accountName=@v,propertyName='AboutMe')?@v='${enc(DEMO.bob.email)}'`), { accept: ACCEPT.nometadata });
    assert.equal(one.json.value, 'Now on the storage team.');
    // Title overrides the top-level Title too; a property name in another case keeps the known spelling.
    await call(pm(site, 'SetSingleValueProfileProperty'), {
      method: 'POST', accept: ACCEPT.nometadata, as: DEMO.bob,
      body: { accountName: DEMO.bob.upn, propertyName: 'title', propertyValue: 'Staff Engineer' },
    });
    const q = await readProps(DEMO.bob.upn);
    assert.equal(q.Title, 'Staff Engineer');
    assert.equal(q.UserProfileProperties.filter((x: { Key: string }) => x.Key.toLowerCase() === 'title').length, 1);
  });

  it('verbose bodies and SetMultiValuedProfileProperty; unknown keys are appended; values join with |', async () => {
    const r = await call(pm(site, 'SetMultiValuedProfileProperty'), {
      method: 'POST', accept: ACCEPT.verbose, contentType: 'application/json;odata=verbose',
      body: { accountName: login(DEMO.alice.upn), propertyName: 'SPS-Skills', propertyValues: { results: ['TypeScript', 'SQL'] } },
    });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json, { d: { SetMultiValuedProfileProperty: null } });
    await call(pm(site, 'SetMultiValuedProfileProperty'), {
      method: 'POST', accept: ACCEPT.nometadata,
      body: { accountName: DEMO.alice.email, propertyName: 'SPS-Interests', propertyValues: ['Sailing', 'Chess', 'Go'] },
    });
    const p = await readProps(DEMO.alice.upn);
    const props = p.UserProfileProperties as Array<{ Key: string; Value: string }>;
    assert.deepEqual(props.map((x) => x.Key).slice(0, PROFILE_KEYS.length), PROFILE_KEYS);
    assert.equal(prop(props, 'SPS-Skills'), 'TypeScript|SQL');
    assert.equal(prop(props, 'SPS-Interests'), 'Sailing|Chess|Go');
    assert.ok(props.findIndex((x) => x.Key === 'SPS-Skills') >= PROFILE_KEYS.length);
  });

  it('site owners may write anyone\'s profile; members only their own (403)', async () => {
    const byOwner = await call(pm(site, 'SetSingleValueProfileProperty'), {
      method: 'POST', accept: ACCEPT.nometadata,
      body: { accountName: login(DEMO.dave.upn), propertyName: 'WorkPhone', propertyValue: '+1 555 0100' },
    });
    assert.equal(byOwner.status, 200, byOwner.text);
    assert.equal(prop((await readProps(DEMO.dave.upn)).UserProfileProperties, 'WorkPhone'), '+1 555 0100');
    const byMember = await call(pm(site, 'SetSingleValueProfileProperty'), {
      method: 'POST', accept: ACCEPT.nometadata, as: DEMO.bob,
      body: { accountName: login(DEMO.alice.upn), propertyName: 'AboutMe', propertyValue: 'hacked' },
    });
    assert.equal(byMember.status, 403);
    assert.equal(byMember.json['odata.error'].code, '-2147024891, System.UnauthorizedAccessException');
    assert.notEqual(prop((await readProps(DEMO.alice.upn)).UserProfileProperties, 'AboutMe'), 'hacked');
  });

  it('refuses computed properties, unknown accounts, bad bodies and GET', async () => {
    const readOnly = await call(pm(site, 'SetSingleValueProfileProperty'), {
      method: 'POST', accept: ACCEPT.nometadata, body: { accountName: ALICE, propertyName: 'AccountName', propertyValue: 'x' },
    });
    assert.equal(readOnly.status, 400);
    assert.equal(readOnly.json['odata.error'].code, '-2147024809, System.ArgumentException');
    const picture = await call(pm(site, 'SetSingleValueProfileProperty'), {
      method: 'POST', accept: ACCEPT.nometadata, body: { accountName: ALICE, propertyName: 'PictureURL', propertyValue: 'https://evil/x.png' },
    });
    assert.equal(picture.status, 400);
    const unknown = await call(pm(site, 'SetSingleValueProfileProperty'), {
      method: 'POST', accept: ACCEPT.nometadata, body: { accountName: 'nobody@contoso.com', propertyName: 'AboutMe', propertyValue: 'x' },
    });
    assert.equal(unknown.status, 500);
    assert.equal(unknown.json['odata.error'].code, '-1, Microsoft.Office.Server.UserProfiles.UserNotFoundException');
    const noValue = await call(pm(site, 'SetSingleValueProfileProperty'), {
      method: 'POST', accept: ACCEPT.nometadata, body: { accountName: ALICE, propertyName: 'AboutMe', propertyValue: 5 },
    });
    assert.equal(noValue.status, 400);
    const notList = await call(pm(site, 'SetMultiValuedProfileProperty'), {
      method: 'POST', accept: ACCEPT.nometadata, body: { accountName: ALICE, propertyName: 'SPS-Skills', propertyValues: 'x' },
    });
    assert.equal(notList.status, 400);
    const get = await call(pm(site, 'SetSingleValueProfileProperty'), { accept: ACCEPT.nometadata });
    assert.equal(get.status, 405);
  });
});

describe('SetMyProfilePicture and userphoto.aspx', () => {
  const spemu = useTestServer();
  let site: string;
  const photo = (query: string, init: Parameters<typeof call>[1] = {}) => call(`${spemu.server.url}/_layouts/15/userphoto.aspx?${query}`, init);
  const upload = (bytes: Buffer, as: DemoUser = DEMO.alice, contentType = 'application/octet-stream') =>
    call(pm(site, 'SetMyProfilePicture'), { method: 'POST', accept: ACCEPT.nometadata, body: bytes, contentType, as });
  const uilPicture = async (siteUrl: string, upn: string) => {
    const r = await call(`${siteUrl}/_api/web/lists/getbytitle('User Information List')/items?$filter=${enc(`Name eq '${login(upn)}'`)}&$select=Picture`, { accept: ACCEPT.nometadata });
    assert.equal(r.status, 200, r.text);
    return r.json.value as Array<{ Picture: { Url: string; Description: string } | null }>;
  };
  const timestamp = async (upn: string) =>
    (await call(pm(site, `GetUserProfilePropertyFor(accountName=@v,propertyName='SPS-PictureTimestamp')?@v='${enc(upn)}'`), { accept: ACCEPT.nometadata })).json.value as string;

  before(async () => {
    site = spemu.server.site('/sites/dev');
  });

  it('serves the tenant file\'s photo in the three sizes, with Content-Type, ETag, Cache-Control', async () => {
    for (const [size, px] of [['S', 48], ['M', 72], ['L', 240]] as const) {
      const r = await photo(`size=${size}&accountname=${enc(DEMO.alice.email)}`);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('content-type'), 'image/png');
      assert.ok(r.bytes.subarray(0, 8).equals(PNG_SIGNATURE));
      const d = await describeImage(r.bytes);
      assert.deepEqual([d.width, d.height, d.format], [px, px, 'png']);
      assert.match(r.headers.get('etag') ?? '', /^".+"$/);
      assert.equal(r.headers.get('cache-control'), 'private, no-cache');
    }
    // No size: S. Parameter names in any case; UserName=; the login or the UPN; any site's path; any case of the path.
    const forms = [
      `${spemu.server.url}/_layouts/15/userphoto.aspx?accountname=${enc(DEMO.alice.email)}`,
      `${spemu.server.url}/_layouts/15/userphoto.aspx?AccountName=${enc(ALICE)}&Size=s`,
      `${spemu.server.url}/_layouts/15/userphoto.aspx?USERNAME=${enc(DEMO.alice.upn)}&SIZE=S`,
      `${spemu.server.url}/_LAYOUTS/15/UserPhoto.aspx?size=S&accountname=${enc(DEMO.alice.email)}`,
      `${site}/_layouts/15/userphoto.aspx?size=S&accountname=${enc(DEMO.alice.email)}`,
    ];
    const etags = new Set<string>();
    for (const url of forms) {
      const r = await call(url);
      assert.equal(r.status, 200, url);
      assert.equal(r.headers.get('content-type'), 'image/png', url);
      assert.equal((await describeImage(r.bytes)).width, 48, url);
      etags.add(r.headers.get('etag')!);
    }
    assert.equal(etags.size, 1);
  });

  it('If-None-Match with the current ETag → 304 without a body; HEAD works', async () => {
    const first = await photo(`size=M&accountname=${enc(DEMO.bob.email)}`);
    const etag = first.headers.get('etag')!;
    const again = await photo(`size=M&accountname=${enc(DEMO.bob.email)}`, { headers: { 'If-None-Match': etag } });
    assert.equal(again.status, 304);
    assert.equal(again.bytes.length, 0);
    assert.equal(again.headers.get('etag'), etag);
    const weak = await photo(`size=M&accountname=${enc(DEMO.bob.email)}`, { headers: { 'If-None-Match': `"other", W/${etag}` } });
    assert.equal(weak.status, 304);
    const other = await photo(`size=L&accountname=${enc(DEMO.bob.email)}`, { headers: { 'If-None-Match': etag } });
    assert.equal(other.status, 200);
    const head = await photo(`size=M&accountname=${enc(DEMO.bob.email)}`, { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get('etag'), etag);
  });

  it('placeholders: a generated PNG for users without a photo and, alike, for unknown accounts', async () => {
    for (const name of [DEMO.dave.email, login(DEMO.dave.upn), 'nobody.here@contoso.com', 'zzz']) {
      for (const [size, px] of [['S', 48], ['M', 72], ['L', 240]] as const) {
        const r = await photo(`size=${size}&accountname=${enc(name)}`);
        assert.equal(r.status, 200, name);
        assert.equal(r.headers.get('content-type'), 'image/png');
        assert.equal(r.headers.get('cache-control'), 'private, no-cache');
        assert.match(r.headers.get('etag') ?? '', /^"placeholder-[0-9a-f]{16}-\d+"$/);
        const d = await describeImage(r.bytes);
        assert.deepEqual([d.width, d.height, d.format], [px, px, 'png']);
      }
    }
    // The placeholder depends on the name asked for only: the same for the same name, whoever exists.
    const a = await photo(`size=S&accountname=${enc('dave@contoso.com')}`);
    const b = await photo(`size=S&accountname=${enc('DAVE@contoso.com')}`);
    assert.ok(a.bytes.equals(b.bytes));
    const none = await photo('size=S');
    assert.equal(none.status, 200);
    assert.equal(none.headers.get('content-type'), 'image/png');
  });

  it('needs a signed-in user like the /_api (401 with bad credentials)', async () => {
    const r = await fetch(`${spemu.server.url}/_layouts/15/userphoto.aspx?size=S&accountname=${enc(DEMO.alice.email)}`, {
      headers: { Authorization: `Basic ${Buffer.from(`${DEMO.alice.upn}:wrong-password`).toString('base64')}` },
    });
    assert.equal(r.status, 401);
    assert.ok(r.headers.get('www-authenticate'));
  });

  it('a PNG upload replaces the photo: PictureUrl, SPS-PictureTimestamp, UIL Picture in every site, resized bytes', async () => {
    const before = await photo(`size=L&accountname=${enc(DEMO.alice.email)}`);
    const stampBefore = await timestamp(ALICE);
    const png = await picture('png', 300, 200, { r: 220, g: 20, b: 30 });
    const r = await upload(png);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json, { 'odata.null': true });
    assert.notEqual(await timestamp(ALICE), stampBefore);
    const url = `${spemu.server.url}/_layouts/15/userphoto.aspx?size=L&accountname=alice%40contoso.com`;
    const props = await call(forAlice(site, '&$select=PictureUrl'), { accept: ACCEPT.nometadata });
    assert.equal(props.json.PictureUrl, url);
    for (const s of ['/sites/dev', '/sites/pwa']) {
      const rows = await uilPicture(spemu.server.site(s), DEMO.alice.upn);
      assert.deepEqual(rows.map((x) => x.Picture), [{ Description: url, Url: url }], s);
    }
    const after = await photo(`size=L&accountname=${enc(DEMO.alice.email)}`, { headers: { 'If-None-Match': before.headers.get('etag')! } });
    assert.equal(after.status, 200);
    assert.notEqual(after.headers.get('etag'), before.headers.get('etag'));
    const d = await describeImage(after.bytes);
    assert.deepEqual([d.width, d.height, d.format], [240, 240, 'png']);
    assert.deepEqual(d.mean, [220, 20, 30]);
    const small = await describeImage((await photo(`size=S&accountname=${enc(ALICE)}`)).bytes);
    assert.deepEqual([small.width, small.height, small.mean], [48, 48, [220, 20, 30]]);
  });

  it('a JPEG upload (labelled application/json, as PnPjs sends it) is served as JPEG', async () => {
    const jpeg = await picture('jpeg', 500, 500, { r: 10, g: 40, b: 200 });
    const r = await upload(jpeg, DEMO.alice, 'application/json;charset=utf-8');
    assert.equal(r.status, 200, r.text);
    const m = await photo(`size=M&accountname=${enc(DEMO.alice.email)}`);
    assert.equal(m.headers.get('content-type'), 'image/jpeg');
    const d = await describeImage(m.bytes);
    assert.deepEqual([d.width, d.height, d.format], [72, 72, 'jpeg']);
    d.mean.forEach((got, i) => assert.ok(Math.abs(got - [10, 40, 200][i]!) <= 6, `${d.mean}`));
  });

  it('a user without a photo gets one: UIL Picture set where it was null, PictureUrl no longer null (BMP, stored as PNG)', async () => {
    assert.deepEqual((await uilPicture(site, DEMO.dave.upn)).map((x) => x.Picture), [null]);
    const r = await upload(bmp(64, 40, { r: 0, g: 160, b: 80 }), DEMO.dave, 'image/bmp');
    assert.equal(r.status, 200, r.text);
    const url = `${spemu.server.url}/_layouts/15/userphoto.aspx?size=L&accountname=dave%40contoso.com`;
    assert.deepEqual((await uilPicture(site, DEMO.dave.upn)).map((x) => x.Picture), [{ Description: url, Url: url }]);
    // Dave has no row in /sites/pwa: none is made.
    assert.deepEqual(await uilPicture(spemu.server.site('/sites/pwa'), DEMO.dave.upn), []);
    const p = await call(pm(site, 'GetMyProperties?$select=PictureUrl'), { accept: ACCEPT.nometadata, as: DEMO.dave });
    assert.deepEqual(p.json, { PictureUrl: url });
    const served = await photo(`size=L&accountname=${enc(DEMO.dave.email)}`);
    assert.equal(served.headers.get('content-type'), 'image/png');
    const d = await describeImage(served.bytes);
    assert.deepEqual([d.width, d.height, d.mean], [240, 240, [0, 160, 80]]);
  });

  it('refuses bodies over 5,000,000 bytes, non-images, truncated images and empty bodies with 400', async () => {
    const big = Buffer.alloc(5_000_001);
    (await picture('png', 10, 10, { r: 1, g: 2, b: 3 })).copy(big);
    const png = await picture('png', 64, 64, { r: 1, g: 2, b: 3 });
    const cases: Array<[string, Buffer, string]> = [
      ['too large', big, 'image/png'],
      ['text', Buffer.from('hello, not a picture'), 'text/plain'],
      ['json', Buffer.from('{"a":1}'), 'application/json'],
      ['gif', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), 'image/gif'],
      ['truncated png', png.subarray(0, 40), 'image/png'],
      ['empty', Buffer.alloc(0), 'image/png'],
    ];
    const stamp = await timestamp(ALICE);
    for (const [what, bytes, type] of cases) {
      for (const accept of [ACCEPT.nometadata, ACCEPT.verbose]) {
        const r = await call(pm(site, 'SetMyProfilePicture'), { method: 'POST', accept, body: bytes, contentType: type });
        assert.equal(r.status, 400, what);
        const error = accept === ACCEPT.verbose ? r.json.error : r.json['odata.error'];
        assert.equal(error.code, '-2147024809, System.ArgumentException', what);
        assert.match(error.message.value, /BMP, JPEG, and PNG formats of up to 5 million bytes/, what);
      }
    }
    assert.equal(await timestamp(ALICE), stamp);
    const exactlyMax = Buffer.concat([png, Buffer.alloc(5_000_000 - png.length)]);
    assert.equal((await upload(exactlyMax)).status, 200);
  });
});

describe('PnPjs 4 profiles (unmodified)', () => {
  const spemu = useTestServer();
  let site: string;
  before(async () => {
    site = spemu.server.site('/sites/dev');
    // PnPjs reads the Blob with the browser's FileReader, which Node 20 does not have.
    if (typeof (globalThis as { FileReader?: unknown }).FileReader === 'undefined') {
      (globalThis as { FileReader?: unknown }).FileReader = class {
        result: ArrayBuffer | null = null;
        onload: ((e: { target: unknown }) => void) | null = null;
        readAsArrayBuffer(blob: Blob): void {
          void blob.arrayBuffer().then((b) => { this.result = b; this.onload?.({ target: this }); });
        }
      };
    }
  });

  const sp = async (user: DemoUser = DEMO.alice) => pnpFor(site, { Authorization: basic(user), 'X-RequestDigest': (await digestFor(site, user)) ?? '' });

  it('getPropertiesFor, myProperties, getUserProfilePropertyFor', async () => {
    const client = await sp();
    const props = await client.profiles.getPropertiesFor(ALICE);
    assert.equal(props.AccountName, ALICE);
    assert.equal(props.DisplayName, 'Alice Adams');
    assert.equal(props.PictureUrl, `${spemu.server.url}/_layouts/15/userphoto.aspx?size=L&accountname=alice%40contoso.com`);
    assert.ok(Array.isArray(props.UserProfileProperties));
    const byEmail = await client.profiles.getPropertiesFor(DEMO.alice.email);
    assert.equal(byEmail.AccountName, ALICE);
    const mine = await (await sp(DEMO.bob)).profiles.myProperties();
    assert.equal(mine.AccountName, login(DEMO.bob.upn));
    const selected = await client.profiles.myProperties.select('PictureUrl')();
    assert.deepEqual(Object.keys(selected).filter((k) => !k.startsWith('odata.')), ['PictureUrl']);
    assert.equal(await client.profiles.getUserProfilePropertyFor(ALICE, 'PictureURL'), props.PictureUrl);
    assert.equal(await client.profiles.getUserProfilePropertyFor(ALICE, 'Department'), 'Engineering');
    // PnPjs hands SharePoint's null result back as it is.
    const nobody = await client.profiles.getPropertiesFor('i:0#.f|membership|nobody@contoso.com');
    assert.equal(nobody['odata.null'], true);
  });

  it('setSingleValueProfileProperty, setMultiValuedProfileProperty', async () => {
    const client = await sp(DEMO.bob);
    await client.profiles.setSingleValueProfileProperty(login(DEMO.bob.upn), 'AboutMe', 'Set through PnPjs');
    await client.profiles.setMultiValuedProfileProperty(login(DEMO.bob.upn), 'SPS-Skills', ['Go', 'Rust']);
    assert.equal(await client.profiles.getUserProfilePropertyFor(login(DEMO.bob.upn), 'AboutMe'), 'Set through PnPjs');
    assert.equal(await client.profiles.getUserProfilePropertyFor(login(DEMO.bob.upn), 'SPS-Skills'), 'Go|Rust');
  });

  it('setMyProfilePic(blob) → the new photo at PictureUrl', async () => {
    const client = await sp();
    const png = await picture('png', 120, 120, { r: 250, g: 200, b: 0 });
    await client.profiles.setMyProfilePic(new Blob([new Uint8Array(png)], { type: 'image/png' }));
    const url = await client.profiles.getUserProfilePropertyFor(ALICE, 'PictureURL');
    const r = await call(url);
    assert.equal(r.status, 200);
    const d = await describeImage(r.bytes);
    assert.deepEqual([d.width, d.height, d.format, d.mean], [240, 240, 'png', [250, 200, 0]]);
  });
});
