// SharePoint's sharing methods on list items (PnPjs reaches a folder's and a file's through
// their item): shareObject, unshareObject, shareLink, deleteLinkByKind, unshareLink,
// checkPermissions, getSharingInformation and getObjectSharingSettings; and the web's static
// SP.Web.ShareObject / unshareObject for an object named by URL. Sharing is real (role
// assignments, services/sharing.ts); what the answers say is read from the object's state.

import { placePath, segments } from '../../../../domain/documents.ts';
import { fail } from '../../../../domain/errors.ts';
import { documentAt, webAt } from '../../../../services/document-paths.ts';
import type { Item, List, SiteRoleName } from '../../../../domain/model.ts';
import { grants, type BasePermissions } from '../../../../domain/permissions.ts';
import { resolveLogin } from '../../../../identity/logins.ts';
import { siteRoleOf } from '../../../../identity/roles.ts';
import { allRoleDefinitions } from '../../../../identity/role-levels.ts';
import { allSiteGroups, directRoles, siteGroupOfRole } from '../../../../identity/site-groups.ts';
import { findSiteUser, loginNameOf, type SitePrincipal } from '../../../../identity/site-users.ts';
import { assignmentsOf, effectivePermissions, scopeKey, type Securable } from '../../../../identity/effective-permissions.ts';
import { isAnonymousKind, parseRoleValue } from '../../../../services/sharing.ts';
import type { SharingLinkRow } from '../../../../store/sharing-links.ts';
import { errors } from '../../../../wire/errors.ts';
import type { Entity, Value } from '../../../../wire/values.ts';
import { readMethodBody, arrayValue, type Properties } from '../body.ts';
import type { ApiContext } from '../context.ts';
import { absoluteUrl } from '../entities.ts';
import { projectedEntity, type Navigation } from '../expand.ts';
import { ok, type Outcome, voidResult } from '../outcome.ts';
import { groupEntity, PrincipalType } from '../principal-entities.ts';
import type { MethodDef, Resource } from '../resource.ts';
import { siteUserById } from './principals.ts';

/** An item as something shared: the securable, its row, where it is. */
export interface Shared {
  securable: Securable;
  list: List;
  item: Item;
}

/** SP.Sharing.Role (PnPjs's SharingRole): None 0, View 1, Edit 2, Owner 3. */
const sharingRole = (mask: BasePermissions): number =>
  grants(mask, 'ManagePermissions') ? 3 : grants(mask, 'EditListItems') ? 2 : grants(mask, 'ViewListItems') ? 1 : 0;

const collection = (elementType: string, items: Value[]): Value => ({ kind: 'collection', elementType, items });
const complex = (type: string, props: Array<[string, Value]>): Value => ({ kind: 'complex', type, props });

/** The object's own URL: a file's or folder's, a list item's display form. */
function objectPath(s: Shared): string {
  if (s.item.file || s.item.place.folder) return `${s.list.serverRelativeUrl}/${placePath(s.item.place)}`;
  return `${s.list.serverRelativeUrl}/DispForm.aspx?ID=${s.item.id}`;
}

const objectName = (s: Shared): string => s.item.place.name ?? String(s.item.values.Title ?? '');

/** SP.Sharing.SharedObjectType: File 1, Folder 2, Item 3. */
const objectType = (s: Shared): number => (s.item.place.folder ? 2 : s.item.file ? 1 : 3);

/** SharePoint's short link: `/:f:/s/site/<token>`, the letter by what is shared (folder, Word, Excel, PowerPoint, PDF, text, other). */
export function linkUrl(ctx: ApiContext, s: Shared, token: string): string {
  const letter = s.item.place.folder ? 'f' : !s.item.file ? 'u' : letterOf((s.item.place.name ?? '').toLowerCase().split('.').pop() ?? '');
  const site = ctx.site.url;
  const where = site === '/' ? 'g' : /^\/sites\//i.test(site) ? `s/${site.slice(7)}` : /^\/teams\//i.test(site) ? `t/${site.slice(7)}` : `r${site}`;
  return `${new URL(ctx.apiUrl).origin}/:${letter}:/${where}/${token}`;
}

