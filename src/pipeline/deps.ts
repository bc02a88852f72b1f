// What every front is given when the server composes them (src/server/app.ts): the store,
// the shared authentication stage, the workspace secret and the server's settings.

import type { Store } from '../store/store.ts';
import type { Authenticator } from './authenticate.ts';

export interface ServerSettings {
  /** Items a list may hold before unindexed queries are refused; 0 turns the check off. */
  listViewThreshold: number;
  /** Largest file, chunk or attachment sent in one request (`--max-file-size`). */
  maxFileSize: number;
  /** Page size when `$top` is absent. */
  defaultPageSize: number;
  /** Largest `$top` honoured. */
  maxPageSize: number;
  /** Days the change log keeps changes (`--change-log-days`, default 60). */
  changeRetentionDays?: number | undefined;
}

export interface FrontDeps {
  store: Store;
  authenticator: Authenticator;
  /** The workspace secret: signs session cookies and digests. */
  secret: Uint8Array;
  settings: ServerSettings;
  /** Largest request body, in bytes. */
  bodyLimit: number;
  clock: () => Date;
}
