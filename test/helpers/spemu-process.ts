// The `spemu` command as its own process, for tests that kill it (`kill -9`) and start it again
// on the same workspace: the leg's database (a SQLite workspace on disk, or a fresh PostgreSQL
// database of the shared cluster), started with `--workers 1` so that the process killed is the
// one that served. Everything made is removed by the `cleanups` the test runs after itself.

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sharedCluster, testBackend } from './postgres.ts';

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

export type Cleanups = Array<() => Promise<void> | void>;
export interface Workspace { data: string; db: string | undefined }
export interface SpemuProcess { child: ChildProcessWithoutNullStreams; url: string; exited: Promise<void> }

/** The environment without SPEMU_* variables, so only the arguments configure the process. */
export const cleanEnv = (): NodeJS.ProcessEnv => Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SPEMU_')));

/** `node --import tsx src/cli/main.ts …args`: the command line, for spawn or execFile. */
export const spemuCommand = (...args: string[]): [string, string[]] => [process.execPath, ['--import', import.meta.resolve('tsx'), MAIN, ...args]];

/** The workspace's own arguments: `--data`, and `--db` on PostgreSQL. */
export const workspaceArgs = (ws: Workspace): string[] => ['--data', ws.data, ...(ws.db ? ['--db', ws.db] : [])];

/** A new workspace for the leg's backend (`dbName`: the PostgreSQL database's name prefix). */
export async function newWorkspace(prefix: string, dbName: string, cleanups: Cleanups): Promise<Workspace> {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const data = join(dir, 'ws');
  if (testBackend() === 'sqlite') return { data, db: undefined };
  const cluster = await sharedCluster();
  const db = await cluster.createDatabase(dbName);
  cleanups.push(() => cluster.dropDatabase(db));
  return { data, db };
}

/** `spemu --workers 1 --port 0` on the workspace with `args`, once its banner is out (60 s at most). */
export async function startSpemu(ws: Workspace, args: string[], cleanups: Cleanups): Promise<SpemuProcess> {
  const [command, argv] = spemuCommand('--workers', '1', '--port', '0', '--log-level', 'warn', ...workspaceArgs(ws), ...args);
  const child = spawn(command, argv, { env: cleanEnv() });
  let output = '';
  child.stdout.on('data', (d) => { output += String(d); });
  child.stderr.on('data', (d) => { output += String(d); });
  const exited = new Promise<void>((done) => child.on('exit', () => done()));
  cleanups.push(async () => { if (child.exitCode === null && child.signalCode === null) { child.kill('SIGKILL'); await exited; } });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const banner = /serving tenant 'contoso' at (http:\/\/\S+)/.exec(output);
    if (banner) return { child, url: banner[1]!, exited };
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`spemu did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
