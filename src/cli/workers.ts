// `spemu --workers <n>`: n server processes on one port, through node's cluster (the primary
// accepts connections and hands them to the workers in turn).
//
//   primary:  check the options → start n workers at once → the first worker to have loaded its
//             code prepares the database (workspace, migrations, seed, token secret, TLS
//             certificate) as it starts; the others start once it listens, so they never race to
//             migrate, seed or write the secret → banner once all listen → start a worker again
//             when one dies → on SIGINT/SIGTERM, ask every worker to finish its requests and stop.
//             The primary serves nothing and loads none of the server's code: the workers load
//             theirs while it starts, which is most of a cold start.
//   worker:   a whole server (startServer) over the same database in shared mode: its caches
//             are checked against the database on every request (config.ts `shared`), so a
//             write through one worker is seen at once through the others.

import cluster, { type Worker } from 'node:cluster';
import { resolveOptions, type ServerOptions } from '../config.ts';
import type { RunningServer } from '../index.ts';

/** What a worker tells the primary once it listens. */
type ReadyMessage = { type: 'ready' } & Pick<RunningServer, 'url' | 'port' | 'httpsUrl' | 'caPath' | 'hostNames' | 'tenant'>
  // The banner needs the identity's endpoint only: the header stays in the workers.
  & { managedIdentity?: Omit<NonNullable<RunningServer['managedIdentity']>, 'header'> | undefined };

/** Workers that die this often within RESTART_WINDOW_MS stop the server: something is wrong with every start. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 30_000;
/** How long workers get to finish their requests on shutdown before they are killed. */
const SHUTDOWN_GRACE_MS = 10_000;

export const isWorker = (): boolean => cluster.isWorker;

/** A worker asks to start once its code is loaded; the answer says whether it prepares the database. */
type StartMessage = { type: 'start'; prepare: boolean };
/** A worker that could not start tells why (the primary reports it once, as `spemu` would alone). */
type FailedMessage = { type: 'failed'; name: string; message: string; stack?: string | undefined; code?: unknown; status?: unknown };

/** A worker's start failure, as the primary rethrows it: same name, message, code and status. */
export class WorkerStartError extends Error {
  readonly code: unknown;
  readonly status: unknown;
  constructor(failure: FailedMessage) {
    super(failure.message);
    this.name = failure.name;
    this.code = failure.code;
    this.status = failure.status;
    if (failure.stack) this.stack = failure.stack;
  }
}

/**
 * The primary: runs `count` workers until SIGINT/SIGTERM, restarting any that dies. The first
 * worker ready to start prepares the database; `announce` gets its address once all listen.
 */
