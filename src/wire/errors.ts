// One error type for everything a client can be told. Each factory is a row of the
// wire reference's error catalogue (§7.2): HTTP status, SharePoint's "<hresult>, <type>"
// code and its exact message. Serializers turn an SpError into the dialect's envelope.

import { DomainError } from '../domain/errors.ts';

export class SpError extends Error {
  readonly status: number;
  /** `"<hresult>, <exception type>"`, exactly as SharePoint writes it. */
  readonly code: string;
  /** Extra response headers (Retry-After, WWW-Authenticate, …); an array sends the header once per value. */
  readonly headers: Record<string, string | string[]>;

  constructor(status: number, code: string, message: string, headers: Record<string, string | string[]> = {}) {
    super(message);
    this.name = 'SpError';
    this.status = status;
    this.code = code;
    this.headers = headers;
  }
}

const SP_EXCEPTION = 'Microsoft.SharePoint.SPException';
const CLIENT_QUERY = 'Microsoft.SharePoint.Client.InvalidClientQueryException';
const CLIENT_SERVICE = 'Microsoft.SharePoint.Client.ClientServiceException';
const RESOURCE_NOT_FOUND = 'Microsoft.SharePoint.Client.ResourceNotFoundException';

export const errors = {
  /** A `$filter`/`$select`/`$expand`/`$orderby` or path that does not parse. */
  invalidExpression: (expression: string) =>
    new SpError(400, `-1, ${CLIENT_QUERY}`, `The expression "${expression}" is not valid.`),

  /** A path segment, navigation property or method that the resource does not have. */
  resourceNotFound: () =>
    new SpError(404, `-1, ${RESOURCE_NOT_FOUND}`,
      `Exception of type '${RESOURCE_NOT_FOUND}' was thrown.`),

  /** A segment spemu recognises as SharePoint's but has not implemented (yet). */
  notImplemented: (what: string) =>
    new SpError(501, '-1, System.NotImplementedException',
      `The operation '${what}' is not implemented by spemu.`),

  methodNotAllowed: (method: string) =>
    new SpError(405, `-1, ${CLIENT_SERVICE}`, `The HTTP method '${method}' cannot be used on this resource.`),

  siteNotFound: (url: string) =>
    new SpError(404, '-2147024894, System.IO.FileNotFoundException', `File Not Found. No site exists at '${url}'.`),

  listNotFoundByTitle: (title: string, siteUrl: string) =>
    new SpError(404, '-1, System.ArgumentException', `List '${title}' does not exist at site with URL '${siteUrl}'.`),

  listNotFoundById: () =>
    new SpError(404, `-2130575322, ${SP_EXCEPTION}`,
      'List does not exist.\n\nThe page you selected contains a list that does not exist. It may have been deleted by another user.'),

  listNotFoundByUrl: () =>
    new SpError(404, `-1, ${RESOURCE_NOT_FOUND}`,
      'List does not exist. The page you selected contains a list that does not exist. It may have been deleted by another user.'),

  /** SharePoint's text, two spaces and all; the title is not named in it. */
  listAlreadyExists: () =>
    new SpError(500, `-2130575342, ${SP_EXCEPTION}`,
      'A list, survey, discussion board, or document library with the specified title already exists in this Web site.  Please choose another title.'),

  /** (inference, docs/compatibility.md) SharePoint Online's text for a name with a character it refuses. */
  invalidFileName: (_name: string, _problem: string) =>
    new SpError(400, `-2130575245, ${SP_EXCEPTION}`, 'The file or folder name contains characters that are not permitted. Please use a different name.'),
  /** Adding a file over an existing one without overwrite: code and text CONFIRMED (CLI mocks), status 400 INFERRED; SharePoint adds "It was last modified by … on …". */
  fileExists: (webRelativePath: string) =>
    new SpError(400, `-2130575257, ${SP_EXCEPTION}`, `A file with the name ${webRelativePath} already exists.`),
  /**
   * (inference, docs/compatibility.md) A recycle bin entry restored where a file, folder or list
   * of its name now is: SharePoint refuses and asks for the other to be renamed.
   */
  restoreNameTaken: (_webRelativePath: string) =>
    new SpError(400, `-2130575257, ${SP_EXCEPTION}`, 'A file with this name already exists. To restore the file, rename the existing file and try again.'),
  /**
   * (inference, docs/compatibility.md) A recycle bin entry that is not there (or not in the caller's
   * view of the bin): SharePoint's GetById text (pnp/powershell#2410); status 404 as for a missing item.
   */
  recycleBinItemNotFound: () =>
    new SpError(404, '-2147024809, System.ArgumentException', 'Value does not fall within the expected range.'),
  /** (inference, docs/compatibility.md) MoveToSecondStage of an entry already there: .NET's InvalidOperationException text. */
  recycleBinItemNotFirstStage: () =>
    new SpError(400, '-2146233079, System.InvalidOperationException', 'Operation is not valid due to the current state of the object.'),
  /** (inference, docs/compatibility.md) A malformed GUID where one is expected (a recycle bin entry's id). */
  invalidGuid: () =>
    new SpError(400, `-1, ${CLIENT_QUERY}`, "Cannot convert a primitive value to the expected type 'Edm.Guid'. See the inner exception for more details."),
  /** (inference, docs/compatibility.md) ContinueUpload/FinishUpload at another offset than the upload's. */
  uploadOffsetMismatch: (sent: number, expected: number) =>
    new SpError(400, `-2130575339, ${SP_EXCEPTION}`, `The file offset ${sent} does not match the upload's current offset ${expected}.`),
  /** (inference, docs/compatibility.md) An uploadId with no upload in progress. */
  uploadNotFound: (_id: string) =>
    new SpError(404, '-2147024894, System.IO.FileNotFoundException', 'The upload session was not found.'),
  /** Code and text CONFIRMED (CLI mocks; SharePoint names the file by its absolute URL, spemu by its server-relative one), status 423 INFERRED. */
  fileCheckedOut: (fileUrl: string, holderLogin: string) =>
    new SpError(423, '-2130575306, Microsoft.SharePoint.SPFileCheckOutException', `The file "${fileUrl}" is checked out for editing by ${holderLogin}`),
  /** (inference, docs/compatibility.md) */
  fileNotCheckedOut: (serverRelativeUrl: string) =>
    new SpError(400, `-2130575339, ${SP_EXCEPTION}`, `The file "${serverRelativeUrl.replace(/^\//, '')}" is not checked out.`),
  /** CONFIRMED (recorded SPO responses, pnp/pnpcore): a file addressed by path, even with `$select=Exists`. */
  fileNotFound: (path: string) =>
    new SpError(404, `-2130575338, ${SP_EXCEPTION}`, `The file ${path} does not exist.`),
  /** CONFIRMED (recorded SPO response, pnp/pnpcore ConvertFileAsyncExceptionTest). */
  outsideWeb: () =>
    new SpError(400, '-2147024809, System.ArgumentException', 'Server relative urls must start with SPWeb.ServerRelativeUrl'),
  /** (inference, docs/compatibility.md) An attachment whose name the item already has: SharePoint's SPException for a taken file name. */
  attachmentExists: (name: string) =>
    new SpError(400, `-2130575257, ${SP_EXCEPTION}`, `A file with the name ${name} already exists.`),
  /** (inference, docs/compatibility.md) */
  attachmentsNotEnabled: () =>
    new SpError(400, `-2147024809, System.ArgumentException`, 'Attachments are not enabled for this list.'),
  /** (inference, docs/compatibility.md) DeleteWithParameters with DeleteIfEmpty on a folder that holds something. */
  folderNotEmpty: (serverRelativeUrl: string) =>
    new SpError(400, `-2147024751, ${SP_EXCEPTION}`, `The folder "${serverRelativeUrl.replace(/^\//, '')}" is not empty.`),
  /** (inference, docs/compatibility.md) A folder moved or copied below itself. */
  moveIntoItself: (_path: string) =>
    new SpError(400, '-2147024809, System.ArgumentException', 'The destination folder is a subfolder of the source folder.'),
  /** (spemu's limit, docs/compatibility.md) SharePoint Online moves across site collections; spemu does not yet. */
  crossSiteTransfer: () =>
    new SpError(501, '-1, Microsoft.SharePoint.Client.NotSupportedException', 'Moving or copying to another site collection is not supported by spemu.'),
  /** (inference, docs/compatibility.md) */
  contentTypeNotFound: () =>
    new SpError(404, `-2146232832, ${SP_EXCEPTION}`, 'The content type does not exist.'),
  /** (inference, docs/compatibility.md) SharePoint's SPException text for a second type of one name or id. */
  contentTypeExists: (name: string) =>
    new SpError(500, `-2146232832, ${SP_EXCEPTION}`, `A duplicate content type "${name}" was found.`),
  /** (inference, docs/compatibility.md) */
  contentTypeReadOnly: (name: string) =>
    new SpError(400, `-2146232832, ${SP_EXCEPTION}`, `The content type "${name}" is read only.`),
  /** (inference, docs/compatibility.md) */
  contentTypeInUse: (name: string) =>
    new SpError(500, `-2146232832, ${SP_EXCEPTION}`, `The content type "${name}" is in use.`),
  /** (inference, docs/compatibility.md) SharePoint Server's texts for features. */
  featureNotInstalled: (id: string) =>
    new SpError(400, `-2146232832, ${SP_EXCEPTION}`, `Feature with Id '${id}' is not installed in this farm, and cannot be added to this scope.`),
  featureActive: (name: string, id: string, where: string) =>
    new SpError(400, `-2146232832, ${SP_EXCEPTION}`, `Feature '${name}' (ID: ${id}) is already activated at scope '${where}'.`),
  featureNotActive: (id: string) =>
    new SpError(400, `-2146232832, ${SP_EXCEPTION}`, `Feature with Id '${id}' is not activated at this scope.`),
  /** Text CONFIRMED (CLI for Microsoft 365's `spo hubsite register` docs); status and code INFERRED (docs/compatibility.md). */
  hubSiteAlready: () =>
    new SpError(400, `-2146232832, ${SP_EXCEPTION}`, 'This site is already a HubSite.'),
  /** SharePoint's "File Not Found." for a hub that is not there (Set-SPOHubSite's documented error); status INFERRED. */
  hubSiteNotFound: () =>
    new SpError(404, '-2147024894, System.IO.FileNotFoundException', 'File Not Found.'),
  /** (inference, docs/compatibility.md "Hub sites"; spemu's text) JoinHubSite from a site collection that is a hub. */
  hubSiteCannotJoin: () =>
    new SpError(400, `-2146232832, ${SP_EXCEPTION}`, 'A hub site cannot join a hub site.'),
  /** (inference, docs/compatibility.md) */
  roleDefinitionNameTaken: (name: string) =>
    new SpError(400, `-2146232832, ${SP_EXCEPTION}`, `The permission level "${name}" already exists.`),
  /** (spemu's limit, docs/compatibility.md) SharePoint lets an owner change some built-in levels; spemu keeps them as SharePoint ships them. */
  builtInRoleDefinition: (name: string) =>
    new SpError(400, `-2146232832, ${SP_EXCEPTION}`, `The permission level "${name}" is built in and cannot be changed or deleted.`),
  /** SharePoint's text (SP 2013+ object model); status INFERRED. */
  inheritedRoleDefinitions: () =>
    new SpError(400, `-2146232832, ${SP_EXCEPTION}`, 'You cannot customize permission levels in a web site with inherited permission levels.'),
  /** SharePoint's text; status and code INFERRED. */
  inheritsPermissions: () =>
    new SpError(400, `-2146232832, ${SP_EXCEPTION}`, 'This operation is not allowed on an object that inherits permissions.'),
  /** SharePoint's SPException text for a group name taken (INFERRED status and code). */
  groupNameTaken: (_name: string) =>
    new SpError(400, `-2130575293, ${SP_EXCEPTION}`, 'The specified name is already in use.\n\nPlease use a different name.'),
  /** (spemu's limit, docs/compatibility.md) */
  defaultGroup: (name: string) =>
    new SpError(501, '-1, Microsoft.SharePoint.Client.NotSupportedException', `The group "${name}" is one of the site's default groups, whose members are the site's role holders: spemu does not rename, re-own or delete it.`),
  /**
   * (inference, docs/compatibility.md "Site scripts") A site script with no actions or a verb
   * SharePoint does not know: .NET's ArgumentOutOfRangeException, as Add-SPOSiteScript reports
   * for such a script (sp-dev-docs #3087, #10215).
   */
  siteScriptInvalid: () =>
    new SpError(400, '-2146233086, System.ArgumentOutOfRangeException', 'Specified argument was out of the range of valid values.'),
  /** A site script id that names none: "File not found" (CLI for Microsoft 365's docs); code as every FileNotFoundException. */
  siteScriptNotFound: () =>
    new SpError(404, '-2147024894, System.IO.FileNotFoundException', 'File Not Found.'),
  /** A site design (or run) id that names none: as a site script's, "File not found" (CLI for Microsoft 365's docs). */
  siteDesignNotFound: () =>
    new SpError(404, '-2147024894, System.IO.FileNotFoundException', 'File Not Found.'),
  /** (inference, docs/compatibility.md "Site designs"; spemu's text) */
  siteDesignPrincipalNotFound: (name: string) =>
    new SpError(400, `-2146232832, ${SP_EXCEPTION}`, `The user or group '${name}' was not found.`),
  /** (inference, docs/compatibility.md "Site scripts") ODataLib's text for a null sent for a parameter that takes none. */
  nullParameter: (name: string, edmType: string) =>
    new SpError(400, `-1, ${CLIENT_QUERY}`,
      `A null value was found for the property named '${name}', which has the expected type '${edmType}[Nullable=False]'. The expected type '${edmType}[Nullable=False]' does not allow null values.`),
  /** (inference, docs/compatibility.md) */
  customActionNotFound: () =>
    new SpError(404, '-2147024809, System.ArgumentException', 'The user custom action does not exist.'),
  /** (inference, docs/compatibility.md) */
  navigationNodeNotFound: () =>
    new SpError(404, '-2147024809, System.ArgumentException', 'The navigation node does not exist.'),
  /** (inference, docs/compatibility.md) SharePoint's text for a view id or title the list does not have. */
  viewNotFound: () =>
    new SpError(404, `-2147024809, System.ArgumentException`, 'The specified view is invalid.'),
  /** (inference, docs/compatibility.md) SharePoint's SPException text for a taken web URL. */
  webUrlInUse: (serverRelativeUrl: string) =>
    new SpError(500, `-2147024713, ${SP_EXCEPTION}`, `The Web site address "${serverRelativeUrl}" is already in use.`),
  /** (inference, docs/compatibility.md) */
  webHasSubwebs: (serverRelativeUrl: string) =>
    new SpError(500, `-2146232832, ${SP_EXCEPTION}`, `Error deleting Web site "${serverRelativeUrl}". You can't delete a site that has subsites.`),
  /** (inference, docs/compatibility.md) */
  rootWebDelete: () =>
    new SpError(500, `-2146232832, ${SP_EXCEPTION}`, 'The root web of a site collection cannot be deleted. Delete the site collection instead.'),
  /** (spemu's limit, docs/compatibility.md) */
  webTemplateNotSupported: (what: string) =>
    new SpError(501, '-1, Microsoft.SharePoint.Client.NotSupportedException', `${what} is not supported by spemu.`),
  /**
   * (inference, docs/compatibility.md) SharePoint's PathTooLongException, its older text with SharePoint
   * Online's limits (400 for the path, 255 for a name); the HRESULT is .NET's for that exception.
   */
  pathTooLong: (_serverRelativeUrl: string, limit: number) =>
    new SpError(400, '-2147024690, System.IO.PathTooLongException',
      `The specified file or folder name is too long. The URL path for all files and folders must be ${limit} characters or less (and no more than 255 characters for any single file or folder name in the URL). Please type a shorter file or folder name.`),
  /** Text CONFIRMED (SharePoint's SPException, two spaces and all, as CSOM clients report it); status and HRESULT INFERRED. */
  publishNeedsMinorVersions: () =>
    new SpError(400, `-2146232832, ${SP_EXCEPTION}`, 'You can only publish, unpublish  documents in a minor version enabled list'),
  /** (inference, docs/compatibility.md) Publish of a file that is a major version already. */
  alreadyPublished: (serverRelativeUrl: string) =>
    new SpError(400, `-2146232832, ${SP_EXCEPTION}`, `The file "${serverRelativeUrl.replace(/^\//, '')}" is already published.`),
  /** (inference, docs/compatibility.md) UnPublish of a file whose current version is a draft. */
  notPublished: (serverRelativeUrl: string) =>
    new SpError(400, `-2146232832, ${SP_EXCEPTION}`, `The file "${serverRelativeUrl.replace(/^\//, '')}" has no published version to unpublish.`),
  /** (inference, docs/compatibility.md) SharePoint's version conflict, for a version change that lost a race; status INFERRED. */
  fileChangedMeanwhile: (_serverRelativeUrl: string) =>
    new SpError(409, `-2130575305, ${SP_EXCEPTION}`, 'Version conflict.'),
  /** Text CONFIRMED (SharePoint's answer to CSOM setting EnableMinorVersions on a list, PnP-PowerShell #81); status and HRESULT INFERRED. */
  minorVersionsNotSupported: () =>
    new SpError(400, `-2146232832, ${SP_EXCEPTION}`, 'The list does not support minor versioning.'),
  /** (spemu's limit, docs/compatibility.md) SharePoint has content approval of list items too; spemu only of files. */
  moderationOfListItems: () =>
    new SpError(501, '-1, Microsoft.SharePoint.Client.NotSupportedException', 'Content approval of list items is not supported by spemu.'),
  /** (inference, docs/compatibility.md) Approve or Deny where the list has no content approval. */
  approvalNotEnabled: () =>
    new SpError(400, `-2146232832, ${SP_EXCEPTION}`, 'Content approval is not enabled for this list.'),
  fileNotFoundById: () =>
    new SpError(404, '-2147024894, System.IO.FileNotFoundException', 'File Not Found.'),
  folderNotFound: (_serverRelativeUrl: string) =>
    new SpError(404, '-2147024894, System.IO.FileNotFoundException', 'File Not Found.'),
  /**
   * A file added to a folder that is not there. Code CONFIRMED (pnp/pnpjs#1013; spsave matches
   * `-2147024893` on a 404 to create the folders); the text is .NET's for the exception without
   * a path (INFERRED, docs/compatibility.md).
   */
  directoryNotFound: () =>
    new SpError(404, '-2147024893, System.IO.DirectoryNotFoundException', 'Attempted to access a path that is not on the disk.'),

  itemNotFound: () =>
    new SpError(404, '-2130575338, System.ArgumentException', 'Item does not exist. It may have been deleted by another user.'),

  /** A site user looked up by id, email or login name who is not in the site's User Information List. */
  userNotFound: () =>
    new SpError(404, `-2146232832, ${SP_EXCEPTION}`, 'User cannot be found.'),

  /** EnsureUser of a name the directory does not know (§5: body CONFIRMED, status INFERRED). */
  ensureUserNotFound: (logonName: string) =>
    new SpError(500, `-2146232832, ${SP_EXCEPTION}`, `The specified user ${logonName} could not be found.`),

  groupNotFound: () =>
    new SpError(404, `-2146232832, ${SP_EXCEPTION}`, 'Group cannot be found.'),

  /** A role assignment addressed by a principal id the scope has none for (INFERRED status; SharePoint's object model text). */
  principalNotFound: (id: number) =>
    new SpError(404, `-2146232832, ${SP_EXCEPTION}`, `Can not find the principal with id: ${id}.`),

  /** A role definition addressed by an id, name or type the web has none for (INFERRED status and text). */
  roleDefinitionNotFound: () =>
    new SpError(404, `-2146232832, ${SP_EXCEPTION}`, 'Cannot find the specified role definition.'),

  /** An item version addressed by a VersionId the item has none for (INFERRED code and text). */
  versionNotFound: () =>
    new SpError(404, '-2147024809, System.ArgumentException', 'Version does not exist. It may have been deleted by another user.'),

  /** Deleting the current version of an item through its Versions collection (INFERRED code and text). */
  currentVersionDelete: () =>
    new SpError(400, `-2146232832, ${SP_EXCEPTION}`, 'The current version of an item cannot be deleted. Delete the item instead.'),

  fieldNotFound: (name: string) =>
    new SpError(404, '-2147024809, System.ArgumentException',
      `Field '${name}' does not exist. It may have been deleted by another user.`),

  fieldAlreadyExists: (name: string) =>
    new SpError(500, `-2130575245, ${SP_EXCEPTION}`,
      `A duplicate field name "${name}" was found.`),

  /** `$select` names a property the type does not have. */
  unknownSelectProperty: (name: string) =>
    new SpError(400, `-1, ${SP_EXCEPTION}`, `The field or property '${name}' does not exist.`),

  /** A `$filter`/`$orderby` names a column the list does not have. */
  unknownColumn: (name: string) =>
    new SpError(400, '-2147024809, System.ArgumentException',
      `Column '${name}' does not exist. It may have been deleted by another user.`),

  /** A person/lookup sub-path selected or filtered without `$expand`. */
  expandRequired: (token: string, field: string) =>
    new SpError(400, `-1, ${SP_EXCEPTION}`,
      `The query to field '${token}' is not valid. The $select query string must specify the target fields and the $expand query string must contains ${field}.`),

  /** A body property the entity type does not define. */
  unknownBodyProperty: (name: string, typeName: string) =>
    new SpError(400, `-1, ${CLIENT_QUERY}`,
      `The property '${name}' does not exist on type '${typeName}'. Make sure to only use property names that are defined by the type.`),

  verboseBodyWithoutType: () =>
    new SpError(400, `-1, ${CLIENT_QUERY}`,
      'An entry without a type name was found, but no expected type was specified. To allow entries without type information, the expected type must also be specified when the model is specified.'),

  wrongEntityType: (sent: string) =>
    new SpError(400, `-1, ${CLIENT_QUERY}`,
      `A type named '${sent}' could not be resolved by the model. When a model is available, each type name must resolve to a valid type.`),

  emptyBody: () =>
    new SpError(400, `-1, ${CLIENT_QUERY}`,
      "A node of type 'EndOfInput' was read from the JSON reader when trying to read the start of an entry. A 'StartObject' node was expected."),

  invalidJson: (detail: string) =>
    new SpError(400, `-1, ${CLIENT_QUERY}`, `Invalid JSON. ${detail}`),

  notAnObject: () =>
    new SpError(400, `-1, ${CLIENT_QUERY}`,
      "A node of type 'PrimitiveValue' was read from the JSON reader when trying to read the start of an entry. A 'StartObject' node was expected."),

  /** A value of the wrong JSON type for a property. */
  invalidPropertyValue: (expected: string) =>
    new SpError(400, `-1, ${CLIENT_QUERY}`,
      `Cannot convert a primitive value to the expected type '${expected}'. See the inner exception for more details.`),

  /** A calculated column's formula refused when the column is made or changed (SPException; docs/compatibility.md). */
  invalidFormula: (message: string) =>
    new SpError(400, `-2130575162, ${SP_EXCEPTION}`, message),

  /** Field-level validation (required, range, length): SharePoint's generic data validation failure (500). */
  validationFailed: (detail: string) =>
    new SpError(500, `-2146232832, ${SP_EXCEPTION}`, detail),

  etagMismatch: (sent: string, current: string) =>
    new SpError(412, `-1, ${CLIENT_SERVICE}`,
      `The request ETag value '${sent}' does not match the object's ETag value '${current}'.`),

  /**
   * A CAML query naming a field the list does not have (names are exact: `Id` is not `ID`), or
   * built wrongly (an `<Or>` with one operand): SharePoint's misleading SPException 0x81020014,
   * answered with 500 (docs/compatibility.md: CAML).
   */
  camlFieldTypes: () =>
    new SpError(500, `-2130575340, ${SP_EXCEPTION}`,
      'One or more field types are not installed properly. Go to the list settings page to delete these fields.'),

  /** (inference, docs/compatibility.md) CAML that is not well-formed XML, not a `<View>`, or holds a value its type cannot. */
  camlMalformed: () =>
    new SpError(400, `-2147467259, ${SP_EXCEPTION}`, 'Cannot complete this action.\n\nPlease try again.'),

  listViewThreshold: () =>
    new SpError(500, '-2147024860, Microsoft.SharePoint.SPQueryThrottledException',
      'The attempted operation is prohibited because it exceeds the list view threshold.'),

  notAcceptable: () =>
    new SpError(406, `-1, ${CLIENT_SERVICE}`, 'The HTTP header ACCEPT is missing or its value is invalid.'),

  unsupportedMediaType: (contentType: string) =>
    new SpError(415, `-1, ${CLIENT_SERVICE}`,
      `The content type '${contentType}' is not supported. Send JSON (application/json).`),

  bodyTooLarge: (limit: number) =>
    new SpError(413, `-2147024809, System.ArgumentException`,
      `The request body is larger than the limit of ${limit} bytes.`),

  urlTooLong: (limit: number) =>
    new SpError(414, '-2147024809, System.ArgumentException', `The request URL is longer than the limit of ${limit} bytes.`),

  headersTooLarge: (limit: number) =>
    new SpError(431, '-2147024809, System.ArgumentException', `The request URL and headers are larger than the limit of ${limit} bytes.`),

  requestTimeout: () =>
    new SpError(408, `-1, ${CLIENT_SERVICE}`, 'The request was not received in full before the server timed out.'),

  accessDenied: () =>
    new SpError(403, '-2147024891, System.UnauthorizedAccessException',
      'Access denied. You do not have permission to perform this action or access this resource.'),

  /**
   * No credentials, or credentials that are not accepted: 401 with SharePoint Online's
   * challenge (reference §7.4). The body is the same whatever was wrong, so it never tells
   * an unknown user from a wrong password. `diagnostics` is x-ms-diagnostics for a bad token;
   * `notice` a sentence spemu adds where it refuses what SharePoint would take (NTLM, Negotiate).
   */
  unauthorized: (challenges: string[], diagnostics?: string, notice?: string) =>
    new SpError(401, '-2147024891, System.UnauthorizedAccessException',
      `Access denied. You do not have permission to perform this action or access this resource.${notice ? ` ${notice}` : ''}`,
      { 'WWW-Authenticate': challenges, ...(diagnostics ? { 'x-ms-diagnostics': diagnostics } : {}) }),

  /** X-RequestDigest missing, forged, or issued to another user or site (reference §6). */
  digestInvalid: () =>
    new SpError(403, `-2130575251, ${SP_EXCEPTION}`,
      "The security validation for this page is invalid and might be corrupted. Please use your web browser's Back button to try your operation again."),

  /** X-RequestDigest older than FormDigestTimeoutSeconds (reference §6). */
  digestExpired: () =>
    new SpError(403, `-2130575252, ${SP_EXCEPTION}`,
      'The security validation for this page has timed out. Click Back in your Web browser, refresh the page, and try your operation again.'),

  /** A `$batch` body that cannot be read as a batch, or one of its parts that cannot be read as a request (INFERRED code). */
  invalidBatch: (message: string) =>
    new SpError(400, '-1, Microsoft.Data.OData.ODataException', message),

  /** A `$batch` body over the request body limit: the issue asks 400 with SharePoint's error body (INFERRED code and text). */
  batchTooLarge: (limit: number) =>
    new SpError(400, '-1, Microsoft.Data.OData.ODataException',
      `The batch request body is larger than the limit of ${limit} bytes.`),

  /** A `$batch` part addressed to another site than the batch request (DOC-BATCH: they must target the same site). */
  batchOtherSite: (target: string, site: string) =>
    new SpError(400, '-1, Microsoft.Data.OData.ODataException',
      `The URL '${target}' of a batch part does not target the site of the batch request ('${site}'). The request URL and the URLs inside the body must target the same site.`),

  /** (inference, docs/compatibility.md: status, code and text) */
  subscriptionNotFound: () =>
    new SpError(404, `-1, ${RESOURCE_NOT_FOUND}`, 'The subscription does not exist.'),
  /** (inference, docs/compatibility.md: SharePoint's text is not documented) */
  invalidSubscriptionExpiration: () =>
    new SpError(400, '-1, System.ArgumentException', 'The expiration date is invalid. It must be in the future and at most 180 days from now.'),
  /** SharePoint's code and text (sp-dev-docs #3430, #2658); status 400 INFERRED. The reason is for spemu's log only. */
  notificationUrlValidationFailed: (url: string, _reason: string) =>
    new SpError(400, '-1, System.InvalidOperationException', `Failed to validate the notification URL '${url}'.`),
  /** (inference, docs/compatibility.md) A change token that does not parse: .NET's ArgumentException text. */
  invalidChangeToken: () =>
    new SpError(400, '-2147024809, System.ArgumentException', 'Value does not fall within the expected range.'),
  /** Text CONFIRMED (SharePoint's SPException once the change log no longer reaches the token); status and HRESULT INFERRED. */
  changeTokenTooOld: () =>
    new SpError(500, `-2146232832, ${SP_EXCEPTION}`, 'The changeToken refers to a time before the start of the current change log.'),

  /** (inference, docs/compatibility.md) A comment id the item does not have. */
  commentNotFound: () =>
    new SpError(404, '-2147024809, System.ArgumentException', 'The comment does not exist.'),

  /** (inference, docs/compatibility.md) A comment added to an item of a list with DisableCommenting. */
  commentsDisabled: () =>
    new SpError(400, `-2146232832, ${SP_EXCEPTION}`, 'Comments are disabled for this list.'),

  badArgument: (message: string) =>
    new SpError(400, '-2147024809, System.ArgumentException', message),

  /** The last resort: something in spemu failed. The message never carries internals. */
  internal: (requestId: string) =>
    new SpError(500, '-1, Microsoft.SharePoint.Client.UnknownError',
      `Unknown Error. spemu could not complete the request (correlation id ${requestId}); see the server log.`),

  serviceUnavailable: (retryAfterSeconds: number) =>
    new SpError(503, '-1, Microsoft.SharePoint.Client.UnknownError', 'The server is busy. Try again later.',
      { 'Retry-After': String(retryAfterSeconds) }),
} as const;

type Catalogue = Record<string, (...args: never[]) => SpError>;

/**
 * SharePoint's error for a domain failure: the catalogue entry of the same name, with the
 * failure's arguments (every `fail` reason has one; a unit test holds that). SpErrors pass.
 */
export function toSpError(e: SpError | DomainError): SpError {
  if (e instanceof SpError) return e;
  const entry = (errors as Catalogue)[e.reason] as ((...args: unknown[]) => SpError) | undefined;
  return entry ? entry(...e.args) : new SpError(500, '-1, Microsoft.SharePoint.Client.UnknownError', e.message);
}

/** An error a client may be told about: SharePoint's, or a domain failure. */
export const isReportable = (e: unknown): e is SpError | DomainError => e instanceof SpError || e instanceof DomainError;
