// `spemu webhooks list|flush`: the list webhook queue of a workspace's database, without a
// server — `list` prints the notifications waiting (URLs without their query strings),
// `flush` purges expired subscriptions and sends every queued notification now, retries
// waiting included, from this process (a running server's workers skip what it holds). The
// same as GET /_spemu/webhooks and POST /_spemu/webhooks/flush on a server.

import { SqlStore } from '../store/sql/sql-store.ts';
import { resolveOptions } from '../config.ts';
import { WebhookDelivery } from '../services/webhooks/delivery.ts';
import { loggableUrl } from '../services/webhooks/url-policy.ts';
import { readArguments, type Command } from './command.ts';
import { DATABASE_FLAGS, DATABASE_USAGE, openDatabase } from './database.ts';
import { readCommandLine } from './options.ts';

export const WEBHOOKS_USAGE = `Usage: spemu webhooks list  [--db <file|url>] [--data <dir>]
       spemu webhooks flush [--db <file|url>] [--data <dir>] [--webhook-allow <pattern>]… [--webhook-timeout <time>]

list:   prints the webhook notifications waiting for delivery.
flush:  purges expired subscriptions, then sends every waiting notification now (retries
        waiting included); one a receiver refuses counts an attempt, as the server's would.

${DATABASE_USAGE}
  --webhook-allow, --webhook-timeout, --webhook-retries, --webhook-retry-interval: as the server's flags`;

const FLAGS = {
  ...DATABASE_FLAGS, help: { type: 'boolean' }, 'webhook-allow': { type: 'string', multiple: true }, 'webhook-timeout': { type: 'string' },
  'webhook-retries': { type: 'string' }, 'webhook-retry-interval': { type: 'string' },
} as const;

export const webhooksCommand: Command = {
  async run(argv, env) {
    const { values, positionals } = readArguments(argv, FLAGS, WEBHOOKS_USAGE);
    const action = positionals[0];
    if (values.help || positionals.length !== 1 || (action !== 'list' && action !== 'flush')) {
      console.log(WEBHOOKS_USAGE);
      return values.help ? 0 : 1;
    }
    // The delivery policy as the server reads it (flags beat SPEMU_WEBHOOK_* variables).
    const policyArgs = Object.entries(values).filter(([k]) => k.startsWith('webhook-'))
      .flatMap(([k, v]) => (Array.isArray(v) ? v.flatMap((p) => [`--${k}`, String(p)]) : [`--${k}`, String(v)]));
    const settings = resolveOptions(readCommandLine(policyArgs, env).options).webhooks;
    const database = await openDatabase(values, env, { create: false });
    const store = new SqlStore(database.connection.db, database.connection.flavour, { shared: true });
    try {
      if (action === 'list') {
        const pending = await store.subscriptions.pending();
        if (pending.length === 0) { console.log(`No webhook notifications waiting in ${database.name}.`); return 0; }
        console.log(`${pending.length} webhook notification${pending.length === 1 ? '' : 's'} waiting in ${database.name}:`);
        for (const p of pending) {
          const state = p.leased ? 'being sent' : p.attempts === 0 ? `queued ${p.queued}` : `attempt ${p.attempts + 1} at ${p.retryAt} (last: ${p.lastError ?? '?'})`;
          console.log(`  ${p.subscriptionId}  list ${p.listId}  ${loggableUrl(p.notificationUrl)}  ${state}`);
        }
        return 0;
      }
      const expired = await store.subscriptions.purgeExpired(new Date().toISOString());
      const log = { info: () => {}, warn: (fields: Record<string, unknown>, message: string) => console.error(`${message}: ${String(fields.url)} (${String(fields.reason)})`) };
      const result = await new WebhookDelivery(store, settings, log).round({ now: true });
      console.log(`Delivered ${result.delivered}, retrying ${result.retrying}, dropped ${result.dropped}; ${expired} expired subscription${expired === 1 ? '' : 's'} purged.`);
      return 0;
    } finally {
      await database.close();
    }
  },
};
