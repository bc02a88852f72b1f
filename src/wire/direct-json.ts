// The payload's JSON text written straight from the neutral model, per dialect, with each
// annotation's key fragment (`,"odata.type":`) made once: no intermediate object tree (issue
// #13). The text is byte for byte what the tree writers (light.ts, verbose.ts) give, which
// stay as the reference (test/unit/direct-json.test.ts compares the two).
//
// A JavaScript object, which the tree writers build, orders integer-like keys first and keeps
// one member per key (the first position, the last value). Entities whose member names could
// meet that (a repeated name, an integer-like one, one that looks like an annotation) are not
// written here: `write` answers undefined and the tree writer writes the payload.

import { encodeKey, jsonString, writeJson, type Json } from './json-writer.ts';
import type { SerializeContext } from './serializer.ts';
import { EdmDouble, type Entity, type Payload, type Value } from './values.ts';

export type DirectWriter = (payload: Payload, ctx: SerializeContext) => string | undefined;

/** Thrown inside a write when an entity's names need the tree writer's object semantics. */
export const NOT_PLAIN = Symbol('not plain');

const INDEX_LIKE = /^(?:0|[1-9]\d*)$/;
const plainNames = new Map<string, boolean>();

/** A member name that can meet no annotation and is not ordered first by an object. */
export function plainName(name: string): boolean {
  let plain = plainNames.get(name);
  if (plain === undefined) {
    plain = !name.includes('@') && !name.startsWith('odata.') && !name.startsWith('__')
      && !(INDEX_LIKE.test(name) && Number(name) < 4294967295);
    if (plainNames.size < 10_000) plainNames.set(name, plain);
  }
  return plain;
}

/** The last member list checked: the entities of one response share theirs, so most checks are a comparison. */
let lastNames: string[] = [];
let lastDeferred: readonly string[] | undefined;
let lastPlain = false;

/** Whether an entity's (or complex value's) member names are all plain and distinct; throws NOT_PLAIN if not. */
function requirePlain(props: ReadonlyArray<readonly [string, Value]>, deferred?: readonly string[]): void {
  if (props.length === lastNames.length && deferred === lastDeferred) {
    let same = true;
    for (let i = 0; i < props.length; i++) if (props[i]![0] !== lastNames[i]) { same = false; break; }
    if (same) { if (lastPlain) return; throw NOT_PLAIN; }
  }
  const seen = new Set<string>();
  let plain = true;
  for (const name of deferred ?? []) { if (seen.has(name) || !plainName(name)) plain = false; seen.add(name); }
  for (const [name] of props) { if (seen.has(name) || !plainName(name)) plain = false; seen.add(name); }
  lastNames = props.map((p) => p[0]);
  lastDeferred = deferred;
  lastPlain = plain;
  if (!plain) throw NOT_PLAIN;
}

/** `"name":` per member name, made once (names repeat in every entity of a response); bounded as encodeKey is. */
const memberKeys = new Map<string, string>();
export function key(name: string): string {
  let k = memberKeys.get(name);
  if (k === undefined) {
    k = `${encodeKey(name)}:`;
    if (memberKeys.size < 10_000) memberKeys.set(name, k);
  }
  return k;
}
const isModel = (v: Value): v is Exclude<Value, null | string | number | boolean | EdmDouble> =>
  v !== null && typeof v === 'object' && !(v instanceof EdmDouble);

/** A value the tree writers pass through as it is (a scalar, or what the model does not know: written `{}`, as they do). */
const scalar = (v: unknown) => writeJson(v as Json);

export type Version = 'v3' | 'v4';
export type Level = 'minimal' | 'none' | 'full';

export const LIGHT_ANNOTATIONS = {
  v3: { context: 'odata.metadata', type: 'odata.type', id: 'odata.id', etag: 'odata.etag', editLink: 'odata.editLink', navigation: '@odata.navigationLinkUrl', nextLink: 'odata.nextLink', nullValue: 'odata.null', typePrefix: '', element: '/@Element' },
  v4: { context: '@odata.context', type: '@odata.type', id: '@odata.id', etag: '@odata.etag', editLink: '@odata.editLink', navigation: '@odata.navigationLink', nextLink: '@odata.nextLink', nullValue: '@odata.null', typePrefix: '#', element: '/$entity' },
};

/**
 * A property value that holds no entity (a scalar, a collection, a complex value) in JSON light,
 * which writes it alike in every version and level: what compiled writers (fronts/rest/api/
 * item-writer.ts) write an item's own properties with. Throws NOT_PLAIN as the writers do.
 */
export function lightPropertyValue(v: Value): string {
  if (!isModel(v)) return scalar(v);
  switch (v.kind) {
    case 'collection': {
      let out = '[';
      for (let i = 0; i < v.items.length; i++) out += (i ? ',' : '') + lightPropertyValue(v.items[i]!);
      return `${out}]`;
    }
    case 'complex': {
      requirePlain(v.props);
      let out = '';
      for (let i = 0; i < v.props.length; i++) out += `${i ? ',' : ''}${key(v.props[i]![0])}${lightPropertyValue(v.props[i]![1])}`;
      return `{${out}}`;
    }
    default:
      throw NOT_PLAIN;
  }
}

