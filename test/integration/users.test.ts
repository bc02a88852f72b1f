// Site users, site groups and EnsureUser, checked with plain `fetch` against the reference's
// CONFIRMED shapes (/work/shared/reference/sharepoint-wire-format.md §3, §5): SP.User in every
// dialect, every login form EnsureUser takes (and its failures), the lookups by id, email and
// login name, the site's three groups and their users, and the User Information List.
//
// Requests carry the owner's Basic credentials, and writes the request digest contextinfo
// issues for them.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import { useTestServer, DEMO_TENANT } from '../helpers/server.ts';
import { ACCEPT, GUID } from '../helpers/wire.ts';

const T = 'fabrikam.onmicrosoft.com';
const ENGINEERING = '11111111-2222-4333-8444-555555555555';
const MARKETING = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
const user = (name: string, display: string, extra: Record<string, unknown> = {}) =>
  ({ upn: `${name}@${T}`, displayName: display, firstName: display.split(' ')[0], lastName: display.split(' ')[1], email: `${name}@fabrikam.com`, password: `pw-${name}-123`, ...extra });

const TENANT = {
  tenant: { name: 'fabrikam' },
  users: [
    user('olivia', 'Olivia Owner'), user('mark', 'Mark Member'), user('vera', 'Vera Visitor'), user('nora', 'Nora New'),
    user('erik', 'Erik Engineer'), user('rita', 'Rita Racer'),
    { upn: 'sam@fabrikam.onmicrosoft.com', displayName: 'Sam One' }, { upn: 'sam@partner.onmicrosoft.com', displayName: 'Sam Two' },
    { upn: 'nomail@fabrikam.onmicrosoft.com', displayName: 'No Mail' },
  ],
  groups: [
    { id: ENGINEERING, displayName: 'Engineering', kind: 'security', members: [`erik@${T}`] },
    { id: MARKETING, displayName: 'Marketing', kind: 'm365', members: [`nora@${T}`] },
  ],
  sites: [{
    url: '/sites/test', title: 'Test', owners: [`olivia@${T}`], members: [`mark@${T}`, 'Engineering'], visitors: [`vera@${T}`],
    lists: [{ title: 'Tasks', fields: [{ name: 'Owner', type: 'User' }], items: [{ Title: 'First', Owner: `vera@${T}`, author: `mark@${T}` }] }],
  }],
};

const OWNER_AUTH = `Basic ${Buffer.from(`olivia@${T}:pw-olivia-123`).toString('base64')}`;
const PUID = /^[0-9a-f]{16}$/;
const SP_USER_KEYS = ['Id', 'IsHiddenInUI', 'LoginName', 'Title', 'PrincipalType', 'Email', 'Expiration',
  'IsEmailAuthenticationGuestUser', 'IsShareByEmailGuestUser', 'IsSiteAdmin', 'UserId', 'UserPrincipalName'];
const SP_GROUP_KEYS = ['Id', 'IsHiddenInUI', 'LoginName', 'Title', 'PrincipalType', 'AllowMembersEditMembership',
  'AllowRequestToJoinLeave', 'AutoAcceptRequestToJoinLeave', 'Description', 'OnlyAllowMembersViewMembership', 'OwnerTitle',
  'RequestToJoinLeaveEmailSetting'];
const USER_NOT_FOUND = { 'odata.error': { code: '-2146232832, Microsoft.SharePoint.SPException', message: { lang: 'en-US', value: 'User cannot be found.' } } };
const GROUP_NOT_FOUND = { 'odata.error': { code: '-2146232832, Microsoft.SharePoint.SPException', message: { lang: 'en-US', value: 'Group cannot be found.' } } };
const ensureFailure = (name: string) =>
  ({ 'odata.error': { code: '-2146232832, Microsoft.SharePoint.SPException', message: { lang: 'en-US', value: `The specified user ${name} could not be found.` } } });

interface Res { status: number; json: any }

