// Cold start: from spawning a fresh server process to its first HTTP 200 on
// /_spemu/health. Uses the real `spemu` command when the checkout has one.

import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, spawnTracked, stopChild } from './processes.ts';
import { median } from './load.ts';

export interface EntryPoint {
  label: string;
  command: (workspace: string, port: number) => string[];
}

/** The entry points to try, most real first: bin/spemu.js, the CLI source, a bare startServer script. */
export function entryPoints(root: string): EntryPoint[] {
  const flags = (workspace: string, port: number) =>
    ['--data', workspace, '--db', join(workspace, 'spemu.db'), '--port', String(port), '--log-level', 'warn'];
  const found: EntryPoint[] = [];
  if (existsSync(join(root, 'bin/spemu.js'))) {
    // bin/spemu.js runs dist/ when it exists: compile it first, so the start measured is of this checkout's code.
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'ignore' });
    const compiled = existsSync(join(root, 'dist/cli/main.js'));
    found.push({
      label: `node bin/spemu.js (runs ${compiled ? 'the compiled dist/cli/main.js' : 'src/cli/main.ts through tsx'})`,
      command: (w, p) => [join(root, 'bin/spemu.js'), ...flags(w, p)],
    });
  }
  if (existsSync(join(root, 'src/cli/main.ts'))) {
    found.push({ label: 'node --import tsx src/cli/main.ts', command: (w, p) => ['--import', 'tsx', join(root, 'src/cli/main.ts'), ...flags(w, p)] });
  }
  found.push({
    label: 'node --import tsx bench/servers/spemu-server.ts (startServer)',
    command: (w, p) => ['--import', 'tsx', join(root, 'bench/servers/spemu-server.ts'),
      JSON.stringify({ data: w, db: join(w, 'spemu.db'), port: p, logLevel: 'warn' })],
  });
  return found;
}

function healthStatus(port: number): Promise<number> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/_spemu/health', agent: false, timeout: 1000 }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
    req.on('timeout', () => { req.destroy(); resolve(0); });
    req.end();
  });
}

/** Milliseconds from spawn to the first 200, polling every few ms, giving up after `limitMs`. */
export async function timeOneStart(entry: EntryPoint, workspace: string, limitMs = 15_000): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawnTracked(process.execPath, entry.command(workspace, port));
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  try {
    while (performance.now() - started < limitMs) {
      if (child.exitCode !== null) throw new Error(`exited with code ${child.exitCode}: ${stderr.trim().slice(0, 500)}`);
      if ((await healthStatus(port)) === 200) return performance.now() - started;
      await sleep(5);
    }
    throw new Error(`no 200 from /_spemu/health within ${limitMs} ms`);
  } finally {
    await stopChild(child);
  }
}

export interface ColdStart {
  entry: string;
  medianMs: number;
  samplesMs: number[];
  /** Entry points tried first that failed to start, and why. */
  skipped: string[];
}

/**
 * Median of `runs` starts, after one unmeasured start that fills the OS file cache and
 * tsx's transpile cache (the state of any machine that has started spemu once before).
 */
export async function measureColdStart(root: string, workspace: string, runs: number): Promise<ColdStart> {
  const skipped: string[] = [];
  for (const entry of entryPoints(root)) {
    try {
      await timeOneStart(entry, workspace);
    } catch (e) {
      skipped.push(`${entry.label}: ${(e as Error).message}`);
      continue;
    }
    const samplesMs: number[] = [];
    for (let i = 0; i < runs; i++) samplesMs.push(await timeOneStart(entry, workspace));
    return { entry: entry.label, medianMs: median(samplesMs), samplesMs, skipped };
  }
  throw new Error(`no entry point started:\n${skipped.join('\n')}`);
}
