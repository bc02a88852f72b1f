// The resource model as data. A request path is walked segment by segment: each resource
// type says which navigation properties, keys and methods it has, and which HTTP verbs it
// answers. Adding an endpoint means adding an entry here, not a route.

import type { View } from '../../../domain/views.ts';
import type { Securable } from '../../../identity/effective-permissions.ts';
import type { FeatureHolder } from '../../../store/features.ts';
import type { CustomActionHolder, StoredCustomAction } from '../../../store/custom-actions.ts';
import type { NavigationMenu, NavigationNode } from '../../../domain/navigation.ts';
import type { ContentType } from '../../../domain/content-types.ts';
import type { Field, Item, List, SiteColumn, Web } from '../../../domain/model.ts';
import type { Argument } from '../../../odata/path.ts';
import type { ApiContext } from './context.ts';
import type { Outcome } from './outcome.ts';
import type { ListForm } from './types/list-forms.ts';
import type { SiteUserRecord } from './principal-entities.ts';
import type { SiteGroupDef } from '../../../identity/site-groups.ts';
import type { PermissionKind, RoleDefinition } from '../../../domain/permissions.ts';
import type { Subscription } from '../../../store/subscriptions.ts';
import type { HubSiteRow } from '../../../store/hub-sites.ts';
import type { FormsFile } from '../../../store/forms-files.ts';

