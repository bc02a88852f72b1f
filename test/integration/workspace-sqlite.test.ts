// The workspace on disk: data survives a restart, a seed is loaded once and a different
// one is refused, --reset wipes only a folder spemu made. (SQLite files: the PostgreSQL leg
// has its own start-up tests.)

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, startServer } from '../../src/index.ts';
import { minimalTenant } from '../helpers/server.ts';

const OWNER = 'olivia@fabrikam.onmicrosoft.com';
const dirs: string[] = [];
const workspace = () => { const d = mkdtempSync(join(tmpdir(), 'spemu-ws-')); dirs.push(d); return join(d, 'ws'); };
after(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); });

const start = (data: string, extra: object = {}) =>
  startServer({ data, port: 0, logLevel: 'silent', anonymousUser: OWNER, ...extra });

async function titles(url: string): Promise<string[]> {
  const r = await fetch(`${url}/sites/test/_api/web/lists?$select=Title`, { headers: { accept: 'application/json;odata=nometadata' } });
  assert.equal(r.status, 200);
  return ((await r.json()) as { value: Array<{ Title: string }> }).value.map((l) => l.Title);
}

describe('the workspace', () => {
  it('keeps what was written across a restart, and accepts the same seed again', async () => {
    const data = workspace();
    const seed = minimalTenant();
    const first = await start(data, { seed });
    const created = await fetch(`${first.url}/sites/test/_api/web/lists`, {
      method: 'POST', headers: { accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ Title: 'Survives', BaseTemplate: 100 }),
    });
    assert.equal(created.status, 201);
    await first.close();
    const second = await start(data, { seed });
    try {
      assert.ok((await titles(second.url)).includes('Survives'));
    } finally {
      await second.close();
    }
  });

  it('refuses a seed that differs from the tenant the database holds, saying what to do', async () => {
    const data = workspace();
    const one = await start(data, { seed: minimalTenant() });
    await one.close();
    const other = { ...minimalTenant(), tenant: { name: 'northwind' } };
    await assert.rejects(start(data, { seed: other }), (e: unknown) => {
      assert.ok(e instanceof ConfigError);
      assert.match(e.message, /already holds tenant 'fabrikam'.*'northwind'.*--reset/s);
      return true;
    });
  });

  it('--reset replaces the tenant', async () => {
    const data = workspace();
    const one = await start(data, { seed: minimalTenant({ lists: [{ title: 'Old', template: 100 }] }) });
    await one.close();
    const two = await start(data, { reset: true, seed: minimalTenant({ lists: [{ title: 'New', template: 100 }] }) });
    try {
      const names = await titles(two.url);
      assert.ok(names.includes('New'));
      assert.ok(!names.includes('Old'));
    } finally {
      await two.close();
    }
  });

  it('--reset refuses to wipe a folder that is not a spemu workspace', async () => {
    const data = workspace();
    mkdirSync(data, { recursive: true });
    writeFileSync(join(data, 'precious.txt'), 'keep me');
    await assert.rejects(start(data, { reset: true, seed: minimalTenant() }), (e: unknown) => e instanceof ConfigError && /not a spemu workspace/.test(e.message));
    assert.deepEqual(readdirSync(data), ['precious.txt']);
  });
});
