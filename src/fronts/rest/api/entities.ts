// SharePoint's fixed-shape entities (SP.Web, SP.Site, SP.List, SP.Folder, SP.Field*) built
// from domain records, and `$select`/`$expand` over them. List items, whose shape comes
// from the list's fields, are in item-projection.ts.

import { randomUUID } from 'node:crypto';
import type { FieldDefinition, List, Site, Web } from '../../../domain/model.ts';
import { OUTPUT_TYPE_NUMBERS } from '../../../domain/calculated.ts';
import { formatToken, type TokenScopeName } from '../../../domain/change-tokens.ts';
import { FIELD_KINDS } from '../../../domain/field-kinds.ts';
import { listItemEntityTypeFullName } from '../../../domain/names.ts';
import { templateInfo } from '../../../domain/templates.ts';
import { errors } from '../../../wire/errors.ts';
import { EdmDouble, type Entity, type Value } from '../../../wire/values.ts';
import type { ApiContext } from './context.ts';
import { EntityShape } from './entity-shape.ts';
import { cachedAbsoluteUrl, derivedFrom } from '../request-cache.ts';

const complex = (type: string, props: Array<[string, Value]>): Value => ({ kind: 'complex', type, props });
const resourcePath = (url: string): Value => complex('SP.ResourcePath', [['DecodedUrl', url]]);
/** An SP.ResourcePath value (`ServerRelativePath` and the like). */
export const resourcePathValue = resourcePath;
const strings = (items: string[]): Value => ({ kind: 'collection', elementType: 'Edm.String', items });
/**
 * CurrentChangeToken where the change log is not read (an expanded ParentList, say): a token of
 * the time only (`-1`), which getChanges reads as "after now". The handlers that answer a site,
 * web or list put the log's numbered token in its place (types/changes.ts).
 */
const changeToken = (id: string, scope: TokenScopeName): Value =>
  complex('SP.ChangeToken', [['StringValue', formatToken(scope, id, Date.now(), -1)]]);

/** Absolute URL of a server-relative path on this server. */
export const absoluteUrl = (ctx: ApiContext, serverRelative: string) => cachedAbsoluteUrl(ctx.apiUrl, serverRelative);

export const listEditLink = (list: List) => `Web/Lists(guid'${list.id}')`;

/** What an SP.Web entity is made from: the web, and its absolute URL on this server. */
export interface WebSource { web: Web; url: string }

const masterUrl = ({ web }: WebSource) => `${web.serverRelativeUrl.replace(/\/$/, '')}/_catalogs/masterpage/seattle.master`;

/** SP.Web's properties, in SharePoint's order (entity-shape.ts: `$select` makes only what it names). */
export const WEB_SHAPE = new EntityShape<WebSource>('SP.Web',
  ['AllProperties', 'AssociatedMemberGroup', 'AssociatedOwnerGroup', 'AssociatedVisitorGroup', 'AvailableFields', 'ContentTypes',
    'CurrentUser', 'Fields', 'Folders', 'Lists', 'ParentWeb', 'RegionalSettings', 'RoleAssignments', 'RootFolder',
    'SiteGroups', 'SiteUserInfoList', 'SiteUsers', 'Webs'],
  [
    ['AllowRssFeeds', true], ['AlternateCssUrl', ''], ['AppInstanceId', '00000000-0000-0000-0000-000000000000'],
    ['Configuration', 0], ['Created', ({ web }) => web.created], ['CurrentChangeToken', ({ web }) => changeToken(web.id, 'web')],
    ['CustomMasterUrl', masterUrl],
    ['Description', ({ web }) => web.description], ['DesignPackageId', '00000000-0000-0000-0000-000000000000'],
    ['EnableMinimalDownload', false], ['HorizontalQuickLaunch', false], ['Id', ({ web }) => web.id], ['IsMultilingual', false],
    ['Language', ({ web }) => web.language], ['LastItemModifiedDate', ({ web }) => web.lastItemModified], ['LastItemUserModifiedDate', ({ web }) => web.lastItemModified],
    ['MasterUrl', masterUrl], ['NoCrawl', false],
    ['OverwriteTranslationsOnChange', false], ['ResourcePath', ({ url }) => resourcePath(url)], ['QuickLaunchEnabled', true],
    ['RecycleBinEnabled', true], ['ServerRelativePath', ({ web }) => resourcePath(web.serverRelativeUrl)], ['ServerRelativeUrl', ({ web }) => web.serverRelativeUrl], ['SiteLogoUrl', ({ web }) => web.siteLogoUrl],
    ['SyndicationEnabled', true], ['Title', ({ web }) => web.title], ['TreeViewEnabled', false], ['UIVersion', 15],
    ['UIVersionConfigurationEnabled', false], ['Url', ({ url }) => url], ['WebTemplate', ({ web }) => web.webTemplate],
  ]);

