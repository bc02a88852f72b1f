// List webhooks: the subscriptions of lists (SharePoint's `lists(…)/subscriptions`) and the
// outbox of notifications waiting for delivery. Outbox rows are written by the item writes
// themselves, in their unit of work (sql/webhook-outbox.ts `notifyListChanged`); the
// delivery worker (services/webhooks/delivery.ts) claims, sends and settles them.

export interface Subscription {
  id: string;
  listRowId: number;
  /** The list's GUID (a notification's `resource`). */
  listId: string;
  webId: string;
  /** The site collection's server-relative URL (a notification's `siteUrl`). */
  siteUrl: string;
  notificationUrl: string;
  clientState: string | null;
  /** ISO 8601, UTC, with milliseconds. */
  expiration: string;
  created: string;
}

/**
 * A list as subscriptions name it: its row (indexed) and its GUID. Both, because SQLite may give
 * a new list the row id of a deleted one; subscriptions of the deleted list never match the new.
 */
export interface ListRef { rowId: number; id: string }

export type SubscriptionPatch = Partial<Pick<Subscription, 'notificationUrl' | 'clientState' | 'expiration'>>;

/** A queued notification, as a worker claimed it, with its subscription. */
export interface ClaimedNotification {
  id: string;
  attempts: number;
  subscription: Subscription;
}

/** A queued notification as the admin endpoint lists it. */
export interface PendingNotification {
  id: string;
  subscriptionId: string;
  listId: string;
  notificationUrl: string;
  queued: string;
  attempts: number;
  retryAt: string | null;
  leased: boolean;
  lastError: string | null;
}

export interface ClaimWindow {
  /** Now, ISO: leases before it are free, retries due by it are taken. */
  now: string;
  /** First attempts of rows queued at or before this (now − the delivery delay). */
  firstBy: string;
  /** Retries due at or before this (now; later for a flush). */
  retryBy: string;
  /** The claim lasts until then (ISO). */
  leaseUntil: string;
  limit: number;
}

export interface SubscriptionRepository {
  create(subscription: Subscription): Promise<void>;
  get(list: ListRef, id: string): Promise<Subscription | undefined>;
  ofList(list: ListRef): Promise<Subscription[]>;
  update(id: string, patch: SubscriptionPatch): Promise<Subscription | undefined>;
  /** The subscription and its queued notifications; false if there was none. */
  delete(id: string): Promise<boolean>;
  /** Subscriptions expired by `now`, or whose list is gone, and their queued notifications; how many subscriptions. */
  purgeExpired(now: string): Promise<number>;

  /**
   * Takes up to `limit` due notifications for this worker until `leaseUntil`: rows no other
   * worker holds (PostgreSQL: `for update skip locked`, so two instances never take one row).
   */
  claim(window: ClaimWindow): Promise<ClaimedNotification[]>;
  /** Delivered (or given up): the rows go. */
  settle(ids: string[]): Promise<void>;
  /** A failed attempt: the next is due at `retryAt`; the lease is released. */
  retryLater(ids: string[], retryAt: string, error: string): Promise<void>;
  pending(): Promise<PendingNotification[]>;
}