export async function runPrimary(options: ServerOptions, count: number, announce: (server: Omit<ReadyMessage, 'type'>) => void): Promise<void> {
  // Options checked here, once, as the workers will take them (shared: refused where the
  // database cannot be shared; a faults file that does not parse stops the primary).
  resolveOptions({ ...options, shared: true });
  const { primaryGate } = await import('../gate-settings.ts');
  const hub = primaryGate(options, {
    reloaded: (path, rules) => { if (['info', 'debug', 'trace'].includes(options.logLevel ?? 'info')) console.log(`spemu: fault rules reloaded from ${path} (${rules})`); },
    invalid: (e) => console.error(`spemu: fault rules not reloaded: the file is not valid; the rules in force stay (${e.message})`),
  });
  const stopWatching = hub.stop;
  let stopping = false;
  let serving = false;
  const restarts: number[] = [];
  let giveUp!: (error: Error) => void;
  const gaveUp = new Promise<Error>((done) => { giveUp = done; });
  /** Whether a worker has been told to prepare the database, and when it listens (the others then start). */
  let preparing = false;
  let prepared!: () => void;
  const databaseReady = new Promise<void>((done) => { prepared = done; });

  /**
   * A worker, resolved once it listens. One that dies after it listened, or once the server
   * serves, is replaced; one that dies before the server first came up fails the start.
   */
  const start = (): Promise<ReadyMessage> => new Promise((resolve, reject) => {
    const worker = cluster.fork();
    hub.attach(worker);
    let listening = false;
    let failure: FailedMessage | undefined;
    let prepares = false;
    worker.on('message', (message: ReadyMessage | FailedMessage | { type: 'loaded' }) => {
      if (message?.type === 'loaded') {
        prepares = !preparing;
        preparing = true;
        const go: StartMessage = { type: 'start', prepare: prepares };
        if (prepares) worker.send(go);
        else void databaseReady.then(() => { if (worker.isConnected()) worker.send(go); });
      } else if (message?.type === 'ready') {
        listening = true;
        if (prepares) prepared();
        resolve(message);
      } else if (message?.type === 'failed') {
        failure = message;
      }
    });
    worker.once('exit', (code, signal) => {
      const why = signal ?? `exit code ${code}`;
      if (listening || serving) replace(worker.process.pid, why);
      else reject(failure ? new WorkerStartError(failure) : new Error(`a worker stopped before the server was up (${why})`));
    });
  });
  /** A worker died (or a replacement could not start): another takes its place, unless they keep dying. */
  function replace(pid: number | undefined, why: string): void {
    if (stopping) return;
    const now = Date.now();
    restarts.push(now);
    while (restarts.length && restarts[0]! < now - RESTART_WINDOW_MS) restarts.shift();
    console.error(`spemu: worker ${pid} stopped (${why}); starting another`);
    if (restarts.length > MAX_RESTARTS) giveUp(new Error(`workers stopped ${restarts.length} times within ${RESTART_WINDOW_MS / 1000} s; giving up`));
    else void start();
  }

  let ready: ReadyMessage[];
  try {
    ready = await Promise.all(Array.from({ length: count }, start));
  } catch (e) {
    stopping = true;
    stopWatching();
    await stopAll();
    throw e;
  }
  serving = true;
  announce(ready[0]!);
  let signalled!: () => void;
  const stop = () => signalled();
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const outcome = await Promise.race([new Promise<undefined>((done) => { signalled = () => done(undefined); }), gaveUp]);
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
  stopping = true;
  stopWatching();
  await stopAll();
  if (outcome) throw outcome;
}

/** Every worker finishes its requests and exits (killed after the grace period). */
async function stopAll(): Promise<void> {
  const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead());
  await Promise.all(workers.map((worker) => new Promise<void>((done) => {
    const timer = setTimeout(() => worker.process.kill('SIGKILL'), SHUTDOWN_GRACE_MS);
    worker.once('exit', () => { clearTimeout(timer); done(); });
    worker.send({ type: 'shutdown' }, () => {});
  })));
}

/**
 * A worker: one server in shared mode, until the primary (or a signal) says stop. It loads its
 * code, then waits for the primary's word to start: the first to ask prepares the database (and
 * resets it when asked to); the others, and any worker started later, never wipe it.
 */
export async function runWorker(options: ServerOptions): Promise<void> {
  let stop!: () => void;
  const stopped = new Promise<'stop'>((done) => { stop = () => done('stop'); });
  const told = new Promise<StartMessage>((done) => {
    process.on('message', (message: StartMessage | { type?: string }) => {
      if (message?.type === 'start') done(message as StartMessage);
      else if (message?.type === 'shutdown') stop();
    });
  });
  // The primary is gone (killed): nobody hands this worker connections any more.
  process.on('disconnect', () => stop());
  process.on('SIGTERM', () => stop());
  // Ctrl+C reaches the whole process group: the primary stops the workers in order.
  process.on('SIGINT', () => {});
  const { startServer } = await import('../index.ts');
  const { workerGate } = await import('../gate-settings.ts');
  process.send!({ type: 'loaded' });
  const go = await Promise.race([told, stopped]);
  if (go === 'stop') process.exit(0);
  let server: RunningServer;
  try {
    server = await startServer({ ...options, reset: go.prepare ? options.reset : false, shared: true, sharedGate: workerGate() });
  } catch (e) {
    const error = e as Error & { code?: unknown; status?: unknown };
    const failed: FailedMessage = { type: 'failed', name: error?.constructor?.name ?? 'Error', message: String(error?.message ?? e), stack: error?.stack, code: error?.code, status: error?.status };
    process.send!(failed, () => process.exit(1));
    return new Promise<never>(() => {});
  }
  const ready: ReadyMessage = {
    type: 'ready', url: server.url, port: server.port, httpsUrl: server.httpsUrl, caPath: server.caPath, hostNames: server.hostNames, tenant: server.tenant,
    managedIdentity: server.managedIdentity && { name: server.managedIdentity.name, endpoint: server.managedIdentity.endpoint },
  };
  process.send!(ready);
  await stopped;
  await server.close();
  process.exit(0);
}
