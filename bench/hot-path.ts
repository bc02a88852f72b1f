// The hot path (issue #13): seed endpoint 1 with Basic and with a bearer token, and
// `web?$select=Title`, each against a bare node:http hello and fastify's hello in the same
// rounds; the same endpoint with `--workers 2` against `--workers 1`; single item adds
// (durable). The servers are the real `spemu` command (src/cli/main.ts), each on a workspace
// of its own; the load comes from wrk where present (a C load generator), else autocannon.

import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median, runLoad, type LoadFigures } from './load.ts';
import { memoryOf, startServerChild, stopChild, type ServerChild } from './processes.ts';
import { hasWrk, runWrk } from './wrk.ts';
import type { BenchSection, SectionContext } from './sections.ts';

const USER = 'alice@contoso.onmicrosoft.com';
const PASSWORD = 'alice-demo-pass';
const CONNECTIONS = 32;
const WEB_TITLE = '/sites/dev/_api/web?$select=Title';
const TASKS = "/sites/dev/_api/web/lists/getbytitle('Tasks')/items";

interface Spemu { url: string; process: ChildProcess; data: string; token: string; pids: () => number[] }

/** `spemu --workers n` on a fresh workspace (the demo tenant), with a bearer token of its own. */
async function startSpemu(root: string, workers: number): Promise<Spemu> {
  const data = mkdtempSync(join(tmpdir(), 'spemu-hot-'));
  const cli = join(root, 'src/cli/main.ts');
  const child = spawn(process.execPath, ['--import', 'tsx', cli, '--workers', String(workers), '--port', '0', '--data', data, '--log-level', 'warn'],
    { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  const url = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`spemu --workers ${workers} did not start:\n${output}`)), 120_000);
    const read = (d: Buffer) => {
      output += String(d);
      const m = /serving tenant '\S+' at (http:\/\/\S+)/.exec(output);
      if (m) { clearTimeout(timer); resolve(m[1]!); }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`spemu exited (${code}):\n${output}`)); });
  });
  const token = execFileSync(process.execPath, ['--import', 'tsx', cli, 'token', '--upn', USER, '--data', data], { cwd: root }).toString().trim();
  // With workers, the processes that serve are the primary's children.
  const pids = () => (workers > 1
    ? execFileSync('ps', ['-o', 'pid=', '--ppid', String(child.pid)]).toString().split('\n').map(Number).filter((p) => p > 0)
    : [child.pid!]);
  return { url, process: child, data, token, pids };
}

async function stopSpemu(server: Spemu): Promise<void> {
  await stopChild(server.process, 20_000);
  rmSync(server.data, { recursive: true, force: true });
}

type Target = { name: string; url: string; headers?: Record<string, string>; postJson?: string; connections?: number };

async function measure(target: Target, durationSeconds: number): Promise<LoadFigures> {
  const headers = { Accept: 'application/json', ...target.headers };
  const connections = target.connections ?? CONNECTIONS;
  if (hasWrk()) return runWrk({ url: target.url, connections, durationSeconds, headers, ...(target.postJson ? { postJson: target.postJson } : {}) });
  if (target.postJson) throw new Error('item adds are measured with wrk only (apt install wrk)');
  return runLoad({ url: target.url, connections, durationSeconds, headers });
}

