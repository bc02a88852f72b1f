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
