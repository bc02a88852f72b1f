// The ProjectData URL grammar, below `{pwa}/_api/ProjectData`: an optional `[en-US]` locale
// segment, then `$metadata`, the service document, or an entity-set path with keys and
// navigation (`Projects(guid'…')/Tasks`, `Tasks(ProjectId=guid'…',TaskId=guid'…')`), and
// the OData v3 query options WCF Data Services takes. Pure syntax: sets and properties are
// checked by the service against the catalogue.

import { ODataSyntaxError } from '../../odata/errors.ts';
import type { Expression, Literal } from '../../query/ast.ts';
import { parseFilter } from '../../odata/filter/parser.ts';
import { parseApiPath, type PathSegment } from '../../odata/path.ts';
import { parseLiteral, scanLiteral } from '../../odata/literal.ts';
import { parseFormat, parseInlineCount, parseQueryString, parseSkip, parseTop, type OrderByItem } from '../../odata/query.ts';
import { PdError } from './errors.ts';
import { PROPERTY_NAME } from '../../domain/projectdata/model.ts';

/** `ProjectData` (any case) as the first segment below `/_api/`, with or without more after it. */
export const isProjectDataPath = (apiPath: string): boolean => /^projectdata(?:\/|$)/i.test(apiPath);

export interface KeyPredicate {
  /** Unnamed (`Projects(guid'…')`): one value for a one-property key. */
  name?: string | undefined;
  value: Literal;
}

export interface PathStep {
  /** An entity set (first step) or a navigation or primitive property (later steps), as written. */
  name: string;
  keys?: KeyPredicate[] | undefined;
}

export type PdTarget =
  | { kind: 'service' }
  | { kind: 'metadata' }
  /** `steps` then optionally `/$count` or (after a primitive property) `/$value`. */
  | { kind: 'resource'; steps: PathStep[]; count: boolean; value: boolean };

export interface PdOptions {
  select?: string[] | undefined;
  filter?: Expression | undefined;
  filterText?: string | undefined;
  orderBy: OrderByItem[];
  top?: number | undefined;
  skip?: number | undefined;
  /** The `$skiptoken` literals, as written (checked against the sort keys by the service). */
  skipToken?: Literal[] | undefined;
  inlineCount: boolean;
  /** `$format` as given: json, atom, xml or a media type. */
  format?: string | undefined;
  expand?: string | undefined;
  /** Every option as sent, decoded, for rebuilding next links. */
  raw: Map<string, string>;
}

export interface PdRequest {
  target: PdTarget;
  options: PdOptions;
  /** The locale segment (`en-US`) when the URL had one: next links keep it. */
  locale?: string | undefined;
}

