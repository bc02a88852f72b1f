// `spemu --workers 2` as an operator runs it, for tests that need the requests of one client to
// reach both workers: the process on the leg's database, and keep-alive connections whose
// worker is known (GET /_spemu/health answers the serving process's pid).

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { request, Agent } from 'node:http';
import { cleanEnv, newWorkspace, spemuCommand, workspaceArgs, type Cleanups, type Workspace } from './spemu-process.ts';

export const OWNER = 'alice@contoso.onmicrosoft.com';

export interface Workers {
  /** The workspace (and database) it serves. */
  ws: Workspace;
  child: ChildProcessWithoutNullStreams;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** `spemu --workers 2 …` on a new workspace (the demo tenant; requests without credentials act as its owner), once its banner is out. */
export async function startWorkers(flags: string[], cleanups: Cleanups): Promise<Workers> {
  const ws = await newWorkspace('spemu-workers', 'spemu_workers', cleanups);
  const [command, argv] = spemuCommand('--workers', '2', '--port', '0', '--log-level', 'warn', '--anonymous-user', OWNER, ...workspaceArgs(ws), ...flags);
  const child = spawn(command, argv, { env: cleanEnv() });
  let output = '';
  child.stdout.on('data', (d) => { output += String(d); });
  child.stderr.on('data', (d) => { output += String(d); });
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  cleanups.push(async () => { if (child.exitCode === null && child.signalCode === null) { child.kill('SIGKILL'); await exited; } });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const banner = /serving tenant 'contoso' at (https?:\/\/\S+) \(2 workers\)/.exec(output);
    if (banner) return { ws, child, url: banner[1]!, output: () => output, exited };
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`spemu --workers 2 did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface Reply { status: number; headers: Record<string, string | string[] | undefined>; json: any }

/** One request over `agent` (a keep-alive agent with one socket: one connection, so one worker); 15 s at most. */
export function call(agent: Agent, url: string, path: string, init: { method?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const body = init.body === undefined ? undefined : JSON.stringify(init.body);
    const req = request(`${url}${path}`, {
      agent, method: init.method ?? 'GET',
      headers: { Accept: 'application/json;odata=nometadata', ...(body ? { 'Content-Type': 'application/json' } : {}), ...init.headers },
    }, (res) => {
      let text = '';
      res.on('data', (d) => { text += String(d); });
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, json: text ? JSON.parse(text) : undefined }));
    });
    // A connection the primary handed to a worker just killed is never answered: given up on.
    req.setTimeout(15_000, () => req.destroy(new Error(`no answer from ${path} in 15 s`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** The pid of the worker that serves `agent`'s connection. */
export const pidOf = async (agent: Agent, url: string): Promise<number> => (await call(agent, url, '/_spemu/health')).json.pid as number;

/** A keep-alive connection to the worker `wanted` picks: new connections until one lands there (within `withinMs`). */
export async function agentOn(url: string, wanted: (pid: number) => boolean, withinMs = 20_000): Promise<{ agent: Agent; pid: number }> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const pid = await pidOf(agent, url).catch(() => undefined);
    if (pid !== undefined && wanted(pid)) return { agent, pid };
    agent.destroy();
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no connection reached the worker wanted within ${withinMs / 1000} s`);
}

/** Two agents whose connections landed on different workers. */
export async function agentsOnTwoWorkers(url: string): Promise<{ a: Agent; b: Agent; pidA: number; pidB: number }> {
  const first = await agentOn(url, () => true);
  const second = await agentOn(url, (pid) => pid !== first.pid);
  return { a: first.agent, b: second.agent, pidA: first.pid, pidB: second.pid };
}