export type Resource =
  | { kind: 'site' }
  | { kind: 'web'; web: Web }
  | { kind: 'lists'; web: Web }
  | { kind: 'list'; list: List }
  | { kind: 'fields'; list: List }
  | { kind: 'field'; list: List; field: Field }
  /** A web's site columns: its own (`fields`), or every one it may use (`availablefields`: its parents' too). */
  | { kind: 'webFields'; web: Web; available: boolean }
  | { kind: 'webField'; web: Web; column: SiteColumn }
  | { kind: 'items'; list: List }
  | { kind: 'item'; list: List; id: number }
  | { kind: 'itemFieldValues'; list: List; id: number; as: 'text' | 'html' | 'edit' }
  | { kind: 'peopleManager' }
  | { kind: 'contextInfo' }
  | { kind: 'siteUsers'; group?: SiteGroupDef | undefined }
  | { kind: 'siteUser'; user: SiteUserRecord }
  | { kind: 'siteGroups'; memberOf?: SiteUserRecord | undefined }
  | { kind: 'siteGroup'; group: SiteGroupDef }
  | { kind: 'itemVersions'; list: List; id: number }
  | { kind: 'itemVersion'; list: List; id: number; versionId: number }
  /** EffectiveBasePermissions(ForUI) of a web, list or item: the caller's permission level. */
  | { kind: 'basePermissions'; name: string; securable?: Securable | undefined }
  /** The role assignments of a securable object (`base`: its edit link): its own, or those of the nearest object above it with unique permissions. */
  | { kind: 'roleAssignments'; base: string; securable: Securable }
  | { kind: 'roleAssignment'; base: string; securable: Securable; principalId: number }
  /** The web's role definitions, or a role assignment's bindings. */
  | { kind: 'roleDefinitions'; binding?: { base: string; securable: Securable; principalId: number } | undefined }
  | { kind: 'roleDefinition'; definition: RoleDefinition }
  | { kind: 'webs'; web: Web }
  | { kind: 'webInfos'; web: Web }
  | { kind: 'views'; list: List }
  | { kind: 'navigation'; web: Web }
  | { kind: 'navigationNodes'; web: Web; menu: NavigationMenu; parentId: number | null }
  | { kind: 'navigationNode'; web: Web; node: NavigationNode }
  | { kind: 'navigationService' }
  | { kind: 'features'; holder: FeatureHolder }
  | { kind: 'eventReceivers'; list: List }
  /** A list's display, edit and new forms (types/list-forms.ts). */
  | { kind: 'forms'; list: List }
  | { kind: 'form'; list: List; form: ListForm }
  /** SP.Web's and SP.Site's static methods (`_api/SP.Web.GetDocumentLibraries(@v)`). */
  | { kind: 'webStatics' }
  | { kind: 'userResource'; value: (ctx: ApiContext) => Promise<string> }
  | { kind: 'siteStatics' }
  /** SP.RelatedItemManager's static methods (types/related-items.ts). */
  | { kind: 'relatedItemManager' }
  | { kind: 'customActions'; holder: CustomActionHolder; link: string }
  | { kind: 'customAction'; holder: CustomActionHolder; link: string; action: StoredCustomAction }
  | { kind: 'contentTypes'; web: Web; list?: List | undefined }
  | { kind: 'contentType'; type: ContentType; web: Web; list?: List | undefined }
  | { kind: 'view'; list: List; view: View }
  | { kind: 'viewFields'; list: List; view: View }
  | { kind: 'propertyValues'; web: Web }
  | { kind: 'regionalSettings'; web: Web }
  | { kind: 'timeZone'; web: Web }
  | { kind: 'timeZones'; web: Web }
  /** A folder of a list's tree by its path inside the list ('' = the root folder). */
  | { kind: 'webFolder'; web: Web; path: string }
  | { kind: 'webFolders'; web: Web; path: string }
  /** A list's webhook subscriptions (types/subscriptions.ts). */
  | { kind: 'subscriptions'; list: List }
  | { kind: 'subscription'; list: List; subscription: Subscription }
  | { kind: 'attachments'; list: List; id: number }
  | { kind: 'attachment'; list: List; id: number; name: string }
  | { kind: 'attachmentContent'; list: List; id: number; name: string }
  /** `_api/HubSites`, a hub got by GetById, and `_api/siteiconmanager` (types/hub-sites.ts). */
  | { kind: 'hubSites' }
  | { kind: 'hubSite'; hub: HubSiteRow }
  | { kind: 'siteIconManager' }
  /** An item's comments, one of them (a reply too), a comment's replies, who likes a comment (types/comments.ts). */
  | { kind: 'comments'; list: List; id: number }
  | { kind: 'comment'; list: List; id: number; commentId: number }
  | { kind: 'commentReplies'; list: List; id: number; commentId: number }
  | { kind: 'commentLikes'; list: List; id: number; commentId: number }
  /** Who likes an item itself (Reputation.SetLike), `items(n)/likedBy`. */
  | { kind: 'itemLikes'; list: List; id: number }
  /** Microsoft.Office.Server.ReputationModel.Reputation's static methods (SetRating). */
  | { kind: 'reputation' }
  | { kind: 'sitePages'; web: Web }
  | { kind: 'sitePagesPages'; web: Web; list?: List | undefined }
  | { kind: 'sitePage'; web: Web; list: List; id: number }
  | { kind: 'itemLikedByInformation'; list: List; id: number }
  | { kind: 'itemCommentsSetting'; list: List; id: number; disabled: boolean }
  /** SP.MoveCopyUtil's static methods. */
  | { kind: 'moveCopyUtil' }
  /** SiteScriptUtility's static methods: the tenant's site scripts (types/site-scripts.ts). */
  | { kind: 'siteScriptUtility' }
  /** An entity reached by navigation that is only read (a folder's Properties, StorageMetrics). */
  | { kind: 'readOnly'; read: (ctx: ApiContext) => Promise<Outcome> }
  | { kind: 'folder'; list: List; path: string }
  /** A folder addressed by URL that is not there, and its Files: 404 when read, DirectoryNotFound when a file is added. */
  | { kind: 'missingFolder'; url: string }
  | { kind: 'missingFolderFiles'; url: string }
  | { kind: 'files'; list: List; dir: string }
  | { kind: 'folders'; list: List; dir: string }
  | { kind: 'file'; list: List; item: Item }
  /** A file's limited web part manager and its web parts (types/web-parts.ts): scope 0 User, 1 Shared. */
  | { kind: 'webPartManager'; list: List; item: Item; scope: 0 | 1 }
  | { kind: 'webPartDefinitions'; list: List; item: Item; scope: 0 | 1 }
  /** A file's `$value`: its bytes. */
  | { kind: 'fileContent'; list: List; item: Item }
  /** GetByPathOrAddStub of a file not there yet: its StartUpload makes it. */
  | { kind: 'fileStub'; list: List; path: string }
  /** A file's past versions (SP.FileVersion): the item's kept versions that had content. */
  | { kind: 'fileVersions'; list: List; item: Item }
  | { kind: 'fileVersion'; list: List; item: Item; version: Item }
  /** A past version's `$value` (the version as its item): read only. */
  | { kind: 'fileVersionContent'; list: List; item: Item }
  /** A library's Forms folder and the files in it that are no items (types/forms-folder.ts). */
  | { kind: 'formsFolder'; list: List }
  | { kind: 'formsFiles'; list: List }
  | { kind: 'formsFile'; list: List; file: FormsFile }
  | { kind: 'formsFileContent'; list: List; file: FormsFile };

