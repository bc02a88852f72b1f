// A unit of work: one transaction and everything that must commit with it. Repositories
// write through the transaction's session, so a write and the rows that belong to it (an
// item's past version today; the change log and the webhook outbox next) commit together
// or not at all. What the write changed in the read cache is named here and dropped once
// the transaction ends, so no other request caches a row the transaction is rewriting.

import type { ChangeDraft } from '../domain/change-tokens.ts';

export interface UnitOfWork {
  /** This transaction changes the cached entry `scope`/`key` (no key: every entry of the scope). */
  changes(scope: string, key?: string): void;
  /** Runs `fn` once the transaction has committed (never after a rollback). */
  afterCommit(fn: () => void): void;
  /**
   * Runs `fn` inside the transaction just before it commits, once per `key` however often it
   * is asked (e.g. the webhook outbox: one notification per list a transaction changed).
   */
  beforeCommit(key: string, fn: () => Promise<void>): void;
  /** Records a change in the change log: written, numbered, just before this transaction commits. */
  recordChange(change: ChangeDraft): void;
}
