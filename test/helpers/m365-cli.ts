// CLI for Microsoft 365 (@pnp/cli-microsoft365, unmodified) against a test spemu, set up as
// cli-m365.test.ts does: HTTPS with spemu's CA in NODE_EXTRA_CA_CERTS, `--authType identity` at
// spemu's managed-identity endpoint (App Service's IDENTITY_ENDPOINT/IDENTITY_HEADER), and a
// temporary HOME so the CLI's configuration is never the user's. The CLI takes seconds to start.

import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ServerOptions } from '../../src/index.ts';
import { useTestServer } from './server.ts';
import { tlsRequest, type TlsResponse } from './tls-request.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const M365 = join(ROOT, 'node_modules/@pnp/cli-microsoft365/dist/index.js');

/** One line the CLI wrote to stderr, with when it arrived. */
export interface Line { at: number; text: string }
export interface TimedRun { code: number | null; stdout: string; stderr: Line[]; killed: boolean }

export interface M365Context {
  /** The spemu under test (set in before()). */
  readonly server: { url: string; site(path?: string): string };
  /** spemu's CA (PEM), to call spemu over HTTPS from the test. */
  readonly ca: Buffer;
  /** One command with `--output json`; fails the test unless it exits 0; its parsed output. */
  m365(...args: string[]): Promise<any>;
  /**
   * One command, each stderr line timed as it arrives. `stopWhen` (called on every line) may end
   * the run early: the CLI is then killed by its own pid and `killed` is true.
   */
  runTimed(args: string[], stopWhen?: (lines: Line[]) => boolean, timeoutMs?: number): Promise<TimedRun>;
}

/**
 * A REST call to `{site}/_api/{path}` over the CLI's HTTPS spemu as a user with a password (Basic;
 * a write with the form digest it asks for first): to act and check independently of the CLI.
 */
export async function restAs(cli: M365Context, site: string, user: string, password: string, path: string, init: { method?: string; body?: object } = {}): Promise<TlsResponse> {
  const headers: Record<string, string> = {
    Authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`, Accept: 'application/json;odata=nometadata', 'Content-Type': 'application/json',
  };
  if (init.method && init.method !== 'GET') {
    headers['X-RequestDigest'] = (await tlsRequest(`${site}/_api/contextinfo`, { ca: cli.ca, method: 'POST', headers })).json().FormDigestValue;
  }
  return tlsRequest(`${site}/_api/${path}`, { ca: cli.ca, method: init.method ?? 'GET', headers, ...(init.body ? { body: JSON.stringify(init.body) } : {}) });
}

/**
 * A spemu over HTTPS whose managed identity is `identity`, and the CLI logged in to it, for the
 * enclosing describe (before/after hooks registered where this is called).
 */
export function useM365(identity: string, options: ServerOptions = {}): M365Context {
  const dirs: string[] = [];
  const tempDir = (prefix: string) => { const d = mkdtempSync(join(tmpdir(), prefix)); dirs.push(d); return d; };
  const data = tempDir('spemu-m365-data-');
  // No anonymous user: every request the CLI makes must carry the token it got from spemu.
  const spemu = useTestServer({ https: true, data, managedIdentity: identity, anonymousUser: undefined, ...options });
  let env: NodeJS.ProcessEnv = {};
  let ca = Buffer.alloc(0);

  function runTimed(args: string[], stopWhen?: (lines: Line[]) => boolean, timeoutMs = 120_000): Promise<TimedRun> {
    return new Promise((resolve) => {
      const child = spawn(process.execPath, [M365, ...args], { env });
      const lines: Line[] = [];
      let stdout = '';
      let partial = '';
      let killed = false;
      const kill = () => { if (!killed) { killed = true; child.kill('SIGKILL'); } };
      const timer = setTimeout(kill, timeoutMs);
      child.stdout.on('data', (d: Buffer) => { stdout += d.toString('utf8'); });
      child.stderr.on('data', (d: Buffer) => {
        const at = Date.now();
        const parts = (partial + d.toString('utf8')).split('\n');
        partial = parts.pop()!;
        for (const text of parts) lines.push({ at, text });
        if (stopWhen?.(lines)) kill();
      });
      child.on('close', (code) => {
        clearTimeout(timer);
        if (partial) lines.push({ at: Date.now(), text: partial });
        resolve({ code, stdout, stderr: lines, killed });
      });
    });
  }

  before(async () => {
    ca = readFileSync(join(data, 'tls', 'ca.pem'));
    const header = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, [join(ROOT, 'src/cli/main.ts'), 'identity-header', '--data', data],
        { env: { PATH: process.env.PATH, NODE_OPTIONS: `--import ${import.meta.resolve('tsx')}` } },
        (error, stdout, stderr) => (error ? reject(new Error(stderr)) : resolve(stdout.trim())));
    });
    const home = tempDir('spemu-m365-home-');
    env = {
      PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, '.config'), CLIMICROSOFT365_NOUPDATE: '1',
      NODE_EXTRA_CA_CERTS: join(data, 'tls', 'ca.pem'), IDENTITY_ENDPOINT: `${spemu.server.url}/_spemu/managed-identity/token`, IDENTITY_HEADER: header,
    };
    const login = await runTimed(['login', '--authType', 'identity']);
    assert.equal(login.code, 0, login.stderr.map((l) => l.text).join('\n'));
  });
  after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

  return {
    get server() { return spemu.server; },
    get ca() { return ca; },
    runTimed,
    async m365(...args) {
      const run = await runTimed([...args, '--output', 'json']);
      assert.equal(run.code, 0, `m365 ${args.join(' ')} failed (${run.code}): ${run.stderr.map((l) => l.text).join('\n')}${run.stdout}`);
      return run.stdout.trim() ? JSON.parse(run.stdout) : undefined;
    },
  };
}
