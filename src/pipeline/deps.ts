// What every front is given when the server composes them (src/server/app.ts): the store,
// the shared authentication stage, the workspace secret and the server's settings.

import type { Store } from '../store/store.ts';
import type { Authenticator } from './authenticate.ts';
import type { TrafficGate } from './throttle/gate.ts';
import type { WebhookSettings } from '../services/webhooks/settings.ts';
import type { RoundResult } from '../services/webhooks/delivery.ts';
import type { SigningKeys } from '../identity/signing-keys.ts';

export interface ServerSettings {
  /** Items a list may hold before unindexed queries are refused; 0 turns the check off. */
  listViewThreshold: number;
  /** Largest file, chunk or attachment sent in one request (`--max-file-size`). */
  maxFileSize: number;
  /** Page size when `$top` is absent. */
  defaultPageSize: number;
  /** Largest `$top` honoured. */
  maxPageSize: number;
  /** List webhooks: delivery, retries, allowed destinations (default: SharePoint's policy, any destination). */
  webhooks?: WebhookSettings | undefined;
  /** Days the change log keeps changes (`--change-log-days`, default 60). */
  changeRetentionDays?: number | undefined;
}

export interface FrontDeps {
  store: Store;
  authenticator: Authenticator;
  /** The workspace secret: signs session cookies and digests. */
  secret: Uint8Array;
  /** The RS256 keys Entra-shaped tokens are signed with (identity/signing-keys.ts). */
  signingKeys: SigningKeys;
  settings: ServerSettings;
  /** Largest request body, in bytes. */
  bodyLimit: number;
  clock: () => Date;
  /** Throttling and fault rules (pipeline/throttle/), run after authentication; off when absent or empty. */
  gate?: TrafficGate | undefined;
  /** The list webhook delivery worker, for the admin flush (services/webhooks/delivery.ts). */
  webhookDelivery?: { round(options?: { now?: boolean }): Promise<RoundResult> } | undefined;
}
