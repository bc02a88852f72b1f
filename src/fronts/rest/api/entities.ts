// SharePoint's fixed-shape entities (SP.Web, SP.Site, SP.List, SP.Folder, SP.Field*) built
// from domain records, and `$select`/`$expand` over them. List items, whose shape comes
// from the list's fields, are in item-projection.ts.

import { randomUUID } from 'node:crypto';
import type { FieldDefinition, List, Site, Web } from '../../../domain/model.ts';
import { OUTPUT_TYPE_NUMBERS } from '../../../domain/calculated.ts';
import { FIELD_KINDS } from '../../../domain/field-kinds.ts';
import { listItemEntityTypeFullName } from '../../../domain/names.ts';
import { templateInfo } from '../../../domain/templates.ts';
import { errors } from '../../../wire/errors.ts';
import { EdmDouble, type Entity, type Value } from '../../../wire/values.ts';
import type { ApiContext } from './context.ts';

const complex = (type: string, props: Array<[string, Value]>): Value => ({ kind: 'complex', type, props });
const resourcePath = (url: string): Value => complex('SP.ResourcePath', [['DecodedUrl', url]]);
/** An SP.ResourcePath value (`ServerRelativePath` and the like). */
export const resourcePathValue = resourcePath;
const strings = (items: string[]): Value => ({ kind: 'collection', elementType: 'Edm.String', items });
/**
 * A CurrentChangeToken placeholder of the right shape: the handlers that answer a site, web or
 * list alone put the change log's current token in its place (types/changes.ts).
 */
const changeToken = (id: string, version: number, scope = 3): Value =>
  complex('SP.ChangeToken', [['StringValue', `1;${scope};${id};638399664141230000;${version}`]]);

/** Absolute URL of a server-relative path on this server. */
export const absoluteUrl = (ctx: ApiContext, serverRelative: string) => new URL(serverRelative, ctx.apiUrl).href.replace(/\/$/, '');

export const listEditLink = (list: List) => `Web/Lists(guid'${list.id}')`;

export function webEntity(web: Web, ctx: ApiContext): Entity {
  const url = absoluteUrl(ctx, web.serverRelativeUrl);
  return {
    // Each web is addressed below its own URL (a subweb in `webs` too: clients take its URL from the id).
    type: 'SP.Web', id: `${url}/_api/Web`, editLink: 'Web',
    deferred: ['AllProperties', 'AssociatedMemberGroup', 'AssociatedOwnerGroup', 'AssociatedVisitorGroup', 'AvailableFields', 'ContentTypes',
      'CurrentUser', 'Fields', 'Folders', 'Lists', 'ParentWeb', 'RegionalSettings', 'RoleAssignments', 'RootFolder',
      'SiteGroups', 'SiteUserInfoList', 'SiteUsers', 'Webs'],
    props: [
      ['AllowRssFeeds', true], ['AlternateCssUrl', ''], ['AppInstanceId', '00000000-0000-0000-0000-000000000000'],
      ['Configuration', 0], ['Created', web.created], ['CurrentChangeToken', changeToken(web.id, 1, 2)],
      ['CustomMasterUrl', `${web.serverRelativeUrl.replace(/\/$/, '')}/_catalogs/masterpage/seattle.master`],
      ['Description', web.description], ['DesignPackageId', '00000000-0000-0000-0000-000000000000'],
      ['EnableMinimalDownload', false], ['HorizontalQuickLaunch', false], ['Id', web.id], ['IsMultilingual', false],
      ['Language', web.language], ['LastItemModifiedDate', web.lastItemModified], ['LastItemUserModifiedDate', web.lastItemModified],
      ['MasterUrl', `${web.serverRelativeUrl.replace(/\/$/, '')}/_catalogs/masterpage/seattle.master`], ['NoCrawl', false],
      ['OverwriteTranslationsOnChange', false], ['ResourcePath', resourcePath(url)], ['QuickLaunchEnabled', true],
      ['RecycleBinEnabled', true], ['ServerRelativePath', resourcePath(web.serverRelativeUrl)], ['ServerRelativeUrl', web.serverRelativeUrl], ['SiteLogoUrl', null],
      ['SyndicationEnabled', true], ['Title', web.title], ['TreeViewEnabled', false], ['UIVersion', 15],
      ['UIVersionConfigurationEnabled', false], ['Url', url], ['WebTemplate', web.webTemplate],
    ],
  };
}