function letterOf(ext: string): string {
  if (['doc', 'docx', 'docm', 'dot', 'dotx', 'odt', 'rtf'].includes(ext)) return 'w';
  if (['xls', 'xlsx', 'xlsm', 'xlsb', 'ods', 'csv'].includes(ext)) return 'x';
  if (['ppt', 'pptx', 'pptm', 'pps', 'ppsx', 'odp'].includes(ext)) return 'p';
  if (ext === 'pdf') return 'b';
  if (['txt', 'md', 'json', 'xml', 'log', 'js', 'ts', 'css', 'html', 'htm'].includes(ext)) return 't';
  return 'u';
}

/** SP.Sharing.Principal of a site principal (user row or SharePoint group). */
async function sharingPrincipal(ctx: ApiContext, id: number): Promise<Value> {
  const group = (await allSiteGroups(ctx.store, ctx.site)).find((g) => g.id === id);
  if (group) {
    return complex('SP.Sharing.Principal', [['email', null], ['id', id], ['isActive', true], ['isExternal', false], ['jobTitle', null],
      ['loginName', group.title], ['name', group.title], ['principalType', PrincipalType.SharePointGroup], ['userPrincipalName', null]]);
  }
  const user = await siteUserById(ctx, id);
  return complex('SP.Sharing.Principal', [['email', user.email], ['id', id], ['isActive', true], ['isExternal', false], ['jobTitle', null],
    ['loginName', user.loginName], ['name', user.title], ['principalType', user.principalType], ['userPrincipalName', user.userPrincipalName]]);
}

const isExpired = (link: SharingLinkRow, now: string) => link.expiration !== null && link.expiration <= now;

/** SP.SharingLinkInfo of a link record. */
async function linkInfo(ctx: ApiContext, s: Shared, link: SharingLinkRow): Promise<Value> {
  return complex('SP.SharingLinkInfo', [
    ['AllowsAnonymousAccess', isAnonymousKind(link.kind)], ['Created', link.created], ['CreatedBy', await sharingPrincipal(ctx, link.createdBy)],
    ['Expiration', link.expiration ?? ''], ['IsActive', !isExpired(link, ctx.now())], ['IsEditLink', link.kind === 3 || link.kind === 5],
    ['IsFormsLink', false], ['IsUnhealthy', false], ['LastModified', link.modified], ['LastModifiedBy', await sharingPrincipal(ctx, link.modifiedBy)],
    ['LinkKind', link.kind], ['RequiresPassword', false], ['RestrictedShareMembership', link.kind === 1], ['ShareId', link.shareId],
    ['ShareTokenString', link.token], ['Url', linkUrl(ctx, s, link.token)],
  ]);
}

// ---- shareObject / unshareObject -------------------------------------------------------

/** `peoplePickerInput`: a JSON string of `[{"Key":"<login>"}, …]` (the people picker's entities). */
function pickerKeys(value: unknown): string[] {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try { parsed = JSON.parse(value); } catch { throw errors.badArgument('peoplePickerInput must be a JSON array of people picker entities, each with a Key (a login name).'); }
  }
  const entries = arrayValue(parsed);
  if (!entries) throw errors.badArgument('peoplePickerInput must be a JSON array of people picker entities, each with a Key (a login name).');
  return entries.map((e) => {
    const key = e && typeof e === 'object' ? (e as { Key?: unknown }).Key : undefined;
    if (typeof key !== 'string' || !key.trim()) throw errors.badArgument('peoplePickerInput must be a JSON array of people picker entities, each with a Key (a login name).');
    return key;
  });
}