/** The same in verbose (verboseDirect's shapes). */
export function verbosePropertyValue(v: Value): string {
  if (!isModel(v)) return scalar(v);
  switch (v.kind) {
    case 'collection': {
      let out = `{${v.elementType === 'Edm.String' && !v.untyped ? VERBOSE_STRING_COLLECTION : ''}${key('results')}[`;
      for (let i = 0; i < v.items.length; i++) out += (i ? ',' : '') + verbosePropertyValue(v.items[i]!);
      return `${out}]}`;
    }
    case 'complex': {
      requirePlain(v.props);
      let out = `{${key('__metadata')}{${key('type')}${scalar(v.type)}}`;
      for (const [k, p] of v.props) out += `,${key(k)}${verbosePropertyValue(p)}`;
      return `${out}}`;
    }
    default:
      throw NOT_PLAIN;
  }
}
const VERBOSE_STRING_COLLECTION = `${key('__metadata')}{${key('type')}${jsonString('Collection(Edm.String)')}},`;

/** JSON light (light.ts's shapes): v3 minimal/nometadata, v4 minimal/none/full. */
export function lightDirect(version: Version, level: Level): DirectWriter {
  const a = LIGHT_ANNOTATIONS[version];
  const withMetadata = level !== 'none';
  const K = { context: key(a.context), type: key(a.type), id: key(a.id), etag: key(a.etag), editLink: key(a.editLink), nextLink: key(a.nextLink), nullValue: key(a.nullValue), value: key('value') };
  /** `"Name@odata.navigationLinkUrl":` per property name, and each type name's annotation value, made once (bounded). */
  const navKeys = new Map<string, string>();
  const navKey = (name: string) => {
    let k = navKeys.get(name);
    if (k === undefined) {
      k = key(name + a.navigation);
      if (navKeys.size < 10_000) navKeys.set(name, k);
    }
    return k;
  };
  const typeValues = new Map<string, string>();
  const typeValue = (type: string) => {
    let v = typeValues.get(type);
    if (v === undefined) {
      v = jsonString(a.typePrefix + type);
      if (typeValues.size < 10_000) typeValues.set(type, v);
    }
    return v;
  };

  function value(v: Value): string {
    if (!isModel(v)) return scalar(v);
    switch (v.kind) {
      case 'collection': {
        let out = '[';
        for (let i = 0; i < v.items.length; i++) out += (i ? ',' : '') + value(v.items[i]!);
        return `${out}]`;
      }
      case 'complex':
        requirePlain(v.props);
        return `{${members(v.props)}}`;
      case 'expanded':
        if (v.value === null) return 'null';
        if (!Array.isArray(v.value)) return entity(v.value);
        let out = '[';
        for (let i = 0; i < v.value.length; i++) out += (i ? ',' : '') + entity(v.value[i]!);
        return `${out}]`;
      default:
        return scalar(undefined);
    }
  }

  /** `"name":value,…` of plain, distinct members. */
  function members(props: ReadonlyArray<readonly [string, Value]>): string {
    let out = '';
    for (let i = 0; i < props.length; i++) out += `${i ? ',' : ''}${key(props[i]![0])}${value(props[i]![1])}`;
    return out;
  }

  /** An entity's members, without the braces ('' when it has none). */
  function entityMembers(e: Entity): string {
    const full = withMetadata && level === 'full' && e.editLink !== undefined;
    requirePlain(e.props, full ? e.deferred : undefined);
    let out = '';
    if (withMetadata) {
      out += K.type + typeValue(e.type);
      if (e.id !== undefined) out += `,${K.id}${scalar(e.id)}`;
      if (!e.minimalMetadata) {
        if (e.etag !== undefined) out += `,${K.etag}${scalar(e.etag)}`;
        if (e.editLink !== undefined) out += `,${K.editLink}${scalar(e.editLink)}`;
      }
      if (full) for (const nav of e.deferred ?? []) out += `,${navKey(nav)}${jsonString(`${e.editLink}/${nav}`)}`;
    }
    for (const [k, v] of e.props) {
      const sep = out === '' ? '' : ',';
      if (withMetadata && isModel(v) && v.kind === 'expanded') out += `${sep}${navKey(k)}${scalar(v.navigationLink)},${key(k)}${value(v)}`;
      else out += `${sep}${key(k)}${value(v)}`;
    }
    return out;
  }

  const entity = (e: Entity) => `{${entityMembers(e)}}`;
  const context = (ctx: SerializeContext, name: string) => jsonString(`${ctx.apiUrl}$metadata#${name}${ctx.select !== undefined ? `&$select=${ctx.select}` : ''}`);
  /** `{` and the context annotation, with its comma when something follows. */
  const open = (ctx: SerializeContext, name: string, more: boolean) => (withMetadata ? `{${K.context}${context(ctx, name)}${more ? ',' : ''}` : '{');

  return (payload, ctx) => {
    try {
      switch (payload.kind) {
        case 'entity': {
          const body = entityMembers(payload.entity);
          return `${open(ctx, payload.metadataName + a.element, body !== '')}${body}}`;
        }
        case 'entitySet': {
          let out = `${open(ctx, payload.metadataName, true)}${K.value}[`;
          for (let i = 0; i < payload.entities.length; i++) out += (i ? ',' : '') + entity(payload.entities[i]!);
          out += ']';
          if (payload.nextLink) out += `,${K.nextLink}${scalar(payload.nextLink)}`;
          return `${out}}`;
        }
        case 'primitive': {
          const v = payload.value;
          if (v === null) return withMetadata ? `{${K.context}${jsonString(`${ctx.apiUrl}$metadata#Edm.Null`)},${K.nullValue}true}` : `{${K.nullValue}true}`;
          const head = withMetadata ? `{${K.context}${jsonString(`${ctx.apiUrl}$metadata#${payload.edmType}`)}` : '{';
          if (isModel(v) && v.kind === 'complex') {
            requirePlain(v.props);
            const body = members(v.props);
            return `${head}${withMetadata && body !== '' ? ',' : ''}${body}}`;
          }
          return `${head}${withMetadata ? ',' : ''}${K.value}${value(v)}}`;
        }
      }
    } catch (e) {
      if (e === NOT_PLAIN) return undefined;
      throw e;
    }
  };
}

