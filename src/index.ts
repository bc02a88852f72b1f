// spemu's programmatic API: start a SharePoint-compatible server in-process, e.g. from a
// test suite: `const { url, close } = await startServer({ db: ':memory:', seed, port: 0 })`.

import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { blobFolderOf, resolveOptions, ConfigError, type ResolvedOptions, type ServerOptions } from './config.ts';
import { checkPostgres, openPostgres, openSqlite, type Connection } from './store/sql/connect.ts';
import { migrateToLatest } from './store/sql/migrate.ts';
import { dropSpemuTables } from './store/transfer/ownership.ts';
import { SqlStore } from './store/sql/sql-store.ts';
import { scheduleHousekeeping } from './store/housekeeping.ts';
import { WebhookDelivery } from './services/webhooks/delivery.ts';
import { addOwedWebPartGalleries } from './services/web-part-gallery.ts';
import type { Store } from './store/store.ts';
import { createApp } from './server/app.ts';
import { createAuthenticator } from './pipeline/authenticate.ts';
import { resolveSecret, SecretError } from './identity/secret.ts';
import { loadSigningKeys, type SigningKeys } from './identity/signing-keys.ts';
import { loadTenantFile, validateTenant } from './tenant/validate.ts';
import type { TenantFile } from './tenant/types.ts';
import { loadTenant, storeTenantApps, storeTenantHosts, tenantHash, tenantHosts } from './tenant/load.ts';
import { loadTls, TlsFileError, type TlsSetup } from './server/tls.ts';
import { certificateNames } from './server/certificates.ts';
import { allowedHostNames, boundName } from './server/hosts.ts';
import { peerTrust } from './pipeline/origin.ts';
import { TENANT_HASH_KEY, TENANT_NAME_KEY } from './domain/settings.ts';
import { isoSeconds } from './domain/values.ts';
import { TrafficGate } from './pipeline/throttle/gate.ts';
import { configValue, gateSettingsOf } from './gate-settings.ts';
import { watchFaultsFile } from './pipeline/throttle/faults-file.ts';
import { FaultConfigError, parseFaults } from './pipeline/throttle/faults.ts';
import { throttleFromValue, ThrottleConfigError, type ThrottleConfig } from './pipeline/throttle/config.ts';
import { findManagedIdentity, managedIdentityHeader } from './identity/managed-identity.ts';
import { APP_SERVICE_PATH } from './fronts/managed-identity/index.ts';

export type { ServerOptions } from './config.ts';
export { ConfigError } from './config.ts';
export { TenantFileError } from './tenant/validate.ts';
export { parseProjectDate } from './domain/projectdata/values.ts';

export interface RunningServer {
  /** Base URL, e.g. `http://127.0.0.1:8080`: HTTP on `port`, or HTTPS when `https` is served alone. */
  url: string;
  port: number;
  /** HTTPS's base URL when HTTPS is served (`url` itself with `https` alone, else on `httpsPort`). */
  httpsUrl?: string | undefined;
  httpsPort?: number | undefined;
  /** The CA certificate (PEM) spemu made for HTTPS, which clients must trust; undefined with the user's own certificate. */
  ca?: string | undefined;
  /** Where that CA certificate is kept (`<data>/tls/ca.pem`); undefined when made for this process only. */
  caPath?: string | undefined;
  /** The tenant's host names (host-named tenants); empty when it names none. */
  hostNames: string[];
  /**
   * With `managedIdentity`: what App Service would set, IDENTITY_ENDPOINT (on HTTPS when served)
   * and IDENTITY_HEADER (the workspace's secret for it: give it to clients, never log it).
   */
  managedIdentity?: { name: string; endpoint: string; header: string } | undefined;
  /** The tenant's name and sites. */
  tenant: { name: string; sites: Array<{ url: string; title: string }> };
  /** Replaces the fault rules at run time (as POST /_spemu/faults does); undefined or [] clears them. */
  setFaults(faults: object | undefined): void;
  /** Replaces the throttling at run time (budgets start empty); undefined or false turns it off. */
  setThrottle(throttle: string | Partial<ThrottleConfig> | false | undefined): void;
  close(): Promise<void>;
}

/** Marks a folder as a spemu workspace, so `--reset` never wipes anything else. */
const WORKSPACE_MARKER = '.spemu-workspace';

