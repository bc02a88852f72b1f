// `application/json;odata=verbose`: `{"d":…}`, `__metadata`, `__deferred` stubs and
// `{"results":[…]}` collections (reference §1.2, §2).

import type { SpError } from './errors.ts';
import { writeJson, type Json, type JsonObject } from './json-writer.ts';
import type { SerializeContext, Serializer } from './serializer.ts';
import { EdmDouble, type Entity, type Value } from './values.ts';

function value(v: Value, ctx: SerializeContext): Json {
  if (v === null || typeof v !== 'object' || v instanceof EdmDouble) return v;
  switch (v.kind) {
    case 'collection': {
      const results = v.items.map((i) => value(i, ctx));
      // Strings carry their collection type, as in contextinfo's SupportedSchemaVersions.
      return v.elementType === 'Edm.String' && !v.untyped
        ? { __metadata: { type: `Collection(${v.elementType})` }, results }
        : { results };
    }
    case 'complex': {
      const out: JsonObject = { __metadata: { type: v.type } };
      for (const [k, p] of v.props) out[k] = value(p, ctx);
      return out;
    }
    case 'expanded':
      if (v.value === null) return null;
      return Array.isArray(v.value) ? { results: v.value.map((e) => entity(e, ctx)) } : entity(v.value, ctx);
  }
}

function entity(e: Entity, ctx: SerializeContext): JsonObject {
  const uri = e.editLink !== undefined ? ctx.apiUrl + e.editLink : undefined;
  const metadata: JsonObject = {};
  if (e.id !== undefined) metadata.id = e.id;
  if (!e.minimalMetadata) {
    if (uri !== undefined) metadata.uri = uri;
    if (e.etag !== undefined) metadata.etag = e.etag;
  }
  metadata.type = e.type;
  const out: JsonObject = { __metadata: metadata };
  if (uri !== undefined) {
    for (const nav of e.deferred ?? []) out[nav] = { __deferred: { uri: `${uri}/${nav}` } };
  }
  for (const [k, v] of e.props) out[k] = value(v, ctx);
  return out;
}

export const verboseSerializer: Serializer = {
  write(payload, ctx) {
    switch (payload.kind) {
      case 'entity':
        return writeJson({ d: entity(payload.entity, ctx) });
      case 'entitySet': {
        const d: JsonObject = { results: payload.entities.map((e) => entity(e, ctx)) };
        if (payload.nextLink) d.__next = payload.nextLink;
        return writeJson({ d });
      }
      case 'primitive':
        return writeJson({ d: { [payload.methodName]: value(payload.value, ctx) } });
    }
  },
  error(err: SpError) {
    return writeJson({ error: { code: err.code, message: { lang: 'en-US', value: err.message } } });
  },
};