/** SP.Sharing.UserSharingResult for a principal now holding `role` (a SharingRole). */
async function userResult(ctx: ApiContext, id: number, role: number): Promise<Value> {
  const user = await siteUserById(ctx, id);
  return complex('SP.Sharing.UserSharingResult', [
    ['AllowedRoles', collection('Edm.Int32', [1, 2])], ['CurrentRole', role], ['DisplayName', user.title], ['Email', user.email],
    ['InvitationLink', null], ['IsUserKnown', true], ['Message', null], ['Status', true], ['User', user.loginName],
  ]);
}

interface ShareOutcome {
  /** SP.Sharing.SharingOperationStatusCode: 0 CompletedSuccessfully, -1 NoResolvedUsers. */
  status: number;
  uniquelyPermissioned: Value[];
  addedToGroup: Value[];
  groupId?: number | undefined;
}

/** SP.SharingResult, with GroupsSharedWith, UsersWithAccessRequests and GroupUsersAddedTo to `$expand`. */
async function sharingResult(ctx: ApiContext, name: string, path: string, permissionsPage: string, out: ShareOutcome): Promise<Outcome> {
  const entity: Entity = {
    type: 'SP.SharingResult',
    props: [
      ['ErrorMessage', out.status === 0 ? null : 'No user could be resolved from peoplePickerInput.'],
      ['IconUrl', null], ['InvitedUsers', collection('SP.SPInvitationCreationResult', [])], ['Name', name],
      ['PermissionsPageRelativeUrl', permissionsPage], ['StatusCode', out.status],
      ['UniquelyPermissionedUsers', collection('SP.Sharing.UserSharingResult', out.uniquelyPermissioned)],
      ['Url', absoluteUrl(ctx, path)], ['UsersAddedToGroup', collection('SP.Sharing.UserSharingResult', out.addedToGroup)],
    ],
  };
  const group = async () => (out.groupId === undefined ? null
    : groupEntity((await allSiteGroups(ctx.store, ctx.site)).find((g) => g.id === out.groupId)!, siteGroupOfRole(ctx.site, 'owner').title, ctx));
  const navigations: Record<string, Navigation> = {
    // Sharing grants people, never a SharePoint group: `group:<id>` adds people to one (GroupUsersAddedTo).
    GroupsSharedWith: { link: 'SP.SharingResult/GroupsSharedWith', load: async () => [] },
    UsersWithAccessRequests: { link: 'SP.SharingResult/UsersWithAccessRequests', load: async () => [] },
    GroupUsersAddedTo: { link: 'SP.SharingResult/GroupUsersAddedTo', load: group },
  };
  return projectedEntity(entity, navigations, 'SP.SharingResult', ctx);
}

/** Runs a ShareObject body against the securable. */
async function shareFromBody(ctx: ApiContext, securable: Securable, body: Properties): Promise<ShareOutcome> {
  const keys = pickerKeys(body.peoplePickerInput);
  const target = parseRoleValue(body.roleValue);
  const who: SitePrincipal[] = [];
  for (const key of keys) {
    const found = await resolveLogin(ctx.store, key);
    if (found) who.push(found);
  }
  if (who.length === 0) return { status: -1, uniquelyPermissioned: [], addedToGroup: [] };
  const rows = await ctx.services.sharing.share(ctx.site, securable, who, target);
  const role = target.kind === 'role'
    ? sharingRole((await allRoleDefinitions(ctx.store, ctx.site.id)).find((d) => d.id === target.id)!.permissions) : 0;
  const results = await Promise.all(rows.map((row) => userResult(ctx, row.id, role)));
  return target.kind === 'group'
    ? { status: 0, uniquelyPermissioned: [], addedToGroup: results, groupId: target.id }
    : { status: 0, uniquelyPermissioned: results, addedToGroup: [] };
}

const itemPermissionsPage = (s: Shared) =>
  `/_layouts/15/user.aspx?obj=%7B${s.list.id.toUpperCase()}%7D,${s.item.id},LISTITEM&List=%7B${s.list.id.toUpperCase()}%7D`;

