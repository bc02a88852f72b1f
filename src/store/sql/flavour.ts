// The few places where SQLite and PostgreSQL SQL must differ, named in one file.

export type SqlFlavour = 'sqlite' | 'postgres';

export const columnType = (flavour: SqlFlavour, storage: 'text' | 'real' | 'int'): string => {
  if (storage === 'text') return 'text';
  if (storage === 'int') return flavour === 'postgres' ? 'bigint' : 'integer';
  return flavour === 'postgres' ? 'double precision' : 'real';
};

/**
 * Text sorts by code point in both databases (PostgreSQL's default collation would sort
 * linguistically and differ from SQLite on the wire).
 */
export const binaryCollation = (flavour: SqlFlavour): string => (flavour === 'postgres' ? ' collate "C"' : '');

/**
 * How an index key that serves a sort must be declared to give spemu's order: empty values
 * first ascending (`asc nulls first`, last descending), as SharePoint sorts. SQLite's
 * indexes always order so (and refuse NULLS in an index); PostgreSQL's default is nulls
 * last ascending, whose index the planner cannot read in spemu's order (it sorts instead).
 * Declared this way, PostgreSQL reads it forwards for `asc nulls first` and backwards for
 * `desc nulls last`.
 */
export const nullsFirst = (flavour: SqlFlavour): string => (flavour === 'postgres' ? ' nulls first' : '');