/** An SP.Web entity's head (type, id, edit link), and its source for WEB_SHAPE. */
export function webEntityHead(web: Web, ctx: ApiContext): { source: WebSource; id: string } {
  const url = absoluteUrl(ctx, web.serverRelativeUrl);
  // Each web is addressed below its own URL (a subweb in `webs` too: clients take its URL from the id).
  return { source: { web, url }, id: `${url}/_api/Web` };
}

export function webEntity(web: Web, ctx: ApiContext): Entity {
  const { source, id } = webEntityHead(web, ctx);
  return { type: 'SP.Web', id, editLink: 'Web', deferred: [...WEB_SHAPE.deferred], props: WEB_SHAPE.all(source) };
}

/**
 * SP.Site; `hubSiteId`: the hub it is in (its own id when it is a hub: then IsHubSite), else
 * the empty GUID.
 */
export function siteEntity(site: Site, ctx: ApiContext, hubSiteId = '00000000-0000-0000-0000-000000000000'): Entity {
  const isHub = hubSiteId === site.id;
  return {
    type: 'SP.Site', id: `${ctx.apiUrl}Site`, editLink: 'Site',
    deferred: ['Features', 'Owner', 'RecycleBin', 'RootWeb', 'UserCustomActions'],
    props: [
      ['AllowCreateDeclarativeWorkflow', false], ['AllowDesigner', true], ['CompatibilityLevel', 15],
      ['CurrentChangeToken', changeToken(site.id, 'site')],
      ['HubSiteId', hubSiteId],
      ['Id', site.id], ['IsHubSite', isHub], ['ReadOnly', false], ['RequiredDesignerVersion', '15.0.0.0'],
      ['ServerRelativeUrl', site.url], ['ShareByLinkEnabled', false], ['ShowUrlStructure', false],
      ['UIVersionConfigurationEnabled', false], ['UpgradeReminderDate', '1899-12-30T00:00:00Z'],
      ['Url', absoluteUrl(ctx, site.url)],
    ],
  };
}

export function folderEntity(list: List, ctx: ApiContext): Entity {
  const name = list.serverRelativeUrl.split('/').pop() ?? '';
  return {
    type: 'SP.Folder', id: `${ctx.apiUrl}${listEditLink(list)}/RootFolder`, editLink: `${listEditLink(list)}/RootFolder`,
    deferred: ['Files', 'ListItemAllFields', 'ParentFolder', 'Properties', 'StorageMetrics', 'Folders'],
    props: [
      ['Exists', true], ['IsWOPIEnabled', false], ['ItemCount', list.itemCount], ['Name', name],
      ['ProgID', null], ['ServerRelativePath', resourcePath(list.serverRelativeUrl)], ['ServerRelativeUrl', list.serverRelativeUrl], ['TimeCreated', list.created],
      ['TimeLastModified', list.lastItemModifiedDate], ['UniqueId', list.id], ['WelcomePage', ''],
    ],
  };
}

/** What an SP.List entity is made from: the list and its web. */
export interface ListSource { list: List; web: Web }

const ITEM_IMAGE = '/_layouts/15/images/itgen.png?rev=47';

