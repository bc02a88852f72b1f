// Nothing secret of the managed-identity endpoint reaches spemu's output: the real `spemu`
// command at --log-level trace, its stdout and stderr read whole, while clients get tokens
// (with the right header, a wrong one, and through IMDS) and use them.

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { identityHeaderCommand } from '../../src/cli/identity-header.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'spemu-mi-logs-'));
let child: ChildProcess | undefined;
after(() => {
  child?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

describe('managed identity: nothing secret in the logs', () => {
  it('neither IDENTITY_HEADER nor a token it issued appears in spemu\'s output at trace level', async () => {
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SPEMU_')));
    const data = join(dir, 'ws');
    child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), join(ROOT, 'src/cli/main.ts'),
      '--db', ':memory:', '--data', data, '--port', '0', '--workers', '1', '--log-level', 'trace', '--managed-identity', 'alice@contoso.onmicrosoft.com'], { cwd: dir, env });
    let output = '';
    child.stdout!.on('data', (d) => { output += String(d); });
    child.stderr!.on('data', (d) => { output += String(d); });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setInterval(() => {
        const m = /serving tenant 'contoso' at (http:\/\/\S+)/.exec(output);
        if (m) { clearInterval(timer); resolve(m[1]!); }
      }, 50);
      child!.on('exit', () => { clearInterval(timer); reject(new Error(`spemu exited: ${output}`)); });
    });
    const header = identityHeaderCommand(['--data', data], {});
    const resource = encodeURIComponent(url);
    const appService = await fetch(`${url}/_spemu/managed-identity/token?resource=${resource}&api-version=2019-08-01`, { headers: { 'X-IDENTITY-HEADER': header } });
    assert.equal(appService.status, 200);
    const wrong = await fetch(`${url}/_spemu/managed-identity/token?resource=${resource}&api-version=2019-08-01`, { headers: { 'X-IDENTITY-HEADER': `${header.slice(0, -1)}x` } });
    assert.equal(wrong.status, 401);
    const imds = await fetch(`${url}/metadata/identity/oauth2/token?resource=${resource}&api-version=2018-02-01`, { headers: { Metadata: 'true' } });
    assert.equal(imds.status, 200);
    const tokens = [(await appService.json() as { access_token: string }).access_token, (await imds.json() as { access_token: string }).access_token];
    const web = await fetch(`${url}/sites/dev/_api/web?$select=Title`, { headers: { Authorization: `Bearer ${tokens[0]}`, Accept: 'application/json' } });
    assert.equal(web.status, 200);
    await new Promise((r) => setTimeout(r, 300));
    // The requests were logged (so the output was read), but nothing secret was.
    assert.match(output, /managed identity/);
    assert.match(output, /\/_spemu\/managed-identity\/token/);
    assert.ok(!output.includes(header), 'IDENTITY_HEADER is not in the output');
    assert.ok(!output.includes(header.slice(0, -1)), 'nor the wrong header a caller sent');
    for (const token of tokens) {
      assert.ok(!output.includes(token), 'no issued token is in the output');
      assert.ok(!output.includes(token.split('.')[2]!), 'nor its signature');
    }
  });
});
