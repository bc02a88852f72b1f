// The enqueue side of list webhooks: an item, file or folder write calls `notifyListChanged`
// inside its unit of work; once, just before the transaction commits, one notification per
// live subscription of the list is queued in `webhook_outbox` — in the same transaction, so it
// exists exactly when the change does. A notification still waiting for its first attempt
// takes the later changes too (SharePoint batches per subscription and says nothing of what
// changed). A list without subscriptions costs no query: its subscriptions are cached.

import { sql } from 'kysely';
import type { SqlSession } from './session.ts';
import type { ListRef } from '../subscriptions.ts';
import { outboxId, SUBSCRIPTIONS } from './subscriptions.ts';

type Live = Array<{ id: string; expiration: string }>;

/** Inside a write to `list`'s items: queue its subscribers' notifications when the write commits. */
export function notifyListChanged(s: SqlSession, list: ListRef): void {
  s.work?.beforeCommit(`webhooks:${list.id}`, () => enqueue(s, list));
}

async function enqueue(s: SqlSession, list: ListRef): Promise<void> {
  const subscriptions = await s.options.cache.read<Live>(SUBSCRIPTIONS, list.id, async () =>
    (await s.db.selectFrom('list_subscriptions').select(['id', 'expiration'])
      .where('list_row_id', '=', list.rowId).where('list_id', '=', list.id).execute())
      .map((r) => ({ id: String(r.id), expiration: String(r.expiration) })));
  if (subscriptions.length === 0) return;
  // Wall-clock time: the delivery worker measures the delay and the retries against it.
  const now = new Date().toISOString();
  for (const sub of subscriptions) {
    if (sub.expiration <= now) continue;
    await sql`insert into webhook_outbox (id, subscription_id, queued, attempts)
      select cast(${outboxId()} as text), cast(${sub.id} as text), cast(${now} as text), 0
      where not exists (select 1 from webhook_outbox where subscription_id = ${sub.id} and attempts = 0 and lease is null)`.execute(s.db);
  }
}
