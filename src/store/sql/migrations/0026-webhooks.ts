// List webhooks (issue #10): the subscriptions of lists, and the outbox of notifications
// waiting to be delivered. An outbox row is written in the same transaction as the item write
// that caused it, so a notification is queued exactly when the change commits; the delivery
// worker claims rows with a lease (services/webhooks/delivery.ts).

import { sql, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour } from './frozen.ts';

export const webhooks = (flavour: Flavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  await db.schema.createTable('list_subscriptions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('list_row_id', sql.raw(columnType(flavour, 'int')), (c) => c.notNull())
    // What a notification names: the list's, web's and site collection's ids, the site's URL.
    .addColumn('list_id', 'text', (c) => c.notNull())
    .addColumn('web_id', 'text', (c) => c.notNull())
    .addColumn('site_url', 'text', (c) => c.notNull())
    .addColumn('notification_url', 'text', (c) => c.notNull())
    .addColumn('client_state', 'text')
    // ISO 8601 UTC with milliseconds: compared as text.
    .addColumn('expiration', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('list_subscriptions_list').on('list_subscriptions').column('list_row_id').execute();

  await db.schema.createTable('webhook_outbox')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('subscription_id', 'text', (c) => c.notNull())
    // When the change committed (ISO, ms); the first attempt is due `--webhook-delay` later.
    .addColumn('queued', 'text', (c) => c.notNull())
    .addColumn('attempts', sql.raw(columnType(flavour, 'int')), (c) => c.notNull().defaultTo(0))
    // After a failed attempt: when the next one is due.
    .addColumn('retry_at', 'text')
    // A worker's claim: until then no other worker takes the row (a crash mid-delivery frees it after).
    .addColumn('lease', 'text')
    .addColumn('last_error', 'text')
    .execute();
  await db.schema.createIndex('webhook_outbox_subscription').on('webhook_outbox').column('subscription_id').execute();
  await db.schema.createIndex('webhook_outbox_queued').on('webhook_outbox').column('queued').execute();
}
