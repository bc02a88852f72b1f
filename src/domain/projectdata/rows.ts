// Rows as people hand them to spemu — a tenant file's `projectData` section or pages exported
// from Project Online (`GET …/ProjectData/Tasks?$format=json`, verbose or light) — into typed
// rows of the catalogue's sets. Names the feed does not know become custom fields.

import type { EdmType, PdEntitySet, PdProperty, PdRow } from './model.ts';
import { inferType, PdValueError, toPdValue } from './values.ts';
import { PROPERTY_NAME, type PdSiteOptions } from './model.ts';

/** Keys of a site's section that are options, not entity sets. */
export const OPTION_KEYS = new Set(['dates', 'pageSizes', 'readers', 'customFields']);

export interface RowProblem {
  /** Index of the row in the input, and the property (when one is to blame). */
  row: number;
  property?: string | undefined;
  message: string;
}

export interface TypedRows {
  rows: PdRow[];
  /** Custom properties first seen in these rows (to add to the set before writing). */
  added: PdProperty[];
  problems: RowProblem[];
}

/**
 * A custom field name the feed can carry: a CSDL identifier (it names an XML element in Atom and
 * a property in $metadata), without the three Latin-1 letters XML names refuse, at most 480 long.
 */
export function isCustomName(name: string): boolean {
  return name.length <= 480 && PROPERTY_NAME.test(name) && !/[\u00AA\u00B5\u00BA]/.test(name);
}

const suggestName = (name: string) => name.replace(/[^\p{L}\p{Nl}\p{Nd}_]+/gu, '').replace(/^(\p{Nd})/u, '_$1') || 'Field1';

/** Annotations and links in exported JSON that are not data: `__metadata`, `odata.*`, `X@odata.*`, deferred links. */
function isAnnotation(name: string, value: unknown): boolean {
  if (name === '__metadata' || name.startsWith('odata.') || name.includes('@')) return true;
  return typeof value === 'object' && value !== null && !Array.isArray(value) && '__deferred' in value;
}

/**
 * Types `raw` rows for `set` (its current properties, custom ones included). A name that is
 * neither a property nor a navigation becomes a custom property: of the type `declared`
 * gives it, or the type its first non-null value suggests. Rows with problems are left out.
 */
export function typeRows(set: PdEntitySet, raw: readonly unknown[], declared: Record<string, EdmType> = {}): TypedRows {
  const byName = new Map(set.properties.map((p) => [p.name, p]));
  const navigations = new Set(set.navigations.map((n) => n.name));
  const added: PdProperty[] = [];
  const rows: PdRow[] = [];
  const problems: RowProblem[] = [];
  raw.forEach((input, index) => {
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      problems.push({ row: index, message: 'a row must be an object' });
      return;
    }
    const row: PdRow = {};
    let ok = true;
    for (const [name, value] of Object.entries(input)) {
      if (isAnnotation(name, value) || navigations.has(name)) continue;
      let property = byName.get(name);
      if (!property) {
        if (!isCustomName(name)) {
          problems.push({ row: index, property: name, message: `'${name}' cannot be a custom field name: the feed's names are letters, digits and _ (Project drops spaces and other characters, e.g. ${suggestName(name)})` });
          ok = false;
          continue;
        }
        const type = declared[name] ?? inferType(value);
        if (!type) continue; // a custom field seen only as null so far: its type is not known yet
        property = { name, type, nullable: true, custom: true };
        byName.set(name, property);
        added.push(property);
      }
      try {
        row[name] = toPdValue(property.type, value);
      } catch (e) {
        if (!(e instanceof PdValueError)) throw e;
        problems.push({ row: index, property: name, message: `${name}: ${e.message}` });
        ok = false;
      }
    }
    for (const key of set.key) {
      if (row[key] === undefined || row[key] === null) {
        problems.push({ row: index, property: key, message: `the key property ${key} is missing` });
        ok = false;
      }
    }
    if (ok) rows.push(row);
  });
  return { rows, added, problems };
}

/** The site options a `projectData` section states, with defaults: Project Online dates, catalogue page sizes, no extra readers. */
export function sectionOptions(section: Record<string, unknown>): PdSiteOptions {
  return {
    dates: section.dates === 'onprem' ? 'onprem' : 'online',
    pageSizes: { ...(section.pageSizes as Record<string, number> | undefined) },
    readers: [...((section.readers as string[] | undefined) ?? [])],
  };
}

/** The entity-set entries of a section, by set name, each with the custom field types it declares. */
export function sectionSets(section: Record<string, unknown>): Array<{ name: string; rows: unknown; declared: Record<string, EdmType> }> {
  const declared = (section.customFields ?? {}) as Record<string, Record<string, EdmType>>;
  return Object.entries(section)
    .filter(([name]) => !OPTION_KEYS.has(name))
    .map(([name, rows]) => ({ name, rows, declared: declared[name] ?? {} }));
}

/** A built-in set with custom properties appended (as the store's schema() gives it). */
export function withCustom(set: PdEntitySet, custom: readonly PdProperty[]): PdEntitySet {
  return custom.length === 0 ? set : { ...set, properties: [...set.properties, ...custom] };
}
