// The `$filter` syntax tree. It knows nothing of SharePoint: member paths are plain
// name lists, and it is the compiler's job to give them a meaning (a column, a lookup).

export type ComparisonOperator = 'eq' | 'ne' | 'gt' | 'ge' | 'lt' | 'le';
export type LogicalOperator = 'and' | 'or';

export type Literal =
  | { kind: 'literal'; type: 'string'; value: string }
  /** `raw` keeps the source text so 1 and 1.0 and 1e3 can be told apart if needed. */
  | { kind: 'literal'; type: 'number'; value: number; raw: string }
  | { kind: 'literal'; type: 'boolean'; value: boolean }
  | { kind: 'literal'; type: 'null' }
  /** datetime'…' and (SharePoint lets it pass) a quoted ISO string compared with a date column are both kept as text: the compiler normalises. */
  | { kind: 'literal'; type: 'datetime'; value: string }
  | { kind: 'literal'; type: 'guid'; value: string };

export interface MemberExpression {
  kind: 'member';
  /** `Author/Title` → ['Author', 'Title']; names keep the case they were written in. */
  path: string[];
}

export interface CallExpression {
  kind: 'call';
  /** lower-cased function name: startswith, substringof, day, month, year, hour, minute, second, … */
  name: string;
  args: Expression[];
}

export interface ComparisonExpression {
  kind: 'compare';
  op: ComparisonOperator;
  left: Expression;
  right: Expression;
}

export interface LogicalExpression {
  kind: 'logical';
  op: LogicalOperator;
  left: Expression;
  right: Expression;
}

export interface NotExpression {
  kind: 'not';
  operand: Expression;
}

export type Expression =
  | Literal
  | MemberExpression
  | CallExpression
  | ComparisonExpression
  | LogicalExpression
  | NotExpression;
