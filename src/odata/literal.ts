// One OData literal (v3 syntax, as SharePoint accepts it) read from already URL-decoded text.
// Used for function arguments and keys in the path and for parameter-alias values.

import { ODataSyntaxError } from './errors.ts';
import type { Literal } from '../query/ast.ts';

const NUMBER = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?[LlMmDdFf]?$/;
const GUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const PREFIXED = /^(guid|datetime)'/i;
const SUFFIX = /[LlMmDdFf]$/;

/** Parses the whole of `text` (trimmed) as one literal; throws ODataSyntaxError with `text` as expression. */
export function parseLiteral(text: string): Literal {
  const body = text.trim();
  if (body.startsWith("'")) {
    const value = readQuoted(body, 0);
    if (value === undefined) throw literalError(text, 'invalid string literal');
    return { kind: 'literal', type: 'string', value };
  }

  const prefixed = PREFIXED.exec(body);
  if (prefixed) {
    const type = prefixed[1]!.toLowerCase() === 'guid' ? 'guid' : 'datetime';
    const value = readQuoted(body, prefixed[0].length - 1);
    if (value === undefined || (type === 'guid' && !GUID.test(value))) throw literalError(text, `invalid ${type} literal`);
    return { kind: 'literal', type, value };
  }

  const lower = body.toLowerCase();
  if (lower === 'true' || lower === 'false') return { kind: 'literal', type: 'boolean', value: lower === 'true' };
  if (lower === 'null') return { kind: 'literal', type: 'null' };

  if (NUMBER.test(body)) {
    const value = Number(body.replace(SUFFIX, ''));
    if (!Number.isFinite(value)) throw literalError(text, 'number out of range');
    return { kind: 'literal', type: 'number', value, raw: body };
  }
  throw literalError(text, 'invalid literal');
}

// A module-level helper rather than a closure: parseLiteral runs once per key and argument.
function literalError(text: string, detail: string): ODataSyntaxError {
  return new ODataSyntaxError(text, text.length - text.trimStart().length, detail);
}

/**
 * Reads a quoted string whose opening quote is at `quoteAt`, which must close exactly at the
 * end of `text`; returns the unescaped content, or undefined if it does not.
 */
function readQuoted(text: string, quoteAt: number): string | undefined {
  const end = scanQuoted(text, quoteAt);
  if (end !== text.length) return undefined;
  return text.slice(quoteAt + 1, end - 1).replaceAll("''", "'");
}

/** Offset just past the closing quote of the quoted string opening at `quoteAt`, or undefined if unterminated. */
function scanQuoted(text: string, quoteAt: number): number | undefined {
  let at = quoteAt + 1;
  for (;;) {
    const close = text.indexOf("'", at);
    if (close < 0) return undefined;
    if (text[close + 1] !== "'") return close + 1;
    at = close + 2; // '' is an escaped quote
  }
}

const WORD = /[A-Za-z0-9_.+-]*/y;

/**
 * Finds the end of the literal-looking token starting at `start` (a quoted string, a word such
 * as `true`/`5L`/`-1.5`, or a word immediately followed by a quoted string such as `guid'…'`).
 * It does not validate: parseLiteral does. Returns undefined if nothing literal-like starts there
 * or a quote is unterminated.
 */
export function scanLiteral(text: string, start: number): number | undefined {
  WORD.lastIndex = start;
  const at = start + (WORD.exec(text)?.[0].length ?? 0);
  if (text[at] === "'") return scanQuoted(text, at);
  return at > start ? at : undefined;
}
