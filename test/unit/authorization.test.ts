// Authorization is data: every method and write verb of the REST resource model declares the
// SharePoint base permission it needs, and the one check grants it by the caller's permission
// level's mask. This walks the whole table, so a new endpoint cannot forget.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RESOURCE_TYPES } from '../../src/fronts/rest/api/types/index.ts';
import type { MethodDef, Resource, ResourceType } from '../../src/fronts/rest/api/resource.ts';
import { grants, PERMISSION_KINDS, permissionsOfRole, ROLE_LEVEL, type PermissionKind } from '../../src/domain/permissions.ts';
import { hasPermission, requirePermission } from '../../src/identity/permissions.ts';
import type { Principal, SiteRoleName } from '../../src/domain/model.ts';
import { DomainError } from '../../src/domain/errors.ts';

const types = Object.entries(RESOURCE_TYPES) as Array<[string, ResourceType<Resource>]>;
const READ = ROLE_LEVEL.visitor.permissions;

/** Actions a Read-level user may call, each for a reason: they read, or they write only what is the caller's own. */
const READING_ACTIONS: Record<string, string> = {
  'item.getwopiframeurl': 'answers a URL, changes nothing',
  'list.getitems': 'a CAML query: reads items (POST only because the query is a body)',
  'list.renderlistdata': 'as getitems',
  'list.getchanges': 'reads the change log (POST only because the ChangeQuery is a body)',
  'list.getlistitemchangessincetoken': 'reads items and the change log, as getitems',
  'web.getchanges': 'as list.getchanges',
  'site.getchanges': 'as list.getchanges',
  'list.renderlistdataasstream': 'as getitems',
  'list.renderlistformdata': "reads an item's form (Edit mode checks Edit Items itself)",
  'lists.ensuresiteassetslibrary': 'finds the library; making it needs ManageLists, checked when it must be made',
  'lists.ensuresitepageslibrary': 'as ensuresiteassetslibrary',
  'lists.ensureclientrenderedsitepageslibrary': "as ensuresitepageslibrary (PnPjs's pages find their item's list with it)",
  'peopleManager.setsinglevalueprofileproperty': "a user's own profile (another's needs ManageWeb, checked by the rule)",
  'peopleManager.setmultivaluedprofileproperty': 'as setsinglevalueprofileproperty',
  'peopleManager.setmyprofilepicture': "the caller's own picture",
  'relatedItemManager.getrelateditems': "reads the source item's links (View Items on it, checked by the service)",
  'relatedItemManager.getpageonerelateditems': 'as getrelateditems',
  'relatedItemManager.addsinglelink': 'a link is an edit of the source item: Edit Items on it, checked by the service per item',
  'relatedItemManager.addsinglelinktourl': 'as addsinglelink',
  'relatedItemManager.addsinglelinkfromurl': 'as addsinglelink',
  'relatedItemManager.deletesinglelink': 'as addsinglelink',
  'site.openwebbyid': 'a POST in PnPjs that only finds a web of the site collection',
  'navigationService.menustate': 'a POST that reads the quick launch as a menu',
  'navigationService.menunodekey': 'a POST that finds a quick launch node by its URL',
  'siteStatics.exists': 'a POST that answers whether a site collection is at a URL',
  'userResource.getvalueforuiculture': 'a POST that reads a title or description',
  'siteUsers.removebyid': "a group's member leaves: its owner or ManagePermissions, checked by the rule",
  'siteUsers.removebyloginname': 'as removebyid',
  'item.getsharinginformation': 'a POST that reads who has access and the links (sharing itself needs ManagePermissions)',
  'item.getobjectsharingsettings': 'as getsharinginformation',
  'webStatics.shareobject': 'ManagePermissions on the object its URL names, checked by the rule once the URL is resolved',
  'web.unshareobject': 'as webStatics.shareobject',
  'siteScriptUtility.getsitescripts': "a POST that reads the tenant's site scripts",
  'siteScriptUtility.getsitescriptmetadata': 'as getsitescripts, one with its JSON',
  'siteScriptUtility.getsitescriptfromlist': "a POST that reads a list's columns and views as a script",
  'siteScriptUtility.getsitescriptfromweb': 'as getsitescriptfromlist, for the lists of a web',
  'siteScriptUtility.createsitescript': 'tenant-wide: a SharePoint administrator, checked by the rule (identity/tenant-admins.ts)',
  'siteScriptUtility.updatesitescript': 'as createsitescript',
  'siteScriptUtility.deletesitescript': 'as createsitescript',
  'siteScriptUtility.getsitedesigns': "a POST that reads the tenant's site designs the caller may see",
  'siteScriptUtility.getsitedesignmetadata': 'as getsitedesigns, one design',
  'siteScriptUtility.getsitedesignrights': 'as getsitedesignmetadata, who sees the design',
  'siteScriptUtility.getsitedesigntask': 'a POST that reads a pending task (there is none: tasks run when added)',
  'siteScriptUtility.getsitedesignrun': "a POST that reads a web's design runs",
  'siteScriptUtility.getsitedesignrunstatus': "as getsitedesignrun, one run's action outcomes",
  'siteScriptUtility.createsitedesign': 'tenant-wide: a SharePoint administrator, checked by the rule (identity/tenant-admins.ts)',
  'siteScriptUtility.updatesitedesign': 'as createsitedesign',
  'siteScriptUtility.deletesitedesign': 'as createsitedesign',
  'siteScriptUtility.grantsitedesignrights': 'as createsitedesign',
  'siteScriptUtility.revokesitedesignrights': 'as createsitedesign',
  'siteScriptUtility.applysitedesign': 'Manage Web Site on the web its webUrl names, checked by the rule once the URL is resolved',
  'siteScriptUtility.addsitedesigntask': 'as applysitedesign',
  'comment.like': "the caller's own like of a comment on an item they may view (docs/compatibility.md)",
  'comment.unlike': 'as comment.like',
  'item.like': "the caller's own like of an item they may view, as reputation.setlike (PnPjs's page like())",
  'item.unlike': 'as item.like',
  'reputation.setrating': "the caller's own rating; View Items on the item its arguments name, checked by the rule",
  'reputation.setlike': "the caller's own like of an item (as a comment's like): View Items on the item its arguments name, checked by the rule",
  'webPartManager.exportwebpart': "a POST that reads a web part's definition (there is none to read: spemu keeps no classic web parts)",
};

