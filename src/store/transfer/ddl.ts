// DDL for the tables an import makes itself (those the target's migrations do not: the
// per-list item tables and other run-time tables), from the shapes the export recorded. On the
// same kind of database the declared types are reused; across kinds, the portable ones.

import type { SqlFlavour } from '../sql/flavour.ts';
import { quoteId, type ColumnInfo, type IndexInfo, type TableInfo } from './catalog.ts';

function columnDdl(c: ColumnInfo, source: SqlFlavour, target: SqlFlavour): string {
  let type: string;
  if (source === target && c.declared) type = c.declared;
  else {
    const pg = target === 'postgres';
    type = {
      integer: pg ? 'bigint' : 'integer', real: pg ? 'double precision' : 'real', numeric: 'numeric', text: 'text',
      blob: pg ? 'bytea' : 'blob', boolean: pg ? 'boolean' : 'integer', json: pg ? 'jsonb' : 'text',
    }[c.type];
  }
  const identity = source === 'postgres' && target === 'postgres' && c.identity ? ` generated ${c.identity} as identity` : '';
  const collate = target === 'postgres' && c.binary && c.type === 'text' ? ' collate "C"' : '';
  return `${quoteId(c.name)} ${type}${collate}${c.notNull ? ' not null' : ''}${c.default !== undefined ? ` default ${c.default}` : ''}${identity}`;
}

export function createTableSql(table: TableInfo, source: SqlFlavour, target: SqlFlavour): string {
  const parts = table.columns.map((c) => columnDdl(c, source, target));
  if (table.primaryKey.length) parts.push(`primary key (${table.primaryKey.map(quoteId).join(', ')})`);
  return `create table ${quoteId(table.name)} (${parts.join(', ')})`;
}

export function createIndexSql(table: string, index: IndexInfo, target: SqlFlavour): string {
  // SQLite has no NULLS FIRST/LAST in an index: its nulls sort first ascending, always.
  const keys = index.keys.map((k) => `${k.expr}${target === 'postgres' && k.binary ? ' collate "C"' : ''}${k.desc ? ' desc' : ''}`
    + `${target === 'postgres' && k.nulls ? ` nulls ${k.nulls}` : ''}`);
  const where = index.where ? ` where ${index.where}` : '';
  return `create ${index.unique ? 'unique ' : ''}index ${quoteId(index.name)} on ${quoteId(table)} (${keys.join(', ')})${where}`;
}
