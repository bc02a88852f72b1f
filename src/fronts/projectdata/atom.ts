// The XML side of ProjectData: the AtomPub service document, Atom feeds and entries, a single
// property, and the XML error body, written as WCF Data Services (OData v3) writes them:
// one line, `<d:Name m:type="Edm.X">` properties, ISO dates in every flavour (Atom has no
// `/Date()/` form), six-decimal Edm.Decimal. Pure functions: no HTTP, no storage.

import type { EdmType, PdEntitySet, PdNavigation, PdProperty, PdRow, PdValue } from '../../domain/projectdata/model.ts';
import { NAMESPACE } from '../../domain/projectdata/model.ts';
import { keyPredicate } from './keys.ts';
import { decimalText, isoDateText } from '../../domain/projectdata/values.ts';
import { xmlAttr, xmlText } from './xml.ts';

const ATOM = 'http://www.w3.org/2005/Atom';
const APP = 'http://www.w3.org/2007/app';
const DATA = 'http://schemas.microsoft.com/ado/2007/08/dataservices';
const METADATA = 'http://schemas.microsoft.com/ado/2007/08/dataservices/metadata';
const SCHEME = 'http://schemas.microsoft.com/ado/2007/08/dataservices/scheme';
const RELATED = 'http://schemas.microsoft.com/ado/2007/08/dataservices/related/';
const DECLARATION = '<?xml version="1.0" encoding="utf-8"?>';
const ROOT_NS = `xmlns="${ATOM}" xmlns:d="${DATA}" xmlns:m="${METADATA}"`;

/** The root's service document: one collection per entity set, in the order given. */
export function writeServiceDocument(baseUrl: string, setNames: string[]): string {
  const collections = setNames.map((n) => `<collection href="${xmlAttr(n)}"><atom:title>${xmlText(n)}</atom:title></collection>`).join('');
  return `${DECLARATION}<service xml:base="${xmlAttr(baseUrl)}" xmlns="${APP}" xmlns:atom="${ATOM}">`
    + `<workspace><atom:title>Default</atom:title>${collections}</workspace></service>`;
}

/** A stored value as Atom element text (null is handled by the caller). */
function valueText(type: EdmType, value: Exclude<PdValue, null>): string {
  switch (type) {
    case 'Edm.DateTime': return isoDateText(Number(value));
    case 'Edm.Decimal': return decimalText(Number(value));
    case 'Edm.Boolean': return value ? 'true' : 'false';
    case 'Edm.Double': return Number.isFinite(value) ? String(value).replace('e', 'E') : (Number(value) > 0 ? 'INF' : Number(value) < 0 ? '-INF' : 'NaN');
    default: return String(value);
  }
}

/** `<d:Name m:type="Edm.X">…</d:Name>`; strings carry no m:type; null is `m:null="true"`. */
function propertyXml(p: PdProperty, value: PdValue, namespaces = ''): string {
  const name = `d:${p.name}`;
  const type = p.type === 'Edm.String' ? '' : ` m:type="${p.type}"`;
  if (value === null || value === undefined) return `<${name}${namespaces}${type} m:null="true" />`;
  return `<${name}${namespaces}${type}>${xmlText(valueText(p.type, value))}</${name}>`;
}

/** Atom's `updated`: UTC to the second. */
function atomDate(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}

interface EntryInput {
  baseUrl: string;
  set: PdEntitySet;
  /** Properties to write, in the set's declaration order ($select narrows them). */
  selected: PdProperty[];
  /** Navigation links to write; all of the set's when not given. */
  navigations?: PdNavigation[] | undefined;
  updated: Date;
}

function entryBody(input: EntryInput, row: PdRow): string {
  const { set } = input;
  const path = `${set.name}(${keyPredicate(set, row)})`;
  const href = xmlAttr(path);
  const links = (input.navigations ?? set.navigations).map((n) =>
    `<link rel="${RELATED}${xmlAttr(n.name)}" type="application/atom+xml;type=${n.many ? 'feed' : 'entry'}" title="${xmlAttr(n.name)}" href="${href}/${xmlAttr(n.name)}" />`).join('');
  const properties = input.selected.map((p) => propertyXml(p, row[p.name] ?? null)).join('');
  return `<id>${xmlText(input.baseUrl + path)}</id>`
    + `<category term="${NAMESPACE}.${xmlAttr(set.entityType)}" scheme="${SCHEME}" />`
    + `<link rel="edit" title="${xmlAttr(set.entityType)}" href="${href}" />${links}`
    + `<title /><updated>${atomDate(input.updated)}</updated><author><name /></author>`
    + `<content type="application/xml">${properties ? `<m:properties>${properties}</m:properties>` : '<m:properties />'}</content>`;
}

/**
 * The feed's title and self-link title: the last segment of its path (`Tasks`, or `StagesInfo`
 * for `Projects(guid'…')/StagesInfo`), found outside quoted key values.
 */
function lastSegment(path: string): string {
  let quoted = false;
  let start = 0;
  for (let i = 0; i < path.length; i++) {
    if (path[i] === "'") quoted = !quoted;
    else if (path[i] === '/' && !quoted) start = i + 1;
  }
  const segment = path.slice(start);
  const paren = segment.indexOf('(');
  return paren < 0 ? segment : segment.slice(0, paren);
}

export interface AtomFeedInput extends EntryInput {
  rows: PdRow[];
  /** `$inlinecount=allpages`: written as `<m:count>`. */
  count?: number | undefined;
  /** Absolute URL of the next page (server-driven paging). */
  nextLink?: string | undefined;
  /** The collection's path below the service root (default: the set's name). */
  feedPath?: string | undefined;
}

export function writeAtomFeed(input: AtomFeedInput): string {
  const feedPath = input.feedPath ?? input.set.name;
  const title = xmlText(lastSegment(feedPath));
  const entries = input.rows.map((row) => `<entry>${entryBody(input, row)}</entry>`).join('');
  return `${DECLARATION}<feed xml:base="${xmlAttr(input.baseUrl)}" ${ROOT_NS}>`
    + `<id>${xmlText(input.baseUrl + feedPath)}</id><title type="text">${title}</title>`
    + `<updated>${atomDate(input.updated)}</updated><link rel="self" title="${title}" href="${xmlAttr(feedPath)}" />`
    + (input.count === undefined ? '' : `<m:count>${input.count}</m:count>`)
    + entries
    + (input.nextLink === undefined ? '' : `<link rel="next" href="${xmlAttr(input.nextLink)}" />`)
    + '</feed>';
}

export interface AtomEntryInput extends EntryInput {
  row: PdRow;
}

/** One entity (`Projects(guid'…')`) as a standalone Atom entry document. */
export function writeAtomEntry(input: AtomEntryInput): string {
  return `${DECLARATION}<entry xml:base="${xmlAttr(input.baseUrl)}" ${ROOT_NS}>${entryBody(input, input.row)}</entry>`;
}

/** One property (`Projects(guid'…')/ProjectName`) as a standalone XML document. */
export function writeAtomProperty(property: PdProperty, value: PdValue): string {
  return DECLARATION + propertyXml(property, value, ` xmlns:d="${DATA}" xmlns:m="${METADATA}"`);
}

/** WCF Data Services' XML error body (Atom and XML requests). */
export function writeXmlError(message: string, code = ''): string {
  const codeXml = code ? `<m:code>${xmlText(code)}</m:code>` : '<m:code />';
  return `${DECLARATION}<m:error xmlns:m="${METADATA}">${codeXml}<m:message xml:lang="en-US">${xmlText(message)}</m:message></m:error>`;
}