export function siteEntity(site: Site, ctx: ApiContext): Entity {
  return {
    type: 'SP.Site', id: `${ctx.apiUrl}Site`, editLink: 'Site',
    deferred: ['Features', 'Owner', 'RecycleBin', 'RootWeb', 'UserCustomActions'],
    props: [
      ['AllowCreateDeclarativeWorkflow', false], ['AllowDesigner', true], ['CompatibilityLevel', 15],
      ['CurrentChangeToken', changeToken(site.id, 1, 1)],
      ['Id', site.id], ['ReadOnly', false], ['RequiredDesignerVersion', '15.0.0.0'],
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

export function listEntity(list: List, web: Web, ctx: ApiContext): Entity {
  const info = templateInfo(list.baseTemplate);
  return {
    type: 'SP.List', id: `${ctx.apiUrl}${listEditLink(list)}`, editLink: listEditLink(list), etag: `"${list.version}"`,
    deferred: ['ContentTypes', 'DefaultView', 'EventReceivers', 'Fields', 'FirstUniqueAncestorSecurableObject', 'Forms',
      'InformationRightsManagementSettings', 'Items', 'ParentWeb', 'RoleAssignments', 'RootFolder', 'Subscriptions',
      'UserCustomActions', 'Views', 'WorkflowAssociations'],
    props: [
      ['AllowContentTypes', true], ['BaseTemplate', list.baseTemplate], ['BaseType', list.baseType],
      ['ContentTypesEnabled', false], ['CrawlNonDefaultViews', false], ['Created', list.created],
      ['CurrentChangeToken', changeToken(list.id, list.version)], ['DefaultContentApprovalWorkflowId', '00000000-0000-0000-0000-000000000000'],
      ['DefaultItemOpenUseListSetting', false], ['Description', list.description], ['Direction', 'none'],
      ['DisableGridEditing', false], ['DocumentTemplateUrl', null], ['DraftVersionVisibility', 0],
      ['EnableAttachments', list.baseType === 0], ['EnableFolderCreation', list.baseType === 1], ['EnableMinorVersions', list.enableMinorVersions],
      ['EnableModeration', list.enableModeration], ['EnableRequestSignOff', true], ['EnableVersioning', list.enableVersioning],
      ['EntityTypeName', list.entityTypeName], ['ExemptFromBlockDownloadOfNonViewableFiles', false],
      ['FileSavePostProcessingEnabled', false], ['ForceCheckout', false], ['HasExternalDataSource', false],
      ['Hidden', list.hidden], ['Id', list.id], ['ImagePath', resourcePath('/_layouts/15/images/itgen.png?rev=47')],
      ['ImageUrl', '/_layouts/15/images/itgen.png?rev=47'], ['IrmEnabled', false], ['IrmExpire', false], ['IrmReject', false],
      ['IsApplicationList', false], ['IsCatalog', list.baseTemplate === 112], ['IsPrivate', false], ['ItemCount', list.itemCount],
      ['LastItemDeletedDate', list.lastItemDeletedDate], ['LastItemModifiedDate', list.lastItemModifiedDate],
      ['LastItemUserModifiedDate', list.lastItemModifiedDate], ['ListExperienceOptions', 0],
      ['ListItemEntityTypeFullName', listItemEntityTypeFullName(list.entityTypeName)], ['MajorVersionLimit', list.enableVersioning ? 50 : 0],
      ['MajorWithMinorVersionsLimit', 0], ['MultipleDataList', false], ['NoCrawl', false],
      ['ParentWebPath', resourcePath(web.serverRelativeUrl)], ['ParentWebUrl', web.serverRelativeUrl], ['ParserDisabled', false],
      ['ServerTemplateCanCreateFolders', true], ['TemplateFeatureId', info.featureId], ['Title', list.title],
    ],
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

export function fieldEntity(field: FieldDefinition, owner: FieldOwner, ctx: ApiContext): Entity {
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
  return { type: info.entityType, id: `${ctx.apiUrl}${editLink}`, editLink, props };
}

function schemaXml(field: FieldDefinition): string {
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
 * them) and `$select=Id` on a folder, and works against SharePoint (docs/compatibility.md). Other
 * types keep refusing an unknown name.
 */
const SELECT_PASSES_UNKNOWN: ReadonlySet<string> = new Set(['SP.Folder', 'SP.File']);

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
