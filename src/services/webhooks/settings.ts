// How spemu calls webhook receivers: the delivery delay and retry policy (SharePoint reads its
// queue about once a minute and retries a failed notification 5 times, 5 minutes apart), and
// what keeps outbound calls harmless on a shared server (allowed destinations, timeouts, size cap).

export interface WebhookSettings {
  /** How long a change waits before its notification is first sent (`--webhook-delay`). */
  delayMs: number;
  /** Attempts after the first before a notification is dropped (`--webhook-retries`). */
  retries: number;
  /** Between attempts (`--webhook-retry-interval`). */
  retryIntervalMs: number;
  /** Destinations allowed (`--webhook-allow`, patterns: see url-policy.ts); empty: any http(s) URL. */
  allow: string[];
  /** Longest a receiver may take to answer, validation included (SharePoint gives 5 s). */
  timeoutMs: number;
  /** Most bytes of a receiver's answer read; a longer answer fails the call. */
  maxResponseBytes: number;
}

export const DEFAULT_WEBHOOK_SETTINGS: WebhookSettings = {
  delayMs: 60_000, retries: 5, retryIntervalMs: 5 * 60_000, allow: [], timeoutMs: 5_000, maxResponseBytes: 64 * 1024,
};
