// Test harness: a throw-away PostgreSQL cluster (initdb into a temporary folder, pg_ctl on a
// free port, trust authentication on 127.0.0.1 only) and a fresh database per test server.
//
// `npm test` (scripts/test.ts) starts one cluster for the whole PostgreSQL leg and hands its
// admin URL down in SPEMU_TEST_PG_URL; a test file run on its own starts one for its process.
// A cluster this process started is stopped and removed when the process exits.

import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export interface Cluster {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`: a superuser on the maintenance database. */
  adminUrl: string;
  port: number;
  /** A new empty database; returns its URL. */
  createDatabase(prefix?: string): Promise<string>;
  dropDatabase(url: string): Promise<void>;
  /** Stops the server (the data stays): for tests of an unavailable database. */
  stop(): void;
  /** Starts it again on the same port. */
  start(): void;
  /** Stops the server and deletes its folder. */
  destroy(): Promise<void>;
}

const BINARIES = ['initdb', 'pg_ctl', 'postgres'];

/** The folder holding initdb/pg_ctl/postgres, or why there is none. */
export function postgresBinaries(): { bindir: string } | { missing: string } {
  const candidates: string[] = [];
  const pgConfig = spawnSync('pg_config', ['--bindir'], { encoding: 'utf8' });
  if (pgConfig.status === 0) candidates.push(pgConfig.stdout.trim());
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) if (dir) candidates.push(dir);
  for (const dir of candidates) {
    if (BINARIES.every((b) => fs.existsSync(path.join(dir, b)))) return { bindir: dir };
  }
  return { missing: `no PostgreSQL server binaries (${BINARIES.join(', ')}) on PATH or in \`pg_config --bindir\`` };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** PostgreSQL refuses to run as root: then its tools run as the `postgres` (or `nobody`) user. */
function runAs(): { uid: number; gid: number; user: string } | undefined {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return undefined;
  for (const user of ['postgres', 'nobody']) {
    const id = spawnSync('id', ['-u', user], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', user], { encoding: 'utf8' });
    if (id.status === 0 && gid.status === 0) return { uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()), user };
  }
  throw new Error('running as root, and there is no postgres or nobody user to run PostgreSQL as');
}

function run(bindir: string, tool: string, args: string[], as: ReturnType<typeof runAs>): void {
  const command = path.join(bindir, tool);
  const result = as
    ? spawnSync('runuser', ['-u', as.user, '--', command, ...args], { encoding: 'utf8' })
    : spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) {
    throw new Error(`${tool} ${args.join(' ')} failed (${result.status ?? result.signal}): ${result.stderr || result.stdout}`);
  }
}

/**
 * A new cluster in a temporary folder, running; removed at process exit unless destroyed
 * before. `durable`: keep PostgreSQL's crash-safe defaults (fsync, synchronous commit), as
 * the benchmark does to compare like with like; tests turn them off for speed.
 */
export async function startCluster(options: { durable?: boolean } = {}): Promise<Cluster> {
  const found = postgresBinaries();
  if ('missing' in found) throw new Error(found.missing);
  const { bindir } = found;
  const as = runAs();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'spemu-pg-'));
  if (as) fs.chownSync(dir, as.uid, as.gid);
  const data = path.join(dir, 'data');
  // UTF-8 with a locale whose lower() folds every letter, as spemu requires (connect.ts).
  run(bindir, 'initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C.UTF-8', '--no-sync'], as);
  const port = await freePort();
  const serverOptions = [
    `-p ${port}`, `-k ${dir}`, '-c listen_addresses=127.0.0.1', '-c max_connections=300',
    // A test cluster need not survive a power cut.
    ...(options.durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
  ].join(' ');
  let running = false;
  const start = () => {
    run(bindir, 'pg_ctl', ['-D', data, '-o', serverOptions, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start'], as);
    running = true;
  };
  // `fast` rolls back open transactions and checkpoints: with synchronous_commit off, an
  // `immediate` stop could lose the last commits, which a test restarting the server would see.
  const halt = (mode: 'fast' | 'immediate') => {
    if (!running) return;
    running = false;
    run(bindir, 'pg_ctl', ['-D', data, '-m', mode, '-w', 'stop'], as);
  };
  const stop = () => halt('fast');
  let removed = false;
  const remove = () => {
    if (removed) return;
    removed = true;
    try { halt('immediate'); } catch { /* already stopped */ }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  process.on('exit', remove);
  start();
  const cluster = databases(`postgres://postgres@127.0.0.1:${port}/postgres`);
  return {
    ...cluster, port, start, stop,
    async destroy() {
      await cluster.end();
      remove();
      process.off('exit', remove);
    },
  };
}

/** Creating and dropping databases through the cluster's maintenance database. */
function databases(adminUrl: string) {
  // A connection per statement: an open one would keep a test process from exiting.
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    client.on('error', () => {});
    await client.connect();
    try { await client.query(statement); } finally { await client.end().catch(() => {}); }
  };
  let counter = 0;
  return {
    adminUrl,
    async createDatabase(prefix = 'spemu_test') {
      const name = `${prefix}_${process.pid}_${++counter}_${randomBytes(3).toString('hex')}`;
      await admin(`create database "${name}"`);
      const url = new URL(adminUrl);
      url.pathname = `/${name}`;
      return url.toString();
    },
    async dropDatabase(url: string) {
      const name = decodeURIComponent(new URL(url).pathname.slice(1));
      await admin(`drop database if exists "${name.replace(/"/g, '""')}" with (force)`);
    },
    async end() {},
  };
}

let shared: Promise<Cluster> | undefined;

/**
 * The cluster test servers create their databases in: the one `npm test` started
 * (SPEMU_TEST_PG_URL), else one started for this process.
 */
export function sharedCluster(): Promise<Cluster> {
  shared ??= (async () => {
    const url = process.env.SPEMU_TEST_PG_URL;
    if (!url) return startCluster();
    const cluster = databases(url);
    const notOurs = () => { throw new Error('this cluster belongs to the test runner'); };
    return { ...cluster, port: Number(new URL(url).port), stop: notOurs, start: notOurs, destroy: () => cluster.end() };
  })();
  return shared;
}

/** Which database the integration suite runs on: SPEMU_TEST_DB=postgres, else SQLite. */
export const testBackend = (): 'sqlite' | 'postgres' => (process.env.SPEMU_TEST_DB === 'postgres' ? 'postgres' : 'sqlite');
