// Failures the domain, the services and the store report, in no protocol's terms: a kind
// (what went wrong, as any protocol would classify it), a stable reason (which rule failed)
// and its arguments. Each front maps them to its own error shape: SharePoint REST through its
// catalogue (src/wire/errors.ts, one entry per reason, with SharePoint's code and exact text),
// ProjectData by kind. The message here is for logs and fronts without a catalogue entry.

export type FailureKind =
  | 'invalid' // the request's input is wrong (400)
  | 'notFound'
  | 'conflict'
  | 'preconditionFailed'
  | 'unauthenticated' // no credentials, or not accepted
  | 'forbidden'
  | 'limitExceeded'
  | 'unavailable'; // a dependency (the database) is away: try again later

export class DomainError extends Error {
  constructor(
    readonly kind: FailureKind,
    /** The rule that failed: the name of its entry in `fail` (and in each front's catalogue). */
    readonly reason: string,
    message: string,
    /** The arguments the failure was raised with, for the front's message. */
    readonly args: readonly unknown[] = [],
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

const failure = <A extends unknown[]>(kind: FailureKind, reason: string, message: (...args: A) => string) =>
  (...args: A) => new DomainError(kind, reason, message(...args), args);

export const fail = {
  badArgument: failure('invalid', 'badArgument', (message: string) => message),
  invalidExpression: failure('invalid', 'invalidExpression', (expression: string) => `The expression "${expression}" is not valid.`),
  unknownColumn: failure('invalid', 'unknownColumn', (name: string) => `Column '${name}' does not exist. It may have been deleted by another user.`),
  expandRequired: failure('invalid', 'expandRequired', (token: string, field: string) =>
    `The query to field '${token}' is not valid. The $select query string must specify the target fields and the $expand query string must contains ${field}.`),
  /** No credentials, or credentials that are not accepted; `challenges` are the WWW-Authenticate values to offer. */
  /** `notice`: a sentence added to the message where spemu refuses a kind of credentials SharePoint takes (NTLM). */
  unauthorized: failure('unauthenticated', 'unauthorized', (_challenges: string[], _diagnostics?: string, notice?: string) =>
    `Access denied. You do not have permission to perform this action or access this resource.${notice ? ` ${notice}` : ''}`),
  accessDenied: failure('forbidden', 'accessDenied', () => 'Access denied. You do not have permission to perform this action or access this resource.'),
  digestInvalid: failure('forbidden', 'digestInvalid', () => 'The security validation for this page is invalid.'),
  digestExpired: failure('forbidden', 'digestExpired', () => 'The security validation for this page has timed out.'),
  /** A write whose If-Match names another version than the current one. */
  etagMismatch: failure('preconditionFailed', 'etagMismatch', (sent: string, current: string) =>
    `The request ETag value '${sent}' does not match the object's ETag value '${current}'.`),
  listAlreadyExists: failure('conflict', 'listAlreadyExists', () => 'A list with the specified title already exists in this web.'),
  listNotFoundById: failure('notFound', 'listNotFoundById', () => 'List does not exist.'),
  itemNotFound: failure('notFound', 'itemNotFound', () => 'Item does not exist. It may have been deleted by another user.'),
  fieldNotFound: failure('notFound', 'fieldNotFound', (name: string) => `Field '${name}' does not exist.`),
  /** A field whose id is taken already (createfieldasxml with the `ID` of a field the list or site has). */
  fieldAlreadyExists: failure('conflict', 'fieldAlreadyExists', (name: string) => `A duplicate field name "${name}" was found.`),
  versionNotFound: failure('notFound', 'versionNotFound', () => 'Version does not exist.'),
  currentVersionDelete: failure('invalid', 'currentVersionDelete', () => 'The current version of an item cannot be deleted. Delete the item instead.'),
  /** A calculated column's formula SharePoint refuses (syntax, unknown or unsupported column, TODAY/ME). */
  invalidFormula: failure('invalid', 'invalidFormula', (message: string) => message),
  /** A value a field refuses (required, range, length, choice). */
  validationFailed: failure('invalid', 'validationFailed', (detail: string) => detail),
  /** A request body larger than the server accepts (`--body-limit`). */
  bodyTooLarge: failure('limitExceeded', 'bodyTooLarge', (limit: number) => `The request body is larger than the limit of ${limit} bytes.`),
  /** A file or folder name SharePoint refuses (characters, reserved names, dots and spaces, length). */
  invalidFileName: failure('invalid', 'invalidFileName', (_name: string, problem: string) => problem),
  /** A file or folder of that name is already in the folder (and no overwrite was asked). */
  /** `webRelativePath`: the place relative to its web, as SharePoint names it in the message (`Shared Documents/a.txt`). */
  recycleBinItemNotFound: failure('notFound', 'recycleBinItemNotFound', () => 'Value does not fall within the expected range.'),
  /** A recycle bin entry moved to the second stage that is not in the first. */
  recycleBinItemNotFirstStage: failure('invalid', 'recycleBinItemNotFirstStage', () => 'Operation is not valid due to the current state of the object.'),
  /** A recycle bin entry restored where something of its name now is. */
  restoreNameTaken: failure('conflict', 'restoreNameTaken', (webRelativePath: string) => `${webRelativePath} already exists.`),
  fileExists: failure('conflict', 'fileExists', (webRelativePath: string) => `A file with the name ${webRelativePath} already exists.`),
  /** A file addressed by its path that is not there (the path as the request gave it). */
  fileNotFound: failure('notFound', 'fileNotFound', (path: string) => `The file ${path} does not exist.`),
  /** A file addressed by id, or by name in a folder's Files, that is not there. */
  /** A server-relative URL that is not below the web the request addresses. */
  outsideWeb: failure('invalid', 'outsideWeb', () => 'Server relative urls must start with SPWeb.ServerRelativeUrl'),
  fileNotFoundById: failure('notFound', 'fileNotFoundById', () => 'File Not Found.'),
  folderNotFound: failure('notFound', 'folderNotFound', (_serverRelativeUrl: string) => 'File Not Found.'),
  /** A chunk whose fileOffset is not where the upload stands. */
  uploadOffsetMismatch: failure('invalid', 'uploadOffsetMismatch', (sent: number, expected: number) =>
    `The file offset ${sent} does not match the upload's current offset ${expected}.`),
  uploadNotFound: failure('notFound', 'uploadNotFound', (_id: string) => 'The upload session was not found.'),
  /** A file checked out to someone else: only its holder may change it (or check it in). */
  fileCheckedOut: failure('conflict', 'fileCheckedOut', (serverRelativeUrl: string, _holderLogin: string) =>
    `The file ${serverRelativeUrl} is checked out for editing by another user.`),
  /** An attachment added to an item that has one of that name. */
  attachmentExists: failure('conflict', 'attachmentExists', (name: string) => `An attachment named ${name} already exists.`),
  /** Attachments on a list that has none (a library). */
  attachmentsNotEnabled: failure('invalid', 'attachmentsNotEnabled', () => 'Attachments are not enabled for this list.'),
  /** DeleteIfEmpty of a folder that holds something. */
  folderNotEmpty: failure('conflict', 'folderNotEmpty', (serverRelativeUrl: string) => `The folder ${serverRelativeUrl} is not empty.`),
  /** A folder moved or copied into itself or below itself. */
  moveIntoItself: failure('invalid', 'moveIntoItself', (path: string) => `The folder ${path} cannot be moved or copied into itself.`),
  /** A move or copy whose destination is in another site collection. */
  crossSiteTransfer: failure('invalid', 'crossSiteTransfer', () => 'Moving or copying to another site collection is not supported.'),
  /** A file or folder whose server-relative URL, decoded, would be longer than SharePoint Online allows (400). */
  pathTooLong: failure('invalid', 'pathTooLong', (serverRelativeUrl: string, limit: number) =>
    `The path ${serverRelativeUrl} is longer than ${limit} characters.`),
  /** Publish or UnPublish in a library that keeps major versions only. */
  publishNeedsMinorVersions: failure('invalid', 'publishNeedsMinorVersions', () => 'Publishing needs a library with minor versions.'),
  /** EnableModeration on a list that is no library: spemu approves files, not list items. */
  moderationOfListItems: failure('invalid', 'moderationOfListItems', () => 'Content approval of list items is not supported.'),
  /** Publish of a file whose current version is a major one already. */
  alreadyPublished: failure('invalid', 'alreadyPublished', (serverRelativeUrl: string) => `The file ${serverRelativeUrl} is already published.`),
  /** UnPublish of a file whose current version is a draft (or that was never published). */
  notPublished: failure('invalid', 'notPublished', (serverRelativeUrl: string) => `The file ${serverRelativeUrl} has no published version to unpublish.`),
  /** A version change that lost a race: the file's version moved meanwhile. */
  fileChangedMeanwhile: failure('conflict', 'fileChangedMeanwhile', (serverRelativeUrl: string) => `The file ${serverRelativeUrl} was changed meanwhile.`),
  /** EnableMinorVersions on a list that is no library. */
  minorVersionsNotSupported: failure('invalid', 'minorVersionsNotSupported', () => 'The list does not support minor versioning.'),
  /** Approve or Deny in a library without content approval. */
  approvalNotEnabled: failure('invalid', 'approvalNotEnabled', () => 'Content approval is not enabled for this list.'),
  /** Check-in or undo of a file nobody holds. */
  fileNotCheckedOut: failure('invalid', 'fileNotCheckedOut', (serverRelativeUrl: string) => `The file ${serverRelativeUrl} is not checked out.`),
  contentTypeNotFound: failure('notFound', 'contentTypeNotFound', () => 'The content type does not exist.'),
  contentTypeExists: failure('conflict', 'contentTypeExists', (name: string) => `A duplicate content type "${name}" was found.`),
  contentTypeReadOnly: failure('invalid', 'contentTypeReadOnly', (name: string) => `The content type "${name}" is read only.`),
  contentTypeInUse: failure('conflict', 'contentTypeInUse', (name: string) => `The content type "${name}" is in use.`),
  navigationNodeNotFound: failure('notFound', 'navigationNodeNotFound', () => 'The navigation node does not exist.'),
  featureNotInstalled: failure('invalid', 'featureNotInstalled', (id: string) => `Feature with Id '${id}' is not installed in this farm, and cannot be added to this scope.`),
  featureActive: failure('conflict', 'featureActive', (name: string, id: string, where: string) => `Feature '${name}' (ID: ${id}) is already activated at scope '${where}'.`),
  featureNotActive: failure('invalid', 'featureNotActive', (id: string) => `Feature with Id '${id}' is not activated at this scope.`),
  customActionNotFound: failure('notFound', 'customActionNotFound', () => 'The user custom action does not exist.'),
  /** RegisterHubSite on a site collection that is a hub already. */
  hubSiteAlready: failure('conflict', 'hubSiteAlready', () => 'This site is already a HubSite.'),
  /** A hub id no hub has (HubSites/GetById), or UnRegisterHubSite where the site is none. */
  hubSiteNotFound: failure('notFound', 'hubSiteNotFound', () => 'File Not Found.'),
  /** JoinHubSite called by a site collection that is a hub itself (spemu's text; SharePoint's is not documented). */
  hubSiteCannotJoin: failure('conflict', 'hubSiteCannotJoin', () => 'A hub site cannot join a hub site.'),
  /** A site script's JSON SharePoint would not store (no actions, a verb it does not know). */
  siteScriptInvalid: failure('invalid', 'siteScriptInvalid', () => 'Specified argument was out of the range of valid values.'),
  siteScriptNotFound: failure('notFound', 'siteScriptNotFound', () => 'File Not Found.'),
  /** A site design id that names none (or one the caller may not see), a run that is not there. */
  siteDesignNotFound: failure('notFound', 'siteDesignNotFound', () => 'File Not Found.'),
  /** GrantSiteDesignRights naming no user or group of the directory (spemu's text). */
  siteDesignPrincipalNotFound: failure('invalid', 'siteDesignPrincipalNotFound', (name: string) => `The user or group '${name}' was not found.`),
  userNotFound: failure('notFound', 'userNotFound', () => 'User cannot be found.'),
  groupNotFound: failure('notFound', 'groupNotFound', () => 'Group cannot be found.'),
  groupNameTaken: failure('conflict', 'groupNameTaken', (_name: string) => 'The specified name is already in use.'),
  /** The default groups stand for the site's roles. */
  defaultGroup: failure('invalid', 'defaultGroup', (name: string) => `The group "${name}" is one of the site's default groups.`),
  roleDefinitionNotFound: failure('notFound', 'roleDefinitionNotFound', () => 'Cannot find the specified role definition.'),
  roleDefinitionNameTaken: failure('conflict', 'roleDefinitionNameTaken', (name: string) => `The permission level "${name}" already exists.`),
  builtInRoleDefinition: failure('invalid', 'builtInRoleDefinition', (name: string) => `The permission level "${name}" is built in.`),
  inheritedRoleDefinitions: failure('invalid', 'inheritedRoleDefinitions', () => 'You cannot customize permission levels in a web site with inherited permission levels.'),
  principalNotFound: failure('notFound', 'principalNotFound', (id: number) => `Principal ${id} does not exist.`),
  inheritsPermissions: failure('invalid', 'inheritsPermissions', () => 'This operation is not allowed on an object that inherits permissions.'),
  viewNotFound: failure('notFound', 'viewNotFound', () => 'The specified view is invalid.'),
  /** A change token that does not parse, or names another object than the one asked (change-tokens.ts). */
  invalidChangeToken: failure('invalid', 'invalidChangeToken', () => 'Value does not fall within the expected range.'),
  /** A change token older than the change log keeps (retention: SharePoint keeps 60 days). */
  changeTokenTooOld: failure('invalid', 'changeTokenTooOld', () => 'The changeToken refers to a time before the start of the current change log.'),
  /** A new web at a URL a web (or a list of the parent web) already has. */
  webUrlInUse: failure('conflict', 'webUrlInUse', (serverRelativeUrl: string) => `The Web site address "${serverRelativeUrl}" is already in use.`),
  /** A web deleted while it still has subwebs. */
  webHasSubwebs: failure('conflict', 'webHasSubwebs', (serverRelativeUrl: string) =>
    `Error deleting Web site "${serverRelativeUrl}". You can't delete a site that has subsites.`),
  /** The root web goes only with its site collection. */
  rootWebDelete: failure('invalid', 'rootWebDelete', () => 'The root web of a site collection cannot be deleted.'),
  /** A web template (or a template's option) spemu does not provision. */
  webTemplateNotSupported: failure('invalid', 'webTemplateNotSupported', (what: string) => `${what} is not supported by spemu.`),
  /** A webhook subscription the list does not have. */
  subscriptionNotFound: failure('notFound', 'subscriptionNotFound', () => 'The subscription does not exist.'),
  commentNotFound: failure('notFound', 'commentNotFound', () => 'The comment does not exist.'),
  commentsDisabled: failure('invalid', 'commentsDisabled', () => 'Comments are disabled for this list.'),
  /** An expirationDateTime missing, unreadable, past, or more than 180 days ahead. */
  invalidSubscriptionExpiration: failure('invalid', 'invalidSubscriptionExpiration', () =>
    'The expiration date is invalid. It must be in the future and at most 180 days from now.'),
  /** A notification URL refused, unreachable, or whose receiver did not echo the validation token (`reason`: for logs only). */
  notificationUrlValidationFailed: failure('invalid', 'notificationUrlValidationFailed', (url: string, _reason: string) =>
    `Failed to validate the notification URL '${url}'.`),
  serviceUnavailable: failure('unavailable', 'serviceUnavailable', (_retryAfterSeconds: number) => 'The server is busy. Try again later.'),
} as const;
