// The change log (issue #10): what every write changed, recorded by the unit of work in the
// write's own transaction (sql/change-recording.ts), numbered per site collection. Reads walk
// an index from a position onward; nothing here scans a list.

import type { Change, ChangeObjectKind } from '../domain/change-tokens.ts';

/** Which changes to read: one scope, some kinds and change types, after a position, in order. */
export interface ChangeQuery {
  siteId: string;
  scope: { kind: 'site' } | { kind: 'web'; webId: string } | { kind: 'list'; listId: string };
  kinds: readonly ChangeObjectKind[];
  types: readonly number[];
  /** Changes after this number (exclusive), or after this time (a token naming a time only). */
  after?: { number: number } | { time: string } | undefined;
  /** Changes up to this number (inclusive), or up to this time. */
  upTo?: { number: number } | { time: string } | undefined;
  limit: number;
  latestFirst: boolean;
}

export interface ChangeRepository {
  query(query: ChangeQuery): Promise<Change[]>;
  /** The last change number the site collection gave (0 before its first change). */
  latest(siteId: string): Promise<number>;
  /** Removes changes older than `before` (ISO time); how many. */
  purge(before: string): Promise<number>;
}
