// Text in the query core: how every language compares and matches text, the same on both
// databases. Text compares case-insensitively through lower() (as SharePoint's and Project's
// SQL Server collations do), by code point on PostgreSQL too (collate "C").

import { sql, type RawBuilder } from 'kysely';
import { binaryCollation, type SqlFlavour } from '../flavour.ts';

/** A text expression as comparisons and sorts read it: case folded, by code point. */
export const foldedText = (expression: RawBuilder<unknown>, flavour: SqlFlavour): RawBuilder<unknown> =>
  sql`lower(${expression})${sql.raw(binaryCollation(flavour))}`;

export type TextMatch = 'startswith' | 'endswith' | 'contains';

/**
 * `subject` starts with, ends with or contains `needle`, ignoring case; `%`, `_` and `\` in
 * the needle are plain characters. SQLite's LIKE reads both sides as C strings, so text
 * holding U+0000 would not match (`a<U+0000>b` contains no `b` to it) and a needle holding it
 * would match everything (`%<U+0000>…` is `%`): there the bytes are compared instead — instr
 * for a prefix or a part, a suffix by its hex (aligned from the end). PostgreSQL stores
 * U+0000 as U+FFFF (connect.ts) and swaps the needle the same way, so LIKE serves there.
 */
export function textMatch(subject: RawBuilder<unknown>, needle: string, match: TextMatch, flavour: SqlFlavour): RawBuilder<unknown> {
  if (flavour === 'sqlite') {
    if (match === 'contains') return sql`(instr(lower(${subject}), lower(${needle})) > 0)`;
    if (match === 'startswith') return sql`(instr(lower(${subject}), lower(${needle})) = 1)`;
    return sql`(hex(lower(${subject})) like ${'%'} || hex(lower(${needle})))`;
  }
  const escaped = needle.replace(/[\\%_]/g, (c) => `\\${c}`);
  const pattern = match === 'startswith' ? `${escaped}%` : match === 'endswith' ? `%${escaped}` : `%${escaped}%`;
  return sql`(lower(${subject}) like lower(${pattern}) escape '\\')`;
}
