// CAML's XML, read into ordered elements: fast-xml-parser checks that the text is well-formed
// and gives its tree with `preserveOrder` (CAML is order-sensitive: a comparison's FieldRef
// and Value, OrderBy's keys). The rest of the parser walks these elements, never the text.

import { createRequire } from 'node:module';
import type * as Fxp from 'fast-xml-parser';
import { CamlError } from './errors.ts';

export interface CamlElement {
  name: string;
  /** Attribute names as written (CAML's are case-sensitive, as its element names are). */
  attributes: Record<string, string>;
  children: CamlElement[];
  /** The element's own text, its text nodes joined (entities decoded). */
  text: string;
}

/**
 * Elements nested deeper than this are refused before the tree is walked: a real query nests
 * a few dozen `And`/`Or` levels, and a hostile one thousands deep must not overflow the stack.
 */
export const MAX_CAML_DEPTH = 200;

/** fast-xml-parser and the parser CAML needs, made with the first CAML read: not on every start (~20 ms of it). */
let fxp: { parser: InstanceType<typeof Fxp.XMLParser>; validator: typeof Fxp.XMLValidator } | undefined;
function xmlParser(): NonNullable<typeof fxp> {
  if (fxp) return fxp;
  const { XMLParser, XMLValidator } = createRequire(import.meta.url)('fast-xml-parser') as typeof Fxp;
  const parser = new XMLParser({
    preserveOrder: true,
    ignoreAttributes: false,
    attributeNamePrefix: '',
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: false,
    processEntities: true,
    htmlEntities: true,
  });
  return (fxp = { parser, validator: XMLValidator });
}

/** Whether `xml` is well-formed: true, or fast-xml-parser's account of the first fault. */
export const validateXml = (xml: string): ReturnType<typeof Fxp.XMLValidator.validate> => xmlParser().validator.validate(xml);

const FORBIDDEN_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;
const CHARACTER_REFERENCE = /&#(x[0-9a-fA-F]+|[0-9]+);/g;
const forbiddenReference = (m: RegExpMatchArray): boolean => {
  const code = m[1]!.startsWith('x') ? parseInt(m[1]!.slice(1), 16) : parseInt(m[1]!, 10);
  return code > 0x10ffff || FORBIDDEN_CHARACTER.test(String.fromCodePoint(Math.min(code, 0x10ffff)));
};

type OrderedNode = Record<string, unknown> & { ':@'?: Record<string, string> };

/** The one root element of `xml`, or a CamlError when it is not well-formed or nests too deep. */
export function readCamlXml(xml: string): CamlElement {
  checkDepth(xml);
  // XML 1.0 has no U+0000 and few control characters, written or referenced (`&#0;`): .NET's
  // reader refuses them, so they never reach a query (the compiler's U+0000 path is `$filter`'s).
  if (FORBIDDEN_CHARACTER.test(xml) || [...xml.matchAll(CHARACTER_REFERENCE)].some(forbiddenReference)) {
    throw new CamlError('malformed', 'The XML holds a character XML 1.0 does not allow.');
  }
  const valid = validateXml(xml);
  if (valid !== true) throw new CamlError('malformed', valid.err.msg);
  let nodes: OrderedNode[];
  try {
    nodes = xmlParser().parser.parse(xml) as OrderedNode[];
  } catch (e) {
    // What the validator lets through but the parser refuses (a DTD's entities expanding past
    // its limits): the caller's malformed XML, not a fault of spemu's.
    throw new CamlError('malformed', (e as Error).message);
  }
  const roots = nodes.map(toElement).filter((e): e is CamlElement => e !== undefined);
  if (roots.length !== 1) throw new CamlError('malformed', 'The XML has no single root element.');
  return roots[0]!;
}

function toElement(node: OrderedNode): CamlElement | undefined {
  const name = Object.keys(node).find((k) => k !== ':@');
  if (name === undefined || name === '#text' || name.startsWith('?') || name === '#comment') return undefined;
  const content = (node[name] as OrderedNode[] | undefined) ?? [];
  const children: CamlElement[] = [];
  let text = '';
  for (const child of content) {
    if ('#text' in child) text += String(child['#text']);
    else {
      const element = toElement(child);
      if (element) children.push(element);
    }
  }
  return { name, attributes: { ...(node[':@'] ?? {}) }, children, text };
}

/** Refuses nesting beyond MAX_CAML_DEPTH with one linear pass over the tags (no tree built yet). */
function checkDepth(xml: string): void {
  let depth = 0;
  for (let open = xml.indexOf('<'); open >= 0; ) {
    const close = xml.indexOf('>', open);
    if (close < 0) return; // not well-formed: the validator says so
    const next = xml[open + 1];
    if (next === '/') depth--;
    else if (next !== undefined && /[A-Za-z_]/.test(next) && xml[close - 1] !== '/') depth++;
    if (depth > MAX_CAML_DEPTH) throw new CamlError('tooComplex', `The query nests more than ${MAX_CAML_DEPTH} elements deep.`);
    open = xml.indexOf('<', close);
  }
}
