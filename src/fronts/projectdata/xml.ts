// XML escaping for the hand-written Atom, service and CSDL documents, as .NET's XmlWriter
// (which WCF Data Services writes through) escapes: `&`, `<`, `>` in text, and `"` as well
// in attribute values (always double-quoted). Quotes in text stay as they are.

// Characters XML 1.0 cannot carry at all: C0 controls other than tab/LF/CR, lone surrogates,
// U+FFFE/U+FFFF. They become U+FFFD so that a stored value never makes a document ill-formed.
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Element text. CR is written as `&#xD;`, else parsers would turn CRLF into LF. */
export function xmlText(text: string): string {
  return text.replace(NOT_XML, '\uFFFD').replace(/[&<>\r]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&#xD;'));
}

/** An attribute value for `name="…"`: also `"`, and whitespace a parser would normalise away. */
export function xmlAttr(text: string): string {
  return xmlText(text).replace(/["\n\t]/g, (c) => (c === '"' ? '&quot;' : c === '\n' ? '&#xA;' : '&#x9;'));
}
