// What the ProjectData feed needs from storage. The SQL implementation is
// src/store/sql/projectdata-store.ts (SQLite and PostgreSQL, one query compiler).

import type { Expression } from '../query/ast.ts';
import type { PdEntitySet, PdProperty, PdRow, PdValue, PdSiteOptions } from '../domain/projectdata/model.ts';

export type { PdSiteOptions };

export interface PdSortKey {
  property: string;
  descending: boolean;
}

/** One page of an entity set, compiled to SQL by the store. */
export interface PdQuery {
  /** The set with this site's custom properties already added (see ProjectDataStore.schema). */
  set: PdEntitySet;
  /** `$filter` syntax tree; its member paths are single property names. */
  filter?: Expression | undefined;
  /** The `$filter` text as sent, for error messages. */
  filterText?: string | undefined;
  /** Equalities from the URL: a key (`Tasks(ProjectId=…,TaskId=…)`) or a navigation join. */
  where: Array<{ property: string; value: PdValue }>;
  /**
   * Sort keys, `$orderby` first; the caller appends the key properties so the order is total.
   * Nulls sort first ascending and last descending (as SQL Server, Project's database, does).
   */
  orderBy: PdSortKey[];
  /** Properties to read (undefined: all). Key properties are always read. */
  select?: string[] | undefined;
  /** Rows to return at most. */
  top: number;
  /** `$skip`: rows to pass over after `after`. */
  skip: number;
  /** Keyset position from `$skiptoken`: the values of every `orderBy` property of the last row seen, in order. */
  after?: PdValue[] | undefined;
  /** `$inlinecount=allpages`: also count every row matching `filter` and `where` (ignoring top/skip/after). */
  count?: boolean | undefined;
}

export interface PdPage {
  rows: PdRow[];
  /** More rows follow this page. */
  hasMore: boolean;
  count?: number | undefined;
}

/** Per-site options from the tenant file's `projectData` section. */

export interface ProjectDataStore {
  /** The site's ProjectData options, or undefined when the site is not a PWA site (no feed). */
  options(siteId: string): Promise<PdSiteOptions | undefined>;
  /** Makes the site a PWA site (or updates its options). */
  setOptions(siteId: string, options: PdSiteOptions): Promise<void>;
  /** Every entity set with this site's custom properties appended to the built-in ones. */
  schema(siteId: string): Promise<PdEntitySet[]>;
  /** Adds custom properties to a set (those already present are left alone). */
  addCustomProperties(siteId: string, setName: string, properties: PdProperty[]): Promise<void>;
  /**
   * Inserts rows, or replaces the row with the same key. Atomic per call. Properties a row
   * omits are stored as null. Values are already typed (PdValue per the property's type).
   */
  upsertRows(siteId: string, set: PdEntitySet, rows: PdRow[]): Promise<void>;
  query(siteId: string, query: PdQuery): Promise<PdPage>;
  /** Import bookkeeping, for resumable imports: the marks recorded under a site. */
  importMarks(siteId: string): Promise<Set<string>>;
  addImportMark(siteId: string, mark: string): Promise<void>;
}
