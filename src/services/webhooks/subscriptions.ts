// List webhook subscriptions: SharePoint's rules for creating, renewing and removing them.
// A subscription expires at most 180 days ahead; its notification URL must pass the
// validation handshake during the call that sets it (create, or an update that changes it):
// `POST {url}?validationtoken={token}` with no body, answered within the timeout by 200 and
// the token as the body. Refused URLs (not http(s), or outside `--webhook-allow`) fail the
// same way SharePoint fails an unreachable one, and are never called.

import { randomUUID } from 'node:crypto';
import { fail } from '../../domain/errors.ts';
import type { List, Site } from '../../domain/model.ts';
import type { Store } from '../../store/store.ts';
import type { Subscription, SubscriptionPatch } from '../../store/subscriptions.ts';
import type { Actor } from '../actor.ts';
import { postOutbound } from './outbound.ts';
import type { WebhookSettings } from './settings.ts';
import { checkNotificationUrl } from './url-policy.ts';

/** SharePoint's longest subscription. */
export const MAX_EXPIRATION_DAYS = 180;
/**
 * Allowed beyond 180 days: a client computing "now + 180 days" a moment before its request
 * arrives (SharePoint accepts AddDays(180) and refuses AddDays(180).AddHours(1): sp-dev-docs #2164).
 */
const EXPIRATION_GRACE_MS = 60_000;

export interface NewSubscription {
  notificationUrl: string | undefined;
  expirationDateTime: string | undefined;
  clientState?: string | null | undefined;
}

export class SubscriptionService {
  constructor(private readonly store: Store, private readonly actor: Actor, private readonly settings: WebhookSettings) {}

  async create(site: Site, list: List, input: NewSubscription): Promise<Subscription> {
    const expiration = this.expiration(input.expirationDateTime);
    const notificationUrl = input.notificationUrl ?? '';
    await validateNotificationUrl(notificationUrl, this.settings);
    const subscription: Subscription = {
      id: randomUUID(), listRowId: list.rowId, listId: list.id, webId: list.webId, siteUrl: site.url,
      notificationUrl, clientState: input.clientState ?? null, expiration, created: new Date(this.nowMs()).toISOString(),
    };
    await this.store.subscriptions.create(subscription);
    return subscription;
  }

  /** PATCH: each of expirationDateTime, notificationUrl and clientState that is given. */
  async update(list: List, id: string, input: NewSubscription): Promise<Subscription> {
    const current = await this.store.subscriptions.get(list, id);
    if (!current) throw fail.subscriptionNotFound();
    const patch: SubscriptionPatch = {};
    if (input.expirationDateTime !== undefined) patch.expiration = this.expiration(input.expirationDateTime);
    if (input.notificationUrl !== undefined && input.notificationUrl !== current.notificationUrl) {
      await validateNotificationUrl(input.notificationUrl, this.settings);
      patch.notificationUrl = input.notificationUrl;
    }
    if (input.clientState !== undefined) patch.clientState = input.clientState;
    const updated = await this.store.subscriptions.update(id, patch);
    if (!updated) throw fail.subscriptionNotFound();
    return updated;
  }

  async delete(list: List, id: string): Promise<void> {
    if (!(await this.store.subscriptions.get(list, id)) || !(await this.store.subscriptions.delete(id))) throw fail.subscriptionNotFound();
  }

  private nowMs(): number {
    return Date.parse(this.actor.now());
  }

  /** The expiration as stored (ISO, UTC, ms), if it is in the future and at most 180 days ahead. */
  private expiration(text: string | undefined): string {
    const at = typeof text === 'string' && /^\d{4}-\d\d-\d\dT/.test(text) ? Date.parse(text) : NaN;
    const now = this.nowMs();
    if (!Number.isFinite(at) || at <= now || at > now + MAX_EXPIRATION_DAYS * 86_400_000 + EXPIRATION_GRACE_MS) throw fail.invalidSubscriptionExpiration();
    return new Date(at).toISOString();
  }
}

/** The validation handshake (see above); throws SharePoint's failure when it does not pass. */
export async function validateNotificationUrl(text: string, settings: WebhookSettings): Promise<void> {
  const verdict = checkNotificationUrl(text, settings.allow);
  if (!verdict.ok) throw fail.notificationUrlValidationFailed(text, verdict.reason);
  const token = randomUUID();
  // Appended to the receiver's own query as it is (an Azure Function's `?code=…` stays intact).
  const url = new URL(verdict.url);
  url.hash = '';
  url.search = `${url.search ? `${url.search}&` : '?'}validationtoken=${token}`;
  let answer;
  try {
    answer = await postOutbound(url, undefined, { timeoutMs: settings.timeoutMs, maxBytes: settings.maxResponseBytes });
  } catch (e) {
    throw fail.notificationUrlValidationFailed(text, (e as Error).message);
  }
  if (answer.status !== 200) throw fail.notificationUrlValidationFailed(text, `the receiver answered ${answer.status}`);
  if (answer.text !== token) throw fail.notificationUrlValidationFailed(text, 'the receiver did not answer with the validation token');
}