/** SP.List's properties, in SharePoint's order (entity-shape.ts: `$select` makes only what it names). */
export const LIST_SHAPE = new EntityShape<ListSource>('SP.List',
  ['ContentTypes', 'DefaultView', 'EventReceivers', 'Fields', 'FirstUniqueAncestorSecurableObject', 'Forms',
    'InformationRightsManagementSettings', 'Items', 'ParentWeb', 'RoleAssignments', 'RootFolder', 'Subscriptions',
    'UserCustomActions', 'Views', 'WorkflowAssociations'],
  [
    ['AllowContentTypes', true], ['BaseTemplate', ({ list }) => list.baseTemplate], ['BaseType', ({ list }) => list.baseType],
    ['ContentTypesEnabled', false], ['CrawlNonDefaultViews', false], ['Created', ({ list }) => list.created],
    ['CurrentChangeToken', ({ list }) => changeToken(list.id, 'list')], ['DefaultContentApprovalWorkflowId', '00000000-0000-0000-0000-000000000000'],
    ['DefaultItemOpenUseListSetting', false], ['Description', ({ list }) => list.description], ['Direction', 'none'],
    ['DisableCommenting', ({ list }) => list.disableCommenting], ['DisableGridEditing', false], ['DocumentTemplateUrl', null], ['DraftVersionVisibility', 0],
    ['EnableAttachments', ({ list }) => list.baseType === 0], ['EnableFolderCreation', ({ list }) => list.baseType === 1], ['EnableMinorVersions', ({ list }) => list.enableMinorVersions],
    ['EnableModeration', ({ list }) => list.enableModeration], ['EnableRequestSignOff', true], ['EnableVersioning', ({ list }) => list.enableVersioning],
    ['EntityTypeName', ({ list }) => list.entityTypeName], ['ExemptFromBlockDownloadOfNonViewableFiles', false],
    ['FileSavePostProcessingEnabled', false], ['ForceCheckout', false], ['HasExternalDataSource', false],
    ['Hidden', ({ list }) => list.hidden], ['Id', ({ list }) => list.id], ['ImagePath', () => resourcePath(ITEM_IMAGE)],
    ['ImageUrl', ITEM_IMAGE], ['IrmEnabled', false], ['IrmExpire', false], ['IrmReject', false],
    ['IsApplicationList', false], ['IsCatalog', ({ list }) => list.baseTemplate === 112], ['IsPrivate', false], ['ItemCount', ({ list }) => list.itemCount],
    ['LastItemDeletedDate', ({ list }) => list.lastItemDeletedDate], ['LastItemModifiedDate', ({ list }) => list.lastItemModifiedDate],
    ['LastItemUserModifiedDate', ({ list }) => list.lastItemModifiedDate], ['ListExperienceOptions', 0],
    ['ListItemEntityTypeFullName', ({ list }) => listItemEntityTypeFullName(list.entityTypeName)], ['MajorVersionLimit', ({ list }) => (list.enableVersioning ? 50 : 0)],
    ['MajorWithMinorVersionsLimit', 0], ['MultipleDataList', false], ['NoCrawl', false],
    ['ParentWebPath', ({ web }) => resourcePath(web.serverRelativeUrl)], ['ParentWebUrl', ({ web }) => web.serverRelativeUrl], ['ParserDisabled', false],
    ['ServerTemplateCanCreateFolders', true], ['TemplateFeatureId', ({ list }) => templateInfo(list.baseTemplate).featureId], ['Title', ({ list }) => list.title],
  ]);

export function listEntity(list: List, web: Web, ctx: ApiContext): Entity {
  return {
    type: 'SP.List', id: `${ctx.apiUrl}${listEditLink(list)}`, editLink: listEditLink(list), etag: `"${list.version}"`,
    deferred: [...LIST_SHAPE.deferred], props: LIST_SHAPE.all({ list, web }),
  };
}

/** Where a field lives, as its entity shows it: a list's field or a web's site column. */
export interface FieldOwner {
  /** The field collection's edit link (`Web/Lists(guid'…')/Fields`, `Web/Fields`). */
  collectionLink: string;
  /** SP.Field.Scope: the list's or the web's server-relative URL. */
  scope: string;
  webId: string;
}

export const listFieldOwner = (list: List): FieldOwner =>
  ({ collectionLink: `${listEditLink(list)}/Fields`, scope: list.serverRelativeUrl, webId: list.webId });
export const webFieldOwner = (web: Web): FieldOwner =>
  ({ collectionLink: 'Web/Fields', scope: web.serverRelativeUrl, webId: web.id });

/** The group a field is listed under: its own, else SharePoint's for built-in and custom columns. */
const fieldGroup = (field: FieldDefinition): string => field.options.group ?? (field.builtIn ? '_Hidden' : 'Custom Columns');

/**
 * A field's SP.Field entity: made once per field record, owner and API root while the store
 * generation stands (request-cache.ts `derivedFrom`), not per request — a list's fields are read
 * whole by most clients, each of forty-odd properties and its SchemaXml. Frozen: shared by requests.
 */
export function fieldEntity(field: FieldDefinition, owner: FieldOwner, ctx: ApiContext): Entity {
  return derivedFrom(ctx.store, field, `${ctx.apiUrl}\n${owner.collectionLink}\n${owner.scope}\n${owner.webId}`, frozenFieldEntity, owner, ctx.apiUrl);
}

