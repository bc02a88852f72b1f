// List templates: where a list of each template lives, its base type, and the fields it
// is born with. Built-in field ids are SharePoint's own well-known ones.

import type { NewField } from './model.ts';
import { entityTypeNameFor, listUrlNameFromTitle } from './names.ts';
import { relatedItemsField, TASKS_TEMPLATE } from './related-items.ts';
import { sitePagesFields } from './site-pages.ts';

export const USER_INFO_LIST_TEMPLATE = 112;
/** The Web Part Gallery (`_catalogs/wp`): a site collection's catalog, on its root web. */
export const WEB_PART_CATALOG_TEMPLATE = 113;
/** The catalogs a site has and the URL of each (`web.getCatalog(type)`); made with the site, never by a client. */
export const CATALOGS: Readonly<Record<number, { title: string; relativeUrl: string }>> = {
  [USER_INFO_LIST_TEMPLATE]: { title: 'User Information List', relativeUrl: '_catalogs/users' },
  [WEB_PART_CATALOG_TEMPLATE]: { title: 'Web Part Gallery', relativeUrl: '_catalogs/wp' },
};
export const DOCUMENT_LIBRARY_TEMPLATE = 101;
/** Site Pages: a library of pages. */
export const SITE_PAGES_TEMPLATE = 119;
/** The library every site is born with. */
export const DEFAULT_LIBRARY = { title: 'Documents', relativeUrl: 'Shared Documents' } as const;
/** The libraries a new team site (and a new subweb) starts with: Documents, Site Assets, Site Pages (template 119). */
export const TEAM_SITE_LIBRARIES: ReadonlyArray<{ title: string; relativeUrl: string; baseTemplate: number }> = [
  { title: DEFAULT_LIBRARY.title, relativeUrl: DEFAULT_LIBRARY.relativeUrl, baseTemplate: DOCUMENT_LIBRARY_TEMPLATE },
  { title: 'Site Assets', relativeUrl: 'SiteAssets', baseTemplate: DOCUMENT_LIBRARY_TEMPLATE },
  { title: 'Site Pages', relativeUrl: 'SitePages', baseTemplate: SITE_PAGES_TEMPLATE },
];

export interface TemplateInfo {
  baseType: 0 | 1;
  /** Lists live under `Lists/`; libraries at the web root; catalogs have fixed URLs. */
  location: 'lists' | 'root';
  /** The site content type its items derive from: 0x01 Item, 0x0101 Document, 0x010A Person. */
  parentContentTypeId: string;
  featureId: string;
}

const GENERIC: TemplateInfo = { baseType: 0, location: 'lists', parentContentTypeId: '0x01', featureId: '00bfea71-de22-43b2-a848-c05709900100' };
const TEMPLATES: Record<number, TemplateInfo> = {
  100: GENERIC,
  101: { baseType: 1, location: 'root', parentContentTypeId: '0x0101', featureId: '00bfea71-e717-4e80-aa17-d0c71b360101' },
  103: { ...GENERIC, featureId: '00bfea71-2062-426c-90bf-714c59600103' },
  104: { ...GENERIC, featureId: '00bfea71-d1ce-42de-9c63-a44004ce0104' },
  105: { ...GENERIC, featureId: '00bfea71-7e6d-4186-9ba8-c047ac750105' },
  106: { ...GENERIC, featureId: '00bfea71-ec85-4903-972d-ebe475780106' },
  107: { ...GENERIC, featureId: '00bfea71-a83e-497e-9ba0-7a5c597d0107' },
  112: { baseType: 0, location: 'root', parentContentTypeId: '0x010A', featureId: '00000000-0000-0000-0000-000000000000' },
  113: { baseType: 1, location: 'root', parentContentTypeId: '0x0101', featureId: '00000000-0000-0000-0000-000000000000' },
  119: { baseType: 1, location: 'root', parentContentTypeId: '0x0101', featureId: '00000000-0000-0000-0000-000000000000' },
};

export const templateInfo = (template: number): TemplateInfo => TEMPLATES[template] ?? GENERIC;
/** A list's own content type: its parent's id, `00`, and a GUID (`0x0100` + 32 hex digits for items). */
export const listContentTypeId = (template: number, listId: string): string =>
  `${templateInfo(template).parentContentTypeId}00${listId.replace(/-/g, '').toUpperCase()}`;

export const isKnownTemplate = (template: number): boolean => template in TEMPLATES;

/** Where a new list with this title goes, relative to its web, and its entity type name. */
export function newListLocation(title: string, template: number): { relativeUrl: string; entityTypeName: string } {
  if (template === USER_INFO_LIST_TEMPLATE) return { relativeUrl: '_catalogs/users', entityTypeName: 'UserInfo' };
  // SharePoint's name for a catalog's items: its URL with `_` and `/` encoded (`OData__x005f_catalogs_x002f_wp`).
  if (CATALOGS[template]) return { relativeUrl: CATALOGS[template]!.relativeUrl, entityTypeName: `OData__x005f_catalogs_x002f_${CATALOGS[template]!.relativeUrl.split('/')[1]}` };
  const name = listUrlNameFromTitle(title);
  const underLists = templateInfo(template).location === 'lists';
  return { relativeUrl: underLists ? `Lists/${name}` : name, entityTypeName: entityTypeNameFor(name, underLists) };
}

