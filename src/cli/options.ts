// Command-line flags and their SPEMU_<NAME> environment variables. A flag beats its
// variable; a variable beats the default.

import { parseArgs } from 'node:util';
import { ConfigError, type ServerOptions } from '../config.ts';
import { commandList } from './commands.ts';

export const USAGE = `Usage: spemu [flags]
       spemu <command> [arguments]   (the commands are listed at the end)

Serves a SharePoint-compatible /_api on http://<host>:<port> (https:// with --https).

Flags (each also an environment variable SPEMU_<NAME>, e.g. SPEMU_PORT=9000):
  --host <addr>                 interface to listen on (default 127.0.0.1)
  --port <n>                    port; 0 picks a free one (default 8080)
  --workers <n>                 server processes sharing the port and the database (default: one
                                per CPU core; 1 = a single process; an in-memory database has one)
  --data <dir>                  workspace folder (default ./.spemu)
  --db <file|:memory:|url>      SQLite file (default <data>/spemu.db), :memory:, or a PostgreSQL
                                database: postgres://user:password@host:5432/database
  --db-pool-size <n>            PostgreSQL: most connections this instance opens (default 10, at least 2)
  --db-statement-timeout <ms>   PostgreSQL: longest a statement may run (default 30000, 0 = none)
  --seed <tenant.json>          load this tenant into an empty database; refuse if it holds another
  --reset                       wipe the workspace before starting (PostgreSQL: drop spemu's tables, only those)
  --list-view-threshold <n>     items before unindexed queries are refused (default 5000, 0 = off)
  --change-log-days <n>         days the change log keeps changes (default 60, as SharePoint)
  --max-file-size <size>        largest file, chunk or attachment in one request: bytes, or with
                                KB, MB or GB (default 250MB, as SharePoint Online)
  --log-level <level>           fatal, error, warn, info, debug, trace or silent (default info)
  --token-secret <s>            key for bearer tokens, sessions and digests, ≥ 32 characters
                                (default: generated once into <data>/token-secret)
  --auth <strict|loose>         strict (default): bearer tokens must be signed with the secret;
                                loose: any well-formed JWT, signature NOT checked (unsafe)
  --no-basic-auth               refuse Authorization: Basic
  --anonymous-user <upn>        requests without credentials act as this user (local development only)
  --digest-timeout <seconds>    request digest lifetime, FormDigestTimeoutSeconds (default 1800)
  --require-digest              demand X-RequestDigest on every write, bearer ones too
  --https                       serve HTTPS on --port, with a certificate made once into
                                <data>/tls/ (its CA: <data>/tls/ca.pem, for NODE_EXTRA_CA_CERTS)
  --https-port <n>              serve HTTPS on this port too, HTTP staying on --port (implies --https)
  --cert <file> --key <file>    HTTPS with your own PEM certificate (chain) and key (imply --https)
  --pfx <file>                  HTTPS with your own PKCS#12 file (implies --https)
  --pfx-passphrase <s>          its passphrase (better as SPEMU_PFX_PASSPHRASE)
  --trust-proxy <list>          believe Forwarded / X-Forwarded-Proto / X-Forwarded-Host from these
                                peers only: addresses and CIDR ranges, comma-separated (or loopback,
                                linklocal, uniquelocal); default none: those headers are ignored
  --throttle <preset|settings>  throttle as SharePoint Online does (default off): spo-default (its
                                documented limits for the smallest tenants), or settings such as
                                app-ru=10/5s,user-requests=100/1m,tenant-ru=…,block-after=3/1m,block-for=1m
  --faults <faults.json>        fault rules from a file, read again whenever it changes
  --fault <rule>                one fault rule (repeatable), e.g. method=GET,path=*/items*,error=503,rate=0.5
                                (error: 429 500 503 504 listViewThreshold securityValidation …;
                                latency=200 | 100-500 | normal:300:50; drop | drop=after; truncate=<bytes>)
  --faults-seed <n>             seed of --fault rules' random choices (default 1)
  --faults-debug                mark faulted answers with X-Spemu-Fault (never otherwise)
  --webhook-delay <time>        list webhooks: how long a change waits before its notification is
                                sent (default 60s, as SharePoint; 0 in tests). Times: 90, 90s, 500ms, 5m
  --webhook-retries <n>         attempts after a failed notification before it is dropped (default 5)
  --webhook-retry-interval <time>  between attempts (default 5m)
  --webhook-timeout <time>      how long a receiver has to answer, validation included (default 5s)
  --webhook-allow <pattern>     call only notification URLs that match (repeatable; SPEMU_WEBHOOK_ALLOW:
                                comma-separated): host, host:port, *.example.com, or a URL prefix
                                such as https://hooks.example.com/api/*. Default: any http(s) URL
  --managed-identity <id>       serve a managed-identity endpoint (Azure App Service's and IMDS's protocols)
                                issuing tokens for this app (client id, app-only tokens) or directory
                                user (UPN, delegated tokens); the banner shows IDENTITY_ENDPOINT,
                                \`spemu identity-header\` prints IDENTITY_HEADER
  --help, --version

With no --seed and an empty database, the demo tenant is loaded.

Commands (spemu <command> --help for each):
${commandList()}`;

