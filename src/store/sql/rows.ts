// Database rows → domain records, for the tables every repository reads.

import type { Field, FieldOptions, List, Site, Web } from '../../domain/model.ts';
import type { FieldKind } from '../../domain/field-kinds.ts';
import { ratingExperienceOf } from '../../domain/ratings.ts';

export const bool = (v: unknown) => Number(v) === 1;
/** Server-relative URLs compare lower-cased, without a trailing slash (the root stays '/'). */
export const urlKey = (url: string) => url.toLowerCase().replace(/\/+$/, '') || '/';

export function rowToSite(r: any): Site {
  return { id: r.id, url: r.url, title: r.title, rootWebId: r.root_web_id, created: r.created };
}

export function rowToWeb(r: any): Web {
  return {
    id: r.id, siteId: r.site_id, parentId: r.parent_id ?? null, serverRelativeUrl: r.server_relative_url,
    title: r.title, description: r.description, created: r.created, lastItemModified: r.last_item_modified,
    webTemplate: r.web_template, language: Number(r.language), siteLogoUrl: r.site_logo_url ?? null,
    properties: r.properties ? JSON.parse(r.properties) as Record<string, string> : {},
  };
}

export function rowToList(r: any): List {
  return {
    rowId: Number(r.row_id), id: r.id, webId: r.web_id, title: r.title, description: r.description,
    baseTemplate: Number(r.base_template), baseType: Number(r.base_type), serverRelativeUrl: r.server_relative_url,
    entityTypeName: r.entity_type_name, hidden: bool(r.hidden), enableVersioning: bool(r.enable_versioning),
    enableModeration: bool(r.enable_moderation), enableMinorVersions: bool(r.enable_minor_versions),
    disableCommenting: bool(r.disable_commenting), ratingExperience: ratingExperienceOf(r.rating_experience),
    created: r.created, lastItemModifiedDate: r.last_item_modified, lastItemDeletedDate: r.last_item_deleted,
    itemCount: Number(r.item_count), version: Number(r.version), tableName: r.table_name,
  };
}

export function rowToField(r: any): Field {
  return {
    rowId: Number(r.row_id), id: r.id, listRowId: Number(r.list_row_id), internalName: r.internal_name,
    title: r.title, kind: r.kind as FieldKind, required: bool(r.required), indexed: bool(r.indexed),
    hidden: bool(r.hidden), readOnly: bool(r.read_only), builtIn: bool(r.built_in), column: r.column_name,
    position: Number(r.position), options: JSON.parse(r.options) as FieldOptions,
  };
}
