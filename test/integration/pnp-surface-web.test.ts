// The web, site and security surface PnPjs's own test suite touches, through an unmodified
// @pnp/sp 4.x client against a real spemu (demo tenant): effective permissions with the real
// bits of each caller's role (web, list and item; currentUserHasPermissions /
// userHasPermissions), role assignments and definitions, subwebs, the property bag, regional
// settings and time zone, site.getContextInfo / rootWeb, site groups and a user's groups,
// and the $batch body-size limit. Plain fetch checks the wire.

import { describe, it, before } from 'node:test';
import assert from 'node:assert/strict';
import type { SPFI } from '@pnp/sp';
import '@pnp/sp/batching.js';
import '@pnp/sp/security/index.js';
import '@pnp/sp/site-users/index.js';
import '@pnp/sp/site-groups/index.js';
import '@pnp/sp/sites/index.js';
import '@pnp/sp/context-info/index.js';
import '@pnp/sp/regional-settings/index.js';
import { PermissionKind } from '@pnp/sp/security/index.js';
import type { ISite } from '@pnp/sp/sites/types.js';
import type { IRoleDefinitions, ISecurableMethods } from '@pnp/sp/security/types.js';
import type { IRegionalSettings } from '@pnp/sp/regional-settings/types.js';
import type { IContextInfo } from '@pnp/sp/context-info/index.js';
import { useTestServer } from '../helpers/server.ts';
import { failure, pnpFor } from '../helpers/pnp.ts';
import '../helpers/pnp-types.ts';
import '../helpers/pnp-principal-types.ts';
import '../helpers/pnp-batching-types.ts';
import { bearerFor } from '../helpers/bearer.ts';
import { ACCEPT } from '../helpers/wire.ts';

// @pnp/sp's own augmentations use extensionless paths nodenext cannot resolve (see pnp-types.ts).
declare module '@pnp/sp/fi.js' {
  interface SPFI {
    readonly site: ISite;
  }
}
declare module '@pnp/sp/webs/types.js' {
  interface IWeb extends ISecurableMethods {
    roleDefinitions: IRoleDefinitions;
    regionalSettings: IRegionalSettings;
  }
}
declare module '@pnp/sp/lists/types.js' {
  interface IList extends ISecurableMethods {}
}
declare module '@pnp/sp/items/types.js' {
  interface IItem extends ISecurableMethods {}
}
declare module '@pnp/sp/spqueryable.js' {
  interface _SPQueryable {
    getContextInfo(path?: string): Promise<IContextInfo>;
  }
}

const SECRET = 'surface-web-secret-surface-web-secret-0123456789';
const ALICE = 'alice@contoso.onmicrosoft.com'; // owner of /sites/dev
const BOB = 'bob@contoso.onmicrosoft.com'; // member of /sites/dev
const CAROL = 'carol@contoso.onmicrosoft.com'; // member of /sites/dev through the Engineering group
const DAVE = 'dave@contoso.onmicrosoft.com'; // visitor of /sites/dev
const ERIN = 'erin@contoso.onmicrosoft.com'; // no role on /sites/dev
const login = (upn: string) => `i:0#.f|membership|${upn}`;

const FULL_CONTROL = { High: '2147483647', Low: '4294967295' };
const EDIT = { High: '432', Low: '1011030767' };
const READ = { High: '176', Low: '138612833' };
const NONE = { High: '0', Low: '0' };

const bearer = (upn: string) => bearerFor(SECRET, upn);

/** Only High and Low: PnPjs hands back what the dialect carries besides (odata.metadata in minimal). */
const bits = (p: any) => ({ High: p.High, Low: p.Low });

