// Server options: the flags, their environment variables (SPEMU_<NAME>) and defaults.

import { join, resolve as resolvePath } from 'node:path';
import { DIRECT_UPLOAD_LIMIT } from './services/documents.ts';
import { peerTrust } from './pipeline/origin.ts';
import type { TlsSource } from './server/tls.ts';
import { throttleFromValue, ThrottleConfigError, type ThrottleConfig } from './pipeline/throttle/config.ts';
import { FaultConfigError, parseFaults, type FaultsConfig } from './pipeline/throttle/faults.ts';
import type { WorkerGateHome } from './pipeline/throttle/shared-gate.ts';
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookSettings } from './services/webhooks/settings.ts';

export interface ServerOptions {
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** Port; 0 picks a free one. Default 8080. */
  port?: number;
  /** Workspace folder holding the database. Default ./.spemu */
  data?: string;
  /** A SQLite file, `:memory:`, or a `postgres://user@host:port/database` URL. Default <data>/spemu.db */
  db?: string;
  /** PostgreSQL: most connections this instance opens. Default 10. */
  dbPoolSize?: number;
  /** PostgreSQL: longest a statement may run, in milliseconds (statement_timeout); 0 = no limit. Default 30000. */
  dbStatementTimeout?: number;
  /** A tenant file path, or the parsed tenant object, to load into an empty database. A database holding a different tenant is refused. */
  seed?: string | object;
  /** A tenant loaded only when the database is empty, never refused (how `npm start` gets the demo). */
  seedIfEmpty?: string | object;
  /** Wipe the workspace before starting. */
  reset?: boolean;
  /** Items a list may hold before unindexed queries are refused (SharePoint's 5000); 0 = off. */
  listViewThreshold?: number;
  /** Days the change log keeps changes; an older change token is refused. Default 60, as SharePoint. */
  changeLogDays?: number;
  /** fatal, error, warn, info, debug, trace or silent. Default info. */
  logLevel?: string;
  /** Largest request body in bytes. Default 50 MiB. */
  bodyLimit?: number;
  /** Largest file (or chunk, or attachment) sent in one request, in bytes. Default 250 MiB, as SharePoint Online. */
  maxFileSize?: number;
  /** The clock, for tests. */
  clock?: () => Date;
  /** Key for bearer tokens, sessions and digests (≥ 32 characters). Default: generated once into <data>/token-secret; per process for an in-memory database without `data`. */
  tokenSecret?: string;
  /** `strict` (default): bearer tokens must be HS256 with the secret. `loose` (UNSAFE): any well-formed JWT, signature unchecked. */
  auth?: 'strict' | 'loose';
  /** Accept `Authorization: Basic` with a directory user's UPN and password. Default true. */
  basicAuth?: boolean;
  /** A directory user's UPN that requests without credentials act as. For local development only; default none (401). */
  anonymousUser?: string | undefined;
  /** FormDigestTimeoutSeconds: how long a request digest stays valid. Default 1800. */
  digestTimeout?: number;
  /** Demand X-RequestDigest on every write, bearer and anonymous ones included. */
  requireDigest?: boolean;
  /**
   * Other spemu processes serve the same SQLite file (each worker of `--workers` sets it):
   * cached metadata is checked against the database on every request, as across PostgreSQL
   * instances (always on for PostgreSQL).
   */
  shared?: boolean;
  /**
   * `--workers` (set by cli/workers.ts): throttling and fault rules are the primary's, one state
   * for every worker (pipeline/throttle/shared-gate.ts); the primary also watches the faults file.
   */
  sharedGate?: WorkerGateHome | undefined;
  /** Serve HTTPS: with `cert`/`key` or `pfx` if given, else with a certificate spemu makes into <data>/tls/. */
  https?: boolean;
  /** Also serve HTTPS on this port, HTTP staying on `port` (implies `https`). */
  httpsPort?: number;
  /** PEM certificate file (the chain, server certificate first); with `key`. Implies `https`. */
  cert?: string;
  /** PEM private key file of `cert`. */
  key?: string;
  /** PKCS#12 (.pfx/.p12) file holding the certificate and its key. Implies `https`. */
  pfx?: string;
  /** The passphrase of `pfx`. */
  pfxPassphrase?: string;
  /** Peers (addresses, CIDR ranges, loopback/linklocal/uniquelocal) whose Forwarded / X-Forwarded-Proto / X-Forwarded-Host are believed. Default none. */
  trustProxy?: string[];
  /**
   * Throttle as SharePoint Online does (off by default): `'spo-default'` (its documented limits for
   * the smallest tenants), settings text (`'app-ru=10/5s,user-requests=100/1m'`), or an object.
   */
  throttle?: string | Partial<ThrottleConfig> | false | undefined;
  /**
   * Fault rules: a faults.json path (read at start and again whenever it changes), or the
   * document itself (`{ seed, rules: [...] }`, or just the rules). Off by default.
   */
  faults?: string | object | undefined;
  /** Mark faulted and throttled answers with X-Spemu-Fault / X-Spemu-Throttle / X-Spemu-Latency (never otherwise). */
  faultsDebug?: boolean;
  /** List webhooks: milliseconds a change waits before its notification is sent. Default 60000 (SharePoint reads its queue about once a minute); 0 in tests. */
  webhookDelay?: number;
  /** Attempts after a failed notification before it is dropped. Default 5. */
  webhookRetries?: number;
  /** Milliseconds between attempts. Default 300000 (5 minutes). */
  webhookRetryInterval?: number;
  /** Notification URLs allowed (patterns: host, host:port, *.domain, or a URL prefix with *); default: any http(s) URL. */
  webhookAllow?: string[];
  /** Milliseconds a receiver has to answer (validation and notifications). Default 5000. */
  webhookTimeout?: number;
  /** Serve a managed-identity endpoint (App Service's and IMDS's protocols) issuing tokens for this app (client id) or directory user (UPN). */
  managedIdentity?: string | undefined;
}


