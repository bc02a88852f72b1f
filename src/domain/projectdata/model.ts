// The ProjectData reporting schema as data: entity sets, their `ReportingData.<Type>`
// entity types, keys, properties and navigation properties. Everything else (storage,
// `$metadata`, the JSON and Atom writers, the import) is driven from this catalogue.
// Names are exactly as Project's OData feed spells them (case-sensitive, as WCF DS is).

/** The Edm types ProjectData's properties have (custom fields included). */
export const EDM_TYPES = [
  'Edm.Guid', 'Edm.String', 'Edm.DateTime', 'Edm.Decimal', 'Edm.Double',
  'Edm.Int64', 'Edm.Int32', 'Edm.Int16', 'Edm.Byte', 'Edm.Boolean',
] as const;
export type EdmType = (typeof EDM_TYPES)[number];

/**
 * A property value as held in memory and in storage: Guid lower-case text, DateTime
 * milliseconds since 1970-01-01T00:00:00Z (UTC), Decimal/Double/Int* a number, Boolean a
 * boolean, String a string. null for a missing value.
 */
export type PdValue = string | number | boolean | null;
export type PdRow = Record<string, PdValue>;

export interface PdProperty {
  name: string;
  type: EdmType;
  /** Keys are not nullable; everything else is. */
  nullable: boolean;
  /** A custom (enterprise) field from the tenant file or an import, not in the built-in catalogue. */
  custom?: boolean;
}

export interface PdNavigation {
  name: string;
  /** Target entity set name. */
  target: string;
  /** A collection (`Projects(…)/Tasks`) or a single entity (`Tasks(…)/Project`). */
  many: boolean;
  /** Join: each pair is [source property, target property]; the target rows are those equal on every pair. */
  on: Array<[string, string]>;
}

export interface PdEntitySet {
  /** `Tasks` */
  name: string;
  /** `Task`: the type is `ReportingData.Task`. */
  entityType: string;
  /** Key property names in key order (`ProjectId`, `TaskId`). */
  key: string[];
  properties: PdProperty[];
  navigations: PdNavigation[];
  /** Server-driven page size when the site does not override it. */
  defaultPageSize: number;
}

export const NAMESPACE = 'ReportingData';

export interface PdSiteOptions {
  dates: 'online' | 'onprem';
  /** Page size per entity set name, overriding the catalogue's default. */
  pageSizes: Record<string, number>;
  /** Logins or group names (besides the site's owners and members) that may read the feed. */
  readers: string[];
}

export const PROPERTY_NAME = /^[\p{L}\p{Nl}_][\p{L}\p{Nl}\p{Nd}\p{Mn}\p{Mc}\p{Pc}]*$/u;