export function prepareWorkspace(options: ResolvedOptions): void {
  if (options.db === ':memory:') return;
  if (options.postgres) {
    // --reset on PostgreSQL drops spemu's tables once connected (dropSpemuTables, below) and
    // keeps the folder: it holds only the token secret (unless one is given), which other
    // instances sharing the folder still use.
    if (options.tokenSecret !== undefined) return;
  }
  const dir = options.data;
  if (options.reset && !options.postgres && existsSync(dir)) {
    const entries = readdirSync(dir);
    if (entries.length > 0 && !entries.includes(WORKSPACE_MARKER)) {
      throw new ConfigError(`--reset refuses to wipe '${dir}': it is not a spemu workspace (no ${WORKSPACE_MARKER} file).`);
    }
    rmSync(dir, { recursive: true, force: true });
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, WORKSPACE_MARKER), 'This folder is a spemu workspace. `spemu --reset` deletes it.\n');
}

/** The tenant and the folder its relative paths (pictures) are resolved from. */
async function readSeed(seed: string | object): Promise<{ tenant: TenantFile; baseDir: string }> {
  if (typeof seed === 'string') return loadTenantFile(seed);
  return { tenant: validateTenant(seed), baseDir: process.cwd() };
}

/** Loads the seed into an empty database; a database holding another tenant is refused. */
async function seedStore(store: Store, options: ResolvedOptions, now: string): Promise<void> {
  const loadedName = await store.settings.get(TENANT_NAME_KEY);
  if (options.seed === undefined) {
    if (loadedName === undefined && options.seedIfEmpty !== undefined) {
      const { tenant, baseDir } = await readSeed(options.seedIfEmpty);
      await loadTenant(store, tenant, now, baseDir);
      await store.refreshStatistics();
    }
    return;
  }
  const { tenant, baseDir } = await readSeed(options.seed);
  if (loadedName === undefined) {
    await loadTenant(store, tenant, now, baseDir);
    // Without this, PostgreSQL plans a fresh 100k-item list's first queries from empty-table guesses.
    await store.refreshStatistics();
    return;
  }
  if ((await store.settings.get(TENANT_HASH_KEY)) !== tenantHash(tenant)) {
    throw new ConfigError(`The database already holds tenant '${loadedName}', which differs from the seed ('${tenant.tenant.name}'). `
      + 'Start with --reset to replace it, or without --seed to keep it.');
  }
  // The same tenant: only its host names and apps may have changed (they are not part of the hash).
  await storeTenantHosts(store, tenant);
  await storeTenantApps(store, tenant, baseDir);
}

/**
 * HTTPS's key and certificate, if HTTPS is served: the user's, or the one kept in
 * `<data>/tls/` for the loopback names, `--host` and the tenant's host names (made or remade
 * here when those change; an in-memory database without a workspace folder gets one per process).
 */
function tlsSetup(resolved: ResolvedOptions, hosts: readonly string[]): TlsSetup | undefined {
  if (!resolved.tls) return undefined;
  const bound = boundName(resolved.host);
  const dir = resolved.db === ':memory:' && !resolved.dataGiven ? undefined : join(resolved.data, 'tls');
  try {
    return loadTls(resolved.tls, certificateNames([...(bound ? [bound] : []), ...hosts]), dir, resolved.clock());
  } catch (e) {
    throw e instanceof TlsFileError ? new ConfigError(e.message) : e;
  }
}

async function openDatabase(resolved: ResolvedOptions): Promise<Connection & { clearStatementCache?: () => void }> {
  if (resolved.postgres) {
    return openPostgres({ url: resolved.db, maxConnections: resolved.dbPoolSize, statementTimeoutMs: resolved.dbStatementTimeout });
  }
  return openSqlite({ file: resolved.db === ':memory:' ? ':memory:' : resolved.db });
}

/** Arbitrary, fixed: the advisory lock instances hold while they migrate and seed. */
const STARTUP_LOCK = 0x5e_e0_5a;

