// The `/_api/…` path grammar: `/`-separated segments, each a name with optional `(args)`.
// Pure syntax: which names exist and what they mean is the resolver's business.

import { ODataSyntaxError } from './errors.ts';
import type { Literal } from '../query/ast.ts';
import { parseLiteral, scanLiteral } from './literal.ts';

export type ArgumentValue = Literal | { kind: 'alias'; name: string; value: Literal };

/**
 * The literal an argument stands for: a parameter alias's value (`getbyid(@v)?@v=5` → 5) or
 * the literal written in place. Handlers read this; only a protocol that refuses aliases
 * (ProjectData) looks at the alias itself.
 */
export const argumentLiteral = (value: ArgumentValue | undefined): Literal | undefined =>
  value?.kind === 'alias' ? value.value : value;

/** `name` is present for `name=value` arguments, as written. */
export interface Argument {
  name?: string;
  value: ArgumentValue;
}

export interface PathSegment {
  /** Decoded, as written: 'getbytitle', 'Lists', 'SP.UserProfiles.PeopleManager', '$batch'. */
  name: string;
  lname: string;
  /** undefined: no parentheses; []: empty parentheses as in `recycle()`. */
  args?: Argument[];
}

// Sticky patterns: each reads a whole token in one step from `lastIndex`.
const NAME = /[A-Za-z0-9_.$-]*/y;
const IDENTIFIER = /(?:[A-Za-z_][A-Za-z0-9_]*)?/y;

/**
 * Parses the part of the URL path after `/_api/`, still percent-encoded. `aliases` maps `@name`
 * to the decoded text of the alias value (from the query string).
 */
export function parseApiPath(path: string, aliases: Map<string, string>): PathSegment[] {
  let text: string;
  try {
    // Decoding the whole path once is the same as decoding each piece once, and it makes `%27`
    // quotes and `%2F` separators (outside parentheses) plain characters for the scanner.
    text = decodeURIComponent(path);
  } catch {
    throw new ODataSyntaxError(path, 0, 'malformed percent-encoding');
  }
  return new PathParser(text, aliases).parse();
}

class PathParser {
  private at = 0;

  constructor(
    private readonly text: string,
    private readonly aliases: Map<string, string>,
  ) {}

  parse(): PathSegment[] {
    const segments: PathSegment[] = [];
    const text = this.text;
    if (text === '' || text === '/') return segments;
    for (;;) {
      segments.push(this.segment());
      if (this.at === text.length) return segments;
      this.at++; // the '/' checked by segment()
      if (this.at === text.length) return segments; // a single trailing slash
    }
  }

  private segment(): PathSegment {
    const name = this.match(NAME);
    if (name === '') this.fail('segment name expected');
    const segment: PathSegment = { name, lname: name.toLowerCase() };
    if (this.text[this.at] === '(') {
      this.at++;
      segment.args = this.args();
    }
    if (this.at < this.text.length && this.text[this.at] !== '/') this.fail("'/' or end of path expected");
    return segment;
  }

  /** Reads the arguments after `(` up to and including `)`. */
  private args(): Argument[] {
    const args: Argument[] = [];
    this.skipSpaces();
    if (this.eat(')')) return args;
    for (;;) {
      args.push(this.argument());
      this.skipSpaces();
      if (this.eat(')')) return args;
      if (!this.eat(',')) this.fail("',' or ')' expected");
      this.skipSpaces();
    }
  }

  private argument(): Argument {
    const name = this.argumentName();
    const value = this.argumentValue();
    return name === undefined ? { value } : { name, value };
  }

  /** Consumes `name =` if present; otherwise leaves the position unchanged. */
  private argumentName(): string | undefined {
    const start = this.at;
    const name = this.match(IDENTIFIER);
    if (name === '') return undefined;
    this.skipSpaces();
    if (this.eat('=')) {
      this.skipSpaces();
      return name;
    }
    this.at = start;
    return undefined;
  }

  private argumentValue(): ArgumentValue {
    const start = this.at;
    if (this.eat('@')) {
      if (this.match(IDENTIFIER) === '') this.fail('alias name expected');
      const name = this.text.slice(start, this.at);
      const raw = this.aliases.get(name);
      if (raw === undefined) this.fail(`unknown parameter alias ${name}`, start);
      return { kind: 'alias', name, value: parseLiteral(raw) }; // a bad alias value fails with its own text
    }
    const end = scanLiteral(this.text, start);
    if (end === undefined) this.fail('literal expected');
    this.at = end;
    const literal = this.text.slice(start, end);
    try {
      return parseLiteral(literal);
    } catch (error) {
      if (error instanceof ODataSyntaxError) this.fail(`invalid literal ${literal}`, start);
      throw error;
    }
  }

  /** Consumes and returns what `pattern` (sticky) matches at the current position. */
  private match(pattern: RegExp): string {
    pattern.lastIndex = this.at;
    const token = pattern.exec(this.text)?.[0] ?? '';
    this.at += token.length;
    return token;
  }

  private skipSpaces(): void {
    while (this.text[this.at] === ' ' || this.text[this.at] === '\t') this.at++;
  }

  private eat(c: string): boolean {
    if (this.text[this.at] !== c) return false;
    this.at++;
    return true;
  }

  private fail(detail: string, position = this.at): never {
    throw new ODataSyntaxError(this.text, position, detail);
  }
}
