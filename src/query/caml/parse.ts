// SharePoint's CAML view query (`<View><Query><Where>…`) read into the same syntax tree `$filter`
// parses into (query/ast.ts), so one SQL compiler runs both and both honour the same rules
// (case folding, U+0000, the list view threshold). What CAML says that `$filter` cannot is
// turned into `$filter`'s terms here: `<In>` is an or-chain of equalities (which the compiler
// makes one `in` list), a date without its time value is a range of that day, `<UserID/>` is
// the acting user's id, a lookup compared by its shown text is a member path into its target.

import type { ComparisonOperator, Expression, Literal, MemberExpression } from '../ast.ts';
import { CamlError } from './errors.ts';
import { readCamlXml, type CamlElement } from './xml.ts';

/** SP.ViewScope: which items of which folders a query reads. */
export type CamlScope = 'Default' | 'Recursive' | 'RecursiveAll' | 'FilesOnly';

export interface CamlOrder {
  name: string;
  ascending: boolean;
}

export interface CamlView {
  scope: CamlScope;
  where?: Expression | undefined;
  orderBy: CamlOrder[];
  /** `<ViewFields>`' FieldRef names, in order (unchecked: a front decides what an unknown one means). */
  viewFields: string[];
  rowLimit?: number | undefined;
  /** `<RowLimit Paged="TRUE">`. */
  paged: boolean;
}

export interface CamlContext {
  /** The acting user's id (`<UserID/>`). */
  userId: number;
  /** Now, `YYYY-MM-DDTHH:MM:SSZ` (`<Today/>`, `<Now/>`). */
  now: string;
  /**
   * For a lookup or person field, the target field its text value is compared with (`Title`);
   * undefined for any other field (or an unknown one), which is then compared itself.
   */
  shownFieldOf(fieldName: string): string | undefined;
}

const COMPARISONS: Record<string, ComparisonOperator> = { Eq: 'eq', Neq: 'ne', Gt: 'gt', Geq: 'ge', Lt: 'lt', Leq: 'le' };
const NUMERIC_TYPES = new Set(['Number', 'Integer', 'Counter', 'Currency', 'ModStat', 'Attachments', 'WorkflowStatus']);
const UNSUPPORTED = new Set(['Membership', 'DateRangesOverlap', 'Includes', 'NotIncludes', 'Geo', 'Near']);
const SCOPES: Record<string, CamlScope> = { recursive: 'Recursive', recursiveall: 'RecursiveAll', filesonly: 'FilesOnly', default: 'Default' };

const isTrue = (value: string | undefined): boolean => value !== undefined && /^true$/i.test(value.trim());

/** Parses a `<View>` (an empty text is an empty view: every item of the folder). */
export function parseCamlView(xml: string, context: CamlContext): CamlView {
  const view: CamlView = { scope: 'Default', orderBy: [], viewFields: [], paged: false };
  if (xml.trim() === '') return view;
  const root = readCamlXml(xml);
  if (root.name !== 'View') throw new CamlError('malformed', `The root element is <${root.name}>, not <View>.`);
  const scope = root.attributes.Scope;
  if (scope !== undefined) {
    const known = SCOPES[scope.toLowerCase()];
    if (!known) throw new CamlError('invalidQuery', `Unknown view scope '${scope}'.`);
    view.scope = known;
  }
  for (const child of root.children) {
    switch (child.name) {
      case 'Query': readQuery(child, view, context); break;
      case 'ViewFields': view.viewFields = child.children.filter((e) => e.name === 'FieldRef').map(fieldRefName); break;
      case 'RowLimit': {
        const text = child.text.trim();
        if (!/^\d+$/.test(text)) throw new CamlError('invalidValue', `RowLimit '${text}' is not a whole number.`);
        view.rowLimit = Number(text);
        view.paged = isTrue(child.attributes.Paged);
        break;
      }
      default: break; // Joins, ProjectedFields, Aggregations, QueryOptions: nothing spemu reads.
    }
  }
  return view;
}

/** Just a `<Where>`'s condition (a view's stored query is `<Where>…</Where><OrderBy>…`). */
function readQuery(query: CamlElement, view: CamlView, context: CamlContext): void {
  for (const part of query.children) {
    if (part.name === 'Where') {
      if (part.children.length > 1) throw new CamlError('invalidQuery', '<Where> holds more than one condition.');
      view.where = part.children[0] ? condition(part.children[0], context) : undefined;
    } else if (part.name === 'OrderBy') {
      view.orderBy = part.children.filter((e) => e.name === 'FieldRef').map((ref) => ({
        name: fieldRefName(ref), ascending: ref.attributes.Ascending === undefined || isTrue(ref.attributes.Ascending),
      }));
    }
  }
}

function fieldRefName(ref: CamlElement): string {
  const name = ref.attributes.Name ?? ref.attributes.ID;
  if (name === undefined || name === '') throw new CamlError('invalidQuery', '<FieldRef> without a Name.');
  return name;
}

