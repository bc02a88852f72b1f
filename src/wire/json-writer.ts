// Writes JSON text from the neutral value model. Hand-written only because JSON.stringify
// cannot write an Edm.Double with its fraction (`11.0`), which SharePoint does.

import { EdmDouble } from './values.ts';

/** A JSON value where doubles are marked, and object members keep their order. */
export type Json = null | string | number | boolean | EdmDouble | Json[] | JsonObject;
export interface JsonObject { [key: string]: Json }

/** Property names repeat across every entity of a response: encode each once. */
const encodedKeys = new Map<string, string>();
export function encodeKey(key: string): string {
  let encoded = encodedKeys.get(key);
  if (encoded === undefined) {
    encoded = JSON.stringify(key);
    // Bounded: names come from field names, but a hostile schema could still invent many.
    if (encodedKeys.size < 10_000) encodedKeys.set(key, encoded);
  }
  return encoded;
}

/** What JSON.stringify would escape in a string (and surrogates, lone ones of which it escapes): else it only adds quotes. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string as JSON: most values need no escaping, and quoting them is cheaper than JSON.stringify's call. */
export function jsonString(value: string): string {
  return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
}

export function writeJson(value: Json): string {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string': return jsonString(value);
    case 'number': return Number.isFinite(value) ? String(value) : 'null';
    case 'boolean': return value ? 'true' : 'false';
  }
  if (value instanceof EdmDouble) {
    const n = value.value;
    if (!Number.isFinite(n)) return 'null';
    return Number.isInteger(n) && Math.abs(n) < 1e21 ? `${n}.0` : String(n);
  }
  if (Array.isArray(value)) return `[${value.map(writeJson).join(',')}]`;
  let out = '{';
  let first = true;
  for (const key in value) {
    out += `${first ? '' : ','}${encodeKey(key)}:${writeJson(value[key]!)}`;
    first = false;
  }
  return `${out}}`;
}