const FLAGS = {
  host: { type: 'string' }, port: { type: 'string' }, data: { type: 'string' }, db: { type: 'string' },
  'db-pool-size': { type: 'string' }, 'db-statement-timeout': { type: 'string' }, seed: { type: 'string' }, reset: { type: 'boolean' }, 'list-view-threshold': { type: 'string' }, 'change-log-days': { type: 'string' }, 'max-file-size': { type: 'string' },
  'log-level': { type: 'string' }, 'token-secret': { type: 'string' }, auth: { type: 'string' },
  'no-basic-auth': { type: 'boolean' }, 'anonymous-user': { type: 'string' }, 'digest-timeout': { type: 'string' },
  'require-digest': { type: 'boolean' }, workers: { type: 'string' }, help: { type: 'boolean' }, version: { type: 'boolean' },
  https: { type: 'boolean' }, 'https-port': { type: 'string' }, cert: { type: 'string' }, key: { type: 'string' }, pfx: { type: 'string' },
  'pfx-passphrase': { type: 'string' }, 'trust-proxy': { type: 'string' },
  throttle: { type: 'string' }, faults: { type: 'string' }, fault: { type: 'string', multiple: true }, 'faults-seed': { type: 'string' },
  'faults-debug': { type: 'boolean' },
  'webhook-delay': { type: 'string' }, 'webhook-retries': { type: 'string' }, 'webhook-retry-interval': { type: 'string' },
  'webhook-timeout': { type: 'string' }, 'webhook-allow': { type: 'string', multiple: true },
  'managed-identity': { type: 'string' },
} as const;

export interface CliRequest {
  help: boolean;
  version: boolean;
  options: ServerOptions;
  /** `--workers`: server processes to run; undefined: the default (one per core). */
  workers?: number | undefined;
}

const envName = (flag: string) => `SPEMU_${flag.toUpperCase().replace(/-/g, '_')}`;

function whole(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text.trim())) throw new ConfigError(`--${flag} must be a whole number, not '${text}'.`);
  return Number(text);
}

/** A duration in milliseconds: `90` or `90s` (seconds), `500ms`, `5m`. */
function duration(flag: string, value: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(value);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m?.[2] ?? 's').toLowerCase() as 's'];
  const ms = m ? Math.round(Number(m[1]) * unit) : NaN;
  if (!Number.isSafeInteger(ms) || ms < 0) throw new ConfigError(`--${flag} must be a time such as 60, 60s, 500ms or 5m, not '${value}'.`);
  return ms;
}

/** A size in bytes: `1048576`, `250MB`, `1.5GB` (units of 1024). */
function size(flag: string, value: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?\s*$/i.exec(value);
  const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(m?.[2] ?? 'b').toLowerCase() as 'b'];
  const bytes = m ? Math.floor(Number(m[1]) * unit) : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < 1) throw new ConfigError(`--${flag} must be a size such as 262144000 or 250MB, not '${value}'.`);
  return bytes;
}

