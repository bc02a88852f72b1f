// List webhook subscriptions and their notification outbox on SQL. Subscription writes are
// metadata writes naming the list's cached subscriptions (`SUBSCRIPTIONS`), which the item
// writes read to decide, without a query when a list has none, whether to queue a
// notification (webhook-outbox.ts); other instances drop that entry through the counter.

import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type {
  ClaimedNotification, ClaimWindow, ListRef, PendingNotification, Subscription, SubscriptionPatch, SubscriptionRepository,
} from '../subscriptions.ts';
import type { SqlSession } from './session.ts';

/** The cache scope of a list's live subscriptions (id and expiration), keyed by the list's GUID. */
export const SUBSCRIPTIONS = 'subscriptions';

const COLUMNS = ['id', 'list_row_id', 'list_id', 'web_id', 'site_url', 'notification_url', 'client_state', 'expiration', 'created'] as const;

export function rowToSubscription(r: Record<string, unknown>): Subscription {
  return {
    id: String(r.id), listRowId: Number(r.list_row_id), listId: String(r.list_id), webId: String(r.web_id), siteUrl: String(r.site_url),
    notificationUrl: String(r.notification_url), clientState: r.client_state == null ? null : String(r.client_state),
    expiration: String(r.expiration), created: String(r.created),
  };
}

export class SqlSubscriptions implements SubscriptionRepository {
  constructor(private readonly s: SqlSession) {}

  async create(sub: Subscription): Promise<void> {
    await this.s.metadataWrite([[SUBSCRIPTIONS, sub.listId]], (s) => s.db.insertInto('list_subscriptions').values({
      id: sub.id, list_row_id: sub.listRowId, list_id: sub.listId, web_id: sub.webId, site_url: sub.siteUrl,
      notification_url: sub.notificationUrl, client_state: sub.clientState, expiration: sub.expiration, created: sub.created,
    }).execute());
  }

  async get(list: ListRef, id: string): Promise<Subscription | undefined> {
    const row = await this.s.db.selectFrom('list_subscriptions').select([...COLUMNS])
      .where('list_row_id', '=', list.rowId).where('list_id', '=', list.id).where('id', '=', id).executeTakeFirst();
    return row ? rowToSubscription(row) : undefined;
  }

  async ofList(list: ListRef): Promise<Subscription[]> {
    const rows = await this.s.db.selectFrom('list_subscriptions').select([...COLUMNS])
      .where('list_row_id', '=', list.rowId).where('list_id', '=', list.id).orderBy('created').orderBy('id').execute();
    return rows.map(rowToSubscription);
  }

  async update(id: string, patch: SubscriptionPatch): Promise<Subscription | undefined> {
    const row = await this.s.db.selectFrom('list_subscriptions').select(['list_row_id', 'list_id']).where('id', '=', id).executeTakeFirst();
    if (!row) return undefined;
    return this.s.metadataWrite([[SUBSCRIPTIONS, String(row.list_id)]], async (s) => {
      const set = {
        ...(patch.notificationUrl !== undefined ? { notification_url: patch.notificationUrl } : {}),
        ...(patch.clientState !== undefined ? { client_state: patch.clientState } : {}),
        ...(patch.expiration !== undefined ? { expiration: patch.expiration } : {}),
      };
      if (Object.keys(set).length) await s.db.updateTable('list_subscriptions').set(set).where('id', '=', id).execute();
      return new SqlSubscriptions(s).get({ rowId: Number(row.list_row_id), id: String(row.list_id) }, id);
    });
  }