/** `apiPath` is the path after `/_api/` (still percent-encoded) and starts with ProjectData. */
export function parsePdRequest(apiPath: string, rawQuery: string): PdRequest {
  // Some clients percent-encode the locale's brackets (`%5Ben-US%5D`): the same segment.
  const below = apiPath.replace(/^projectdata\/?/i, '').replace(/^%5B([^/]*?)%5D/i, '[$1]');
  const locale = /^\[([A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*)\]\/?/.exec(below);
  const rest = locale ? below.slice(locale[0].length) : below;
  return { target: parseTarget(rest), options: parseOptions(rawQuery), locale: locale?.[1] };
}

function parseTarget(path: string): PdTarget {
  if (path === '' || path === '/') return { kind: 'service' };
  if (/^\$metadata\/?$/.test(path)) return { kind: 'metadata' };
  let segments: PathSegment[];
  try {
    segments = parseApiPath(path, new Map());
  } catch (e) {
    if (e instanceof ODataSyntaxError) throw PdError.badRequest(`Bad Request - Error in query syntax.`);
    throw e;
  }
  let count = false;
  let value = false;
  const last = segments[segments.length - 1]!;
  if (last.name === '$count' && segments.length > 1) { count = true; segments.pop(); }
  else if (last.name === '$value' && segments.length > 1) { value = true; segments.pop(); }
  const steps = segments.map((segment): PathStep => {
    if (segment.name.startsWith('$')) throw PdError.notFound(segment.name);
    // `Projects()` is the set itself, as WCF DS reads empty parentheses (older clients write them).
    if (!segment.args || segment.args.length === 0) return { name: segment.name };
    const keys = segment.args.map((arg): KeyPredicate => {
      if (arg.value.kind === 'alias') throw PdError.badRequest('Bad Request - Error in query syntax.');
      return { name: arg.name, value: arg.value };
    });
    return { name: segment.name, keys };
  });
  return { kind: 'resource', steps, count, value };
}

function parseOptions(rawQuery: string): PdOptions {
  const { options: raw } = syntax(() => parseQueryString(rawQuery));
  for (const name of raw.keys()) {
    if (!KNOWN_OPTIONS.has(name)) throw PdError.badRequest(`The query parameter '${name}' begins with a system-reserved '$' character but is not recognized.`);
  }
  // An option with no value is no option, as WCF DS reads them (`$select=` from a script joining an empty list).
  const get = (name: string) => (raw.get(name)?.trim() === '' ? undefined : raw.get(name));
  const filterText = get('$filter');
  const select = get('$select');
  return {
    select: select === undefined || select.trim() === '*' ? undefined : parseNames(select),
    filter: filterText === undefined ? undefined : syntax(() => parseFilter(filterText)),
    filterText,
    orderBy: get('$orderby') === undefined ? [] : parseSortKeys(get('$orderby')!),
    top: get('$top') === undefined ? undefined : syntax(() => parseTop(get('$top')!)),
    skip: get('$skip') === undefined ? undefined : syntax(() => parseSkip(get('$skip')!)),
    skipToken: get('$skiptoken') === undefined ? undefined : parseSkipTokenValues(get('$skiptoken')!),
    inlineCount: get('$inlinecount') === undefined ? false : syntax(() => parseInlineCount(get('$inlinecount')!)) === 'allpages',
    format: get('$format') === undefined ? undefined : syntax(() => parseFormat(get('$format')!)),
    expand: get('$expand'),
    raw,
  };
}

/**
 * A property name as CSDL allows it (letters of any script, digits, `_`): custom fields may
 * carry localized names, so $select and $orderby are read here rather than with the
 * ASCII-only `_api` grammar.
 */

/** `$select`: `*` or property names, comma-separated; a path (`Project/ProjectName`) is refused by name. */
function parseNames(text: string): string[] {
  return text.split(',').map((item) => {
    const name = item.trim();
    if (name.includes('/') && name.split('/').every((part) => PROPERTY_NAME.test(part.trim()) || part.trim() === '*')) {
      throw PdError.badRequest(`Only properties of the entity can be selected: '${name}'.`);
    }
    if (name !== '*' && !PROPERTY_NAME.test(name)) throw PdError.badRequest('Bad Request - Error in query syntax.');
    return name;
  });
}

/** `$orderby`: `Name [asc|desc]`, comma-separated; paths are kept for the service to refuse by name. */
function parseSortKeys(text: string): OrderByItem[] {
  return text.split(',').map((item): OrderByItem => {
    const [path = '', direction = 'asc', ...rest] = item.trim().split(/\s+/);
    const parts = path.split('/');
    const lower = direction.toLowerCase();
    if (rest.length || (lower !== 'asc' && lower !== 'desc') || !parts.every((p) => PROPERTY_NAME.test(p))) {
      throw PdError.badRequest('Bad Request - Error in query syntax.');
    }
    return { path: parts, direction: lower };
  });
}

const KNOWN_OPTIONS = new Set(['$select', '$filter', '$orderby', '$top', '$skip', '$skiptoken', '$inlinecount', '$format', '$expand', '$callback']);

/** WCF DS's skip token: the sort values of the last row, as comma-separated literals (`guid'…',datetime'…'`). */
function parseSkipTokenValues(text: string): Literal[] {
  const values: Literal[] = [];
  let at = 0;
  while (at <= text.length) {
    const end = scanLiteral(text, at) ?? -1;
    if (end < 0) throw PdError.badRequest(`Skip token '${text}' is not valid.`);
    values.push(syntax(() => parseLiteral(text.slice(at, end)), `Skip token '${text}' is not valid.`));
    if (end === text.length) return values;
    if (text[end] !== ',') throw PdError.badRequest(`Skip token '${text}' is not valid.`);
    at = end + 1;
  }
  return values;
}

/** Runs a parser; its syntax errors become WCF DS's 400. */
function syntax<T>(parse: () => T, message = 'Bad Request - Error in query syntax.'): T {
  try {
    return parse();
  } catch (e) {
    if (e instanceof ODataSyntaxError) throw PdError.badRequest(message);
    throw e;
  }
}