function condition(node: CamlElement, context: CamlContext): Expression {
  if (node.name === 'And' || node.name === 'Or') {
    // CAML's And and Or are binary: one or three operands are an invalid query in SharePoint.
    if (node.children.length !== 2) throw new CamlError('invalidQuery', `<${node.name}> must hold exactly two conditions.`);
    return {
      kind: 'logical', op: node.name === 'And' ? 'and' : 'or',
      left: condition(node.children[0]!, context), right: condition(node.children[1]!, context),
    };
  }
  if (UNSUPPORTED.has(node.name)) throw new CamlError('unsupported', `<${node.name}>`);
  const ref = node.children.find((e) => e.name === 'FieldRef');
  if (!ref) throw new CamlError('invalidQuery', `<${node.name}> without a <FieldRef>.`);
  const name = fieldRefName(ref);
  const lookupId = isTrue(ref.attributes.LookupId);
  if (node.name === 'IsNull' || node.name === 'IsNotNull') {
    return { kind: 'compare', op: node.name === 'IsNull' ? 'eq' : 'ne', left: { kind: 'member', path: [name] }, right: { kind: 'literal', type: 'null' } };
  }
  if (node.name === 'In') {
    const values = node.children.find((e) => e.name === 'Values')?.children.filter((e) => e.name === 'Value') ?? [];
    if (values.length === 0) throw new CamlError('invalidQuery', '<In> without <Values>.');
    const equalities = values.map((v) => comparison('eq', name, lookupId, v, context));
    return equalities.reduce((left, right) => ({ kind: 'logical', op: 'or', left, right }));
  }
  const value = node.children.find((e) => e.name === 'Value');
  if (!value) throw new CamlError('invalidQuery', `<${node.name}> without a <Value>.`);
  if (node.name === 'Contains' || node.name === 'BeginsWith') {
    const { member, literal } = operands(name, lookupId, value, context);
    if (literal.type !== 'string') throw new CamlError('invalidValue', `<${node.name}> compares text.`);
    return node.name === 'Contains'
      ? { kind: 'call', name: 'substringof', args: [literal, member] }
      : { kind: 'call', name: 'startswith', args: [member, literal] };
  }
  const op = COMPARISONS[node.name];
  if (!op) throw new CamlError('invalidQuery', `<${node.name}> is not a CAML comparison.`);
  return comparison(op, name, lookupId, value, context);
}

/**
 * A comparison of a field with a `<Value>`. A date without `IncludeTimeValue="TRUE"` is a
 * day: SharePoint drops the time of the value and compares with the whole day (a range).
 */
function comparison(op: ComparisonOperator, name: string, lookupId: boolean, value: CamlElement, context: CamlContext): Expression {
  const { member, literal, day } = operands(name, lookupId, value, context);
  const compare = (o: ComparisonOperator, l: Literal): Expression => ({ kind: 'compare', op: o, left: member, right: l });
  if (!day) return compare(op, literal);
  const start: Literal = { kind: 'literal', type: 'datetime', value: `${day}T00:00:00Z` };
  const end: Literal = { kind: 'literal', type: 'datetime', value: `${nextDay(day)}T00:00:00Z` };
  switch (op) {
    case 'eq': return { kind: 'logical', op: 'and', left: compare('ge', start), right: compare('lt', end) };
    case 'ne': return { kind: 'logical', op: 'or', left: compare('lt', start), right: compare('ge', end) };
    case 'gt': return compare('ge', end);
    case 'ge': return compare('ge', start);
    case 'lt': return compare('lt', start);
    case 'le': return compare('lt', end);
  }
}

interface Operands {
  member: MemberExpression;
  literal: Literal;
  /** `YYYY-MM-DD` when the value is a date compared without its time. */
  day?: string | undefined;
}

function operands(name: string, lookupId: boolean, value: CamlElement, context: CamlContext): Operands {
  const type = value.attributes.Type ?? 'Text';
  const member: MemberExpression = { kind: 'member', path: [name] };
  const text = value.text;
  if (value.children.some((e) => e.name === 'UserID')) return { member, literal: number(String(context.userId)) };
  if (type === 'DateTime') {
    const special = value.children.find((e) => e.name === 'Today' || e.name === 'Now');
    const iso = special ? shifted(context.now, special) : text.trim();
    if (!/^\d{4}-\d{2}-\d{2}/.test(iso)) throw new CamlError('invalidValue', `'${iso}' is not a date.`);
    const withTime = isTrue(value.attributes.IncludeTimeValue) || special?.name === 'Now';
    return withTime ? { member, literal: { kind: 'literal', type: 'datetime', value: iso } } : { member, literal: { kind: 'literal', type: 'datetime', value: iso }, day: iso.slice(0, 10) };
  }
  if (type === 'Boolean') {
    const t = text.trim();
    if (!/^(0|1|true|false)$/i.test(t)) throw new CamlError('invalidValue', `'${t}' is not a Boolean.`);
    return { member, literal: { kind: 'literal', type: 'boolean', value: /^(1|true)$/i.test(t) } };
  }
  if (NUMERIC_TYPES.has(type) || ((type === 'Lookup' || type === 'User') && lookupId)) return { member, literal: number(text.trim()) };
  // A lookup or person field compared with text: the text its target shows (its Title).
  const shown = lookupId ? undefined : context.shownFieldOf(name);
  return { member: shown ? { kind: 'member', path: [name, shown] } : member, literal: { kind: 'literal', type: 'string', value: text } };
}

function number(text: string): Literal {
  const value = Number(text);
  if (text === '' || !Number.isFinite(value)) throw new CamlError('invalidValue', `'${text}' is not a number.`);
  return { kind: 'literal', type: 'number', value, raw: text };
}

/** `<Today OffsetDays="-7"/>` (or `Offset`): now moved by whole days. */
function shifted(now: string, special: CamlElement): string {
  const offset = Number(special.attributes.OffsetDays ?? special.attributes.Offset ?? 0);
  const date = new Date(Date.parse(now) + (Number.isFinite(offset) ? offset : 0) * 86_400_000);
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function nextDay(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}
