// Server options: the flags, their environment variables (SPEMU_<NAME>) and defaults.

export interface ServerOptions {
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** Port; 0 picks a free one. Default 8080. */
  port?: number;
  /** Workspace folder holding the database. Default ./.spemu */
  data?: string;
  /** A SQLite file, `:memory:`, or (later) a postgres:// URL. Default <data>/spemu.db */
  db?: string;
  /** A tenant file path, or the parsed tenant object, to load into an empty database. A database holding a different tenant is refused. */
  seed?: string | object;
  /** A tenant loaded only when the database is empty, never refused (how `npm start` gets the demo). */
  seedIfEmpty?: string | object;
  /** Wipe the workspace before starting. */
  reset?: boolean;
  /** Items a list may hold before unindexed queries are refused (SharePoint's 5000); 0 = off. */
  listViewThreshold?: number;
  /** fatal, error, warn, info, debug, trace or silent. Default info. */
  logLevel?: string;
  /** Largest request body in bytes. Default 50 MiB. */
  bodyLimit?: number;
  /** The clock, for tests. */
  clock?: () => Date;
}

export interface ResolvedOptions {
  host: string;
  port: number;
  data: string;
  db: string;
  seed?: string | object | undefined;
  seedIfEmpty?: string | object | undefined;
  reset: boolean;
  listViewThreshold: number;
  logLevel: string;
  bodyLimit: number;
  clock: () => Date;
}

export class ConfigError extends Error {}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function resolveOptions(options: ServerOptions): ResolvedOptions {
  const data = options.data ?? '.spemu';
  const port = options.port ?? 8080;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`--port must be a whole number from 0 to 65535, not '${options.port}'.`);
  const threshold = options.listViewThreshold ?? 5000;
  if (!Number.isInteger(threshold) || threshold < 0) throw new ConfigError(`--list-view-threshold must be a whole number ≥ 0, not '${options.listViewThreshold}'.`);
  const logLevel = options.logLevel ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`--log-level must be one of ${LOG_LEVELS.join(', ')}, not '${logLevel}'.`);
  const db = options.db ?? `${data.replace(/\/$/, '')}/spemu.db`;
  if (/^postgres(ql)?:\/\//i.test(db)) {
    throw new ConfigError('PostgreSQL is not supported yet: it arrives with the PostgreSQL backend. Use a SQLite file or :memory: for --db.');
  }
  return {
    host: options.host ?? '127.0.0.1', port, data, db, seed: options.seed, seedIfEmpty: options.seedIfEmpty, reset: options.reset ?? false,
    listViewThreshold: threshold, logLevel, bodyLimit: options.bodyLimit ?? 50 * 1024 * 1024,
    clock: options.clock ?? (() => new Date()),
  };
}