const frozenFieldEntity = (field: FieldDefinition, owner: FieldOwner, apiUrl: string): Entity => deepFreeze(makeFieldEntity(field, owner, apiUrl));

function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  for (const v of Object.values(value)) deepFreeze(v);
  return Object.freeze(value);
}

function makeFieldEntity(field: FieldDefinition, owner: FieldOwner, apiUrl: string): Entity {
  const info = FIELD_KINDS[field.kind];
  const editLink = `${owner.collectionLink}(guid'${field.id}')`;
  const props: Array<[string, Value]> = [
    ['AutoIndexed', false], ['CanBeDeleted', !field.builtIn], ['ClientSideComponentId', '00000000-0000-0000-0000-000000000000'],
    ['ClientSideComponentProperties', null], ['ClientValidationFormula', null], ['ClientValidationMessage', null],
    ['CustomFormatter', null], ['DefaultFormula', null], ['DefaultValue', field.options.defaultValue ?? null],
    ['Description', field.options.description ?? ''], ['Direction', 'none'], ['EnforceUniqueValues', field.options.enforceUniqueValues ?? false],
    ['EntityPropertyName', field.internalName], ['Filterable', info.queryable], ['FromBaseType', field.builtIn],
    ['Group', fieldGroup(field)], ['Hidden', field.hidden], ['Id', field.id], ['Indexed', field.indexed],
    ['IndexStatus', 0], ['InternalName', field.internalName], ['IsModern', false], ['JSLink', 'clienttemplates.js'],
    ['PinnedToFiltersPane', false], ['ReadOnlyField', field.readOnly || field.options.primaryFieldId !== undefined], ['Required', field.required],
    ['SchemaXml', schemaXml(field)], ['Scope', owner.scope], ['Sealed', field.builtIn],
    ['ShowInFiltersPane', 0], ['Sortable', info.queryable], ['StaticName', field.internalName], ['Title', field.title],
    ['FieldTypeKind', info.fieldTypeKind], ['TypeAsString', info.typeAsString], ['TypeDisplayName', info.typeAsString],
    ['TypeShortDescription', info.typeAsString], ['ValidationFormula', null], ['ValidationMessage', null],
  ];
  switch (field.kind) {
    case 'Text': props.push(['MaxLength', field.options.maxLength ?? 255]); break;
    case 'Note': props.push(['AllowHyperlink', false], ['AppendOnly', false], ['NumberOfLines', 6], ['RestrictedMode', true], ['RichText', field.options.richText ?? false]); break;
    case 'Number': case 'Currency':
      props.push(['DisplayFormat', -1], ['MaximumValue', new EdmDouble(field.options.max ?? 1.7976931348623157e308)],
        ['MinimumValue', new EdmDouble(field.options.min ?? -1.7976931348623157e308)]);
      if (field.kind === 'Currency') props.push(['CurrencyLocaleId', 1033]); else props.push(['ShowAsPercentage', false]);
      break;
    case 'DateTime': props.push(['DateTimeCalendarType', 0], ['DisplayFormat', field.options.dateOnly ? 0 : 1], ['FriendlyDisplayFormat', 0]); break;
    case 'Choice': case 'MultiChoice':
      props.push(['Choices', strings(field.options.choices ?? [])], ['EditFormat', 0], ['FillInChoice', false], ['Mappings', null]);
      break;
    case 'User': case 'UserMulti': case 'Lookup': case 'LookupMulti': {
      const user = info.reference === 'user';
      const primaryId = field.options.primaryFieldId;
      props.push(['AllowMultipleValues', info.multi], ['DependentLookupInternalNames', strings([])], ['IsDependentLookup', primaryId !== undefined],
        ['IsRelationship', !user], ['LookupField', user ? 'ImnName' : field.options.lookupField ?? 'Title'],
        ['LookupList', user ? '{user-info-list}' : `{${field.options.lookupListId ?? ''}}`], ['LookupWebId', owner.webId],
        ['PrimaryFieldId', primaryId ?? null], ['RelationshipDeleteBehavior', 0], ['UnlimitedLengthInDocumentLibrary', false]);
      if (user) props.push(['AllowDisplay', true], ['Presence', true], ['SelectionGroup', 0], ['SelectionMode', 0]);
      break;
    }
    case 'URL': props.push(['DisplayFormat', 0]); break;
    case 'Calculated':
      props.push(['CurrencyLocaleId', 1033], ['DateFormat', field.options.dateOnly ? 0 : 1], ['DisplayFormat', -1],
        ['Formula', field.options.formula ?? ''], ['OutputType', OUTPUT_TYPE_NUMBERS[field.options.outputType ?? 'Text']], ['ShowAsPercentage', false]);
      break;
  }
  return { type: info.entityType, id: `${apiUrl}${editLink}`, editLink, props };
}