async function exclusively(connection: Connection, fn: () => Promise<void>): Promise<void> {
  if (connection.flavour !== 'postgres') return fn();
  await connection.db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${sql.lit(STARTUP_LOCK)})`.execute(conn);
    try {
      await fn();
    } finally {
      await sql`select pg_advisory_unlock(${sql.lit(STARTUP_LOCK)})`.execute(conn).catch(() => {});
    }
  });
}

// Where a SQLite database keeps its files' bytes: config.ts (maintenance commands need it too).
export { blobFolderOf };

/** The workspace made, the database opened, migrated and seeded. */
async function openPreparedStore(resolved: ResolvedOptions): Promise<{ store: SqlStore; connection: Connection }> {
  prepareWorkspace(resolved);
  const connection = await openDatabase(resolved);
  const store = new SqlStore(connection.db, connection.flavour, {
    onSchemaChange: connection.clearStatementCache, shared: resolved.shared, direct: connection.direct, changeProbe: connection.changeProbe,
    blobFolder: blobFolderOf(resolved),
  });
  try {
    if (resolved.postgres) {
      const problem = await checkPostgres(connection.db);
      if (problem) throw new ConfigError(problem);
    }
    // Instances starting together on one PostgreSQL database migrate and seed one at a time:
    // the first loads the tenant, the others then find it loaded (or refuse a different one).
    await exclusively(connection, async () => {
      // Only the tables spemu made (store/transfer/ownership.ts), never the rest of the schema.
      if (resolved.postgres && resolved.reset) await dropSpemuTables(connection.db, connection.flavour);
      await migrateToLatest(connection.db, connection.flavour);
      // What a migration left owed that only the domain can make (0030: old root webs' Web Part Gallery).
      await addOwedWebPartGalleries(store, isoSeconds(resolved.clock().getTime()));
      await seedStore(store, resolved, isoSeconds(resolved.clock().getTime()));
    });
  } catch (e) {
    await store.close();
    throw e;
  }
  return { store, connection };
}

export async function startServer(options: ServerOptions = {}): Promise<RunningServer> {
  const resolved = resolveOptions(options);
  const { store } = await openPreparedStore(resolved);
  let secret: Uint8Array;
  let signingKeys: SigningKeys;
  let hosts: string[];
  let tls: TlsSetup | undefined;
  try {
    // An in-memory database without a workspace folder gets a secret for this process only.
    const workspace = resolved.db === ':memory:' && !resolved.dataGiven ? undefined : resolved.data;
    secret = resolveSecret({ tokenSecret: resolved.tokenSecret, dataDir: workspace });
    // Entra-shaped tokens' RS256 keys: the workspace's (identity/signing-keys.json), else this process's.
    signingKeys = loadSigningKeys(workspace, resolved.clock());
    if (resolved.anonymousUser && !(await store.directory.findUser(resolved.anonymousUser))) {
      throw new ConfigError(`--anonymous-user '${resolved.anonymousUser}' is not a user of the tenant's directory.`);
    }
    if (resolved.managedIdentity && !(await findManagedIdentity(store, resolved.managedIdentity))) {
      throw new ConfigError(`--managed-identity '${resolved.managedIdentity}' is neither an app (client id) of the tenant file nor a user of its directory.`);
    }
    hosts = await tenantHosts(store);
    tls = tlsSetup(resolved, hosts);
  } catch (e) {
    await store.close();
    throw e instanceof SecretError ? new ConfigError(e.message) : e;
  }
  // Throttling and faults (pipeline/throttle/): off until configured; one gate for every listener.
  // Under --workers its state is the primary's: the worker takes it before it serves.
  let gate: TrafficGate;
  let stopWatching = () => {};
  const sharedGate = options.sharedGate;
  try {
    gate = new TrafficGate({ now: () => resolved.clock().getTime(), debug: resolved.faultsDebug, home: sharedGate },
      sharedGate ? {} : gateSettingsOf(resolved).state);
    if (sharedGate) await sharedGate.connect(gate);
  } catch (e) {
    await store.close();
    throw e instanceof FaultConfigError ? new ConfigError(e.message) : e;
  }
  const authenticator = createAuthenticator({
    store, secret, mode: resolved.auth, basicAuth: resolved.basicAuth, anonymousUser: resolved.anonymousUser,
    requireDigest: resolved.requireDigest, digestTimeoutSeconds: resolved.digestTimeout, clock: resolved.clock, signingKeys,
  });
  // One listener, HTTP or HTTPS on --port; or both, HTTPS on --https-port: one fastify instance
  // each (server/app.ts), over the same store, authenticator and settings.
  const listeners: Array<{ port: number; https?: TlsSetup['https'] | undefined }> = !tls ? [{ port: resolved.port }]
    : resolved.httpsPort === undefined ? [{ port: resolved.port, https: tls.https }]
    : [{ port: resolved.port }, { port: resolved.httpsPort, https: tls.https }];
  const apps: FastifyInstance[] = [];
  // List webhooks: the outbox's delivery worker (one per process; claims keep instances apart).
  const webhookDelivery = new WebhookDelivery(store, resolved.webhooks, {
    info: (fields, message) => apps[0]?.log.info(fields, message),
    warn: (fields, message) => apps[0]?.log.warn(fields, message),
  });
  const closeApps = () => Promise.all(apps.map((app) => closeApp(app)));
  try {
    for (const listener of listeners) {
      const app = await createApp({
        store, authenticator, secret, signingKeys, bodyLimit: resolved.bodyLimit, logLevel: resolved.logLevel, clock: resolved.clock, gate,
        settings: { listViewThreshold: resolved.listViewThreshold, maxFileSize: resolved.maxFileSize, defaultPageSize: 100, maxPageSize: 5000, webhooks: resolved.webhooks,
          changeRetentionDays: resolved.changeLogDays,
        },
        webhookDelivery,
        https: listener.https, trustProxy: resolved.trustProxy.length > 0 ? peerTrust(resolved.trustProxy) : undefined,
        allowedHosts: allowedHostNames(hosts, resolved.host), managedIdentity: resolved.managedIdentity,
      });
      apps.push(app);
      if (resolved.shared) {
        // Other instances may have changed metadata since the last request: one cheap read of the
        // metadata counter per request, which also answers 503 early while the database is away.
        app.addHook('onRequest', async (req) => {
          if (!req.url.startsWith('/_spemu/health')) await store.sync();
        });
      }
      await app.listen({ host: resolved.host, port: listener.port });
    }
  } catch (e) {
    await closeApps();
    await store.close();
    throw e;
  }
  // Under --workers the primary watches the file, once for all of them.
  if (resolved.faultsFile && !sharedGate) {
    const log = apps[0]!.log;
    stopWatching = watchFaultsFile(resolved.faultsFile, (faults) => {
      gate.configure({ faults });
      log.info({ file: resolved.faultsFile, rules: faults.rules.length }, 'fault rules reloaded');
    }, (e) => log.error({ file: resolved.faultsFile, err: e.message }, 'fault rules not reloaded: the file is not valid; the rules in force stay'));
  }
  // Abandoned chunked uploads ended, unreferenced blobs collected (store/housekeeping.ts).
  const stopHousekeeping = scheduleHousekeeping(store, resolved.clock, (e) => apps[0]!.log.error({ err: e }, 'housekeeping failed'), undefined, resolved.changeLogDays);
  const stopDelivery = webhookDelivery.start();
  const host = resolved.host.includes(':') ? `[${resolved.host}]` : resolved.host;
  const urls = apps.map((app, i) => {
    const port = (app.server.address() as AddressInfo).port;
    return { port, url: `${listeners[i]!.https ? 'https' : 'http'}://${host}:${port}`, https: listeners[i]!.https !== undefined };
  });
  const secure = urls.find((u) => u.https);
  const sites = (await store.sites.all()).map((s) => ({ url: s.url, title: s.title }));
  return {
    url: urls[0]!.url, port: urls[0]!.port, httpsUrl: secure?.url, httpsPort: secure?.port, ca: tls?.ca, caPath: tls?.caPath, hostNames: hosts,
    managedIdentity: resolved.managedIdentity === undefined ? undefined
      : { name: resolved.managedIdentity, endpoint: `${(secure ?? urls[0]!).url}${APP_SERVICE_PATH}`, header: managedIdentityHeader(secret) },
    tenant: { name: (await store.settings.get(TENANT_NAME_KEY)) ?? '', sites },
    setFaults(faults) {
      void gate.update({ faults: configValue(() => parseFaults(faults ?? [])) });
    },
    setThrottle(throttle) {
      void gate.update({ throttle: configValue(() => throttleFromValue(throttle)) });
    },
    async close() {
      stopWatching();
      sharedGate?.close();
      stopHousekeeping();
      stopDelivery();
      await webhookDelivery.idle();
      await closeApps();
      await store.close();
    },
  };
}

async function closeApp(app: FastifyInstance): Promise<void> {
  // Closing closes the connections idle at that moment; one whose response is still
  // streaming (a file read from disk ends a tick after its last byte left) would stay open
  // for the keep-alive timeout (72 s) once it ends. Close connections as they fall idle.
  const idle = setInterval(() => app.server.closeIdleConnections(), 50);
  try {
    await app.close();
  } finally {
    clearInterval(idle);
  }
}