// ---- checkPermissions ------------------------------------------------------------------

/** What a login may do on the object: its site role, its row, its permissions there. */
async function accessOf(ctx: ApiContext, who: SitePrincipal, securable: Securable): Promise<BasePermissions> {
  let role: SiteRoleName = 'none';
  if (who.kind === 'user') role = await siteRoleOf(ctx.store.directory, ctx.site.id, who.user.upn);
  else for (const r of await directRoles(ctx.store, ctx.site, who)) role = ({ none: 0, visitor: 1, member: 2, owner: 3 }[r] > { none: 0, visitor: 1, member: 2, owner: 3 }[role] ? r : role);
  const row = await findSiteUser(ctx.store, ctx.site, loginNameOf(who));
  const principal = { userId: row?.id ?? -1, loginName: loginNameOf(who), upn: who.kind === 'user' ? who.user.upn : null, role, via: 'bearer' as const };
  return effectivePermissions(ctx.store, ctx.site, principal, securable);
}

async function checkPermissions(ctx: ApiContext, securable: Securable): Promise<Outcome> {
  const recipients = arrayValue(readMethodBody(ctx).recipients);
  if (!recipients) throw errors.badArgument('recipients must be an array of {alias} or {email}.');
  const items: Value[] = [];
  for (const r of recipients) {
    const props = (r && typeof r === 'object' ? r : {}) as { alias?: unknown; email?: unknown };
    const input = typeof props.alias === 'string' && props.alias ? props.alias : typeof props.email === 'string' ? props.email : '';
    if (!input) throw errors.badArgument('recipients must be an array of {alias} or {email}.');
    const who = await resolveLogin(ctx.store, input);
    const mask = who ? await accessOf(ctx, who, securable) : undefined;
    const role = mask ? sharingRole(mask) : 0;
    items.push(complex('SP.Sharing.EntityPermission', [
      ['hasAccess', role > 0], ['inputEntity', input], ['resolvedEntity', who ? loginNameOf(who) : null], ['role', role],
    ]));
  }
  return ok({ kind: 'primitive', methodName: 'CheckPermissions', edmType: 'Collection(SP.Sharing.EntityPermission)', value: collection('SP.Sharing.EntityPermission', items) });
}

// ---- getSharingInformation -------------------------------------------------------------

/** SP.Sharing.PrincipalInfo for each principal of the role assignments that apply to the object, with the strongest role they give. */
async function principalInfos(ctx: ApiContext, securable: Securable): Promise<Value[]> {
  const { assignments } = await assignmentsOf(ctx.store, ctx.site, securable);
  const levels = new Map((await allRoleDefinitions(ctx.store, ctx.site.id)).map((d) => [d.id, d.permissions]));
  const best = new Map<number, number>();
  for (const a of assignments) {
    const level = levels.get(a.roleDefinitionId);
    const role = level ? sharingRole(level) : 0;
    best.set(a.principalId, Math.max(best.get(a.principalId) ?? 0, role));
  }
  const out: Value[] = [];
  for (const [id, role] of best) out.push(complex('SP.Sharing.PrincipalInfo', [['principal', await sharingPrincipal(ctx, id)], ['role', role]]));
  return out;
}

