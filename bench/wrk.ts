// wrk (Debian's package `wrk`) as the load generator: a C program with its own thread, so
// the load does not cost the servers under test what autocannon (node, one more JS process)
// costs them on a 2-core machine. Used where present; the figures say which generator ran.

import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadFigures } from './load.ts';

let present: boolean | undefined;

/** Whether `wrk` is on the PATH. */
export function hasWrk(): boolean {
  if (present === undefined) {
    try { execFileSync('wrk', ['--version'], { stdio: 'ignore' }); present = true; } catch (e) { present = (e as { status?: number }).status === 1; }
  }
  return present;
}

export interface WrkOptions {
  url: string;
  connections: number;
  durationSeconds: number;
  headers?: Record<string, string>;
  /** A POST with this JSON body instead of a GET. */
  postJson?: string;
  /** GETs of these paths (on the url's origin), one picked at random per request. */
  paths?: string[];
}

/** Lua that sets the method and body, or picks the path (wrk has no flag for them). */
function script(options: WrkOptions): string | undefined {
  let lua: string;
  if (options.postJson !== undefined) {
    lua = `wrk.method = "POST"\nwrk.body = ${JSON.stringify(options.postJson)}\nwrk.headers["Content-Type"] = "application/json"\n`;
  } else if (options.paths?.length) {
    // JSON strings of ASCII paths are valid Lua strings.
    lua = `local paths = { ${options.paths.map((p) => JSON.stringify(p)).join(', ')} }\n`
      + 'request = function() return wrk.format(nil, paths[math.random(#paths)]) end\n';
  } else {
    return undefined;
  }
  const file = join(mkdtempSync(join(tmpdir(), 'spemu-wrk-')), 'load.lua');
  writeFileSync(file, lua);
  return file;
}

/** Milliseconds from wrk's latency text (`812.00us`, `1.23ms`, `2.01s`). */
function ms(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!m) throw new Error(`wrk latency '${text}' not understood`);
  const value = Number(m[1]);
  return m[2] === 'us' ? value / 1000 : m[2] === 'ms' ? value : m[2] === 's' ? value * 1000 : value * 60_000;
}

/** One timed wrk run (one thread, `connections` connections), reduced to the figures we report. */
export async function runWrk(options: WrkOptions): Promise<LoadFigures> {
  const args = ['-t1', `-c${options.connections}`, `-d${options.durationSeconds}s`, '--latency', '--timeout', '10s'];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`);
  const lua = script(options);
  if (lua) args.push('-s', lua);
  args.push(options.url);
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (d) => { text += String(d); });
    child.stderr.on('data', (d) => { text += String(d); });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(text) : reject(new Error(`wrk exited ${code}: ${text}`))));
  });
  const requests = Number(/(\d+) requests in/.exec(output)?.[1] ?? NaN);
  const perSecond = Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1] ?? NaN);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  // A read error is wrk seeing the server close a keep-alive connection; the rest are failures.
  const failures = non2xx + (socketErrors ? Number(socketErrors[1]) + Number(socketErrors[3]) + Number(socketErrors[4]) : 0);
  if (!Number.isFinite(requests) || !Number.isFinite(perSecond)) throw new Error(`wrk output not understood:\n${output}`);
  if (failures > 0) throw new Error(`load on ${options.url}: ${failures} failed requests\n${output}`);
  return {
    requestsPerSecond: perSecond, requests, failures,
    p50Ms: ms(/ 50%\s+(\S+)/.exec(output)![1]!), p99Ms: ms(/ 99%\s+(\S+)/.exec(output)![1]!),
  };
}
