// What the migrations need of SQL, written down as it was when they were written. A
// migration must do the same thing forever, so it imports nothing from the running code
// (flavour.ts, item-table.ts, the domain may change; a copy here may not). The layer test
// holds that files in migrations/ import only kysely and each other.

export type Flavour = 'sqlite' | 'postgres';

/** Column types per storage, as 0001–0005 declared them. */
export const columnType = (flavour: Flavour, storage: 'text' | 'real' | 'int'): string => {
  if (storage === 'text') return 'text';
  if (storage === 'int') return flavour === 'postgres' ? 'bigint' : 'integer';
  return flavour === 'postgres' ? 'double precision' : 'real';
};

/**
 * Field kinds whose sort index folds case (`lower(column) collate "C"`) as of 0006: those
 * stored as text, except DateTime (ISO text sorts as it is).
 */
export const CASE_FOLDED_KINDS: ReadonlySet<string> = new Set([
  'Text', 'Note', 'Choice', 'URL', 'Computed', 'Guid', 'MultiChoice', 'UserMulti', 'LookupMulti', 'ContentTypeId', 'File',
]);