async function sharingInformation(ctx: ApiContext, s: Shared): Promise<Outcome> {
  const mask = await effectivePermissions(ctx.store, ctx.site, ctx.principal, s.securable);
  const canShare = grants(mask, 'ManagePermissions');
  const links = await ctx.store.sharingLinks.of(ctx.site.id, scopeKey(s.securable));
  const principals = await principalInfos(ctx, s.securable);
  const linkInfos: Value[] = [];
  for (const link of links) {
    linkInfos.push(complex('SP.Sharing.LinkInfo', [['isInherited', false], ['linkDetails', await linkInfo(ctx, s, link)], ['linkMembers', collection('SP.Sharing.Principal', [])]]));
  }
  const entity: Entity = {
    type: 'SP.Sharing.SharingInformation',
    props: [
      ['anonymousLinkExpirationRestrictionDays', 0], ['canAddExternalPrincipal', false], ['canAddInternalPrincipal', canShare],
      ['canSendEmail', false], ['canUseSimplifiedRoles', true], ['currentRole', sharingRole(mask)], ['defaultLinkKind', 2],
      ['directUrl', absoluteUrl(ctx, objectPath(s))], ['fileExtension', s.item.file ? (s.item.place.name ?? '').split('.').slice(1).pop() ?? '' : ''],
      ['hasUniquePermissions', (await assignmentsOf(ctx.store, ctx.site, s.securable)).unique], ['itemUniqueId', s.item.guid],
      ['permissionsInformation', complex('SP.Sharing.PermissionCollection', [
        ['hasInheritedLinks', false], ['links', collection('SP.Sharing.LinkInfo', linkInfos)], ['principals', collection('SP.Sharing.PrincipalInfo', principals)],
        ['siteAdmins', collection('SP.Sharing.PrincipalInfo', [])], ['totalNumberOfPrincipals', principals.length],
      ])],
      ['sharedObjectType', objectType(s)], ['showExternalSharingWarning', false], ['webUrl', absoluteUrl(ctx, ctx.web.serverRelativeUrl)],
    ],
  };
  // permissionsInformation is a complex value written whole: `$expand` of it (as SharePoint's own
  // share dialog asks) changes nothing; pickerSettings (the people picker's) is not served.
  const expand = ctx.query.expand.filter((p) => !['permissionsinformation', 'pickersettings'].includes(p[0]?.toLowerCase() ?? ''));
  return projectedEntity(entity, {}, 'SP.Sharing.SharingInformation', { ...ctx, query: { ...ctx.query, expand } });
}

// ---- getObjectSharingSettings ----------------------------------------------------------

const keyValue = (key: string, value: string): Value => complex('SP.KeyValue', [['Key', key], ['Value', value], ['ValueType', 'Edm.String']]);

