// Reading a calculated column's formula (`=IF([Cost]>100,"High","Low")`) into a tree, with
// Excel's precedence: comparisons bind loosest, then `&`, then `+ -`, then `* /`, then `^`, then
// a sign. The grammar is small and fixed, so a hand-written tokenizer and precedence-climbing
// parser read it in one pass (docs/architecture.md says why no parser generator).

/** A parsed formula. References keep the name as written; they are resolved against a list's fields later. */
export type FormulaNode =
  | { t: 'number'; value: number }
  | { t: 'string'; value: string }
  | { t: 'boolean'; value: boolean }
  | { t: 'ref'; name: string }
  | { t: 'negate'; operand: FormulaNode }
  | { t: 'binary'; op: BinaryOp; left: FormulaNode; right: FormulaNode }
  | { t: 'call'; name: string; args: FormulaNode[] };

export type BinaryOp = '=' | '<>' | '<' | '>' | '<=' | '>=' | '&' | '+' | '-' | '*' | '/' | '^';

/** A formula that does not read: SharePoint answers these with one message, whatever the fault. */
export class FormulaSyntaxError extends Error {}

type Token =
  | { t: 'number'; value: number }
  | { t: 'string'; value: string }
  | { t: 'ref'; name: string }
  | { t: 'name'; name: string }
  | { t: 'op'; op: string }
  | { t: 'end' };

const OPERATORS = ['<>', '<=', '>=', '=', '<', '>', '&', '+', '-', '*', '/', '^', '(', ')', ','];

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let at = 0;
  while (at < text.length) {
    const c = text[at]!;
    if (/\s/.test(c)) { at++; continue; }
    if (c === '"') {
      // "" inside a string is one quote, as in Excel.
      let value = '';
      at++;
      for (;;) {
        if (at >= text.length) throw new FormulaSyntaxError('unterminated string');
        if (text[at] === '"') {
          if (text[at + 1] === '"') { value += '"'; at += 2; continue; }
          at++;
          break;
        }
        value += text[at++];
      }
      tokens.push({ t: 'string', value });
      continue;
    }
    if (c === '[') {
      const close = text.indexOf(']', at);
      if (close < 0) throw new FormulaSyntaxError('unterminated column reference');
      const name = text.slice(at + 1, close).trim();
      if (!name) throw new FormulaSyntaxError('empty column reference');
      tokens.push({ t: 'ref', name });
      at = close + 1;
      continue;
    }
    const number = /^(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(text.slice(at));
    if (number) {
      tokens.push({ t: 'number', value: Number(number[0]) });
      at += number[0].length;
      continue;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_.]*/.exec(text.slice(at));
    if (name) {
      tokens.push({ t: 'name', name: name[0] });
      at += name[0].length;
      continue;
    }
    const op = OPERATORS.find((o) => text.startsWith(o, at));
    if (!op) throw new FormulaSyntaxError(`unexpected '${c}'`);
    tokens.push({ t: 'op', op });
    at += op.length;
  }
  tokens.push({ t: 'end' });
  return tokens;
}

/** Binding strength of each binary operator (higher binds tighter). */
const PRECEDENCE: Record<BinaryOp, number> = {
  '=': 1, '<>': 1, '<': 1, '>': 1, '<=': 1, '>=': 1, '&': 2, '+': 3, '-': 3, '*': 4, '/': 4, '^': 5,
};

/** Parses `formula` (with or without its leading `=`); throws FormulaSyntaxError. */
export function parseFormula(formula: string): FormulaNode {
  const text = formula.trim().replace(/^=/, '');
  if (!text.trim()) throw new FormulaSyntaxError('empty formula');
  const tokens = tokenize(text);
  let at = 0;
  const peek = () => tokens[at]!;
  const isOp = (op: string) => { const t = peek(); return t.t === 'op' && t.op === op; };
  const expect = (op: string) => { if (!isOp(op)) throw new FormulaSyntaxError(`expected '${op}'`); at++; };

  const expression = (minimum: number): FormulaNode => {
    let left = unary();
    for (;;) {
      const t = peek();
      if (t.t !== 'op' || !(t.op in PRECEDENCE)) return left;
      const op = t.op as BinaryOp;
      const strength = PRECEDENCE[op];
      if (strength < minimum) return left;
      at++;
      // Every operator reads left to right, `^` too (Excel: 2^3^2 is 64).
      const right = expression(strength + 1);
      left = { t: 'binary', op, left, right };
    }
  };

  const unary = (): FormulaNode => {
    if (isOp('-')) { at++; return { t: 'negate', operand: signed() }; }
    if (isOp('+')) { at++; return signed(); }
    return primary();
  };
  // A sign binds tightest, to the operand right after it (as in Excel: -2^2 is 4).
  const signed = (): FormulaNode => (isOp('-') || isOp('+') ? unary() : primary());

  const primary = (): FormulaNode => {
    const t = peek();
    at++;
    switch (t.t) {
      case 'number': return { t: 'number', value: t.value };
      case 'string': return { t: 'string', value: t.value };
      case 'ref': return { t: 'ref', name: t.name };
      case 'name': {
        if (isOp('(')) {
          at++;
          const args: FormulaNode[] = [];
          if (!isOp(')')) {
            for (;;) {
              args.push(expression(1));
              if (isOp(',')) { at++; continue; }
              break;
            }
          }
          expect(')');
          return { t: 'call', name: t.name.toUpperCase(), args };
        }
        const upper = t.name.toUpperCase();
        if (upper === 'TRUE' || upper === 'FALSE') return { t: 'boolean', value: upper === 'TRUE' };
        return { t: 'ref', name: t.name };
      }
      case 'op':
        if (t.op === '(') { const inner = expression(1); expect(')'); return inner; }
        throw new FormulaSyntaxError(`unexpected '${t.op}'`);
      default:
        throw new FormulaSyntaxError('unexpected end of formula');
    }
  };

  const tree = expression(1);
  if (peek().t !== 'end') throw new FormulaSyntaxError('unexpected text after the formula');
  return tree;
}

/** Every node of `tree`, depth first. */
export function* nodesOf(tree: FormulaNode): Generator<FormulaNode> {
  yield tree;
  if (tree.t === 'negate') yield* nodesOf(tree.operand);
  else if (tree.t === 'binary') { yield* nodesOf(tree.left); yield* nodesOf(tree.right); }
  else if (tree.t === 'call') for (const a of tree.args) yield* nodesOf(a);
}
