// The query string: splitting it into system options, parameter aliases and other parameters,
// and parsers for the simple system options ($filter has its own parser under ./filter).

import { ODataSyntaxError } from './errors.ts';

export interface ParsedQuery {
  /** System options keyed by lower-case name with `$` ('$select'); decoded values. */
  options: Map<string, string>;
  /** '@v' → decoded raw literal text. */
  aliases: Map<string, string>;
  /** Everything else, keyed by name as written; the first occurrence wins. */
  params: Map<string, string>;
}

export interface OrderByItem {
  path: string[];
  direction: 'asc' | 'desc';
}

export interface SkipToken {
  paged: boolean;
  pagedPrev: boolean;
  /** `p_ID` → '5', keys as written. */
  values: Map<string, string>;
}

/** Splits the raw (still encoded) text after `?`. */
export function parseQueryString(rawQuery: string): ParsedQuery {
  const query: ParsedQuery = { options: new Map(), aliases: new Map(), params: new Map() };
  const rawParams: { key: string; raw: string }[] = [];
  for (const raw of rawQuery.split('&')) {
    if (raw === '') continue;
    const eq = raw.indexOf('=');
    const key = formDecode(eq < 0 ? raw : raw.slice(0, eq), raw);
    const value = eq < 0 ? '' : formDecode(raw.slice(eq + 1), raw);
    if (key.startsWith('$')) addUnique(query.options, key.toLowerCase(), value);
    else if (key.startsWith('@')) addUnique(query.aliases, key, value);
    else {
      if (!query.params.has(key)) query.params.set(key, value);
      rawParams.push({ key, raw });
    }
  }
  foldSkipToken(query, rawParams);
  return query;
}

function formDecode(text: string, rawPair: string): string {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    throw new ODataSyntaxError(rawPair, 0, 'malformed percent-encoding');
  }
}

function addUnique(map: Map<string, string>, key: string, value: string): void {
  if (map.has(key)) throw new ODataSyntaxError(key, 0, 'query option specified more than once');
  map.set(key, value);
}

const isSkipTokenPart = (key: string): boolean => /^p_/i.test(key) || key.toLowerCase() === 'pagedprev';

/**
 * Clients sometimes send `$skiptoken=Paged=TRUE&p_ID=5` with the inner `&` unencoded. The raw
 * pair text is appended because that is what the token holds once properly decoded.
 */
function foldSkipToken(query: ParsedQuery, rawParams: { key: string; raw: string }[]): void {
  let token = query.options.get('$skiptoken');
  if (token === undefined) return;
  for (const { key, raw } of rawParams) {
    if (!isSkipTokenPart(key)) continue;
    token += `&${raw}`;
    query.params.delete(key);
  }
  query.options.set('$skiptoken', token);
}

const PATH_ELEMENT = /^[A-Za-z0-9_.]+$/;

/** `Title,Author/Title` → [['Title'], ['Author', 'Title']]; `*` may end a path. */
export function parseSelect(value: string): string[][] {
  return parsePathList(value, true);
}

export function parseExpand(value: string): string[][] {
  return parsePathList(value, false);
}

/** `Title desc, Created` → ascending is the default direction. */
export function parseOrderBy(value: string): OrderByItem[] {
  return commaItems(value).map(({ item, offset }) => {
    const words = item.split(/\s+/);
    if (words.length > 2) throw new ODataSyntaxError(value, offset, 'unexpected text after sort direction');
    const path = parsePath(words[0]!, false, value, offset);
    const direction = (words[1] ?? 'asc').toLowerCase();
    if (direction !== 'asc' && direction !== 'desc') throw new ODataSyntaxError(value, offset, "'asc' or 'desc' expected");
    return { path, direction };
  });
}

export function parseTop(value: string): number {
  return parseCount(value);
}

export function parseSkip(value: string): number {
  return parseCount(value);
}

function parseCount(value: string): number {
  // The length check keeps Number() from seeing huge inputs; 10 digits covers 2^31-1.
  if (!/^\d{1,10}$/.test(value) || Number(value) > 2 ** 31 - 1) {
    throw new ODataSyntaxError(value, 0, 'non-negative 32-bit integer expected');
  }
  return Number(value);
}

/** SharePoint's `Paged=TRUE[&PagedPrev=TRUE]&p_ID=5&p_Title=abc`. */
export function parseSkipToken(value: string): SkipToken {
  const token: SkipToken = { paged: false, pagedPrev: false, values: new Map() };
  const seen = new Set<string>();
  let offset = 0;
  for (const part of value.split('&')) {
    const error = readSkipTokenPart(token, seen, part);
    if (error !== undefined) throw new ODataSyntaxError(value, offset, error);
    offset += part.length + 1;
  }
  if (!seen.has('paged')) throw new ODataSyntaxError(value, 0, 'Paged expected');
  return token;
}

/** Stores one `key=value` part of a skip token; returns what is wrong with it, if anything. */
function readSkipTokenPart(token: SkipToken, seen: Set<string>, part: string): string | undefined {
  const eq = part.indexOf('=');
  if (eq < 0) return "'=' expected";
  const key = part.slice(0, eq);
  const text = part.slice(eq + 1);
  const lkey = key.toLowerCase();
  if (seen.has(lkey)) return `${key} specified more than once`;
  seen.add(lkey);
  if (lkey === 'paged' || lkey === 'pagedprev') {
    const flag = text.toLowerCase();
    if (flag !== 'true' && flag !== 'false') return 'TRUE or FALSE expected';
    if (lkey === 'paged') token.paged = flag === 'true';
    else token.pagedPrev = flag === 'true';
    return undefined;
  }
  if (!/^p_./i.test(key)) return 'Paged, PagedPrev or p_* expected';
  const decoded = decodeTokenValue(text);
  if (decoded === undefined) return 'malformed percent-encoding';
  token.values.set(key, decoded);
  return undefined;
}

/** p_* values are themselves URL-encoded inside the token. */
function decodeTokenValue(text: string): string | undefined {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

export function parseInlineCount(value: string): 'allpages' | 'none' {
  const lower = value.toLowerCase();
  if (lower !== 'allpages' && lower !== 'none') throw new ODataSyntaxError(value, 0, "'allpages' or 'none' expected");
  return lower;
}

/** json, atom, xml, or a media type: the caller decides what it supports. */
export function parseFormat(value: string): string {
  if (value.trim() === '') throw new ODataSyntaxError(value, 0, 'format expected');
  return value;
}

function parsePathList(value: string, allowStar: boolean): string[][] {
  const paths: string[][] = [];
  for (const { item, offset } of commaItems(value)) paths.push(parsePath(item, allowStar, value, offset));
  return paths;
}

/** Splits on commas and trims each item; an empty item (`a,,b`, `a,`) is an error. */
function commaItems(value: string): { item: string; offset: number }[] {
  const items: { item: string; offset: number }[] = [];
  let offset = 0;
  for (const piece of value.split(',')) {
    const item = piece.trim();
    if (item === '') throw new ODataSyntaxError(value, offset, 'empty item');
    items.push({ item, offset });
    offset += piece.length + 1;
  }
  return items;
}

function parsePath(item: string, allowStar: boolean, value: string, offset: number): string[] {
  const path = item.split('/');
  for (const [index, element] of path.entries()) {
    const star = allowStar && element === '*' && index === path.length - 1;
    if (!star && !PATH_ELEMENT.test(element)) throw new ODataSyntaxError(value, offset, `invalid path element '${element}'`);
  }
  return path;
}
