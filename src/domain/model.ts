// The domain's records: what a site, web, list, field and item are, independent of
// storage and of HTTP. Dates are ISO 8601 strings in UTC with second precision
// (`2026-01-05T10:00:00Z`), exactly as SharePoint's `_api` writes them.

import type { RatingExperience } from './ratings.ts';
import type { CalculatedOutput } from './calculated.ts';
import type { FieldKind } from './field-kinds.ts';

export interface Site {
  id: string;
  /** Server-relative URL: `/`, `/sites/dev`, `/teams/x`. */
  url: string;
  title: string;
  rootWebId: string;
  created: string;
}

export interface Web {
  id: string;
  siteId: string;
  parentId: string | null;
  serverRelativeUrl: string;
  title: string;
  description: string;
  created: string;
  lastItemModified: string;
  webTemplate: string;
  language: number;
  /** SP.Web.SiteLogoUrl: as it was set (setsitelogo's WebLogo, a MERGE), null while none is. */
  siteLogoUrl: string | null;
  /** The web's own property bag entries (CSOM's AllProperties.SetFieldValue), by key. */
  properties: Readonly<Record<string, string>>;
}

export interface List {
  /** Internal numeric key; never on the wire. */
  rowId: number;
  id: string;
  webId: string;
  title: string;
  description: string;
  baseTemplate: number;
  baseType: number;
  /** Root folder, server-relative: `/sites/dev/Lists/Tasks`. */
  serverRelativeUrl: string;
  /** `TasksList`, `Shared_x0020_Documents`, `UserInfo`: fixed at creation from the URL. */
  entityTypeName: string;
  hidden: boolean;
  created: string;
  lastItemModifiedDate: string;
  lastItemDeletedDate: string;
  itemCount: number;
  /** Bumped on every change to the list's own properties: the list's etag. */
  version: number;
  enableVersioning: boolean;
  /** Content approval: new content waits for Approve or Deny (`_ModerationStatus`). */
  enableModeration: boolean;
  /** Minor versions (drafts) besides major ones: document libraries only. */
  enableMinorVersions: boolean;
  /** SP.List DisableCommenting: its items take no new comments. */
  disableCommenting: boolean;
  /** Its rating settings (root folder's `Ratings_VotingExperience`): '' none, stars or likes (domain/ratings.ts). */
  ratingExperience: RatingExperience;
  /** The per-list item table. */
  tableName: string;
}

export interface FieldOptions {
  choices?: string[];
  lookupListId?: string;
  lookupField?: string;
  maxLength?: number;
  richText?: boolean;
  dateOnly?: boolean;
  min?: number;
  max?: number;
  defaultValue?: string | null;
  description?: string;
  enforceUniqueValues?: boolean;
  /** The group a site column is listed under (SharePoint's `Group`; `Custom Columns` when none). */
  group?: string;
  /** `setShowInDisplayForm|EditForm|NewForm`: absent until set (SharePoint omits the attribute then). */
  showInDisplayForm?: boolean;
  showInEditForm?: boolean;
  showInNewForm?: boolean;
  /** Calculated: the formula (`=[Cost]*2`), checked when set (domain/calculated.ts). */
  formula?: string;
  /** Calculated: the type its values are stored and sent as; `dateOnly` is its DateFormat. */
  outputType?: CalculatedOutput;
  /**
   * A dependent (secondary) lookup: the id of the primary lookup whose target item it shows
   * (`lookupField` of it). It has no value of its own: in a list it reads the primary's column.
   */
  primaryFieldId?: string;
}

/** What a field is wherever it lives: a list's column or a web's site column. */
export interface FieldDefinition {
  id: string;
  internalName: string;
  title: string;
  kind: FieldKind;
  required: boolean;
  indexed: boolean;
  hidden: boolean;
  readOnly: boolean;
  /** Built-in fields keep their shape: a list's fixed item columns, a root web's built-in site columns. */
  builtIn: boolean;
  options: FieldOptions;
}

/** A site column: a field a web holds for its lists (and its subwebs' lists) to use. */
export interface SiteColumn extends FieldDefinition {
  /** Internal numeric key; 0 for the built-in site columns, which are not stored. */
  rowId: number;
  webId: string;
}

export interface Field extends FieldDefinition {
  rowId: number;
  id: string;
  listRowId: number;
  internalName: string;
  title: string;
  kind: FieldKind;
  required: boolean;
  indexed: boolean;
  hidden: boolean;
  readOnly: boolean;
  /** Built-in fields map onto fixed item columns; others onto `c<rowId>`. */
  builtIn: boolean;
  column: string;
  position: number;
  options: FieldOptions;
}

/** A stored item value as the database holds it (see field-kinds for each kind's form). */
export type StoredValue = string | number | null;

export interface Item {
  id: number;
  guid: string;
  contentTypeId: string;
  created: string;
  modified: string;
  authorId: number;
  editorId: number;
  /** owshiddenversion: the etag, bumped on every write. */
  version: number;
  /** Major version shown in _UIVersionString. */
  uiVersion: number;
  /** Minor version (a draft), in a library with minor versions; else 0. */
  minorVersion: number;
  /** Field values keyed by field internal name, in stored form. */
  values: Record<string, StoredValue>;
  /** Where the item is in its list's folder tree. */
  place: ItemPlace;
  /** How many attachments the item has (absent: none). */
  attachments?: number | undefined;
  /** A document's content and check-out state (files of a library only). */
  file?: FileFacts | undefined;
}

/** An item's place: a folder or not, its name in its folder (files and folders), the folder it is in. */
export interface ItemPlace {
  /** FSObjType 1. */
  folder: boolean;
  /** FileLeafRef of a file or folder; null for an ordinary item (named `<id>_.000`). */
  name: string | null;
  /** The folder it is in, relative to the list's root folder: '' for the root, else `A/B`. */
  dir: string;
}

export interface FileFacts {
  /** The blob holding the current content (store/blobs.ts). */
  blobId: string;
  size: number;
  /** The site user holding it checked out, or null. */
  checkedOutBy: number | null;
  checkInComment: string;
}

export type SiteRoleName = 'owner' | 'member' | 'visitor' | 'none';

/** Who is acting: the identity layer fills this; the domain only records it. */
export interface Principal {
  /** The acting user's id in the site collection's User Information List. */
  userId: number;
  /** Claims login, `i:0#.f|membership|alice@contoso.onmicrosoft.com`. */
  loginName: string;
  /** The directory user; null for SharePoint's System Account. */
  upn: string | null;
  /** The strongest role the user holds on the site, directly or through a group. */
  role: SiteRoleName;
  /** How the request proved who it is; digests are required for cookie and Basic writes. */
  via: 'basic' | 'bearer' | 'cookie' | 'anonymous';
}

export interface NewList {
  title: string;
  description: string;
  baseTemplate: number;
  /** Root folder URL relative to the web: `Lists/Tasks`, `Shared Documents`, `_catalogs/users`. */
  relativeUrl: string;
  entityTypeName: string;
  hidden: boolean;
  enableVersioning: boolean;
}

export interface NewField {
  internalName: string;
  title: string;
  kind: FieldKind;
  required: boolean;
  indexed: boolean;
  hidden: boolean;
  readOnly?: boolean;
  options: FieldOptions;
  /** Built-in fields live in a fixed item-table column and keep a well-known id. */
  builtIn?: { column: string; id: string };
  /** The id the new field keeps (createfieldasxml's `ID`: a site column added to a list keeps its id); else a new one. */
  id?: string | undefined;
}