export interface ResolvedOptions {
  host: string;
  port: number;
  data: string;
  db: string;
  /** Whether `db` is a PostgreSQL URL. */
  postgres: boolean;
  dbPoolSize: number;
  dbStatementTimeout: number;
  seed?: string | object | undefined;
  seedIfEmpty?: string | object | undefined;
  reset: boolean;
  listViewThreshold: number;
  changeLogDays: number;
  logLevel: string;
  bodyLimit: number;
  maxFileSize: number;
  clock: () => Date;
  /** Whether `data` was given (without it, an in-memory database has no workspace folder). */
  dataGiven: boolean;
  tokenSecret?: string | undefined;
  auth: 'strict' | 'loose';
  basicAuth: boolean;
  anonymousUser?: string | undefined;
  digestTimeout: number;
  requireDigest: boolean;
  /** Other processes write to the same database (PostgreSQL, or `--workers` on SQLite). */
  shared: boolean;
  /** HTTPS, and its certificate; undefined: plain HTTP only. */
  tls: TlsSource | undefined;
  /** HTTPS's own port while HTTP keeps `port`; undefined: HTTPS (if any) on `port`, alone. */
  httpsPort: number | undefined;
  trustProxy: string[];
  throttle: ThrottleConfig | undefined;
  /** Rules given inline; a file's are read by startServer. */
  faults: FaultsConfig | undefined;
  faultsFile: string | undefined;
  faultsDebug: boolean;
  webhooks: WebhookSettings;
  managedIdentity: string | undefined;
}

