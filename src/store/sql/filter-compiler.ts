// SharePoint's item `$filter` over the query core (query/condition.ts): what its comparisons,
// functions and members mean on a list's item table. The core does the connectives, limits
// and `in` lists. One compiler for SQLite and PostgreSQL: values are always bound parameters
// and the SQL used (lower, substr, text matches, in (select …)) means the same in both.

import { sql, type RawBuilder } from 'kysely';
import type { ComparisonOperator, Expression, Literal, MemberExpression } from '../../query/ast.ts';
import { FIELD_KINDS, valueKind, type StorageType } from '../../domain/field-kinds.ts';
import type { Field, List } from '../../domain/model.ts';
import { normaliseDateTime } from '../../domain/values.ts';
import { findField } from '../../domain/fields.ts';
import { fail } from '../../domain/errors.ts';
import type { SqlFlavour } from './flavour.ts';
import { ConditionCompiler, type Leaves } from './query/condition.ts';
import { foldedText, textMatch } from './query/text.ts';

export { balanced, chainOperands, MAX_FILTER_TERMS } from './query/condition.ts';

/** What a filter can see: the list's fields, and for expanded lookups the target's. */
export interface FilterScope {
  fields: Field[];
  /** Lookup/user fields that were `$expand`ed, by internal name, with their target list. */
  lookups: Map<string, { list: List; fields: Field[] }>;
  flavour: SqlFlavour;
  /** The whole `$filter` text, for error messages. */
  text: string;
  /** The list's server-relative URL: FileDirRef and FileRef are compared relative to it. */
  listUrl?: string | undefined;
}

export interface CompiledFilter {
  condition: RawBuilder<unknown>;
  /** Fields the filter touches (for the list view threshold check). */
  fieldsUsed: Set<Field>;
}

/** A member resolved to a column: where it lives and how to compare it. */
interface Operand {
  sql: RawBuilder<unknown>;
  storage: StorageType;
  kind: Field['kind'];
  name: string;
  /** Set for `Author/Title`: the predicate runs on the target table and is joined back by id. */
  via?: { column: RawBuilder<unknown>; table: string };
  /** How a text literal becomes what the column holds (FileDirRef: a URL, stored relative to the list). */
  literal?: (value: string, prefix?: boolean) => string;
}