  async delete(id: string): Promise<boolean> {
    const row = await this.s.db.selectFrom('list_subscriptions').select('list_id').where('id', '=', id).executeTakeFirst();
    if (!row) return false;
    return this.s.metadataWrite([[SUBSCRIPTIONS, String(row.list_id)]], async (s) => {
      await s.db.deleteFrom('webhook_outbox').where('subscription_id', '=', id).execute();
      const result = await s.db.deleteFrom('list_subscriptions').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  async purgeExpired(now: string): Promise<number> {
    // Expired, or their list deleted (there is no foreign key: a list's row id may be taken again on SQLite, its GUID never).
    const gone = sql<boolean>`not exists (select 1 from lists l where l.row_id = list_subscriptions.list_row_id and l.id = list_subscriptions.list_id)`;
    const expired = await this.s.db.selectFrom('list_subscriptions').select(['id', 'list_id'])
      .where((eb) => eb.or([eb('expiration', '<=', now), gone])).execute();
    if (expired.length === 0) return 0;
    const lists = [...new Set(expired.map((r) => String(r.list_id)))];
    return this.s.metadataWrite(lists.map((key) => [SUBSCRIPTIONS, key] as const), async (s) => {
      const ids = expired.map((r) => String(r.id));
      await s.db.deleteFrom('webhook_outbox').where('subscription_id', 'in', ids).execute();
      const result = await s.db.deleteFrom('list_subscriptions').where('id', 'in', ids).executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }

  async claim(w: ClaimWindow): Promise<ClaimedNotification[]> {
    // One statement: atomic on SQLite (one writer); on PostgreSQL the rows another instance is
    // claiming at this moment are skipped, and one it claimed a moment ago fails the lease
    // test when re-checked under the row lock, so no row is taken twice.
    const lock = this.s.flavour === 'postgres' ? sql` for update skip locked` : sql``;
    const claimed = await sql<{ id: string; subscription_id: string; attempts: number }>`update webhook_outbox set lease = ${w.leaseUntil}
      where id in (select id from webhook_outbox
        where (lease is null or lease < ${w.now})
          and ((attempts = 0 and queued <= ${w.firstBy}) or (attempts > 0 and retry_at <= ${w.retryBy}))
        order by queued limit ${w.limit}${lock})
      returning id, subscription_id, attempts`.execute(this.s.db);
    if (claimed.rows.length === 0) return [];
    const subIds = [...new Set(claimed.rows.map((r) => String(r.subscription_id)))];
    const subs = new Map((await this.s.db.selectFrom('list_subscriptions').select([...COLUMNS]).where('id', 'in', subIds).execute())
      .map((r) => [String(r.id), rowToSubscription(r)]));
    const orphans = claimed.rows.filter((r) => !subs.has(String(r.subscription_id))).map((r) => String(r.id));
    if (orphans.length) await this.settle(orphans);
    return claimed.rows.filter((r) => subs.has(String(r.subscription_id)))
      .map((r) => ({ id: String(r.id), attempts: Number(r.attempts), subscription: subs.get(String(r.subscription_id))! }));
  }

  async settle(ids: string[]): Promise<void> {
    if (ids.length) await this.s.db.deleteFrom('webhook_outbox').where('id', 'in', ids).execute();
  }

  async retryLater(ids: string[], retryAt: string, error: string): Promise<void> {
    if (ids.length === 0) return;
    await this.s.db.updateTable('webhook_outbox')
      .set({ attempts: sql`attempts + 1`, retry_at: retryAt, lease: null, last_error: error.slice(0, 500) })
      .where('id', 'in', ids).execute();
  }

  async pending(): Promise<PendingNotification[]> {
    const rows = await this.s.db.selectFrom('webhook_outbox as o')
      .innerJoin('list_subscriptions as s', 's.id', 'o.subscription_id')
      .select(['o.id', 'o.subscription_id', 's.list_id', 's.notification_url', 'o.queued', 'o.attempts', 'o.retry_at', 'o.lease', 'o.last_error'])
      .orderBy('o.queued').orderBy('o.id').execute();
    const now = new Date().toISOString();
    return rows.map((r) => ({
      id: String(r.id), subscriptionId: String(r.subscription_id), listId: String(r.list_id), notificationUrl: String(r.notification_url),
      queued: String(r.queued), attempts: Number(r.attempts), retryAt: r.retry_at == null ? null : String(r.retry_at),
      leased: r.lease != null && String(r.lease) > now, lastError: r.last_error == null ? null : String(r.last_error),
    }));
  }
}

/** A new outbox row's id. */
export const outboxId = (): string => randomUUID();