const fmt = (v: number, digits = 0) => v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export const hotPathSection: BenchSection = {
  id: 'hot-path',
  enabled: (flags) => !flags['skip-hot-path'],
  async run(ctx: SectionContext): Promise<string> {
    const { settings, log, root } = ctx;
    const generator = hasWrk() ? 'wrk 1 thread' : 'autocannon';
    log(`hot path: ${generator}, ${CONNECTIONS} connections, ${settings.rounds} rounds of ${settings.durationSeconds} s`);
    const hello = await startServerChild(join(root, 'bench/servers/hello-server.ts'), [], { timeoutMs: 15_000 });
    const fastify = await startServerChild(join(root, 'bench/servers/fastify-hello-server.ts'), [], { timeoutMs: 15_000 });
    const one = await startSpemu(root, 1);
    const two = await startSpemu(root, 2);
    const basic = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;
    const item = ctx.core.itemPath;
    const targets: Target[] = [
      { name: 'hello', url: `${hello.url}/` },
      { name: 'fastify', url: `${fastify.url}/` },
      { name: 'ep1 Basic', url: `${one.url}${item}`, headers: { Authorization: basic } },
      { name: 'ep1 Bearer', url: `${one.url}${item}`, headers: { Authorization: `Bearer ${one.token}` } },
      { name: 'web Title Bearer', url: `${one.url}${WEB_TITLE}`, headers: { Authorization: `Bearer ${one.token}` } },
      { name: 'ep1 Bearer, 2 workers', url: `${two.url}${item}`, headers: { Authorization: `Bearer ${two.token}` } },
    ];
    const adds: Target = {
      name: 'item add', url: `${one.url}${TASKS}`, connections: 8,
      headers: { Authorization: `Bearer ${one.token}` }, postJson: JSON.stringify({ Title: 'bench add' }),
    };
    try {
      log(`warm-up ${settings.warmupSeconds} s each`);
      for (const t of targets) await measure(t, settings.warmupSeconds);
      const rounds: Array<Map<string, LoadFigures>> = [];
      for (let round = 1; round <= settings.rounds; round++) {
        const order = round % 2 ? targets : [...targets].reverse();
        const figures = new Map<string, LoadFigures>();
        for (const t of order) figures.set(t.name, await measure(t, settings.durationSeconds));
        if (hasWrk()) figures.set(adds.name, await measure(adds, settings.durationSeconds));
        rounds.push(figures);
        log(`round ${round}: ${[...figures].map(([name, f]) => `${name} ${fmt(f.requestsPerSecond)}`).join(', ')}`);
      }
      const rss = Math.max(...one.pids().map((pid) => memoryOf(pid).rssMb));
      const rssTwo = Math.max(...two.pids().map((pid) => memoryOf(pid).rssMb));
      const med = (name: string) => median(rounds.map((r) => r.get(name)?.requestsPerSecond ?? NaN));
      const ratio = (a: string, b: string) => median(rounds.map((r) => r.get(a)!.requestsPerSecond / r.get(b)!.requestsPerSecond));
      const p99 = (name: string) => median(rounds.map((r) => r.get(name)?.p99Ms ?? NaN));
      const rows: Array<[string, string, string, string]> = [
        ['node:http hello (baseline)', fmt(med('hello')), '1.00', '–'],
        ['fastify hello (the framework, a reference)', fmt(med('fastify')), fmt(ratio('fastify', 'hello'), 2), '–'],
        ['seed endpoint 1, Basic, `--workers 1`', fmt(med('ep1 Basic')), fmt(ratio('ep1 Basic', 'hello'), 2), '≥ 0.35'],
        ['seed endpoint 1, Bearer, `--workers 1`', fmt(med('ep1 Bearer')), fmt(ratio('ep1 Bearer', 'hello'), 2), '≥ 0.35'],
        ['`_api/web?$select=Title`, Bearer, `--workers 1`', fmt(med('web Title Bearer')), fmt(ratio('web Title Bearer', 'hello'), 2), '≥ 0.5'],
        ['seed endpoint 1, Bearer, `--workers 2` (ratio: ÷ `--workers 1`)', fmt(med('ep1 Bearer, 2 workers')), fmt(ratio('ep1 Bearer, 2 workers', 'ep1 Bearer'), 2), '≥ 1.6'],
      ];
      if (hasWrk()) rows.push([`single item add (POST, durable), 8 connections, p99 ${fmt(p99('item add'), 1)} ms`, fmt(med('item add')), '–', 'measured']);
      const table = ['| request | req/s (median) | ratio (median of rounds) | goal |', '|---|---|---|---|', ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
      console.log(`\nHot path\n${table}\nRSS after the load: ${fmt(rss)} MB (--workers 1), ${fmt(rssTwo)} MB per worker at most (--workers 2)\n`);
      return `## Hot path (issue #13)

${ctx.runLine}. Load: ${generator}, ${CONNECTIONS} connections, ${settings.rounds} rounds of ${settings.durationSeconds} s after ${settings.warmupSeconds} s of warm-up,
every target once per round in alternating order; ratios are taken within a round, then the median. Servers: the
\`spemu\` command on a fresh demo workspace each (SQLite, \`synchronous=FULL\`), \`--workers 1\` and \`--workers 2\`.

${table}

RSS after the load: ${fmt(rss)} MB (\`--workers 1\`), at most ${fmt(rssTwo)} MB per worker (\`--workers 2\`).`;
    } finally {
      await stopChild(hello.process);
      await stopChild(fastify.process);
      await stopSpemu(one);
      await stopSpemu(two);
    }
  },
};