/** The entity type name of a list whose root folder is at `relativeUrl` (relative to its web). */
export function entityTypeNameForUrl(relativeUrl: string): string {
  const segments = relativeUrl.split('/').filter(Boolean);
  const underLists = segments.length > 1 && segments[0]!.toLowerCase() === 'lists';
  return entityTypeNameFor(segments[segments.length - 1] ?? 'List', underLists);
}

const builtIn = (column: string, id: string, f: Omit<NewField, 'builtIn' | 'options'>): NewField => ({
  ...f, options: {}, builtIn: { column, id },
});

/** The fields every list has, in SharePoint's order. */
export function builtInFields(): NewField[] {
  const system = { required: false, indexed: false, hidden: false, readOnly: true };
  return [
    builtIn('content_type_id', '03e45e84-1992-4d42-9116-26f756012634', { ...system, hidden: true, internalName: 'ContentTypeId', title: 'Content Type ID', kind: 'ContentTypeId' }),
    builtIn('title', 'fa564e0f-0c70-4ab9-b863-0177e6ddd247', { ...system, readOnly: false, required: true, internalName: 'Title', title: 'Title', kind: 'Text' }),
    builtIn('id', '1d22ea11-1e32-424e-89ab-9fedbadb6ce1', { ...system, internalName: 'ID', title: 'ID', kind: 'Counter' }),
    builtIn('modified', '28cf69c5-fa48-462a-b5cd-27b6f9d2bd5f', { ...system, internalName: 'Modified', title: 'Modified', kind: 'DateTime' }),
    builtIn('created', '8c06beca-0777-48f7-91c7-6da68bc07b69', { ...system, internalName: 'Created', title: 'Created', kind: 'DateTime' }),
    builtIn('author_id', '1df5e554-ec7e-46a6-901d-d85a3881cb18', { ...system, internalName: 'Author', title: 'Created By', kind: 'User' }),
    builtIn('editor_id', 'd31655d1-1d5b-4511-95a1-7a09e9b75bf2', { ...system, internalName: 'Editor', title: 'Modified By', kind: 'User' }),
    builtIn('version', 'd4e44a66-ee3a-4d02-88c9-4ec5ff3f4cd5', { ...system, hidden: true, internalName: 'owshiddenversion', title: 'owshiddenversion', kind: 'Integer' }),
    builtIn('ui_version', 'dce8262a-3ae9-45aa-aab4-83bd75fb738a', { ...system, hidden: true, internalName: '_UIVersionString', title: 'Version', kind: 'Text' }),
    builtIn('attachments', '67df98f4-9dec-48ff-a553-29bece9c5bf4', { ...system, internalName: 'Attachments', title: 'Attachments', kind: 'Attachments' }),
    builtIn('guid', 'ae069f25-3ac2-4256-b9c3-15dbc15da0e0', { ...system, hidden: true, internalName: 'GUID', title: 'GUID', kind: 'Guid' }),
  ];
}

const plain = (internalName: string, title: string, kind: NewField['kind']): NewField =>
  ({ internalName, title, kind, required: false, indexed: false, hidden: false, options: {} });

/** Fields a template adds beyond the built-in ones. */
export function templateFields(template: number): NewField[] {
  // A Tasks list holds its items' related-item links (domain/related-items.ts).
  if (template === TASKS_TEMPLATE) return [relatedItemsField()];
  // Site Pages' items are modern pages: their canvas, title area, layout and news state (domain/site-pages.ts).
  if (template === SITE_PAGES_TEMPLATE) return sitePagesFields();
  if (template !== USER_INFO_LIST_TEMPLATE) return [];
  return [
    { ...plain('Name', 'Account', 'Text'), indexed: true },
    { ...plain('EMail', 'Work email', 'Text'), indexed: true },
    plain('OtherMail', 'Other Mail', 'Text'),
    plain('UserExpiration', 'User Expiration', 'DateTime'),
    plain('UserLastDeletionTime', 'User Last Deletion Time', 'DateTime'),
    plain('MobilePhone', 'Mobile phone', 'Text'),
    plain('Notes', 'About me', 'Note'),
    plain('SipAddress', 'SIP Address', 'Text'),
    plain('IsSiteAdmin', 'Is Site Admin', 'Boolean'),
    plain('Deleted', 'Deleted', 'Boolean'),
    plain('UserInfoHidden', 'Hidden', 'Boolean'),
    plain('Picture', 'Picture', 'URL'),
    plain('Department', 'Department', 'Text'),
    plain('JobTitle', 'Title', 'Text'),
    plain('FirstName', 'First name', 'Text'),
    plain('LastName', 'Last name', 'Text'),
    plain('WorkPhone', 'Work phone', 'Text'),
    { ...plain('UserName', 'User name', 'Text'), indexed: true },
    plain('WebSite', 'Web site', 'URL'),
    plain('Office', 'Office', 'Text'),
  ];
}
