// The rules SharePoint applies to entity bodies: verbose bodies must name their type in
// `__metadata`; JSON light bodies must not carry `__metadata` at all (reference §7.2).

import { errors } from '../../../wire/errors.ts';
import type { ApiContext } from './context.ts';

export type Properties = Record<string, unknown>;

/**
 * The body's properties, without `__metadata`. `acceptType` says which `__metadata.type`
 * values fit (e.g. any `SP.Field*` for a field); `typeName` is what errors name.
 */
export function readEntityBody(ctx: ApiContext, typeName: string, acceptType: (type: string) => boolean = (t) => t === typeName): Properties {
  const body = ctx.body;
  if (body === undefined) throw errors.emptyBody();
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw errors.notAnObject();
  const { __metadata, ...props } = body as Properties;
  if (ctx.verboseBody) {
    const type = (__metadata as { type?: unknown } | undefined)?.type;
    if (typeof type !== 'string') throw errors.verboseBodyWithoutType();
    if (!acceptType(type)) throw errors.wrongEntityType(type);
  } else if (__metadata !== undefined) {
    throw errors.unknownBodyProperty('__metadata', typeName);
  }
  return props;
}

/** A method's body: an object whose properties are its arguments (`{"leafPath":…}`, `{"srcPath":…,"destPath":…}`). */
export function readMethodBody(ctx: ApiContext): Properties {
  const body = ctx.body;
  if (body === undefined) throw errors.emptyBody();
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw errors.notAnObject();
  return body as Properties;
}

/** Method bodies that wrap their arguments: `{"parameters":{…}}` (AddField, createfieldasxml). */
export function readParameters(ctx: ApiContext, typeName: string): Properties {
  const parameters = readMethodBody(ctx).parameters;
  if (parameters === null || typeof parameters !== 'object' || Array.isArray(parameters)) {
    throw errors.badArgument(`The request body must be {"parameters":{…}} of type '${typeName}'.`);
  }
  const { __metadata: _, ...props } = parameters as Properties;
  return props;
}

/** `{results:[…]}` (verbose) or a plain array → array; anything else → undefined. */
export function arrayValue(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object' && Array.isArray((value as { results?: unknown }).results)) {
    return (value as { results: unknown[] }).results;
  }
  return undefined;
}

export function stringProp(props: Properties, name: string): string | undefined {
  const v = props[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw errors.invalidPropertyValue('Edm.String');
  return v;
}

/** SharePoint accepts booleans and their string forms ("true") in entity bodies. */
export function boolProp(props: Properties, name: string): boolean | undefined {
  const v = props[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v === 'boolean') return v;
  if (typeof v === 'string' && /^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
  throw errors.invalidPropertyValue('Edm.Boolean');
}

export function intProp(props: Properties, name: string): number | undefined {
  const v = props[name];
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n)) throw errors.invalidPropertyValue('Edm.Int32');
  return n;
}
