// Child processes of the benchmark: started, awaited until they listen, measured, and
// always stopped — on success, on error, on Ctrl-C, and (through the IPC channel the
// server scripts watch) even if this process is killed outright.

import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { once } from 'node:events';

const children = new Set<ChildProcess>();

process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping servers`);
    process.exit(130);
  });
}

export interface ServerChild {
  url: string;
  process: ChildProcess;
}

/** Spawns `node [nodeArgs] script args` and waits for its `READY <url>` line. */
export async function startServerChild(script: string, args: string[], options: { nodeArgs?: string[]; timeoutMs: number }): Promise<ServerChild> {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  children.add(child);
  child.once('exit', () => children.delete(child));
  child.stderr!.on('data', (chunk: Buffer) => process.stderr.write(`[${child.pid}] ${chunk.toString()}`));
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`${script} did not report READY within ${options.timeoutMs} ms`)), options.timeoutMs);
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /^READY (\S+)$/m.exec(output);
      if (match) { clearTimeout(timer); resolve(match[1]!); }
    });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`${script} exited (code ${code}) before it was ready`)); });
  });
  return { url, process: child };
}

/** Spawns any command without waiting; it is still stopped on exit. */
export function spawnTracked(command: string, args: string[]): ChildProcess {
  const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** SIGTERM, then SIGKILL if the child has not gone within `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

/** Resident and peak resident memory of a live process, in MB (Linux /proc). */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

/** A port free on loopback right now, for servers that must be told their port. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}
