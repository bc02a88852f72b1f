// Tokenizer for SharePoint's OData v3 `$filter` dialect. Tokens are produced on demand,
// in one linear pass with no regular expressions, so hostile 64 KiB inputs stay cheap
// (the parser can give up on 100000 `(` after reading only the first hundred).

import { ODataSyntaxError } from '../errors.ts';
import type { Literal } from '../../query/ast.ts';

export type Token =
  /** An identifier or a `/`-separated member path; keywords are one-segment names. */
  | { kind: 'name'; segments: string[]; start: number; end: number }
  | { kind: 'literal'; literal: Literal; start: number; end: number }
  | { kind: '(' | ')' | ','; start: number; end: number }
  | { kind: 'end'; start: number; end: number };

const TYPED_LITERAL_PREFIXES: Record<string, 'datetime' | 'guid'> = {
  datetime: 'datetime',
  datetimeoffset: 'datetime',
  guid: 'guid',
};

const NUMBER_SUFFIXES = 'LlMmDdFf';

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isLetter = (c: string | undefined): boolean =>
  c !== undefined && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_');
const isNameChar = (c: string | undefined): boolean => isLetter(c) || isDigit(c);
const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t';

export class FilterLexer {
  private readonly text: string;
  private pos = 0;

  constructor(text: string) {
    this.text = text;
  }

  /** The next token; `end` once the input is used up (and again on every later call). */
  next(): Token {
    const { text } = this;
    while (isBlank(text[this.pos])) this.pos++;
    const start = this.pos;
    const c = text[start];
    if (c === undefined) return { kind: 'end', start, end: start };
    if (c === '(' || c === ')' || c === ',') {
      this.pos++;
      return { kind: c, start, end: this.pos };
    }
    if (c === "'") return this.word(start, { kind: 'literal', type: 'string', value: this.readQuoted() });
    if (isDigit(c) || c === '-') return this.word(start, this.readNumber());
    if (isLetter(c)) return this.readName(start);
    return this.fail(start, `Unexpected character '${c}'`);
  }

  fail(at: number, detail: string): never {
    throw new ODataSyntaxError(this.text, at, detail);
  }

  /** A literal token, checked not to be glued to what follows it. */
  private word(start: number, literal: Literal): Token {
    this.requireWordBoundary();
    return { kind: 'literal', literal, start, end: this.pos };
  }

  // A word (name, number, string) glued to another word or a sign would need a space
  // between them to mean anything: `Titleeq'x'`, `'a'eq`, `1eq`, `eq-5` are rejected here.
  private requireWordBoundary(): void {
    const next = this.text[this.pos];
    if (isNameChar(next) || next === "'" || next === '-') this.fail(this.pos, `Unexpected '${next}' directly after a value or keyword`);
  }

  private readName(start: number): Token {
    const segments = [this.readIdentifier()];
    while (this.text[this.pos] === '/') {
      this.pos++;
      segments.push(this.readIdentifier());
    }
    if (this.text[this.pos] !== "'") {
      this.requireWordBoundary();
      return { kind: 'name', segments, start, end: this.pos };
    }
    const type = segments.length === 1 ? TYPED_LITERAL_PREFIXES[segments[0]!.toLowerCase()] : undefined;
    if (type === undefined) this.fail(start, `Unsupported literal, or missing space before the quote, after '${this.text.slice(start, this.pos)}'`);
    return this.word(start, { kind: 'literal', type, value: this.readQuoted() });
  }

  private readIdentifier(): string {
    const start = this.pos;
    if (!isLetter(this.text[start])) this.fail(start, 'Expected a name');
    while (isNameChar(this.text[this.pos])) this.pos++;
    return this.text.slice(start, this.pos);
  }

  /** A single-quoted string where `''` stands for one quote. */
  private readQuoted(): string {
    const open = this.pos;
    const parts: string[] = [];
    let from = open + 1;
    for (;;) {
      const quote = this.text.indexOf("'", from);
      if (quote < 0) this.fail(open, 'Unterminated string literal');
      parts.push(this.text.slice(from, quote));
      if (this.text[quote + 1] !== "'") {
        this.pos = quote + 1;
        return parts.join('');
      }
      parts.push("'");
      from = quote + 2;
    }
  }

  private readNumber(): Literal {
    const start = this.pos;
    if (this.text[this.pos] === '-') {
      this.pos++;
      if (!isDigit(this.text[this.pos])) this.fail(start, "'-' must be followed directly by a digit");
    }
    this.readDigits();
    if (this.text[this.pos] === '.') {
      this.pos++;
      this.readDigits();
    }
    if (this.text[this.pos] === 'e' || this.text[this.pos] === 'E') {
      this.pos++;
      if (this.text[this.pos] === '+' || this.text[this.pos] === '-') this.pos++;
      this.readDigits();
    }
    const raw = this.text.slice(start, this.pos);
    const suffix = this.text[this.pos];
    if (suffix !== undefined && NUMBER_SUFFIXES.includes(suffix)) this.pos++; // type suffix: no effect on the value
    const value = Number(raw);
    if (!Number.isFinite(value)) this.fail(start, `Number out of range: ${raw}`);
    return { kind: 'literal', type: 'number', value, raw };
  }

  private readDigits(): void {
    if (!isDigit(this.text[this.pos])) this.fail(this.pos, 'Expected a digit');
    while (isDigit(this.text[this.pos])) this.pos++;
  }
}