async function objectSharingSettings(ctx: ApiContext, s: Shared): Promise<Outcome> {
  const mask = await effectivePermissions(ctx.store, ctx.site, ctx.principal, s.securable);
  const canShare = grants(mask, 'ManagePermissions');
  const { unique, inheritedFrom } = await assignmentsOf(ctx.store, ctx.site, s.securable);
  const definitions = (await allRoleDefinitions(ctx.store, ctx.site.id)).filter((d) => !d.hidden);
  const groups = await allSiteGroups(ctx.store, ctx.site);
  const links = await ctx.store.sharingLinks.of(ctx.site.id, scopeKey(s.securable));
  const linkOf = (kind: number) => links.find((l) => l.kind === kind);
  const entity: Entity = {
    type: 'SP.ObjectSharingSettings',
    props: [
      ['AccessRequestMode', false], ['BlockPeoplePickerAndSharing', false],
      ['CanCurrentUserManageOrganizationReadWriteLink', canShare], ['CanCurrentUserManageOrganizationReadonlyLink', canShare],
      ['CanCurrentUserManageReadWriteLink', canShare], ['CanCurrentUserManageReadonlyLink', canShare],
      ['CanCurrentUserRetrieveOrganizationReadWriteLink', canShare && linkOf(3) !== undefined],
      ['CanCurrentUserRetrieveOrganizationReadonlyLink', canShare && linkOf(2) !== undefined],
      ['CanCurrentUserRetrieveReadWriteLink', canShare && linkOf(5) !== undefined], ['CanCurrentUserRetrieveReadonlyLink', canShare && linkOf(4) !== undefined],
      ['CanCurrentUserShareExternally', false], ['CanCurrentUserShareInternally', canShare], ['CanSendEmail', false], ['CanSendLink', canShare],
      ['CanShareFolder', canShare], ['DefaultShareLinkPermission', 1], ['DefaultShareLinkType', 2],
      ['GroupsList', collection('SP.KeyValue', groups.map((g) => keyValue(g.title, String(g.id))))],
      ['HasEditRole', definitions.some((d) => d.roleTypeKind === 6)], ['HasReadRole', definitions.some((d) => d.roleTypeKind === 2)],
      ['InheritingWebLink', unique ? null : absoluteUrl(ctx, (inheritedFrom?.web ?? ctx.web).serverRelativeUrl)],
      ['IsGuestUser', false], ['IsPictureLibrary', s.list.baseTemplate === 109], ['IsUserSiteAdmin', ctx.principal.role === 'owner'],
      ['ItemId', String(s.item.id)], ['ItemName', objectName(s)], ['ItemUrl', objectPath(s)], ['ListId', s.list.id],
      ['PermissionsOnlyMode', false], ['RequiredAnonymousLinkExpirationInDays', 0],
      ['Roles', collection('SP.KeyValue', definitions.map((d) => keyValue(d.name, `role:${d.id}`)))],
      ['ShareByEmailEnabled', false], ['ShowExternalSharingWarning', false],
      ['SimplifiedRoles', collection('SP.KeyValue', definitions.filter((d) => d.roleTypeKind === 2 || d.roleTypeKind === 3)
        .map((d) => keyValue(d.roleTypeKind === 2 ? 'View' : 'Edit', `role:${d.id}`)))],
      ['SupportsAclPropagation', s.item.place.folder], ['WebUrl', absoluteUrl(ctx, ctx.web.serverRelativeUrl)],
    ],
  };
  const info = async (): Promise<Entity> => ({
    type: 'SP.ObjectSharingInformation',
    props: [
      ['AnonymousEditLink', linkOf(5) ? linkUrl(ctx, s, linkOf(5)!.token) : ''], ['AnonymousViewLink', linkOf(4) ? linkUrl(ctx, s, linkOf(4)!.token) : ''],
      ['CanBeShared', canShare], ['CanBeUnshared', canShare && unique], ['CanManagePermissions', canShare], ['HasPendingAccessRequests', false],
      ['HasPermissionLevels', true], ['IsFolder', s.item.place.folder], ['IsSharedWithCurrentUser', false], ['IsSharedWithGuest', false],
      ['IsSharedWithMany', (await principalInfos(ctx, s.securable)).length > 1], ['IsSharedWithSecurityGroup', false], ['PendingAccessRequestsLink', ''],
      ['SharingLinks', collection('SP.SharingLinkInfo', await Promise.all(links.map((l) => linkInfo(ctx, s, l))))], ['TotalFileCount', 0],
    ],
  });
  const sharedWith = async (): Promise<Entity[]> => {
    const { assignments } = await assignmentsOf(ctx.store, ctx.site, s.securable);
    const ids = [...new Set(assignments.map((a) => a.principalId))].filter((id) => !groups.some((g) => g.id === id));
    const users = await Promise.all(ids.map((id) => siteUserById(ctx, id)));
    return users.map((u) => ({ type: 'SP.SharedWithUser', props: [['Email', u.email], ['Name', u.title]] }));
  };
  return projectedEntity(entity, {
    ObjectSharingInformation: {
      link: 'SP.ObjectSharingSettings/ObjectSharingInformation', load: info,
      nested: () => ({ SharedWithUsersCollection: { link: 'SP.ObjectSharingInformation/SharedWithUsersCollection', load: sharedWith } }),
    },
  }, 'SP.ObjectSharingSettings', ctx);
}

// ---- The methods an item gains ---------------------------------------------------------

function linkKindProp(props: Properties): number {
  const kind = props.linkKind;
  if (typeof kind !== 'number' || !Number.isInteger(kind)) throw errors.badArgument('linkKind must be a SharingLinkKind from 1 (Direct) to 5 (AnonymousEdit).');
  return kind;
}