export function readCommandLine(argv: string[], env: NodeJS.ProcessEnv): CliRequest {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false });
  } catch (e) {
    throw new ConfigError(`${(e as Error).message}\n\n${USAGE}`);
  }
  const v = parsed.values as Record<string, string | boolean | undefined>;
  const text = (flag: string) => (v[flag] as string | undefined) ?? env[envName(flag)];
  const flagOn = (flag: string) => v[flag] === true || /^(1|true|yes)$/i.test(env[envName(flag)] ?? '');
  const options: ServerOptions = {};
  if (text('host') !== undefined) options.host = text('host')!;
  if (text('port') !== undefined) options.port = whole('port', text('port'));
  if (text('data') !== undefined) options.data = text('data')!;
  if (text('db') !== undefined) options.db = text('db')!;
  if (text('db-pool-size') !== undefined) options.dbPoolSize = whole('db-pool-size', text('db-pool-size'));
  if (text('db-statement-timeout') !== undefined) options.dbStatementTimeout = whole('db-statement-timeout', text('db-statement-timeout'));
  if (text('seed') !== undefined) options.seed = text('seed')!;
  if (flagOn('reset')) options.reset = true;
  if (text('list-view-threshold') !== undefined) options.listViewThreshold = whole('list-view-threshold', text('list-view-threshold'));
  if (text('change-log-days') !== undefined) options.changeLogDays = whole('change-log-days', text('change-log-days'));
  if (text('max-file-size') !== undefined) options.maxFileSize = size('max-file-size', text('max-file-size')!);
  if (text('log-level') !== undefined) options.logLevel = text('log-level')!;
  if (text('token-secret')) options.tokenSecret = text('token-secret')!;
  if (text('auth') !== undefined) options.auth = text('auth') as 'strict' | 'loose';
  if (flagOn('no-basic-auth')) options.basicAuth = false;
  if (text('anonymous-user')) options.anonymousUser = text('anonymous-user')!;
  if (text('digest-timeout') !== undefined) options.digestTimeout = whole('digest-timeout', text('digest-timeout'));
  if (flagOn('require-digest')) options.requireDigest = true;
  if (flagOn('https')) options.https = true;
  if (text('https-port') !== undefined) options.httpsPort = whole('https-port', text('https-port'));
  if (text('cert') !== undefined) options.cert = text('cert')!;
  if (text('key') !== undefined) options.key = text('key')!;
  if (text('pfx') !== undefined) options.pfx = text('pfx')!;
  if (text('pfx-passphrase') !== undefined) options.pfxPassphrase = text('pfx-passphrase')!;
  if (text('trust-proxy') !== undefined) options.trustProxy = text('trust-proxy')!.split(',').map((e) => e.trim()).filter(Boolean);
  if (text('throttle') !== undefined) options.throttle = text('throttle')!;
  const rules = (v.fault as unknown as string[] | undefined) ?? [];
  if (text('faults') !== undefined && rules.length > 0) throw new ConfigError('Give fault rules with --faults <file> or with --fault, not both.');
  if (text('faults') !== undefined) options.faults = text('faults')!;
  if (rules.length > 0) {
    // Each rule as its flag text: startServer checks it (pipeline/throttle/faults.ts `parseFaultFlag`).
    options.faults = { seed: whole('faults-seed', text('faults-seed')) ?? 1, rules };
  }
  if (flagOn('faults-debug')) options.faultsDebug = true;
  if (text('webhook-delay') !== undefined) options.webhookDelay = duration('webhook-delay', text('webhook-delay')!);
  if (text('webhook-retries') !== undefined) options.webhookRetries = whole('webhook-retries', text('webhook-retries'));
  if (text('webhook-retry-interval') !== undefined) options.webhookRetryInterval = duration('webhook-retry-interval', text('webhook-retry-interval')!);
  if (text('webhook-timeout') !== undefined) options.webhookTimeout = duration('webhook-timeout', text('webhook-timeout')!);
  const allow = (v['webhook-allow'] as unknown as string[] | undefined) ?? env.SPEMU_WEBHOOK_ALLOW?.split(',');
  if (allow !== undefined) options.webhookAllow = allow.map((p) => p.trim()).filter(Boolean);
  if (text('managed-identity')) options.managedIdentity = text('managed-identity')!;
  const workers = whole('workers', text('workers'));
  if (workers !== undefined && workers < 1) throw new ConfigError('--workers must be at least 1.');
  return { help: v.help === true, version: v.version === true, options, workers };
}