/** Write verbs a Read-level user may use, each for a reason: what they write is social data of their own, not the item. */
const READ_WRITES: Record<string, string> = {
  'comments.create': 'a comment on an item is social data, not an edit of it: whoever may view the item comments (docs/compatibility.md)',
  'commentReplies.create': 'as comments.create',
  'comment.delete': "the caller's own comment; another's needs Edit Items on the item, checked by the rule (CommentService.delete)",
  'itemLikes.create': "a POST that only reads who likes the item (PnPjs's getLikedBy POSTs items(n)/likedBy)",
};

const principal = (role: SiteRoleName): Principal => ({ userId: 7, loginName: 'x', upn: 'x@contoso.com', role, via: 'bearer' });

describe('authorization as data', () => {
  it('every write verb a type answers declares its permission, and none is granted by Read (but contextinfo\'s POST, which reads, and the listed social writes)', () => {
    for (const [kind, type] of types) {
      for (const verb of ['create', 'update', 'delete'] as const) {
        if (!type[verb]) continue;
        const permission = type.permissions?.[verb];
        assert.ok(permission, `${kind}.${verb} declares no permission`);
        if (kind === 'contextInfo') continue;
        assert.equal(grants(READ, permission), `${kind}.${verb}` in READ_WRITES, `${kind}.${verb} needs ${permission}, which visitors have`);
      }
    }
  });

  it('every action declares a permission; those Read grants are exactly the listed reading actions', () => {
    const readable: string[] = [];
    for (const [kind, type] of types) {
      for (const [name, method] of Object.entries(type.methods ?? {}) as Array<[string, MethodDef<Resource>]>) {
        if (method.kind !== 'action') continue;
        assert.ok(method.permission in PERMISSION_KINDS, `${kind}.${name}: ${String(method.permission)}`);
        if (grants(READ, method.permission)) readable.push(`${kind}.${name}`);
      }
    }
    assert.deepEqual(readable.sort(), Object.keys(READING_ACTIONS).sort());
  });

  it('the check grants by the permission level: Read views, Edit manages lists, only Full Control manages the web and permissions', () => {
    const cases: Array<[PermissionKind, SiteRoleName[]]> = [
      ['ViewListItems', ['visitor', 'member', 'owner']],
      ['Open', ['visitor', 'member', 'owner']],
      ['AddListItems', ['member', 'owner']],
      ['DeleteVersions', ['member', 'owner']],
      ['ManageLists', ['member', 'owner']],
      ['ManageWeb', ['owner']],
      ['ManagePermissions', ['owner']],
      ['EnumeratePermissions', ['owner']],
    ];
    for (const [kind, allowed] of cases) {
      for (const role of ['none', 'visitor', 'member', 'owner'] as const) {
        assert.equal(hasPermission(principal(role), kind), allowed.includes(role), `${role} ${kind}`);
        if (!allowed.includes(role)) {
          assert.throws(() => requirePermission(principal(role), kind), (e: unknown) => e instanceof DomainError && e.reason === 'accessDenied');
        }
      }
    }
    assert.deepEqual(permissionsOfRole('none'), { high: 0, low: 0 });
  });

  it('reads bits above 32 from the high half (EnumeratePermissions is bit 63)', () => {
    assert.equal(grants({ high: 1 << 30, low: 0 }, 'EnumeratePermissions'), true);
    assert.equal(grants({ high: 0, low: 0xffffffff }, 'EnumeratePermissions'), false);
    assert.equal(grants({ high: 0, low: 1 << 30 }, 'ManageWeb'), true);
  });
});