/** The sharing methods of a list item; `of` finds the item (it must exist). */
export function sharingMethods<R extends Resource>(of: (r: R, ctx: ApiContext) => Promise<Shared>): Record<string, MethodDef<R>> {
  return {
    shareobject: {
      kind: 'action', permission: 'ManagePermissions', body: 'json',
      async invoke(r, _args, ctx) {
        const s = await of(r, ctx);
        const out = await shareFromBody(ctx, s.securable, readMethodBody(ctx));
        return sharingResult(ctx, objectName(s), objectPath(s), itemPermissionsPage(s), out);
      },
    },
    unshareobject: {
      kind: 'action', permission: 'ManagePermissions', body: 'none',
      async invoke(r, _args, ctx) {
        const s = await of(r, ctx);
        await ctx.services.sharing.unshare(ctx.site, s.securable);
        return sharingResult(ctx, objectName(s), objectPath(s), itemPermissionsPage(s), { status: 0, uniquelyPermissioned: [], addedToGroup: [] });
      },
    },
    sharelink: {
      kind: 'action', permission: 'ManagePermissions', body: 'json',
      async invoke(r, _args, ctx) {
        const s = await of(r, ctx);
        const request = readMethodBody(ctx).request as Properties | null | undefined;
        const settings = request && typeof request === 'object' ? request.settings as Properties | null | undefined : undefined;
        if (!settings || typeof settings !== 'object') throw errors.badArgument('request must be {createLink, settings:{linkKind, expiration}}.');
        const expiration = settings.expiration;
        if (expiration !== undefined && expiration !== null && (typeof expiration !== 'string' || Number.isNaN(Date.parse(expiration)))) throw errors.badArgument('expiration must be an ISO 8601 date and time, or null.');
        const iso = typeof expiration === 'string' && expiration ? new Date(expiration).toISOString().replace(/\.\d{3}Z$/, 'Z') : null;
        const link = await ctx.services.sharing.link(ctx.site, s.securable, linkKindProp(settings), iso);
        return ok({ kind: 'primitive', methodName: 'ShareLink', edmType: 'SP.ShareLinkResponse',
          value: complex('SP.ShareLinkResponse', [['sharingLinkInfo', await linkInfo(ctx, s, link)]]) });
      },
    },
    deletelinkbykind: {
      kind: 'action', permission: 'ManagePermissions', body: 'json',
      async invoke(r, _args, ctx) {
        const s = await of(r, ctx);
        await ctx.services.sharing.removeLinks(ctx.site, s.securable, linkKindProp(readMethodBody(ctx)));
        return voidResult('DeleteLinkByKind');
      },
    },
    unsharelink: {
      kind: 'action', permission: 'ManagePermissions', body: 'json',
      async invoke(r, _args, ctx) {
        const s = await of(r, ctx);
        const body = readMethodBody(ctx);
        const shareId = body.shareId;
        if (shareId !== undefined && (typeof shareId !== 'string' || !/^\{?[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}\}?$/i.test(shareId))) throw errors.badArgument('shareId must be a GUID.');
        await ctx.services.sharing.removeLinks(ctx.site, s.securable, linkKindProp(body), typeof shareId === 'string' ? shareId.replace(/[{}]/g, '') : undefined);
        return voidResult('UnshareLink');
      },
    },
    checkpermissions: {
      kind: 'action', permission: 'ManagePermissions', body: 'json',
      async invoke(r, _args, ctx) { return checkPermissions(ctx, (await of(r, ctx)).securable); },
    },
    getsharinginformation: {
      kind: 'action', permission: 'ViewListItems', body: 'json',
      async invoke(r, _args, ctx) { return sharingInformation(ctx, await of(r, ctx)); },
    },
    getobjectsharingsettings: {
      kind: 'action', permission: 'ViewListItems', body: 'json',
      async invoke(r, _args, ctx) { return objectSharingSettings(ctx, await of(r, ctx)); },
    },
  };
}