describe('PnPjs web, site and security surface against spemu', () => {
  const spemu = useTestServer({ tokenSecret: SECRET });
  /** As the owner (the seed's first owner acts for requests without credentials). */
  let sp: SPFI;
  const as: Record<string, SPFI> = {};
  let call: (path: string, init?: { method?: string; accept?: string; auth?: string }) => Promise<{ status: number; json: any }>;

  before(async () => {
    sp = pnpFor(spemu.server.site('/sites/dev'));
    for (const upn of [ALICE, BOB, CAROL, DAVE, ERIN]) as[upn] = pnpFor(spemu.server.site('/sites/dev'), { Authorization: await bearer(upn) });
    call = async (path, init = {}) => {
      const r = await fetch(`${spemu.server.site('/sites/dev')}/_api/${path}`, {
        method: init.method ?? 'GET', headers: { Accept: init.accept ?? ACCEPT.nometadata, ...(init.auth ? { Authorization: init.auth } : {}) },
      });
      const text = await r.text();
      return { status: r.status, json: text ? JSON.parse(text) : undefined };
    };
  });

  describe('effective permissions', () => {
    const expected: Array<[string, typeof EDIT]> = [[ALICE, FULL_CONTROL], [BOB, EDIT], [CAROL, EDIT], [DAVE, READ]];

    it("web, list and item EffectiveBasePermissions are the caller's permission level", async () => {
      const [task] = await sp.web.lists.getByTitle('Tasks').items.select('Id').top(1)();
      for (const [upn, level] of expected) {
        const client = as[upn]!;
        const list = client.web.lists.getByTitle('Tasks');
        assert.deepEqual(bits(await client.web.getCurrentUserEffectivePermissions()), level, `web ${upn}`);
        assert.deepEqual(bits(await list.effectiveBasePermissions()), level, `list ${upn}`);
        assert.deepEqual(bits(await list.items.getById(task.Id).effectiveBasePermissions()), level, `item ${upn}`);
        assert.deepEqual(bits(await list.items.getById(task.Id).effectiveBasePermissionsForUI()), level, `item UI ${upn}`);
      }
    });

    it('$select=EffectiveBasePermissions,HasUniqueRoleAssignments on the web and a list', async () => {
      const web: any = await as[BOB]!.web.select('Title', 'EffectiveBasePermissions', 'HasUniqueRoleAssignments')();
      assert.deepEqual(bits(web.EffectiveBasePermissions), EDIT);
      assert.equal(web.HasUniqueRoleAssignments, true);
      const list: any = await as[DAVE]!.web.lists.getByTitle('Tasks').select('EffectiveBasePermissions', 'HasUniqueRoleAssignments')();
      assert.deepEqual(bits(list.EffectiveBasePermissions), READ);
      assert.equal(list.HasUniqueRoleAssignments, false);
      // Not part of the default projection, as in SharePoint.
      assert.ok(!('EffectiveBasePermissions' in (await sp.web.lists.getByTitle('Tasks')())));
    });

    it('currentUserHasPermissions answers from those bits', async () => {
      const can = async (upn: string, kind: PermissionKind) => as[upn]!.web.lists.getByTitle('Tasks').currentUserHasPermissions(kind);
      assert.equal(await can(DAVE, PermissionKind.ViewListItems), true);
      assert.equal(await can(DAVE, PermissionKind.AddListItems), false);
      assert.equal(await can(BOB, PermissionKind.AddListItems), true);
      assert.equal(await can(BOB, PermissionKind.DeleteListItems), true);
      assert.equal(await can(BOB, PermissionKind.ManageLists), true);
      assert.equal(await can(BOB, PermissionKind.ManageWeb), false);
      assert.equal(await can(BOB, PermissionKind.ManagePermissions), false);
      assert.equal(await can(ALICE, PermissionKind.ManageWeb), true);
      assert.equal(await can(ALICE, PermissionKind.ManagePermissions), true);
      assert.equal(await can(ALICE, PermissionKind.EnumeratePermissions), true);
      assert.equal(await as[DAVE]!.web.currentUserHasPermissions(PermissionKind.ViewVersions), true);
      assert.equal(await as[DAVE]!.web.currentUserHasPermissions(PermissionKind.EditListItems), false);
    });

    it("getUserEffectivePermissions / userHasPermissions answer another user's level (directly or through a group)", async () => {
      for (const [upn, level] of expected) {
        assert.deepEqual(bits(await sp.web.getUserEffectivePermissions(login(upn))), level, upn);
        assert.deepEqual(bits(await sp.web.lists.getByTitle('Tasks').getUserEffectivePermissions(login(upn))), level, upn);
      }
      assert.deepEqual(bits(await sp.web.getUserEffectivePermissions(login(ERIN))), NONE);
      assert.equal(await sp.web.userHasPermissions(login(DAVE), PermissionKind.AddListItems), false);
      assert.equal(await sp.web.userHasPermissions(login(CAROL), PermissionKind.AddListItems), true);
      // Another user's permissions need Enumerate Permissions (Full Control), as in SharePoint: a visitor is refused.
      assert.equal((await failure(as[DAVE]!.web.userHasPermissions(login(BOB), PermissionKind.EditListItems))).status, 403);
      const unknown = await failure(sp.web.getUserEffectivePermissions(login('nobody@contoso.onmicrosoft.com')));
      assert.equal(unknown.status, 404);
    });

    it('the wire: SP.BasePermissions with Int64 halves as strings, in verbose and JSON light', async () => {
      const verbose = await call('web/EffectiveBasePermissions', { accept: ACCEPT.verbose, auth: await bearer(BOB) });
      assert.deepEqual(verbose.json, { d: { EffectiveBasePermissions: { __metadata: { type: 'SP.BasePermissions' }, ...EDIT } } });
      const minimal = await call('web/effectivebasepermissions', { accept: ACCEPT.minimal, auth: await bearer(DAVE) });
      assert.match(minimal.json['odata.metadata'], /\$metadata#SP\.BasePermissions$/);
      assert.deepEqual(bits(minimal.json), READ);
      const none = await call("web/lists/getbytitle('Tasks')/EffectiveBasePermissions");
      assert.deepEqual(none.json, FULL_CONTROL);
      const user = await call(`web/getusereffectivepermissions(@u)?@u='${encodeURIComponent(login(BOB))}'`, { accept: ACCEPT.verbose });
      assert.deepEqual(user.json, { d: { GetUserEffectivePermissions: { __metadata: { type: 'SP.BasePermissions' }, ...EDIT } } });
      assert.equal((await call("web/lists/getbytitle('Tasks')/items(99999)/EffectiveBasePermissions")).status, 404);
      // Someone without a role on the site gets 403, as for everything there.
      assert.equal((await call('web/EffectiveBasePermissions', { auth: await bearer(ERIN) })).status, 403);
    });
  });

  describe('role assignments and role definitions', () => {
    it('web.roleAssignments(): the Owners, Visitors and Members groups, with Member and RoleDefinitionBindings expandable', async () => {
      const plain = await sp.web.roleAssignments();
      assert.deepEqual(plain.map((a: any) => a.PrincipalId), [3, 4, 5]);
      const expanded = await sp.web.roleAssignments.expand('Member', 'RoleDefinitionBindings')();
      assert.deepEqual(expanded.map((a: any) => [a.Member.Title, a.Member.PrincipalType, a.RoleDefinitionBindings.map((b: any) => b.Name)]), [
        ['Dev Owners', 8, ['Full Control']], ['Dev Visitors', 8, ['Read']], ['Dev Members', 8, ['Edit']],
      ]);
      assert.deepEqual(bits((expanded as any)[2].RoleDefinitionBindings[0].BasePermissions), EDIT);
      const selected = await sp.web.roleAssignments.select('PrincipalId', 'Member/Title').expand('Member')();
      assert.deepEqual(selected.map((a: any) => ({ PrincipalId: a.PrincipalId, Title: a.Member.Title })),
        [{ PrincipalId: 3, Title: 'Dev Owners' }, { PrincipalId: 4, Title: 'Dev Visitors' }, { PrincipalId: 5, Title: 'Dev Members' }]);
    });

    it('lists and items inherit the web\'s assignments; getById, bindings and member address one', async () => {
      const [task] = await sp.web.lists.getByTitle('Tasks').items.select('Id').top(1)();
      const onList = await sp.web.lists.getByTitle('Tasks').roleAssignments();
      assert.deepEqual(onList.map((a: any) => a.PrincipalId), [3, 4, 5]);
      const onItem = await sp.web.lists.getByTitle('Tasks').items.getById(task.Id).roleAssignments();
      assert.deepEqual(onItem.map((a: any) => a.PrincipalId), [3, 4, 5]);
      const bindings = await sp.web.roleAssignments.getById(4).bindings();
      assert.deepEqual(bindings.map((b: any) => [b.Name, b.RoleTypeKind]), [['Read', 2]]);
      const member = await call('web/roleassignments/getbyprincipalid(5)/member?$select=Title');
      assert.deepEqual(member.json, { Title: 'Dev Members' });
      assert.equal((await failure(sp.web.roleAssignments.getById(99)())).status, 404);
      // The wire: SP.RoleAssignment with its address below the securable object.
      const verbose = await call(`web/lists/getbytitle('Tasks')/roleassignments(3)`, { accept: ACCEPT.verbose });
      assert.equal(verbose.json.d.__metadata.type, 'SP.RoleAssignment');
      assert.match(verbose.json.d.__metadata.uri, /\/_api\/Web\/Lists\(guid'[0-9a-f-]{36}'\)\/RoleAssignments\/GetByPrincipalId\(3\)$/);
      assert.ok(verbose.json.d.Member.__deferred);
    });

    it('web.roleDefinitions(): the six levels, by id, name and type', async () => {
      const all = await sp.web.roleDefinitions();
      assert.deepEqual(all.map((d: any) => d.Name), ['Full Control', 'Design', 'Edit', 'Contribute', 'Read', 'Limited Access']);
      const edit = await sp.web.roleDefinitions.getByName('Edit')();
      assert.equal(edit.Id, 1073741830);
      assert.deepEqual(bits(edit.BasePermissions), EDIT);
      assert.equal((await sp.web.roleDefinitions.getByType(2)()).Name, 'Read');
      assert.equal((await sp.web.roleDefinitions.getById(1073741829)()).Name, 'Full Control');
      assert.equal((await failure(sp.web.roleDefinitions.getByName('Nope')())).status, 404);
      // A level of that name is there already (adding levels: pnp-role-definitions.test.ts).
      assert.equal((await failure(sp.web.roleDefinitions.add('Edit', '', 1000, { Low: 1, High: 0 }))).status, 400);
    });
  });

  describe('web', () => {
    it('webs() and webinfos are empty: tenant files define root webs only', async () => {
      assert.deepEqual(await sp.web.webs(), []);
      assert.deepEqual(await sp.web.webinfos(), []);
    });

    it('allProperties(): the property bag with its vti_ keys, `_` encoded', async () => {
      const props = await sp.web.allProperties();
      assert.equal(props.vti_x005f_defaultlanguage, 'en-us');
      const owners = await sp.web.associatedOwnerGroup();
      const members = await sp.web.associatedMemberGroup();
      const visitors = await sp.web.associatedVisitorGroup();
      assert.equal(props.vti_x005f_associateownergroup, String(owners.Id));
      assert.equal(props.vti_x005f_associatemembergroup, String(members.Id));
      assert.equal(props.vti_x005f_associatevisitorgroup, String(visitors.Id));
      const selected = await call('web/allproperties?$select=vti_x005f_defaultlanguage');
      assert.deepEqual(selected.json, { vti_x005f_defaultlanguage: 'en-us' });
    });

    it('regionalSettings(), its select, the time zone and its conversions, installed languages', async () => {
      const rs = await sp.web.regionalSettings();
      assert.equal(rs.LocaleId, 1033);
      assert.equal(rs.DecimalSeparator, '.');
      const selected = await sp.web.regionalSettings.select('DecimalSeparator', 'ListSeparator', 'IsUIRightToLeft')();
      assert.deepEqual(Object.keys(selected).filter((k) => !k.startsWith('odata.')).sort(), ['DecimalSeparator', 'IsUIRightToLeft', 'ListSeparator']);
      assert.deepEqual([selected.DecimalSeparator, selected.IsUIRightToLeft, selected.ListSeparator], ['.', false, ',']);
      const tz = await sp.web.regionalSettings.timeZone();
      assert.equal(tz.Id, 93);
      assert.equal(tz.Description, '(UTC) Coordinated Universal Time');
      assert.deepEqual(tz.Information, { Bias: 0, DaylightBias: 0, StandardBias: 0 });
      const local = await sp.web.regionalSettings.timeZone.utcToLocalTime('2026-03-04T05:06:07.000Z');
      assert.equal(local, '2026-03-04T05:06:07');
      const utc = await sp.web.regionalSettings.timeZone.localTimeToUTC('2026-03-04T05:06:07');
      assert.equal(utc, '2026-03-04T05:06:07Z');
      // SharePoint's list of zones (the site stays on UTC); getById POSTs, as PnPjs sends it.
      const zones = await sp.web.regionalSettings.timeZones();
      assert.ok(zones.length > 80, `${zones.length} zones`);
      assert.equal(zones.filter((z: any) => z.Id === 93).length, 1);
      const india = await sp.web.regionalSettings.timeZones.getById(23);
      assert.equal(india.Id, 23);
      assert.equal(india.Description, '(UTC+05:30) Chennai, Kolkata, Mumbai, New Delhi');
      assert.deepEqual(india.Information, { Bias: -330, DaylightBias: 0, StandardBias: 0 });
      const pacific = await sp.web.regionalSettings.timeZones.getById(13);
      assert.deepEqual([pacific.Description, pacific.Information.Bias, pacific.Information.DaylightBias], ['(UTC-08:00) Pacific Time (US and Canada)', 480, -60]);
      assert.equal((await call('web/regionalsettings/timezones(23)')).json.Description, india.Description);
      assert.equal((await call('web/regionalsettings/timezones/getbyid(52)', { method: 'POST' })).status, 404, 'an id SharePoint does not use');
      const languages = await sp.web.regionalSettings.getInstalledLanguages();
      assert.deepEqual(languages.map((l: any) => l.Lcid), [1033]);
      assert.equal((await call("web/regionalsettings/timezone/utctolocaltime('not a date')", { method: 'POST' })).status, 400);
    });

    it('defaultDocumentLibrary is the Documents library', async () => {
      const lib = await (sp.web as any).defaultDocumentLibrary?.() ?? (await call('web/defaultdocumentlibrary')).json;
      assert.equal(lib.Title, 'Documents');
      assert.equal(lib.BaseTemplate, 101);
    });
  });

  describe('site', () => {
    it('site.getContextInfo() and site.rootWeb()', async () => {
      const info = await sp.site.getContextInfo();
      assert.equal(info.SiteFullUrl, spemu.server.site('/sites/dev'));
      assert.equal(info.WebFullUrl, spemu.server.site('/sites/dev'));
      assert.match(String(info.FormDigestValue), /^0x[0-9A-F]{128},/);
      const rootWeb = await sp.site.rootWeb();
      const web = await sp.web();
      assert.equal(rootWeb.Id, web.Id);
      assert.equal(rootWeb.Url, spemu.server.site('/sites/dev'));
      const chained = await sp.site.getRootWeb();
      assert.equal((await chained.select('Title')()).Title, web.Title);
    });
  });

  describe('site groups and users', () => {
    it('siteGroups(), a group\'s users, and currentUser.groups() for each role', async () => {
      const groups: any[] = await sp.web.siteGroups();
      assert.deepEqual(groups.map((g: any) => [g.Id, g.Title]), [[3, 'Dev Owners'], [4, 'Dev Visitors'], [5, 'Dev Members']]);
      const memberTitles = (await sp.web.siteGroups.getById(5).users()).map((u: any) => u.Title);
      assert.ok(memberTitles.includes('Bob Baker'), memberTitles.join());
      const visitorLogins = (await sp.web.siteGroups.getByName('Dev Visitors').users()).map((u: any) => u.LoginName);
      assert.deepEqual(visitorLogins, [login(DAVE)]);
      const groupsOf = async (upn: string) => (await as[upn]!.web.currentUser.groups()).map((g: any) => g.Title);
      assert.deepEqual(await groupsOf(ALICE), ['Dev Owners']);
      assert.deepEqual(await groupsOf(BOB), ['Dev Members']);
      assert.deepEqual(await groupsOf(CAROL), ['Dev Members']);
      assert.deepEqual(await groupsOf(DAVE), ['Dev Visitors']);
    });
  });

  describe('$batch size limit', () => {
    const small = useTestServer({ bodyLimit: 4096 });

    it('a $batch body over the limit answers 400 with SharePoint\'s error body; nothing runs', async () => {
      const boundary = 'batch_7d1a0f1c-3b7e-4c39-9b7e-0c1f5e0a7d11';
      const part = (i: number) => `--${boundary}\nContent-Type: application/http\nContent-Transfer-Encoding: binary\n\n`
        + `POST ${small.server.site('/sites/dev')}/_api/web/lists/getbytitle('Tasks')/items HTTP/1.1\nAccept: application/json\nContent-Type: application/json\n\n`
        + `${JSON.stringify({ Title: `too big ${i} ${'x'.repeat(200)}` })}\n`;
      const body = `${Array.from({ length: 40 }, (_, i) => part(i)).join('')}--${boundary}--\n`;
      assert.ok(Buffer.byteLength(body) > 4096);
      const before = await fetch(`${small.server.site('/sites/dev')}/_api/web/lists/getbytitle('Tasks')?$select=ItemCount`, { headers: { Accept: ACCEPT.nometadata } });
      const count = ((await before.json()) as { ItemCount: number }).ItemCount;
      for (const accept of [ACCEPT.minimal, ACCEPT.verbose]) {
        const r = await fetch(`${small.server.site('/sites/dev')}/_api/$batch`, {
          method: 'POST', headers: { Accept: accept, 'Content-Type': `multipart/mixed; boundary=${boundary}` }, body,
        });
        assert.equal(r.status, 400);
        const json = await r.json() as any;
        const error = accept === ACCEPT.verbose ? json.error : json['odata.error'];
        assert.equal(error.code, '-1, Microsoft.Data.OData.ODataException');
        assert.equal(error.message.value, 'The batch request body is larger than the limit of 4096 bytes.');
      }
      const after = await fetch(`${small.server.site('/sites/dev')}/_api/web/lists/getbytitle('Tasks')?$select=ItemCount`, { headers: { Accept: ACCEPT.nometadata } });
      assert.equal(((await after.json()) as { ItemCount: number }).ItemCount, count);
    });

    it('PnPjs sees the 400 when its batch is too large; a plain request over the limit keeps its 413', async () => {
      const client = pnpFor(small.server.site('/sites/dev'));
      const [batched, execute] = client.batched();
      for (let i = 0; i < 20; i++) void batched.web.lists.getByTitle('Tasks').items.add({ Title: `${i} ${'y'.repeat(300)}` }).catch(() => {});
      const err = await failure(execute());
      assert.equal(err.status, 400);
      assert.equal(err.code, '-1, Microsoft.Data.OData.ODataException');
      const plain = await failure(client.web.lists.getByTitle('Tasks').items.add({ Title: 'z'.repeat(5000) }));
      assert.equal(plain.status, 413);
    });
  });
});
