// Recursive-descent parser for SharePoint's OData v3 `$filter` dialect.
// Precedence, lowest first: or, and, not, comparison (non-associative), primary.

import type { ComparisonOperator, Expression, LogicalOperator } from '../../query/ast.ts';
import { FilterLexer, type Token } from './lexer.ts';

/** Nesting of parentheses, `not` and calls beyond this is rejected, so hostile input cannot overflow the stack. */
export const MAX_FILTER_DEPTH = 100;

const COMPARISON_OPERATORS: ReadonlySet<string> = new Set<ComparisonOperator>(['eq', 'ne', 'gt', 'ge', 'lt', 'le']);
const KEYWORDS: ReadonlySet<string> = new Set([...COMPARISON_OPERATORS, 'and', 'or', 'not', 'true', 'false', 'null']);

const isComparisonOperator = (word: string | undefined): word is ComparisonOperator =>
  word !== undefined && COMPARISON_OPERATORS.has(word);

export function parseFilter(text: string): Expression {
  return new FilterParser(text).parseWhole();
}

/** The lower-cased keyword a token stands for, or undefined when it is not one. */
function keywordOf(token: Token): string | undefined {
  if (token.kind !== 'name' || token.segments.length !== 1) return undefined;
  const word = token.segments[0]!.toLowerCase();
  return KEYWORDS.has(word) ? word : undefined;
}

class FilterParser {
  private readonly text: string;
  private readonly lexer: FilterLexer;
  /** One token of lookahead. */
  private current: Token;
  private depth = 0;

  constructor(text: string) {
    this.text = text;
    this.lexer = new FilterLexer(text);
    this.current = this.lexer.next();
  }

  parseWhole(): Expression {
    if (this.peek().kind === 'end') this.fail(this.peek(), 'Empty filter');
    const expression = this.parseOr();
    const rest = this.peek();
    if (rest.kind !== 'end') {
      this.fail(rest, isComparisonOperator(keywordOf(rest)) ? 'Comparison operators cannot be chained' : `Unexpected ${this.describe(rest)}`);
    }
    return expression;
  }

  private parseOr(): Expression {
    return this.parseLogical('or', () => this.parseAnd());
  }

  private parseAnd(): Expression {
    return this.parseLogical('and', () => this.parseNot());
  }

  private parseLogical(op: LogicalOperator, parseOperand: () => Expression): Expression {
    let left = parseOperand();
    while (keywordOf(this.peek()) === op) {
      this.next();
      left = { kind: 'logical', op, left, right: parseOperand() };
    }
    return left;
  }

  private parseNot(): Expression {
    const token = this.peek();
    if (keywordOf(token) !== 'not') return this.parseComparison();
    this.next();
    return this.nested(token, () => ({ kind: 'not', operand: this.parseNot() }));
  }

  private parseComparison(): Expression {
    const left = this.parsePrimary();
    const op = keywordOf(this.peek());
    if (!isComparisonOperator(op)) return left;
    this.next();
    return { kind: 'compare', op, left, right: this.parsePrimary() };
  }

  private parsePrimary(): Expression {
    const token = this.next();
    switch (token.kind) {
      case 'literal':
        return token.literal;
      case '(':
        return this.nested(token, () => {
          const inner = this.parseOr();
          this.expect(')');
          return inner;
        });
      case 'name':
        return this.parseNameOrCall(token);
      default:
        return this.fail(token, `Expected an operand but found ${this.describe(token)}`);
    }
  }

  private parseNameOrCall(token: Token & { kind: 'name' }): Expression {
    const keyword = keywordOf(token);
    if (keyword === 'true' || keyword === 'false') return { kind: 'literal', type: 'boolean', value: keyword === 'true' };
    if (keyword === 'null') return { kind: 'literal', type: 'null' };
    if (keyword !== undefined) this.fail(token, `Expected an operand but found ${this.describe(token)}`);
    const open = this.peek();
    // Only `name(` with nothing in between is a call; `Author/x(` is not a function name.
    const isCall = open.kind === '(' && open.start === token.end && token.segments.length === 1;
    if (!isCall) return { kind: 'member', path: token.segments };
    this.next();
    return this.nested(open, () => ({ kind: 'call', name: token.segments[0]!.toLowerCase(), args: this.parseArguments() }));
  }

  /** Arguments after the opening parenthesis, up to and including the closing one. */
  private parseArguments(): Expression[] {
    const args: Expression[] = [];
    if (this.peek().kind === ')') {
      this.next();
      return args; // zero-argument calls parse; the compiler decides whether any exist
    }
    for (;;) {
      args.push(this.parseOr());
      const separator = this.next();
      if (separator.kind === ')') return args;
      if (separator.kind !== ',') this.fail(separator, `Expected ',' or ')' but found ${this.describe(separator)}`);
    }
  }

  private nested<T>(at: Token, parse: () => T): T {
    if (++this.depth > MAX_FILTER_DEPTH) this.fail(at, `Filter nested deeper than ${MAX_FILTER_DEPTH} levels`);
    const result = parse();
    this.depth--;
    return result;
  }

  private expect(kind: Token['kind']): void {
    const token = this.next();
    if (token.kind !== kind) this.fail(token, `Expected '${kind}' but found ${this.describe(token)}`);
  }

  private peek(): Token {
    return this.current;
  }

  private next(): Token {
    const token = this.current;
    if (token.kind !== 'end') this.current = this.lexer.next();
    return token;
  }

  private describe(token: Token): string {
    return token.kind === 'end' ? 'end of filter' : `'${this.text.slice(token.start, token.end)}'`;
  }

  private fail(at: Token, detail: string): never {
    return this.lexer.fail(at.start, detail);
  }
}