describe('site users, site groups and EnsureUser (reference §3, §5)', () => {
  const spemu = useTestServer({ seed: TENANT });
  let api: string;
  let digest: string | undefined;

  async function call(path: string, init: { accept?: string; v4?: boolean; method?: string; body?: unknown; contentType?: string } = {}): Promise<Res> {
    const headers: Record<string, string> = { Accept: init.accept ?? ACCEPT.nometadata, Authorization: OWNER_AUTH };
    if (init.v4) headers['OData-Version'] = '4.0';
    if (init.method === 'POST' && digest) headers['X-RequestDigest'] = digest;
    if (init.body !== undefined) headers['Content-Type'] = init.contentType ?? 'application/json;charset=utf-8';
    const r = await fetch(`${api}/${path}`, {
      method: init.method ?? 'GET', headers,
      body: init.body === undefined ? undefined : typeof init.body === 'string' ? init.body : JSON.stringify(init.body),
    });
    const text = await r.text();
    return { status: r.status, json: text ? JSON.parse(text) : undefined };
  }
  const get = (path: string, accept?: string) => call(path, accept ? { accept } : {});
  const ensure = (logonName: unknown, accept?: string) =>
    call('web/ensureuser', { method: 'POST', body: { logonName }, ...(accept ? { accept } : {}) });

  // Site user ids as the site numbered them (users step over the groups' 3, 4, 5): looked up by login.
  let ENG_ID = 0;
  let VERA_ID = 0;
  const idOf = async (login: string) => (await get(`web/siteusers(@v)?@v='${encodeURIComponent(login)}'&$select=Id`)).json.Id as number;

  before(async () => {
    api = `${spemu.server.site('/sites/test')}/_api`;
    // A digest when the server issues them (Basic writes need one once authentication is enforced).
    const r = await fetch(`${api}/contextinfo`, { method: 'POST', headers: { Accept: ACCEPT.nometadata, Authorization: OWNER_AUTH } });
    if (r.ok) digest = ((await r.json()) as { FormDigestValue: string }).FormDigestValue;
    ENG_ID = await idOf(`c:0t.c|tenant|${ENGINEERING}`);
    VERA_ID = await idOf(`i:0#.f|membership|vera@${T}`);
  });

  describe('SP.User in every dialect', () => {
    it('nometadata: exactly the 12 SPO properties, in order (CLI user-ensure mock, CONFIRMED)', async () => {
      const r = await get('web/getuserbyid(1)');
      assert.equal(r.status, 200);
      assert.deepEqual(Object.keys(r.json), SP_USER_KEYS);
      assert.match(r.json.UserId.NameId, PUID);
      assert.deepEqual(r.json, {
        Id: 1, IsHiddenInUI: false, LoginName: `i:0#.f|membership|olivia@${T}`, Title: 'Olivia Owner', PrincipalType: 1,
        Email: 'olivia@fabrikam.com', Expiration: '', IsEmailAuthenticationGuestUser: false, IsShareByEmailGuestUser: false,
        IsSiteAdmin: true, UserId: { NameId: r.json.UserId.NameId, NameIdIssuer: 'urn:federation:microsoftonline' },
        UserPrincipalName: `olivia@${T}`,
      });
    });

    for (const accept of [ACCEPT.minimal, ACCEPT.plain]) {
      it(`minimal (${accept}): SP.ApiData.Users1/@Element, absolute odata.id, UserId without odata.type`, async () => {
        const r = await get('web/getuserbyid(2)', accept);
        assert.equal(r.status, 200);
        assert.deepEqual(Object.keys(r.json), ['odata.metadata', 'odata.type', 'odata.id', 'odata.editLink', ...SP_USER_KEYS]);
        assert.equal(r.json['odata.metadata'], `${api}/$metadata#SP.ApiData.Users1/@Element`);
        assert.equal(r.json['odata.type'], 'SP.User');
        assert.equal(r.json['odata.id'], `${api}/Web/GetUserById(2)`);
        assert.equal(r.json['odata.editLink'], 'Web/GetUserById(2)');
        assert.deepEqual(Object.keys(r.json.UserId), ['NameId', 'NameIdIssuer']);
        assert.equal(r.json.Title, 'Mark Member');
        assert.equal(r.json.IsSiteAdmin, false);
      });
    }

    it('verbose: __metadata {id, uri, type} without etag, Alerts/Groups deferred, UserId typed SP.UserIdInfo (R7, CONFIRMED)', async () => {
      const r = await get('web/getuserbyid(2)', ACCEPT.verbose);
      assert.equal(r.status, 200);
      const d = r.json.d;
      assert.deepEqual(Object.keys(d), ['__metadata', 'Alerts', 'Groups', ...SP_USER_KEYS]);
      assert.deepEqual(d.__metadata, { id: `${api}/Web/GetUserById(2)`, uri: `${api}/Web/GetUserById(2)`, type: 'SP.User' });
      assert.deepEqual(d.Alerts, { __deferred: { uri: `${api}/Web/GetUserById(2)/Alerts` } });
      assert.deepEqual(d.Groups, { __deferred: { uri: `${api}/Web/GetUserById(2)/Groups` } });
      assert.deepEqual(d.UserId, { __metadata: { type: 'SP.UserIdInfo' }, NameId: d.UserId.NameId, NameIdIssuer: 'urn:federation:microsoftonline' });
      assert.match(d.UserId.NameId, PUID);
    });

    it('OData v4 minimal and none', async () => {
      const min = await call('web/getuserbyid(2)', { accept: ACCEPT.v4minimal, v4: true });
      assert.equal(min.status, 200);
      assert.equal(min.json['@odata.context'], `${api}/$metadata#SP.ApiData.Users1/$entity`);
      assert.equal(min.json['@odata.type'], '#SP.User');
      assert.equal(min.json['@odata.id'], `${api}/Web/GetUserById(2)`);
      assert.equal(min.json['@odata.editLink'], 'Web/GetUserById(2)');
      const none = await call('web/getuserbyid(2)', { accept: ACCEPT.v4none, v4: true });
      assert.deepEqual(Object.keys(none.json), SP_USER_KEYS);
    });

    it('a directory group as a site user: PrincipalType 4, UserId and UserPrincipalName null, Email null', async () => {
      const r = await get(`web/getuserbyid(${ENG_ID})`);
      assert.deepEqual(r.json, {
        Id: ENG_ID, IsHiddenInUI: false, LoginName: `c:0t.c|tenant|${ENGINEERING}`, Title: 'Engineering', PrincipalType: 4, Email: null,
        Expiration: '', IsEmailAuthenticationGuestUser: false, IsShareByEmailGuestUser: false, IsSiteAdmin: false, UserId: null,
        UserPrincipalName: null,
      });
    });

    it('$select on a user and on the collection; an unknown property is a 400', async () => {
      const one = await get('web/getuserbyid(1)?$select=Title,Email', ACCEPT.minimal);
      assert.equal(one.json['odata.metadata'], `${api}/$metadata#SP.ApiData.Users1/@Element&$select=Title,Email`);
      assert.deepEqual(Object.keys(one.json), ['odata.metadata', 'odata.type', 'odata.id', 'odata.editLink', 'Title', 'Email']);
      const all = await get('web/siteusers?$select=Id,LoginName');
      for (const u of all.json.value) assert.deepEqual(Object.keys(u), ['Id', 'LoginName']);
      const verbose = await get('web/getuserbyid(1)?$select=Title', ACCEPT.verbose);
      assert.deepEqual(Object.keys(verbose.json.d), ['__metadata', 'Title']);
      const bad = await get('web/getuserbyid(1)?$select=Nope');
      assert.equal(bad.status, 400);
      assert.equal(bad.json['odata.error'].message.value, "The field or property 'Nope' does not exist.");
    });
  });

  describe('web/siteusers and the lookups', () => {
    it('siteusers: the User Information List rows in id order, SP.ApiData.Users1', async () => {
      const r = await get('web/siteusers', ACCEPT.minimal);
      assert.equal(r.status, 200);
      assert.equal(r.json['odata.metadata'], `${api}/$metadata#SP.ApiData.Users1`);
      const first4 = r.json.value.slice(0, 4).map((u: any) => [u.Id, u.Title, u.PrincipalType, u.IsSiteAdmin]);
      assert.deepEqual(first4, [[1, 'Olivia Owner', 1, true], [2, 'Mark Member', 1, false], [ENG_ID, 'Engineering', 4, false], [VERA_ID, 'Vera Visitor', 1, false]]);
      for (const u of r.json.value) {
        assert.equal(u['odata.type'], 'SP.User');
        assert.equal(u['odata.id'], `${api}/Web/GetUserById(${u.Id})`);
      }
      const verbose = await get('web/siteusers', ACCEPT.verbose);
      assert.ok(Array.isArray(verbose.json.d.results));
      assert.equal(verbose.json.d.results[0].__metadata.type, 'SP.User');
    });

    it('siteusers reads the directory once for the whole collection, and each entry equals the user read alone', async () => {
      const all = await get('web/siteusers', ACCEPT.nometadata);
      assert.ok(all.json.value.length >= 4);
      for (const u of all.json.value) {
        const one = await get(`web/getuserbyid(${u.Id})`, ACCEPT.nometadata);
        assert.deepEqual(u, one.json, `user ${u.Id}`);
      }
      assert.ok(all.json.value.some((u: any) => typeof u.UserPrincipalName === 'string' && u.Email), 'directory properties present');
    });

    it('siteusers $filter, $orderby, $top', async () => {
      const groups = await get('web/siteusers?$filter=PrincipalType eq 4&$select=Title');
      assert.deepEqual(groups.json.value.map((u: any) => u.Title), ['Engineering']);
      const top = await get('web/siteusers?$orderby=Title desc&$top=2&$select=Title');
      assert.deepEqual(top.json.value.map((u: any) => u.Title), ['Vera Visitor', 'Olivia Owner']);
    });

    it('getbyid, getuserbyid, getbyemail, getbyloginname (alias and literal), siteusers(@v) all find the same user', async () => {
      const login = `i:0#.f|membership|mark@${T}`;
      const paths = [
        'web/siteusers/getbyid(2)', 'web/getuserbyid(2)', "web/siteusers/getbyemail('mark@fabrikam.com')",
        "web/siteusers/getbyemail('MARK@fabrikam.com')",
        `web/siteusers/getbyloginname(@v)?@v='${encodeURIComponent(login)}'`,
        `web/siteusers/getbyloginname('${encodeURIComponent(login)}')`,
        `web/siteusers(@v)?@v='${encodeURIComponent(login)}'`,
        `web/siteusers('${encodeURIComponent(login.toUpperCase())}')`,
      ];
      for (const path of paths) {
        const r = await get(path);
        assert.equal(r.status, 200, path);
        assert.equal(r.json.Id, 2, path);
        assert.equal(r.json.LoginName, login, path);
      }
    });

    it('currentuser is the acting owner', async () => {
      const r = await get('web/currentuser', ACCEPT.minimal);
      assert.equal(r.status, 200);
      assert.equal(r.json['odata.id'], `${api}/Web/GetUserById(1)`);
      assert.equal(r.json.LoginName, `i:0#.f|membership|olivia@${T}`);
      assert.equal(r.json.IsSiteAdmin, true);
    });

    it('unknown users: 404 -2146232832 SPException "User cannot be found."', async () => {
      for (const path of ['web/getuserbyid(999)', 'web/siteusers/getbyid(999)', "web/siteusers/getbyemail('ghost@fabrikam.com')",
        "web/siteusers/getbyloginname(@v)?@v='i%3A0%23.f%7Cmembership%7Cghost%40fabrikam.com'",
        // nora is in the directory but not (yet) a user of this site
        `web/siteusers(@v)?@v='${encodeURIComponent(`i:0#.f|membership|nora@${T}`)}'`,
        'web/sitegroups(4)/users/getbyid(2)']) {
        const r = await get(path);
        assert.equal(r.status, 404, path);
        assert.deepEqual(r.json, USER_NOT_FOUND, path);
      }
      const verbose = await get('web/getuserbyid(999)', ACCEPT.verbose);
      assert.equal(verbose.status, 404);
      assert.deepEqual(verbose.json, { error: { code: '-2146232832, Microsoft.SharePoint.SPException', message: { lang: 'en-US', value: 'User cannot be found.' } } });
    });

    it('the System Account by its id', async () => {
      const r = await get('web/getuserbyid(1073741823)');
      assert.equal(r.status, 200);
      assert.equal(r.json.LoginName, 'SHAREPOINT\\system');
      assert.equal(r.json.Title, 'System Account');
    });

    it('a user\'s groups: through the site roles, directly or via a directory group', async () => {
      const mark = await get('web/getuserbyid(2)/groups?$select=Id,Title');
      assert.deepEqual(mark.json.value, [{ Id: 5, Title: 'Test Members' }]);
      const olivia = await get('web/currentuser/groups?$select=Id');
      assert.deepEqual(olivia.json.value, [{ Id: 3 }]);
      const eng = await get(`web/getuserbyid(${ENG_ID})/groups?$select=Id`);
      assert.deepEqual(eng.json.value, [{ Id: 5 }]);
      // erik holds no role himself; the Engineering group he is in is a member of the site
      const erik = await ensure(`erik@${T}`);
      const erikGroups = await get(`web/getuserbyid(${erik.json.Id})/groups?$select=Id`);
      assert.deepEqual(erikGroups.json.value, [{ Id: 5 }]);
      assert.equal((await get(`web/getuserbyid(${erik.json.Id})/groups(3)`)).status, 404);
    });
  });

  describe('web/sitegroups', () => {
    it('the three groups of a new site: Owners 3, Visitors 4, Members 5, as SP.Group', async () => {
      const r = await get('web/sitegroups', ACCEPT.minimal);
      assert.equal(r.status, 200);
      assert.equal(r.json['odata.metadata'], `${api}/$metadata#SP.ApiData.Groups1`);
      assert.deepEqual(r.json.value.map((g: any) => [g.Id, g.Title]), [[3, 'Test Owners'], [4, 'Test Visitors'], [5, 'Test Members']]);
      const owners = r.json.value[0];
      assert.deepEqual(Object.keys(owners), ['odata.type', 'odata.id', 'odata.editLink', ...SP_GROUP_KEYS]);
      assert.equal(owners['odata.type'], 'SP.Group');
      assert.equal(owners['odata.id'], `${api}/Web/SiteGroups/GetById(3)`);
      assert.equal(owners['odata.editLink'], 'Web/SiteGroups/GetById(3)');
      assert.deepEqual({ ...owners, 'odata.type': undefined, 'odata.id': undefined, 'odata.editLink': undefined }, {
        'odata.type': undefined, 'odata.id': undefined, 'odata.editLink': undefined,
        Id: 3, IsHiddenInUI: false, LoginName: 'Test Owners', Title: 'Test Owners', PrincipalType: 8,
        AllowMembersEditMembership: false, AllowRequestToJoinLeave: false, AutoAcceptRequestToJoinLeave: false,
        Description: 'Use this group to grant people full control permissions to the SharePoint site: Test',
        OnlyAllowMembersViewMembership: false, OwnerTitle: 'Test Owners', RequestToJoinLeaveEmailSetting: null,
      });
    });

    it('verbose SP.Group: __metadata, Owner and Users deferred', async () => {
      const r = await get('web/sitegroups/getbyid(5)', ACCEPT.verbose);
      assert.equal(r.status, 200);
      const d = r.json.d;
      assert.deepEqual(Object.keys(d), ['__metadata', 'Owner', 'Users', ...SP_GROUP_KEYS]);
      assert.deepEqual(d.__metadata, { id: `${api}/Web/SiteGroups/GetById(5)`, uri: `${api}/Web/SiteGroups/GetById(5)`, type: 'SP.Group' });
      assert.deepEqual(d.Users, { __deferred: { uri: `${api}/Web/SiteGroups/GetById(5)/Users` } });
      const single = await get('web/sitegroups(5)', ACCEPT.minimal);
      assert.equal(single.json['odata.metadata'], `${api}/$metadata#SP.ApiData.Groups1/@Element`);
    });

    it('getbyid, sitegroups(n), getbyname (any case) and the associated groups', async () => {
      for (const [path, id] of [['web/sitegroups/getbyid(4)', 4], ['web/sitegroups(3)', 3], ["web/sitegroups/getbyname('test members')", 5],
        ['web/associatedownergroup', 3], ['web/associatedvisitorgroup', 4], ['web/associatedmembergroup', 5], ['web/sitegroups(5)/owner', 3]] as const) {
        const r = await get(path);
        assert.equal(r.status, 200, path);
        assert.equal(r.json.Id, id, path);
      }
    });

    it('unknown groups: 404 -2146232832 SPException "Group cannot be found."', async () => {
      for (const path of ['web/sitegroups(99)', 'web/sitegroups/getbyid(1)', "web/sitegroups/getbyname('Nope')"]) {
        const r = await get(path);
        assert.equal(r.status, 404, path);
        assert.deepEqual(r.json, GROUP_NOT_FOUND, path);
      }
    });

    it('each group\'s users are the site\'s role holders, users and directory groups', async () => {
      const ids = async (n: number) => (await get(`web/sitegroups(${n})/users?$select=Id,Title,PrincipalType`)).json.value;
      assert.deepEqual(await ids(3), [{ Id: 1, Title: 'Olivia Owner', PrincipalType: 1 }]);
      assert.deepEqual(await ids(4), [{ Id: VERA_ID, Title: 'Vera Visitor', PrincipalType: 1 }]);
      assert.deepEqual(await ids(5), [{ Id: 2, Title: 'Mark Member', PrincipalType: 1 }, { Id: ENG_ID, Title: 'Engineering', PrincipalType: 4 }]);
      const full = await get("web/sitegroups/getbyname('Test Members')/users", ACCEPT.minimal);
      assert.equal(full.json['odata.metadata'], `${api}/$metadata#SP.ApiData.Users1`);
      assert.deepEqual(Object.keys(full.json.value[0]), ['odata.type', 'odata.id', 'odata.editLink', ...SP_USER_KEYS]);
      const inGroup = await get(`web/sitegroups(5)/users/getbyid(${ENG_ID})`);
      assert.equal(inGroup.json.LoginName, `c:0t.c|tenant|${ENGINEERING}`);
      const byEmail = await get("web/sitegroups(5)/users/getbyemail('mark@fabrikam.com')");
      assert.equal(byEmail.json.Id, 2);
    });
  });

  describe('POST web/ensureuser', () => {
    it('a claims login creates the site user once; the same user by every other form gets the same Id', async () => {
      const first = await ensure(`i:0#.f|membership|nora@${T}`);
      assert.equal(first.status, 200);
      assert.deepEqual(Object.keys(first.json), SP_USER_KEYS);
      assert.equal(first.json.LoginName, `i:0#.f|membership|nora@${T}`);
      assert.equal(first.json.Title, 'Nora New');
      assert.equal(first.json.PrincipalType, 1);
      assert.equal(first.json.Email, 'nora@fabrikam.com');
      assert.equal(first.json.IsSiteAdmin, false);
      assert.equal(first.json.UserPrincipalName, `nora@${T}`);
      assert.match(first.json.UserId.NameId, PUID);
      const id = first.json.Id;
      assert.ok(id > 4);
      for (const form of [`i:0#.f|membership|nora@${T}`, `I:0#.F|MEMBERSHIP|NORA@${T.toUpperCase()}`, `nora@${T}`, 'nora@fabrikam.com',
        `i:0#.f|membership|nora@fabrikam.com`, 'i:0#.w|FABRIKAM\\nora', 'FABRIKAM\\NORA', 'anydomain\\Nora', `  nora@${T}  `]) {
        const r = await ensure(form);
        assert.equal(r.status, 200, form);
        assert.equal(r.json.Id, id, form);
        assert.equal(r.json.LoginName, `i:0#.f|membership|nora@${T}`, form);
      }
      // The row is in the User Information List, added by the acting user.
      const row = await get(`web/siteuserinfolist/items(${id})?$select=Title,Name,EMail,AuthorId`);
      assert.deepEqual(row.json, { Title: 'Nora New', Name: `i:0#.f|membership|nora@${T}`, EMail: 'nora@fabrikam.com', AuthorId: 1 });
      const byLogin = await get(`web/siteusers(@v)?@v='${encodeURIComponent(`i:0#.f|membership|nora@${T}`)}'`);
      assert.equal(byLogin.json.Id, id);
    });

    it('an existing site user answers its row, and the answer follows the dialect', async () => {
      const minimal = await ensure(`mark@${T}`, ACCEPT.minimal);
      assert.equal(minimal.status, 200);
      assert.equal(minimal.json['odata.metadata'], `${api}/$metadata#SP.ApiData.Users1/@Element`);
      assert.equal(minimal.json['odata.id'], `${api}/Web/GetUserById(2)`);
      assert.equal(minimal.json.Id, 2);
      const verbose = await call('web/ensureuser', {
        method: 'POST', accept: ACCEPT.verbose, contentType: 'application/json;odata=verbose',
        body: { __metadata: { type: 'SP.User' }, logonName: `i:0#.f|membership|mark@${T}` },
      });
      assert.equal(verbose.status, 200);
      assert.deepEqual(verbose.json.d.__metadata, { id: `${api}/Web/GetUserById(2)`, uri: `${api}/Web/GetUserById(2)`, type: 'SP.User' });
      // Lenient about __metadata: none in a verbose body, or one in a light body.
      const noType = await call('web/ensureuser', { method: 'POST', contentType: 'application/json;odata=verbose', body: { logonName: `mark@${T}` } });
      assert.equal(noType.json.Id, 2);
      const lightWithType = await call('web/ensureuser', { method: 'POST', body: { __metadata: { type: 'SP.User' }, logonName: `mark@${T}` } });
      assert.equal(lightWithType.json.Id, 2);
    });

    it('the login in the path: ensureuser(\'…\') and ensureuser(@v)', async () => {
      const literal = await call(`web/ensureuser('${encodeURIComponent('mark@fabrikam.com')}')`, { method: 'POST' });
      assert.equal(literal.status, 200);
      assert.equal(literal.json.Id, 2);
      const alias = await call(`web/ensureuser(@v)?@v='${encodeURIComponent(`i:0#.f|membership|mark@${T}`)}'`, { method: 'POST' });
      assert.equal(alias.json.Id, 2);
      const named = await call(`web/ensureuser(logonName='${encodeURIComponent('mark@fabrikam.com')}')`, { method: 'POST' });
      assert.equal(named.json.Id, 2);
    });

    it('directory groups by claim and by name: PrincipalType 4, UserId and UserPrincipalName null', async () => {
      const eng = await ensure(`c:0t.c|tenant|${ENGINEERING.toUpperCase()}`);
      assert.equal(eng.status, 200);
      assert.equal(eng.json.Id, ENG_ID);
      assert.equal(eng.json.LoginName, `c:0t.c|tenant|${ENGINEERING}`);
      assert.equal((await ensure('engineering')).json.Id, ENG_ID);
      const m365 = await ensure(`c:0o.c|federateddirectoryclaimprovider|${MARKETING}`);
      assert.equal(m365.status, 200);
      assert.deepEqual({ ...m365.json, Id: 0 }, {
        Id: 0, IsHiddenInUI: false, LoginName: `c:0o.c|federateddirectoryclaimprovider|${MARKETING}`, Title: 'Marketing',
        PrincipalType: 4, Email: null, Expiration: '', IsEmailAuthenticationGuestUser: false, IsShareByEmailGuestUser: false,
        IsSiteAdmin: false, UserId: null, UserPrincipalName: null,
      });
      assert.equal((await ensure('Marketing')).json.Id, m365.json.Id);
      // The owners' claim of an M365 group (`_o`) is the same group here.
      assert.equal((await ensure(`c:0o.c|federateddirectoryclaimprovider|${MARKETING}_o`)).json.Id, m365.json.Id);
    });

    it('Everyone and Everyone except external users, by claim and by name', async () => {
      const everyone = await ensure('c:0(.s|true');
      assert.equal(everyone.status, 200);
      assert.equal(everyone.json.LoginName, 'c:0(.s|true');
      assert.equal(everyone.json.Title, 'Everyone');
      assert.equal(everyone.json.PrincipalType, 4);
      assert.equal(everyone.json.UserId, null);
      assert.equal((await ensure('Everyone')).json.Id, everyone.json.Id);
      const eeeu = await ensure('Everyone except external users');
      assert.equal(eeeu.status, 200);
      assert.equal(eeeu.json.Title, 'Everyone except external users');
      const m = /^c:0-\.f\|rolemanager\|spo-grid-all-users\/(.+)$/.exec(eeeu.json.LoginName);
      assert.ok(m, eeeu.json.LoginName);
      assert.match(m[1]!, GUID);
      assert.equal(eeeu.json.PrincipalType, 4);
      assert.equal((await ensure(eeeu.json.LoginName)).json.Id, eeeu.json.Id);
      const otherTenant = 'c:0-.f|rolemanager|spo-grid-all-users/00000000-0000-0000-0000-000000000001';
      const wrong = await ensure(otherTenant);
      assert.equal(wrong.status, 500);
      assert.deepEqual(wrong.json, ensureFailure(otherTenant));
    });

    it('unresolvable names: 500 -2146232832 SPException naming the logon name exactly as sent', async () => {
      for (const name of ['Ghost@Nowhere.example', 'i:0#.f|membership|ghost@fabrikam.com', 'i:0#.w|FABRIKAM\\ghost',
        'FABRIKAM\\sam', // two directory users share the account name "sam"
        `c:0t.c|tenant|${MARKETING.replace('a', 'b')}`, 'i:0i.t|00000003-0000-0ff1-ce00-000000000000|app@sharepoint', 'Not A Group']) {
        const r = await ensure(name);
        assert.equal(r.status, 500, name);
        assert.deepEqual(r.json, ensureFailure(name), name);
      }
      const verbose = await ensure('nobody@fabrikam.com', ACCEPT.verbose);
      assert.equal(verbose.status, 500);
      assert.deepEqual(verbose.json, { error: { code: '-2146232832, Microsoft.SharePoint.SPException', message: { lang: 'en-US', value: 'The specified user nobody@fabrikam.com could not be found.' } } });
      // Nothing was added for any of them.
      const all = await get('web/siteusers?$select=Title');
      assert.ok(!all.json.value.some((u: any) => /ghost|nobody|sam/i.test(u.Title)));
    });

    it('a user without a mail gets Email ""', async () => {
      const r = await ensure('nomail@fabrikam.onmicrosoft.com');
      assert.equal(r.status, 200);
      assert.equal(r.json.Email, '');
      assert.equal(r.json.UserPrincipalName, 'nomail@fabrikam.onmicrosoft.com');
    });

    it('an empty or missing logonName is a 400 with a clear message; GET is refused', async () => {
      for (const body of [{ logonName: '' }, { logonName: '   ' }, {}, { logonName: null }]) {
        const r = await call('web/ensureuser', { method: 'POST', body });
        assert.equal(r.status, 400, JSON.stringify(body));
        assert.equal(r.json['odata.error'].code, '-2147024809, System.ArgumentException');
        assert.match(r.json['odata.error'].message.value, /logonName parameter is required and must not be empty/);
      }
      const noBody = await call('web/ensureuser', { method: 'POST' });
      assert.equal(noBody.status, 400);
      assert.match(noBody.json['odata.error'].message.value, /logonName/);
      const number = await call('web/ensureuser', { method: 'POST', body: { logonName: 5 } });
      assert.equal(number.status, 400);
      assert.equal((await get('web/ensureuser')).status, 405);
    });

    it('needs Edit: a visitor is refused with SharePoint\'s 403, a member may', async () => {
      const as = async (name: string) => {
        const authorization = `Basic ${Buffer.from(`${name}@${T}:pw-${name}-123`).toString('base64')}`;
        const info = await fetch(`${api}/contextinfo`, { method: 'POST', headers: { Accept: ACCEPT.nometadata, Authorization: authorization } });
        assert.equal(info.status, 200);
        const { FormDigestValue } = (await info.json()) as { FormDigestValue: string };
        const r = await fetch(`${api}/web/ensureuser`, {
          method: 'POST', body: JSON.stringify({ logonName: `olivia@${T}` }),
          headers: { Accept: ACCEPT.nometadata, Authorization: authorization, 'Content-Type': 'application/json', 'X-RequestDigest': FormDigestValue },
        });
        return { status: r.status, json: await r.json() as any };
      };
      const visitor = await as('vera');
      assert.equal(visitor.status, 403);
      assert.equal(visitor.json['odata.error'].code, '-2147024891, System.UnauthorizedAccessException');
      const member = await as('mark');
      assert.equal(member.status, 200);
      assert.equal(member.json.Id, 1);
    });

    it('racing EnsureUser calls for one new user make one row', async () => {
      const results = await Promise.all(Array.from({ length: 8 }, () => ensure(`rita@${T}`)));
      assert.equal(new Set(results.map((r) => r.json.Id)).size, 1);
      const rows = await get(`web/siteuserinfolist/items?$filter=Name eq '${encodeURIComponent(`i:0#.f|membership|rita@${T}`)}'&$select=Id`);
      assert.equal(rows.json.value.length, 1);
    });
  });

  describe('the User Information List', () => {
    it('web/siteuserinfolist is the hidden list at _catalogs/users, with its items below it', async () => {
      const r = await get('web/siteuserinfolist?$select=Title,BaseTemplate,Hidden', ACCEPT.minimal);
      assert.equal(r.status, 200);
      assert.equal(r.json['odata.type'], 'SP.List');
      assert.deepEqual([r.json.Title, r.json.BaseTemplate, r.json.Hidden], ['User Information List', 112, true]);
      const items = await get('web/siteuserinfolist/items?$select=Id,Title&$top=2');
      assert.deepEqual(items.json.value, [{ Id: 1, Title: 'Olivia Owner' }, { Id: 2, Title: 'Mark Member' }]);
      const one = await get(`web/siteuserinfolist/items(${VERA_ID})?$select=Title`, ACCEPT.minimal);
      assert.equal(one.json['odata.type'], 'SP.Data.UserInfoItem');
      assert.equal(one.json.Title, 'Vera Visitor');
    });

    it('an item\'s Author expands to its UserInfo row (the seed shape)', async () => {
      const r = await get("web/lists/getbytitle('Tasks')/items(1)?$select=Author/ID,Author/Title,Author/LastName&$expand=Author", ACCEPT.minimal);
      assert.equal(r.status, 200);
      assert.equal(r.json.Author['odata.type'], 'SP.Data.UserInfoItem');
      assert.deepEqual({ ID: r.json.Author.ID, Title: r.json.Author.Title, LastName: r.json.Author.LastName }, { ID: 2, Title: 'Mark Member', LastName: 'Member' });
    });

    it('Picture without a photo is null in every dialect', async () => {
      const path = `Web/Lists/getByTitle('User Information List')/items?$filter=Id eq ${VERA_ID}&$select=Picture`;
      assert.deepEqual((await get(path)).json, { value: [{ Picture: null }] });
      assert.equal((await get(path, ACCEPT.verbose)).json.d.results[0].Picture, null);
      const min = await get(path, ACCEPT.minimal);
      assert.equal(min.json['odata.metadata'], `${api}/$metadata#SP.ListData.UserInfoItems&$select=Picture`);
      assert.equal(min.json.value[0].Picture, null);
    });
  });
});

describe('the User Information List Picture with a photo (demo tenant, reference §3)', () => {
  const spemu = useTestServer({ seed: DEMO_TENANT });
  let api: string;
  before(async () => {
    api = `${spemu.server.site('/sites/dev')}/_api`;
  });

  it('Picture is {Description,Url} in minimal and nometadata, SP.FieldUrlValue in verbose', async () => {
    const auth = `Basic ${Buffer.from('alice@contoso.onmicrosoft.com:alice-demo-pass').toString('base64')}`;
    const path = `${api}/Web/Lists/getByTitle('User Information List')/items?$filter=Id eq 1&$select=Picture`;
    const read = async (accept: string) => (await fetch(path, { headers: { Accept: accept, Authorization: auth } })).json() as Promise<any>;
    const min = await read(ACCEPT.minimal);
    const picture = min.value[0].Picture;
    assert.deepEqual(Object.keys(picture), ['Description', 'Url']);
    assert.match(picture.Url, /userphoto\.aspx/);
    assert.deepEqual(min.value[0]['odata.type'], 'SP.Data.UserInfoItem');
    const none = await read(ACCEPT.nometadata);
    assert.deepEqual(none.value[0], { Picture: picture });
    const verbose = await read(ACCEPT.verbose);
    assert.deepEqual(verbose.d.results[0].Picture, { __metadata: { type: 'SP.FieldUrlValue' }, ...picture });
  });
});