/** `odata=verbose` (verbose.ts's shapes): `{"d":…}`, `__metadata`, `__deferred`, `{"results":[…]}`. */
export function verboseDirect(): DirectWriter {
  const K = { metadata: key('__metadata'), id: key('id'), uri: key('uri'), etag: key('etag'), type: key('type'), results: key('results'), deferred: key('__deferred'), next: key('__next'), d: key('d') };
  const STRING_COLLECTION = `${K.metadata}{${K.type}${jsonString('Collection(Edm.String)')}},`;

  function value(v: Value, apiUrl: string): string {
    if (!isModel(v)) return scalar(v);
    switch (v.kind) {
      case 'collection': {
        let out = `{${v.elementType === 'Edm.String' && !v.untyped ? STRING_COLLECTION : ''}${K.results}[`;
        for (let i = 0; i < v.items.length; i++) out += (i ? ',' : '') + value(v.items[i]!, apiUrl);
        return `${out}]}`;
      }
      case 'complex': {
        requirePlain(v.props);
        let out = `{${K.metadata}{${K.type}${scalar(v.type)}}`;
        for (const [k, p] of v.props) out += `,${key(k)}${value(p, apiUrl)}`;
        return `${out}}`;
      }
      case 'expanded': {
        if (v.value === null) return 'null';
        if (!Array.isArray(v.value)) return entity(v.value, apiUrl);
        let out = `{${K.results}[`;
        for (let i = 0; i < v.value.length; i++) out += (i ? ',' : '') + entity(v.value[i]!, apiUrl);
        return `${out}]}`;
      }
      default:
        return scalar(undefined);
    }
  }

  function entity(e: Entity, apiUrl: string): string {
    const uri = e.editLink !== undefined ? apiUrl + e.editLink : undefined;
    requirePlain(e.props, uri !== undefined ? e.deferred : undefined);
    let metadata = '';
    if (e.id !== undefined) metadata += `${K.id}${scalar(e.id)},`;
    if (!e.minimalMetadata) {
      if (uri !== undefined) metadata += `${K.uri}${jsonString(uri)},`;
      if (e.etag !== undefined) metadata += `${K.etag}${scalar(e.etag)},`;
    }
    let out = `{${K.metadata}{${metadata}${K.type}${scalar(e.type)}}`;
    if (uri !== undefined) for (const nav of e.deferred ?? []) out += `,${key(nav)}{${K.deferred}{${K.uri}${jsonString(`${uri}/${nav}`)}}}`;
    for (const [k, v] of e.props) out += `,${key(k)}${value(v, apiUrl)}`;
    return `${out}}`;
  }

  return (payload, ctx) => {
    try {
      switch (payload.kind) {
        case 'entity':
          return `{${K.d}${entity(payload.entity, ctx.apiUrl)}}`;
        case 'entitySet': {
          let out = `{${K.d}{${K.results}[`;
          for (let i = 0; i < payload.entities.length; i++) out += (i ? ',' : '') + entity(payload.entities[i]!, ctx.apiUrl);
          out += ']';
          if (payload.nextLink) out += `,${K.next}${scalar(payload.nextLink)}`;
          return `${out}}}`;
        }
        case 'primitive':
          return `{${K.d}{${key(payload.methodName)}${value(payload.value, ctx.apiUrl)}}}`;
      }
    } catch (e) {
      if (e === NOT_PLAIN) return undefined;
      throw e;
    }
  };
}
