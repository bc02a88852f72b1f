// The outbound side of list webhooks: a worker beside the fronts that reads the outbox
// (store/subscriptions.ts) and calls the receivers. Each round claims the due notifications
// with a lease, so on PostgreSQL several instances (and `--workers`) never send one twice;
// sends one POST per notification URL carrying every claimed subscription for it (SharePoint's
// body: `{"value":[{subscriptionId, clientState, expirationDateTime, resource, tenantId,
// siteUrl, webId}]}`); deletes what a receiver took (2xx), and otherwise retries after the
// interval until the retries are spent, then drops it. The outbox is in the database, so what
// is queued survives a restart; a crash between a receiver's 2xx and the delete sends that
// notification again once the lease ends (at least once, as any outbox).

import { TENANT_ID_KEY } from '../../domain/settings.ts';
import type { Store } from '../../store/store.ts';
import type { ClaimedNotification } from '../../store/subscriptions.ts';
import { OutboundError, postOutbound } from './outbound.ts';
import type { WebhookSettings } from './settings.ts';
import { checkNotificationUrl, loggableUrl } from './url-policy.ts';

export interface DeliveryLog {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
}

export interface RoundResult { delivered: number; retrying: number; dropped: number }

/**
 * Rows per claim. A claim's requests run side by side, so all of them end within one timeout:
 * the lease (twice the timeout and 30 s) outlasts them, and no other worker takes a row mid-call.
 */
const BATCH = 20;

export class WebhookDelivery {
  private running: Promise<RoundResult> | undefined;

  constructor(private readonly store: Store, private readonly settings: WebhookSettings, private readonly log: DeliveryLog) {}

  /**
   * Sends what is due (with `now`: everything queued, retries waiting included — the admin
   * flush). One round at a time per process; a round asked for meanwhile waits for it, then runs.
   */
  async round(options: { now?: boolean } = {}): Promise<RoundResult> {
    while (this.running) await this.running.catch(() => undefined);
    this.running = this.deliverDue(options.now ?? false);
    try { return await this.running; } finally { this.running = undefined; }
  }

  /** Resolves once no round is running (before the store closes). */
  async idle(): Promise<void> {
    while (this.running) await this.running.catch(() => undefined);
  }

  /** Polls every `intervalMs` (not keeping the process alive); errors are logged, never thrown. */
  start(intervalMs = pollInterval(this.settings)): () => void {
    let busy = false;
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      this.round().catch((e: unknown) => this.log.warn({ err: e }, 'webhook delivery round failed')).finally(() => { busy = false; });
    }, intervalMs);
    timer.unref();
    return () => clearInterval(timer);
  }

  private async deliverDue(all: boolean): Promise<RoundResult> {
    const total: RoundResult = { delivered: 0, retrying: 0, dropped: 0 };
    const tenantId = (await this.store.settings.get(TENANT_ID_KEY)) ?? '';
    for (;;) {
      const now = Date.now();
      const iso = (ms: number) => new Date(ms).toISOString();
      const claimed = await this.store.subscriptions.claim({
        now: iso(now), firstBy: all ? '9999' : iso(now - this.settings.delayMs), retryBy: all ? '9999' : iso(now),
        leaseUntil: iso(now + 2 * this.settings.timeoutMs + 30_000), limit: BATCH,
      });
      if (claimed.length === 0) return total;
      const byUrl = new Map<string, ClaimedNotification[]>();
      for (const n of claimed) byUrl.set(n.subscription.notificationUrl, [...(byUrl.get(n.subscription.notificationUrl) ?? []), n]);
      const outcomes = await Promise.all([...byUrl].map(async ([url, group]) => [await this.send(url, group, tenantId), group.length] as const));
      for (const [outcome, count] of outcomes) total[outcome] += count;
      if (claimed.length < BATCH) return total;
    }
  }

  private async send(url: string, group: ClaimedNotification[], tenantId: string): Promise<keyof RoundResult> {
    // One entry per subscription, however many changes it gathered.
    const subscriptions = [...new Map(group.map((n) => [n.subscription.id, n.subscription])).values()];
    const body = JSON.stringify({
      value: subscriptions.map((s) => ({
        subscriptionId: s.id, clientState: s.clientState, expirationDateTime: s.expiration.replace(/\.000Z$/, 'Z'),
        resource: s.listId, tenantId, siteUrl: s.siteUrl, webId: s.webId,
      })),
    });
    const ids = group.map((n) => n.id);
    let failure: string;
    // The destination is checked again: --webhook-allow may have changed since the subscription was made.
    const verdict = checkNotificationUrl(url, this.settings.allow);
    if (!verdict.ok) {
      failure = verdict.reason;
    } else {
      try {
        const answer = await postOutbound(verdict.url, body, { timeoutMs: this.settings.timeoutMs, maxBytes: this.settings.maxResponseBytes });
        if (answer.status >= 200 && answer.status < 300) {
          await this.store.subscriptions.settle(ids);
          this.log.info({ url: loggableUrl(url), subscriptions: subscriptions.length }, 'webhook notification delivered');
          return 'delivered';
        }
        failure = `the receiver answered ${answer.status}`;
      } catch (e) {
        if (!(e instanceof OutboundError)) throw e;
        failure = e.message;
      }
    }
    // Each row counts its own attempts: a notification queued since the last failure is not dropped with an older one.
    const spent = group.filter((n) => n.attempts + 1 > this.settings.retries).map((n) => n.id);
    const again = group.filter((n) => n.attempts + 1 <= this.settings.retries).map((n) => n.id);
    const attempts = Math.max(...group.map((n) => n.attempts)) + 1;
    if (spent.length) {
      await this.store.subscriptions.settle(spent);
      this.log.warn({ url: loggableUrl(url), attempts, reason: failure }, 'webhook notification dropped after its last retry');
    }
    if (again.length) {
      await this.store.subscriptions.retryLater(again, new Date(Date.now() + this.settings.retryIntervalMs).toISOString(), failure);
      this.log.warn({ url: loggableUrl(url), attempts, reason: failure }, 'webhook notification failed; will retry');
    }
    return again.length ? 'retrying' : 'dropped';
  }
}

/** How often a worker looks at the outbox: a quarter of the delay, between 0.2 s and 5 s. */
export const pollInterval = (settings: WebhookSettings): number => Math.min(5_000, Math.max(200, Math.floor(settings.delayMs / 4)));
