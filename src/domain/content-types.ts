// Content types: SharePoint's id scheme and the built-in types every site has. An id is its
// parent's id and a suffix: two hex digits (`0x01` Item → `0x0101` Document), or `00` and a
// GUID's 32 hex digits (what a list's own copy of a type, and most custom types, use).

export interface FieldLink {
  /** The field's id (a GUID). */
  id: string;
  /** The field's internal name. */
  name: string;
  required: boolean;
  hidden: boolean;
}

export interface ContentType {
  /** `0x0101…`, upper-case hex after `0x`. */
  id: string;
  name: string;
  description: string;
  group: string;
  hidden: boolean;
  readOnly: boolean;
  sealed: boolean;
  fieldLinks: FieldLink[];
  /** Where it is defined: a web (site content type), a list (a list's content type), or nowhere (built in). */
  scope: { kind: 'builtIn' } | { kind: 'web'; webId: string } | { kind: 'list'; listRowId: number };
}

const TITLE: FieldLink = { id: 'fa564e0f-0c70-4ab9-b863-0177e6ddd247', name: 'Title', required: true, hidden: false };
const FILE_LEAF_REF: FieldLink = { id: '8553196d-ec8d-4564-9861-3dbe931050c8', name: 'FileLeafRef', required: true, hidden: false };

const builtIn = (id: string, name: string, group: string, fieldLinks: FieldLink[], extra: Partial<ContentType> = {}): ContentType =>
  ({ id, name, description: '', group, hidden: false, readOnly: false, sealed: false, fieldLinks, scope: { kind: 'builtIn' }, ...extra });

/** The built-in content types spemu knows (SharePoint Online has more; these are the ones lists and libraries use). */
export const BUILT_IN_CONTENT_TYPES: readonly ContentType[] = [
  builtIn('0x', 'System', '_Hidden', [], { hidden: true, readOnly: true, sealed: true }),
  builtIn('0x01', 'Item', 'List Content Types', [TITLE]),
  builtIn('0x0101', 'Document', 'Document Content Types', [FILE_LEAF_REF, { ...TITLE, required: false }]),
  builtIn('0x010101', 'Form', 'Document Content Types', [FILE_LEAF_REF, { ...TITLE, required: false }]),
  builtIn('0x010102', 'Picture', 'Document Content Types', [FILE_LEAF_REF, { ...TITLE, required: false }]),
  builtIn('0x010105', 'Master Page', '_Hidden', [FILE_LEAF_REF], { hidden: true }),
  builtIn('0x010108', 'Wiki Page', 'Document Content Types', [FILE_LEAF_REF]),
  builtIn('0x010109', 'Basic Page', 'Document Content Types', [FILE_LEAF_REF]),
  builtIn('0x01010A', 'Link to a Document', 'Document Content Types', [FILE_LEAF_REF]),
  builtIn('0x0101009D1CB255DA76424F860D91F20E6C4118', 'Site Page', 'Document Content Types', [FILE_LEAF_REF, { ...TITLE, required: false }]),
  builtIn('0x0102', 'Event', 'List Content Types', [TITLE]),
  builtIn('0x0103', 'Issue', 'List Content Types', [TITLE]),
  builtIn('0x0104', 'Announcement', 'List Content Types', [TITLE]),
  builtIn('0x0105', 'Link', 'List Content Types', []),
  builtIn('0x0106', 'Contact', 'List Content Types', [{ ...TITLE, name: 'Title' }]),
  builtIn('0x0107', 'Message', 'List Content Types', [TITLE]),
  builtIn('0x0108', 'Task', 'List Content Types', [TITLE]),
  builtIn('0x010A', 'Person', '_Hidden', [TITLE], { hidden: true }),
  builtIn('0x0120', 'Folder', 'Folder Content Types', [FILE_LEAF_REF], { sealed: true }),
];

/** Normal form of a content type id: `0x` and upper-case hex. Undefined if it is none. */
export function normaliseContentTypeId(text: string): string | undefined {
  const m = /^0x([0-9a-f]*)$/i.exec(text.trim());
  if (!m || m[1]!.length % 2 !== 0) return undefined;
  return `0x${m[1]!.toUpperCase()}`;
}

/** The parent's id: without the last two hex digits, or without `00` and a GUID. */
export function parentContentTypeId(id: string): string | undefined {
  if (id === '0x') return undefined;
  const guidChild = /^(0x[0-9A-F]*)00[0-9A-F]{32}$/.exec(id);
  if (guidChild && guidChild[1]!.length >= 2) return guidChild[1] === '0x' ? '0x' : guidChild[1];
  return id.length > 4 ? id.slice(0, -2) : '0x';
}

/** Whether `id` is `ancestor` or descends from it. */
export const inheritsFrom = (id: string, ancestor: string): boolean => id.toUpperCase().startsWith(ancestor.toUpperCase());

/** A new child id for a copy of `parent` (a list's own content type): parent + `00` + a GUID's hex. */
export const childContentTypeId = (parent: string, guid: string): string => `${parent}00${guid.replace(/-/g, '').toUpperCase()}`;
