// `spemu --workers <n>`: n server processes on one port, through node's cluster (the primary
// accepts connections and hands them to the workers in turn).
//
//   primary:  prepare the database once (workspace, migrations, seed, token secret, TLS certificate) →
//             start n workers → banner once all listen → start a worker again when one dies →
//             on SIGINT/SIGTERM, ask every worker to finish its requests and stop.
//   worker:   a whole server (startServer) over the same database in shared mode: its caches
//             are checked against the database on every request (config.ts `shared`), so a
//             write through one worker is seen at once through the others.

import cluster, { type Worker } from 'node:cluster';
import type { RunningServer, ServerOptions } from '../index.ts';

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

/**
 * The primary: prepares the database, runs `count` workers until SIGINT/SIGTERM, restarting
 * any that dies. `announce` gets the first worker's address once all of them listen.
 */
export async function runPrimary(options: ServerOptions, count: number, announce: (server: Omit<ReadyMessage, 'type'>) => void): Promise<void> {
  const { prepareDatabase, primaryGate } = await import('../index.ts');
  // Shared, as the workers will be: refused here, once, where the database cannot be shared.
  await prepareDatabase({ ...options, shared: true });
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

  /**
   * A worker, resolved once it listens. One that dies after it listened, or once the server
   * serves, is replaced; one that dies before the server first came up fails the start.
   */
  const start = (): Promise<ReadyMessage> => new Promise((resolve, reject) => {
    const worker = cluster.fork();
    hub.attach(worker);
    let listening = false;
    worker.on('message', (message: ReadyMessage) => { if (message?.type === 'ready') { listening = true; resolve(message); } });
    worker.once('exit', (code, signal) => {
      const why = signal ?? `exit code ${code}`;
      if (listening || serving) replace(worker.process.pid, why);
      else reject(new Error(`a worker stopped before the server was up (${why})`));
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

/** A worker: one server in shared mode, until the primary (or a signal) says stop. */
export async function runWorker(options: ServerOptions): Promise<void> {
  const { startServer, workerGate } = await import('../index.ts');
  // The primary prepared (and if asked, reset) the database: a worker never wipes it.
  const server = await startServer({ ...options, reset: false, shared: true, sharedGate: workerGate() });
  const ready: ReadyMessage = {
    type: 'ready', url: server.url, port: server.port, httpsUrl: server.httpsUrl, caPath: server.caPath, hostNames: server.hostNames, tenant: server.tenant,
    managedIdentity: server.managedIdentity && { name: server.managedIdentity.name, endpoint: server.managedIdentity.endpoint },
  };
  process.send!(ready);
  await new Promise<void>((done) => {
    process.on('message', (message: { type?: string }) => { if (message?.type === 'shutdown') done(); });
    // The primary is gone (killed): nobody hands this worker connections any more.
    process.on('disconnect', () => done());
    process.on('SIGTERM', () => done());
    // Ctrl+C reaches the whole process group: the primary stops the workers in order.
    process.on('SIGINT', () => {});
  });
  await server.close();
  process.exit(0);
}
