// Conditional requests, in no protocol's terms: what a client's If-Match, If-None-Match and
// If-Modified-Since ask, checked against a resource's version (its etag) and the time it last
// changed. Fronts read the headers into `Conditions`; services check writes against them
// (a mismatch is `preconditionFailed`); fronts ask `isNotModified` before sending what the
// client already holds (304).
//
// SharePoint's etags are a version number, written `"3"`; file-backed items write
// `"{GUID},3"`. Clients send any of `*`, `"3"`, `3`, `W/"3"`, `"{guid},3"`, `"guid,3"`.

import { fail } from '../domain/errors.ts';

export interface Conditions {
  /** The client's `If-Match` as sent (absent: no condition). */
  ifMatch?: string | undefined;
  /** The client's `If-None-Match` as sent. */
  ifNoneMatch?: string | undefined;
  /** The client's `If-Modified-Since` as sent (an HTTP date). */
  ifModifiedSince?: string | undefined;
}

export const NO_CONDITIONS: Conditions = Object.freeze({});

/** The version an etag names: null for `*`; -1 for text no version can match. */
export function etagVersion(etag: string): number | null {
  const text = etag.trim();
  if (text === '*') return null;
  const m = /^(?:W\/)?"?(?:\{?[0-9a-f-]{36}\}?,)?(\d+)"?$/i.exec(text);
  return m ? Number(m[1]) : -1;
}

/**
 * The version a write may replace: null when any will do (no If-Match, or `*`); -1 when the
 * If-Match can match none (an empty or malformed one: SharePoint answers 412 to `If-Match: ""`).
 * Stores that check the version atomically take this; `requireCurrent` checks it in memory.
 */
export function expectedVersion(conditions: Conditions): number | null {
  return conditions.ifMatch === undefined ? null : etagVersion(conditions.ifMatch);
}

/** A write's precondition: the If-Match names `version` (or any). Otherwise `preconditionFailed`. */
export function requireCurrent(conditions: Conditions, version: number): void {
  const expected = expectedVersion(conditions);
  if (expected !== null && expected !== version) throw mismatch(conditions, version);
}

/** The failure for a write whose If-Match does not name the current `version`. */
export const mismatch = (conditions: Conditions, version: number) => fail.etagMismatch(conditions.ifMatch ?? '', `"${version}"`);

/**
 * A read's: true when the client already holds this representation: an If-None-Match that
 * names `etag` (or `*`; weak comparison, as RFC 9110 asks for GET), or, with no If-None-Match,
 * an If-Modified-Since at or after `modified` (to the second, as HTTP dates are).
 */
export function isNotModified(conditions: Conditions, etag: string, modified?: Date): boolean {
  if (conditions.ifNoneMatch !== undefined) {
    const wanted = weak(etag);
    return etagList(conditions.ifNoneMatch).some((t) => t === '*' || weak(t) === wanted);
  }
  if (conditions.ifModifiedSince !== undefined && modified) {
    const since = Date.parse(conditions.ifModifiedSince);
    return Number.isFinite(since) && Math.floor(modified.getTime() / 1000) <= Math.floor(since / 1000);
  }
  return false;
}

const weak = (etag: string) => etag.trim().replace(/^W\//, '');

/**
 * The etags of an If-None-Match list. SharePoint's etags hold commas (`"{GUID},3"`), so the
 * list is read as quoted strings, not split on commas; a bare value (`3`) is one etag.
 */
function etagList(header: string): string[] {
  const quoted = header.match(/(?:W\/)?"[^"]*"|\*/g);
  return quoted ?? [header.trim()];
}

/** Conditions from request headers, as any HTTP front has them (first value of each). */
export function conditionsFromHeaders(headers: Record<string, string | string[] | undefined>): Conditions {
  const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const ifMatch = first(headers['if-match']), ifNoneMatch = first(headers['if-none-match']), ifModifiedSince = first(headers['if-modified-since']);
  if (ifMatch === undefined && ifNoneMatch === undefined && ifModifiedSince === undefined) return NO_CONDITIONS;
  return { ifMatch, ifNoneMatch, ifModifiedSince };
}