/** An item of a list as a shared object. */
export async function sharedItem(list: List, id: number, ctx: ApiContext): Promise<Shared> {
  const item = await ctx.store.items.get(list, await ctx.store.fields.of(list), id);
  if (!item) throw errors.itemNotFound();
  return { securable: { kind: 'item', web: ctx.web, list, id }, list, item };
}

// ---- SP.Web.ShareObject and web/unshareObject: an object named by URL --------------------

/** A web (`…/_layouts/15/aclinv.aspx`, as PnPjs's web.shareWith names one, or the web's own URL) or a document of the site. */
async function objectAtUrl(ctx: ApiContext, url: unknown): Promise<{ securable: Securable; shared?: Shared; name: string; path: string }> {
  if (typeof url !== 'string' || !url.trim()) throw errors.badArgument('url must name a web of this site collection, or a file or folder in it.');
  let path: string;
  try { path = decodeURIComponent(new URL(url, ctx.apiUrl).pathname); } catch { throw errors.badArgument('url must name a web of this site collection, or a file or folder in it.'); }
  const page = /\/_layouts\/15\/[^/]*$/i.exec(path);
  if (page) path = path.slice(0, page.index) || '/';
  const found = await webAt(ctx.store, path, { deepest: true });
  if (!found || found.site.id !== ctx.site.id) throw errors.badArgument('url must name a web of this site collection, or a file or folder in it.');
  const webPath = `/${segments(found.web.serverRelativeUrl).join('/')}`.toLowerCase();
  if (page || `/${segments(path).join('/')}`.toLowerCase() === webPath) {
    return { securable: { kind: 'web', web: found.web }, name: found.web.title, path: found.web.serverRelativeUrl };
  }
  const doc = await documentAt(ctx.store, found.web, path);
  if (!doc?.item) throw errors.badArgument('url must name a web of this site collection, or a file or folder in it.');
  const shared: Shared = { securable: { kind: 'item', web: found.web, list: doc.list, id: doc.item.id }, list: doc.list, item: doc.item };
  return { securable: shared.securable, shared, name: objectName(shared), path: objectPath(shared) };
}

/** Sharing changes permissions: the caller needs ManagePermissions on the object the URL names. */
async function requireManage(ctx: ApiContext, securable: Securable): Promise<void> {
  if (!grants(await effectivePermissions(ctx.store, ctx.site, ctx.principal, securable), 'ManagePermissions')) throw fail.accessDenied();
}

const permissionsPageOf = (o: { shared?: Shared | undefined }) => (o.shared ? itemPermissionsPage(o.shared) : '/_layouts/15/user.aspx');

/** `_api/SP.Web.ShareObject` (POST `{url, peoplePickerInput, roleValue, …}`). */
export const webShareObject: MethodDef<Resource> = {
  kind: 'action', permission: 'Open', body: 'json',
  async invoke(_r, _args, ctx) {
    const body = readMethodBody(ctx);
    const o = await objectAtUrl(ctx, body.url);
    await requireManage(ctx, o.securable);
    const out = await shareFromBody(ctx, o.securable, body);
    return sharingResult(ctx, o.name, o.path, permissionsPageOf(o), out);
  },
};

/** `_api/web/unshareObject` (POST `{url}`). */
export const webUnshareObject: MethodDef<Resource> = {
  kind: 'action', permission: 'Open', body: 'json',
  async invoke(_r, _args, ctx) {
    const o = await objectAtUrl(ctx, readMethodBody(ctx).url);
    await requireManage(ctx, o.securable);
    await ctx.services.sharing.unshare(ctx.site, o.securable);
    return sharingResult(ctx, o.name, o.path, permissionsPageOf(o), { status: 0, uniquelyPermissioned: [], addedToGroup: [] });
  },
};