export type ResourceOf<K extends Resource['kind']> = Extract<Resource, { kind: K }>;

/**
 * How a handler takes the request body, read by the pipeline once the path is resolved:
 * `json` parsed (`ctx.body`, `ctx.verboseBody`), `raw` the bytes as sent (`ctx.rawBody`: no
 * parse, no content-type check), `stream` the body as a Readable (`ctx.bodyStream`: the
 * request itself as it arrives, never held whole — for uploads), `none` ignored (never read).
 */
export type BodyKind = 'none' | 'json' | 'raw' | 'stream';

/** The handlers of a resource type that answer an HTTP verb. */
export type VerbHandlerName = 'get' | 'create' | 'update' | 'delete';

/**
 * Authorization is data: every method and every verb handler names the SharePoint base
 * permission (SP.PermissionKind) it needs, and the resolver checks it against the caller's
 * permission level before anything runs (identity/permissions.ts). No handler checks roles.
 */
export type MethodDef<R extends Resource> = FunctionDef<R> | ActionDef<R>;

interface MethodBase<R extends Resource> {
  invoke(resource: R, args: Argument[], ctx: ApiContext): Promise<Resource | Outcome>;
}

/** Can be read with GET and navigated through. */
interface FunctionDef<R extends Resource> extends MethodBase<R> {
  kind: 'function';
  /** What calling it needs, whatever the verb (default `Open`: anyone with access to the site). */
  permission?: PermissionKind;
  body?: undefined;
}

/** Needs POST and ends the path. */
interface ActionDef<R extends Resource> extends MethodBase<R> {
  kind: 'action';
  /** What calling it needs: every action says (a write says which write). */
  permission: PermissionKind;
  /**
   * The body an action takes (default `json`). Functions take none: they address, and run
   * while the path is resolved, before the body is read.
   */
  body?: BodyKind;
}

export interface ResourceType<R extends Resource> {
  /**
   * What each write verb needs (a type with `create`, `update` or `delete` declares it for
   * each: a missing one is refused, never allowed). GET needs `Open` unless said otherwise.
   */
  permissions?: Partial<Record<VerbHandlerName, PermissionKind>>;
  navigation?: Record<string, (resource: R, ctx: ApiContext) => Promise<Resource>>;
  /** `items(5)`, `lists(guid'…')`: addressing an element of a collection. */
  key?: (resource: R, args: Argument[], ctx: ApiContext) => Promise<Resource>;
  /** Method names in lower case. */
  methods?: Record<string, MethodDef<R>>;
  get?: (resource: R, ctx: ApiContext) => Promise<Outcome>;
  /** POST to a collection: create. */
  create?: (resource: R, ctx: ApiContext) => Promise<Outcome>;
  /** MERGE / PATCH / PUT; the If-Match is in `ctx.conditions`. */
  update?: (resource: R, ctx: ApiContext) => Promise<Outcome>;
  delete?: (resource: R, ctx: ApiContext) => Promise<Outcome>;
  /** The body each verb handler takes: default `json` for create and update, `none` for get and delete. */
  bodies?: Partial<Record<VerbHandlerName, BodyKind>>;
}

export type ResourceTypes = { [K in Resource['kind']]: ResourceType<ResourceOf<K>> };
