// The JSON light family: OData v3 `odata=minimalmetadata` / `nometadata` (and plain
// `application/json`) and OData v4 `odata.metadata=minimal|none|full`. They share one
// shape and differ in annotation names and in how much metadata they write.

import type { SpError } from './errors.ts';
import { writeJson, type Json, type JsonObject } from './json-writer.ts';
import type { SerializeContext, Serializer } from './serializer.ts';
import { EdmDouble, type Entity, type Payload, type Value } from './values.ts';

type Version = 'v3' | 'v4';
type Level = 'minimal' | 'none' | 'full';

interface Annotations {
  context: string;
  type: string;
  id: string;
  etag: string;
  editLink: string;
  /** Suffix of a navigation property's link annotation. */
  navigation: string;
  nextLink: string;
  nullValue: string;
  /** v4 type names start with `#`. */
  typePrefix: string;
  /** What follows the entity set name for a single entity. */
  element: string;
}

const ANNOTATIONS: Record<Version, Annotations> = {
  v3: {
    context: 'odata.metadata', type: 'odata.type', id: 'odata.id', etag: 'odata.etag', editLink: 'odata.editLink',
    navigation: '@odata.navigationLinkUrl', nextLink: 'odata.nextLink', nullValue: 'odata.null', typePrefix: '', element: '/@Element',
  },
  v4: {
    context: '@odata.context', type: '@odata.type', id: '@odata.id', etag: '@odata.etag', editLink: '@odata.editLink',
    navigation: '@odata.navigationLink', nextLink: '@odata.nextLink', nullValue: '@odata.null', typePrefix: '#', element: '/$entity',
  },
};

export function lightSerializer(version: Version, level: Level): Serializer {
  const a = ANNOTATIONS[version];
  const withMetadata = level !== 'none';

  function value(v: Value, ctx: SerializeContext): Json {
    if (v === null || typeof v !== 'object' || v instanceof EdmDouble) return v;
    switch (v.kind) {
      case 'collection':
        return v.items.map((i) => value(i, ctx));
      case 'complex': {
        // Complex values carry no type annotation in JSON light (e.g. SP.FieldUrlValue).
        const out: JsonObject = {};
        for (const [k, p] of v.props) out[k] = value(p, ctx);
        return out;
      }
      case 'expanded':
        if (v.value === null) return null;
        return Array.isArray(v.value) ? v.value.map((e) => entity(e, ctx)) : entity(v.value, ctx);
    }
  }

  function entity(e: Entity, ctx: SerializeContext): JsonObject {
    const out: JsonObject = {};
    if (withMetadata) {
      out[a.type] = a.typePrefix + e.type;
      if (e.id !== undefined) out[a.id] = e.id;
      if (!e.minimalMetadata) {
        if (e.etag !== undefined) out[a.etag] = e.etag;
        if (e.editLink !== undefined) out[a.editLink] = e.editLink;
      }
      if (level === 'full' && e.editLink !== undefined) {
        for (const nav of e.deferred ?? []) out[nav + a.navigation] = `${e.editLink}/${nav}`;
      }
    }
    for (const [k, v] of e.props) {
      if (withMetadata && v !== null && typeof v === 'object' && !(v instanceof EdmDouble) && v.kind === 'expanded') {
        out[k + a.navigation] = v.navigationLink;
      }
      out[k] = value(v, ctx);
    }
    return out;
  }

  function context(ctx: SerializeContext, name: string): string {
    return `${ctx.apiUrl}$metadata#${name}${ctx.select !== undefined ? `&$select=${ctx.select}` : ''}`;
  }

  return {
    write(payload: Payload, ctx: SerializeContext) {
      const out: JsonObject = {};
      switch (payload.kind) {
        case 'entity':
          if (withMetadata) out[a.context] = context(ctx, payload.metadataName + a.element);
          Object.assign(out, entity(payload.entity, ctx));
          return writeJson(out);
        case 'entitySet':
          if (withMetadata) out[a.context] = context(ctx, payload.metadataName);
          out.value = payload.entities.map((e) => entity(e, ctx));
          // Written in every level: harmless, and paging clients need it (reference §2).
          if (payload.nextLink) out[a.nextLink] = payload.nextLink;
          return writeJson(out);
        case 'primitive':
          if (payload.value === null) {
            if (withMetadata) out[a.context] = `${ctx.apiUrl}$metadata#Edm.Null`;
            out[a.nullValue] = true;
            return writeJson(out);
          }
          if (withMetadata) out[a.context] = `${ctx.apiUrl}$metadata#${payload.edmType}`;
          // A complex result's properties sit at the top level (contextinfo's SP.ContextWebInformation).
          if (typeof payload.value === 'object' && !(payload.value instanceof EdmDouble) && payload.value.kind === 'complex') {
            Object.assign(out, value(payload.value, ctx));
            return writeJson(out);
          }
          out.value = value(payload.value, ctx);
          return writeJson(out);
      }
    },
    error(err: SpError) {
      return version === 'v4'
        ? writeJson({ error: { code: err.code, message: err.message } })
        : writeJson({ 'odata.error': { code: err.code, message: { lang: 'en-US', value: err.message } } });
    },
  };
}