export class ConfigError extends Error {}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function resolveOptions(options: ServerOptions): ResolvedOptions {
  const data = options.data ?? '.spemu';
  const port = options.port ?? 8080;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`--port must be a whole number from 0 to 65535, not '${options.port}'.`);
  const threshold = options.listViewThreshold ?? 5000;
  if (!Number.isInteger(threshold) || threshold < 0) throw new ConfigError(`--list-view-threshold must be a whole number ≥ 0, not '${options.listViewThreshold}'.`);
  const changeLogDays = options.changeLogDays ?? 60;
  if (!Number.isInteger(changeLogDays) || changeLogDays < 1) throw new ConfigError(`--change-log-days must be a whole number ≥ 1, not '${options.changeLogDays}'.`);
  const logLevel = options.logLevel ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, not '${logLevel}'.`);
  const db = options.db ?? `${data.replace(/\/$/, '')}/spemu.db`;
  const postgres = /^postgres(ql)?:\/\//i.test(db);
  if (options.shared && db === ':memory:') throw new ConfigError('An in-memory database cannot be shared between processes: use --workers 1, or a file.');
  if (postgres) {
    try { new URL(db); } catch { throw new ConfigError(`--db is not a valid PostgreSQL URL: '${db.replace(/:[^:@/]*@/, ':***@')}'.`); }
  }
  const dbPoolSize = options.dbPoolSize ?? 10;
  if (!Number.isInteger(dbPoolSize) || dbPoolSize < 2) throw new ConfigError(`--db-pool-size must be a whole number ≥ 2, not '${options.dbPoolSize}'.`);
  const dbStatementTimeout = options.dbStatementTimeout ?? 30_000;
  if (!Number.isInteger(dbStatementTimeout) || dbStatementTimeout < 0) throw new ConfigError(`--db-statement-timeout must be a whole number of milliseconds ≥ 0, not '${options.dbStatementTimeout}'.`);
  const auth = options.auth ?? 'strict';
  if (auth !== 'strict' && auth !== 'loose') throw new ConfigError(`--auth must be strict or loose, not '${String(options.auth)}'.`);
  const digestTimeout = options.digestTimeout ?? 1800;
  if (!Number.isInteger(digestTimeout) || digestTimeout < 1) throw new ConfigError(`--digest-timeout must be a whole number of seconds ≥ 1, not '${options.digestTimeout}'.`);
  const maxFileSize = options.maxFileSize ?? DIRECT_UPLOAD_LIMIT;
  if (!Number.isSafeInteger(maxFileSize) || maxFileSize < 1) throw new ConfigError(`--max-file-size must be a size ≥ 1 byte, not '${options.maxFileSize}'.`);
  if (options.tokenSecret !== undefined && options.tokenSecret.length < 32) throw new ConfigError('--token-secret must be at least 32 characters long.');
  const { tls, httpsPort } = resolveTls(options, port);
  const trustProxy = options.trustProxy ?? [];
  try { peerTrust(trustProxy); } catch (e) { throw new ConfigError(`--trust-proxy: ${(e as Error).message}.`); }
  let throttle: ThrottleConfig | undefined;
  let faults: FaultsConfig | undefined;
  try {
    throttle = throttleFromValue(options.throttle);
    faults = typeof options.faults === 'string' ? undefined : options.faults === undefined ? undefined : parseFaults(options.faults);
  } catch (e) {
    if (e instanceof ThrottleConfigError || e instanceof FaultConfigError) throw new ConfigError(e.message);
    throw e;
  }
  const webhooks = resolveWebhooks(options);
  return {
    tls, httpsPort, trustProxy, throttle, faults, faultsFile: typeof options.faults === 'string' ? options.faults : undefined, faultsDebug: options.faultsDebug ?? false,
    webhooks,
    managedIdentity: options.managedIdentity?.trim() || undefined,
    dataGiven: options.data !== undefined, tokenSecret: options.tokenSecret, auth, basicAuth: options.basicAuth ?? true,
    anonymousUser: options.anonymousUser || undefined, digestTimeout, requireDigest: options.requireDigest ?? false,
    host: options.host ?? '127.0.0.1', port, data, db, postgres, dbPoolSize, dbStatementTimeout, seed: options.seed, seedIfEmpty: options.seedIfEmpty, reset: options.reset ?? false,
    listViewThreshold: threshold, changeLogDays, logLevel, bodyLimit: options.bodyLimit ?? 50 * 1024 * 1024, maxFileSize,
    clock: options.clock ?? (() => new Date()),
    shared: postgres || (options.shared ?? false),
  };
}

function resolveWebhooks(options: ServerOptions): WebhookSettings {
  const d = DEFAULT_WEBHOOK_SETTINGS;
  const count = (name: string, value: number | undefined, fallback: number, min = 0): number => {
    if (value === undefined) return fallback;
    if (!Number.isSafeInteger(value) || value < min) throw new ConfigError(`--${name} must be a whole number ≥ ${min}, not '${value}'.`);
    return value;
  };
  const allow = (options.webhookAllow ?? []).map((p) => p.trim()).filter(Boolean);
  return {
    delayMs: count('webhook-delay', options.webhookDelay, d.delayMs),
    retries: count('webhook-retries', options.webhookRetries, d.retries),
    retryIntervalMs: count('webhook-retry-interval', options.webhookRetryInterval, d.retryIntervalMs),
    timeoutMs: count('webhook-timeout', options.webhookTimeout, d.timeoutMs, 1),
    maxResponseBytes: d.maxResponseBytes, allow,
  };
}

/** `--https`, `--https-port`, `--cert`/`--key`, `--pfx`: whether HTTPS is served, where, and with which certificate. */
function resolveTls(options: ServerOptions, port: number): { tls: TlsSource | undefined; httpsPort: number | undefined } {
  if ((options.cert === undefined) !== (options.key === undefined)) throw new ConfigError('--cert and --key go together: give both, or --pfx, or neither.');
  if (options.pfx !== undefined && options.cert !== undefined) throw new ConfigError('Give --cert/--key or --pfx, not both.');
  if (options.pfxPassphrase !== undefined && options.pfx === undefined) throw new ConfigError('--pfx-passphrase needs --pfx.');
  const httpsPort = options.httpsPort;
  if (httpsPort !== undefined) {
    if (!Number.isInteger(httpsPort) || httpsPort < 0 || httpsPort > 65535) throw new ConfigError(`--https-port must be a whole number from 0 to 65535, not '${httpsPort}'.`);
    if (httpsPort !== 0 && httpsPort === port) throw new ConfigError(`--https-port must differ from --port (${port}): HTTP is served on --port, HTTPS on --https-port.`);
  }
  const tls: TlsSource | undefined = options.cert !== undefined ? { kind: 'pem', certFile: options.cert, keyFile: options.key! }
    : options.pfx !== undefined ? { kind: 'pfx', pfxFile: options.pfx, passphrase: options.pfxPassphrase }
    : options.https || httpsPort !== undefined ? { kind: 'generated' } : undefined;
  if (options.https === false && tls) throw new ConfigError('--cert, --key, --pfx and --https-port serve HTTPS: they cannot be used with https: false.');
  return { tls, httpsPort };
}

/**
 * Where a SQLite database keeps the bytes of its files: the workspace's `blobs/` beside its
 * `spemu.db`, or `<file>-blobs` beside any other database file. PostgreSQL and in-memory
 * databases keep them in the database.
 */
export function blobFolderOf(resolved: Pick<ResolvedOptions, 'postgres' | 'db' | 'data'>): string | undefined {
  if (resolved.postgres || resolved.db === ':memory:') return undefined;
  return resolvePath(resolved.db) === resolvePath(resolved.data, 'spemu.db') ? join(resolved.data, 'blobs') : `${resolved.db}-blobs`;
}
