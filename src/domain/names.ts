// SharePoint's naming rules: how list URLs, entity type names and field internal names
// are derived, and how internal names become OData property names.

/** XML-name encoding as SharePoint applies it: `My List` → `My_x0020_List`. */
export function encodeXmlName(name: string): string {
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const ch = name[i]!;
    const ok = /[A-Za-z_]/.test(ch) || (i > 0 && /[0-9]/.test(ch));
    out += ok ? ch : `_x${ch.charCodeAt(0).toString(16).padStart(4, '0')}_`;
  }
  return out;
}

/** Characters SharePoint drops when it makes a list URL from a title. */
const URL_UNSAFE = /[~"#%&*:<>?/\\{|}\t\r\n]/g;

/** `My Tasks!` → `My Tasks!`; `a/b` → `ab`; never empty. */
export function listUrlNameFromTitle(title: string): string {
  const cleaned = title.replace(URL_UNSAFE, '').replace(/^[.\s]+|[.\s]+$/g, '').slice(0, 128);
  return cleaned || 'List';
}

/** Lists under `/Lists/` get a `List` suffix; libraries and catalogs use the folder name. */
export function entityTypeNameFor(rootFolderName: string, underListsFolder: boolean): string {
  return encodeXmlName(rootFolderName) + (underListsFolder ? 'List' : '');
}

/** `SP.Data.TasksListItem`: what verbose bodies must carry in `__metadata.type`. */
export const listItemEntityTypeFullName = (entityTypeName: string) => `SP.Data.${entityTypeName}Item`;

/** `SP.ListData.TasksListItems`: the entity set name after `$metadata#` in JSON light. */
export const listItemEntitySetName = (entityTypeName: string) => `SP.ListData.${entityTypeName}Items`;

/** Internal names that begin with `_` are exposed as `OData_<name>` (`OData__UIVersionString`). */
export const odataPropertyName = (internalName: string) =>
  internalName.startsWith('_') ? `OData_${internalName}` : internalName;

/**
 * `_` written as `_x005f_`, as SharePoint writes the keys of FieldValuesAsText and of property
 * bags (`vti_x005f_defaultlanguage`, `OData__x005f_UIVersionString`).
 */
export const encodeUnderscores = (key: string) => key.replace(/_/g, '_x005f_');

/** A new field's internal name from its display name: encoded, at most 32 characters. */
export function internalNameFromTitle(title: string): string {
  return encodeXmlName(title.trim() || 'Field').slice(0, 32);
}

/**
 * A server-relative URL as the prefix of the paths below it: `/sites/dev` stays, the root `/`
 * becomes '' (so `${urlPrefix(url)}/_api/` never starts with `//`).
 */
export const urlPrefix = (serverRelativeUrl: string): string => (serverRelativeUrl === '/' ? '' : serverRelativeUrl);