/** A field as SharePoint's SchemaXml writes it (SP.Field's SchemaXml; a site script's addSPFieldXml). */
export function schemaXml(field: FieldDefinition): string {
  const attr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  const flag = (b: boolean) => (b ? 'TRUE' : 'FALSE');
  // SharePoint writes ShowIn*Form only once it was set.
  const shown = ([['ShowInDisplayForm', field.options.showInDisplayForm], ['ShowInEditForm', field.options.showInEditForm],
    ['ShowInNewForm', field.options.showInNewForm]] as const).filter(([, v]) => v !== undefined).map(([k, v]) => ` ${k}="${flag(v!)}"`).join('');
  const head = `<Field Type="${FIELD_KINDS[field.kind].typeAsString}" DisplayName="${attr(field.title)}" Required="${flag(field.required)}" `
    + `Indexed="${flag(field.indexed)}" ID="{${field.id}}" StaticName="${attr(field.internalName)}" Name="${attr(field.internalName)}" `
    + `Group="${attr(fieldGroup(field))}"${shown}`;
  if (field.kind !== 'Calculated') return `${head} />`;
  // A calculated column's result type and formula, as SharePoint writes them (and createfieldasxml reads them back).
  const dateFormat = field.options.outputType === 'DateTime' ? ` Format="${field.options.dateOnly ? 'DateOnly' : 'DateTime'}"` : '';
  return `${head} ResultType="${field.options.outputType ?? 'Text'}"${dateFormat}><Formula>${attr(field.options.formula ?? '').replace(/>/g, '&gt;')}</Formula></Field>`;
}

/**
 * Types whose `$select` passes over names they do not have, where SharePoint's does: sppull
 * selects `Folder/TimeCreated`, `Folders/ID` and `Files/ID` (SP.Folder and SP.File have none of
 * them) and `$select=Id` on a folder, and works against SharePoint (docs/compatibility.md); PnPjs's
 * hub site test reads `site?$select=Title` (SP.Site has no Title) and passes against SharePoint
 * Online. Other types keep refusing an unknown name.
 */
const SELECT_PASSES_UNKNOWN: ReadonlySet<string> = new Set(['SP.Folder', 'SP.File', 'SP.Site']);

/**
 * Applies `$select` to a fixed-shape entity: only the named properties, in the entity's own
 * order; unknown names → SharePoint's 400 (but see SELECT_PASSES_UNKNOWN). `*` keeps all.
 * Expanded navigation props (passed in `expanded`) are always kept; a deferred navigation
 * property named alone keeps its `__deferred` link.
 */
export function selectProps(entity: Entity, select: string[][] | undefined, expanded: ReadonlySet<string> = new Set()): Entity {
  if (!select) return entity;
  const wanted = new Set<string>();
  const deferred = new Set<string>();
  let all = false;
  // Names match in any case, as SharePoint's do (`$select=ID` finds `Id`); the answer keeps the entity's spelling.
  const expandedLower = new Set([...expanded].map((k) => k.toLowerCase()));
  for (const path of select) {
    const [head] = path;
    if (head === '*') { all = true; continue; }
    if (!head || head.startsWith('odata.')) continue;
    if (expandedLower.has(head.toLowerCase())) continue;
    const prop = entity.props.find(([k]) => k.toLowerCase() === head.toLowerCase());
    const navigation = prop ? undefined : entity.deferred?.find((k) => k.toLowerCase() === head.toLowerCase());
    if (!prop && !navigation) {
      if (SELECT_PASSES_UNKNOWN.has(entity.type)) continue;
      throw errors.unknownSelectProperty(head);
    }
    if (path.length > 1) throw errors.expandRequired(path.join('/'), head);
    if (prop) wanted.add(prop[0]);
    else deferred.add(navigation!);
  }
  if (all) return { ...entity, deferred: undefined };
  return {
    ...entity,
    deferred: deferred.size ? entity.deferred!.filter((k) => deferred.has(k)) : undefined,
    props: entity.props.filter(([k]) => wanted.has(k) || expanded.has(k)),
  };
}

/** A fresh GUID per serialized list item, as SharePoint Online writes `odata.id`. */
export const freshEntityId = () => randomUUID();