/** `Author/Title eq 'x'` → `author_id in (select id from <user list> where lower(title) = lower(?))`. */
function through(operand: Operand, predicate: RawBuilder<unknown>): RawBuilder<unknown> {
  if (!operand.via) return predicate;
  return sql`(${operand.via.column} in (select id from ${sql.table(operand.via.table)} where ${predicate}))`;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SQL_OPERATORS: Record<ComparisonOperator, string> = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' };
const SWAPPED: Record<ComparisonOperator, ComparisonOperator> = { eq: 'eq', ne: 'ne', gt: 'lt', ge: 'le', lt: 'gt', le: 'ge' };
/** Character ranges of each part in a stored `YYYY-MM-DDTHH:MM:SSZ` value. */
const DATE_PARTS: Record<string, [number, number]> = {
  year: [1, 4], month: [6, 2], day: [9, 2], hour: [12, 2], minute: [15, 2], second: [18, 2],
};

export function compileFilter(ast: Expression, scope: FilterScope): CompiledFilter {
  const fieldsUsed = new Set<Field>();
  const condition = new ConditionCompiler(new ItemLeaves(scope, fieldsUsed)).condition(ast);
  return { condition, fieldsUsed };
}

/** SharePoint's leaves: comparisons with a literal, startswith/substringof, date parts, a bare Boolean. */
class ItemLeaves implements Leaves {
  constructor(private readonly scope: FilterScope, private readonly used: Set<Field>) {}

  leaf(node: Expression): RawBuilder<unknown> {
    switch (node.kind) {
      case 'compare':
        return this.comparison(node.op, node.left, node.right);
      case 'call':
        return this.predicateCall(node.name, node.args);
      case 'member': {
        // A bare Boolean column is a condition of its own (`$filter=Done`).
        const operand = this.member(node.path);
        if (operand.kind !== 'Boolean') throw this.invalid();
        return sql`(${operand.sql} = 1)`;
      }
      default:
        throw this.invalid();
    }
  }

  private comparison(op: ComparisonOperator, left: Expression, right: Expression): RawBuilder<unknown> {
    if (left.kind === 'literal' && right.kind !== 'literal') return this.comparison(SWAPPED[op], right, left);
    if (right.kind !== 'literal') throw this.invalid();
    const operand = left.kind === 'call' ? this.dateFunction(left.name, left.args) : left.kind === 'member' ? this.member(left.path) : undefined;
    if (!operand) throw this.invalid();
    if (right.type === 'null') {
      if (op === 'eq' && operand.via) {
        // `Ref/Title eq null` also holds for an item without a Ref (a left join, as SharePoint's).
        const { column, table } = operand.via;
        return sql`(${column} is null or ${column} not in (select id from ${sql.table(table)} where ${operand.sql} is not null))`;
      }
      if (op === 'eq') return through(operand, sql`(${operand.sql} is null)`);
      if (op === 'ne') return through(operand, sql`(${operand.sql} is not null)`);
      throw this.invalid();
    }
    let value = this.coerce(operand, right);
    if (operand.kind === 'DateTime' && fractionOfSecond(right)) {
      // Stored dates are whole seconds; the literal (truncated by coerce) is not: `ge …:05.5`
      // is `gt …:05`, `lt …:05.5` is `le …:05`, and eq/ne compare with the literal as written
      // (with its fraction), which no stored date equals.
      if (op === 'ge' || op === 'lt') op = op === 'ge' ? 'gt' : 'le';
      else if (op === 'eq' || op === 'ne') value = sql`${literalText(right)}`;
    }
    const sqlOp = sql.raw(SQL_OPERATORS[op]);
    if (operand.storage === 'text' && operand.kind !== 'DateTime') {
      return through(operand, sql`(${foldedText(operand.sql, this.scope.flavour)} ${sqlOp} lower(${value}))`);
    }
    return through(operand, sql`(${operand.sql} ${sqlOp} ${value})`);
  }

  /**
   * `X eq 1 or X eq 2 or …` on one column as `X in (1, 2, …)`: the same test (empty values
   * included), which SQLite plans in linear time, where a long `or` of comparisons on the
   * rowid or an indexed column costs it quadratic time (a second for 5000 `ID eq`).
   */
  inList(member: MemberExpression, literals: Literal[]): RawBuilder<unknown> | undefined {
    const operand = this.member(member.path);
    if (operand.kind === 'DateTime') return undefined; // fractions of a second: see comparison()
    const values = literals.map((l) => this.coerce(operand, l));
    if (operand.storage === 'text') {
      const lowered = values.map((v) => sql`lower(${v})`);
      return through(operand, sql`(${foldedText(operand.sql, this.scope.flavour)} in (${sql.join(lowered)}))`);
    }
    return through(operand, sql`(${operand.sql} in (${sql.join(values)}))`);
  }

  private predicateCall(name: string, args: Expression[]): RawBuilder<unknown> {
    if (name === 'startswith' || name === 'substringof') {
      const [memberArg, textArg] = name === 'startswith' ? [args[0], args[1]] : [args[1], args[0]];
      if (args.length !== 2 || memberArg?.kind !== 'member' || textArg?.kind !== 'literal' || textArg.type !== 'string') throw this.invalid();
      const operand = this.member(memberArg.path);
      if (operand.storage !== 'text') throw this.invalid();
      return through(operand, textMatch(operand.sql, operand.literal ? operand.literal(textArg.value, name === 'startswith') : textArg.value, name === 'startswith' ? 'startswith' : 'contains', this.scope.flavour));
    }
    throw unsupportedFunction(name);
  }

  private dateFunction(name: string, args: Expression[]): Operand {
    const part = DATE_PARTS[name];
    if (!part) throw unsupportedFunction(name);
    const arg = args[0];
    if (args.length !== 1 || arg?.kind !== 'member') throw this.invalid();
    const operand = this.member(arg.path);
    if (operand.kind !== 'DateTime') throw this.invalid();
    return {
      ...operand,
      sql: sql`cast(substr(${operand.sql}, ${sql.lit(part[0])}, ${sql.lit(part[1])}) as integer)`,
      storage: 'int', kind: 'Integer', name: `${name}(${operand.name})`,
    };
  }

  private member(path: string[]): Operand {
    const [head, sub, ...rest] = path;
    if (!head || rest.length > 0) throw this.invalid();
    const document = sub === undefined ? this.documentMember(head) : undefined;
    if (document) return document;
    const found = findField(this.scope.fields, head);
    if (!found) throw fail.unknownColumn(path.join('/'));
    const { field, idSuffix } = found;
    const kind = valueKind(field);
    const info = FIELD_KINDS[kind];
    if (!info.queryable) throw fail.badArgument(`The field '${field.internalName}' of type '${info.typeAsString}' cannot be used in the query filter expression.`);
    this.used.add(field);
    const column = sql.ref(field.column);
    if (sub === undefined) {
      // A User/Lookup column by its own name compares its id, like `<Name>Id`.
      const storage = info.reference || idSuffix ? 'int' : info.storage;
      return { sql: column, storage, kind: idSuffix ? 'Integer' : kind, name: head };
    }
    if (!info.reference || idSuffix) throw fail.unknownColumn(path.join('/'));
    const target = this.scope.lookups.get(field.internalName);
    if (!target) throw fail.expandRequired(path.join('/'), field.internalName);
    if (sub === 'Id' || sub === 'ID') return { sql: column, storage: 'int', kind: 'Integer', name: path.join('/') };
    const targetField = findField(target.fields, sub);
    const targetKind = targetField && valueKind(targetField.field);
    if (!targetField || !targetKind || targetField.idSuffix || FIELD_KINDS[targetKind].reference || !FIELD_KINDS[targetKind].queryable) {
      throw fail.unknownColumn(path.join('/'));
    }
    return {
      sql: sql.ref(targetField.field.column),
      storage: FIELD_KINDS[targetKind].storage,
      kind: targetKind,
      name: path.join('/'),
      via: { column, table: target.list.tableName },
    };
  }

  /**
   * The document fields (issue #11) are columns of every item table, not fields: FileLeafRef
   * is leaf_name, FSObjType fs_obj_type, UniqueId guid; FileDirRef is dir_path, its literal
   * made relative to the list (so `FileDirRef eq '…'` uses the place index); FileRef the two joined.
   */
  private documentMember(name: string): Operand | undefined {
    const relative = (value: string, prefix = false): string => {
      const base = (this.scope.listUrl ?? '').toLowerCase();
      const trimmed = value.replace(/\/+$/, '');
      const lower = trimmed.toLowerCase();
      if (lower === base) return '';
      // A prefix keeps its final slash: `startswith(FileDirRef, '…/A/')` is below A, not also `…/AB`.
      const slash = prefix && trimmed !== value ? '/' : '';
      // A URL outside the list becomes a path no row has (stored paths never start with '/').
      return lower.startsWith(`${base}/`) ? trimmed.slice(base.length + 1) + slash : `/${value}`;
    };
    switch (name.toLowerCase()) {
      case 'fileleafref': return { sql: sql.ref('leaf_name'), storage: 'text', kind: 'Text', name };
      case 'fsobjtype': case 'filesystemobjecttype': return { sql: sql.ref('fs_obj_type'), storage: 'int', kind: 'Integer', name };
      case 'uniqueid': return { sql: sql.ref('guid'), storage: 'text', kind: 'Guid', name };
      case 'filedirref': return { sql: sql.ref('dir_path'), storage: 'text', kind: 'Text', name, literal: relative };
      case 'fileref': return {
        sql: sql`(case when dir_path = '' then leaf_name else dir_path || '/' || leaf_name end)`, storage: 'text', kind: 'Text', name, literal: relative,
      };
      default: return undefined;
    }
  }

  private coerce(operand: Operand, literal: Literal): RawBuilder<unknown> {
    const bad = () => fail.badArgument(`The value in the filter expression for '${operand.name}' is not valid for its type.`);
    switch (operand.storage) {
      case 'text': {
        if (operand.kind === 'DateTime') {
          const text = literal.type === 'datetime' || literal.type === 'string' ? literal.value : undefined;
          const iso = text === undefined ? undefined : normaliseDateTime(text);
          if (!iso) throw bad();
          return sql`${iso}`;
        }
        if (literal.type === 'guid' && !GUID.test(literal.value)) throw this.invalid();
        if (literal.type === 'string' && operand.literal) return sql`${operand.literal(literal.value)}`;
        if (literal.type === 'string' || literal.type === 'guid') return sql`${literal.value}`;
        if (literal.type === 'number') return sql`${literal.raw}`;
        throw bad();
      }
      case 'int':
      case 'real': {
        if (operand.kind === 'Boolean') {
          if (literal.type === 'boolean') return sql`${literal.value ? 1 : 0}`;
          if (literal.type === 'number' && (literal.value === 0 || literal.value === 1)) return sql`${literal.value}`;
          if (literal.type === 'string' && /^(0|1|true|false)$/i.test(literal.value)) return sql`${/^(1|true)$/i.test(literal.value) ? 1 : 0}`;
          throw bad();
        }
        if (literal.type === 'number') return this.number(literal.value);
        if (literal.type === 'string' && literal.value.trim() !== '' && Number.isFinite(Number(literal.value))) return this.number(Number(literal.value));
        throw bad();
      }
    }
  }

  /**
   * A number to compare with a column. PostgreSQL types a bare parameter as the column's type
   * and refuses 1.5 or 1e20 for a bigint column, where SQLite compares the values: such a
   * number is cast to double precision, which compares numerically like SQLite does.
   */
  private number(value: number): RawBuilder<unknown> {
    if (this.scope.flavour === 'postgres' && !Number.isSafeInteger(value)) return sql`cast(${value} as double precision)`;
    return sql`${value}`;
  }

  private invalid() {
    return fail.invalidExpression(this.scope.text);
  }
}

const literalText = (literal: Literal): string | undefined =>
  literal.type === 'datetime' || literal.type === 'string' ? literal.value : undefined;

/** A date literal with a non-zero fraction of a second (`…T10:00:05.500Z`). */
const fractionOfSecond = (literal: Literal): boolean => /:\d{2}\.\d*[1-9]/.test(literalText(literal) ?? '');

function unsupportedFunction(name: string) {
  return fail.badArgument(`The function '${name}' is not supported in a SharePoint $filter.`);
}
