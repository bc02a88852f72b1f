// A dialect-neutral picture of a response: entities, collections, complex values and
// primitives. The domain and the API layer build these; one serializer per JSON dialect
// writes them out (verbose `{"d":…}`, JSON light minimal/nometadata, OData v4).

import type { Dialect } from './dialect.ts';
import type { SerializeContext } from './serializer.ts';

/** An Edm.Double: written with a fraction (`11.0`) as SharePoint does. */
export class EdmDouble {
  constructor(readonly value: number) {}
}

export interface CollectionValue {
  kind: 'collection';
  /** `Edm.Int32`, `Edm.String`: verbose writes `Collection(<type>)` metadata for strings. */
  elementType: string;
  items: Value[];
  /** Verbose writes only `{"results":[…]}`, without the `Collection(Edm.String)` metadata (SP.UserProfiles.PersonProperties). */
  untyped?: boolean | undefined;
}

export interface ComplexValue {
  kind: 'complex';
  /** `SP.FieldUrlValue`, `SP.KeyValue`, …: verbose writes it in `__metadata`. */
  type: string;
  props: Array<[string, Value]>;
}

/** An expanded navigation property holding one entity or a list of them. */
export interface ExpandedValue {
  kind: 'expanded';
  /** Link to the navigation property, relative to `/_api/`. */
  navigationLink: string;
  value: Entity | Entity[] | null;
}

export type Value = null | string | number | boolean | EdmDouble | CollectionValue | ComplexValue | ExpandedValue;

export interface Entity {
  /** `SP.Data.TasksListItem`, `SP.List`, `SP.Web`. */
  type: string;
  /** `odata.id`/`__metadata.id`: a GUID for list items, an absolute URL for most others. */
  id?: string | undefined;
  /** Canonical address relative to `/_api/` (`Web/Lists(guid'…')/Items(5)`), if addressable. */
  editLink?: string | undefined;
  /** The etag as it goes in the body, quotes included: `"1"`. */
  etag?: string | undefined;
  props: Array<[string, Value]>;
  /** Navigation properties written as `__deferred` stubs in verbose (full projections, or those `$select` names alone). */
  deferred?: string[] | undefined;
  /** Verbose `__metadata` without `uri`/`etag` (expanded users and lookups). */
  minimalMetadata?: boolean | undefined;
}

/**
 * A payload's text in a dialect, written straight from what it was made of by a writer compiled
 * for its shape (item reads: fronts/rest/api/item-writer.ts); undefined: written from the entities.
 */
export type PayloadText = (dialect: Dialect, ctx: SerializeContext) => string | undefined;

export interface EntitySet {
  kind: 'entitySet';
  text?: PayloadText | undefined;
  /** Name after `$metadata#` in JSON light: `SP.ListData.TasksListItems`, `SP.ApiData.Lists`. */
  metadataName: string;
  entities: Entity[];
  /** Absolute URL of the next page, when there is one. */
  nextLink?: string | undefined;
}

export interface SingleEntity {
  kind: 'entity';
  text?: PayloadText | undefined;
  metadataName: string;
  entity: Entity;
}

/** The result of a function or action: `{"d":{"Recycle":"…"}}` / `{"value":"…"}`. */
export interface PrimitiveResult {
  kind: 'primitive';
  /** Verbose wraps the value under the method's name. */
  methodName: string;
  /** `Edm.Guid`, `Edm.String`, `Edm.Null` for the light `odata.metadata` suffix. */
  edmType: string;
  value: Value;
}

export type Payload = EntitySet | SingleEntity | PrimitiveResult;
