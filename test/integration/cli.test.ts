// The `spemu` maintenance commands as an operator runs them (real processes, the leg's
// database: a SQLite workspace folder, or a PostgreSQL database), and `--reset` on
// PostgreSQL, which drops spemu's tables and nothing else.

import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { startServer } from '../../src/index.ts';
import { openPostgres } from '../../src/store/sql/connect.ts';
import { COMMANDS } from '../../src/cli/commands.ts';
import { migrationNames } from '../../src/store/transfer/schema.ts';
import { minimalTenant } from '../helpers/server.ts';
import { sharedCluster, testBackend } from '../helpers/postgres.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OWNER = 'olivia@fabrikam.onmicrosoft.com';
const SECRET = randomBytes(32).toString('base64url');
const backend = testBackend();

const dirs: string[] = [];
const drops: Array<() => Promise<void>> = [];
after(async () => {
  for (const drop of drops) await drop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => { const d = mkdtempSync(join(tmpdir(), 'spemu-cli-')); dirs.push(d); return d; };

/** Flags naming a fresh database of the leg's kind: a workspace folder, or a PostgreSQL URL. */
async function freshDatabase(): Promise<{ flags: string[]; db: string }> {
  if (backend === 'sqlite') {
    const data = join(tempDir(), 'ws');
    return { flags: ['--data', data], db: join(data, 'spemu.db') };
  }
  const cluster = await sharedCluster();
  const url = await cluster.createDatabase('spemu_cli');
  drops.push(() => cluster.dropDatabase(url));
  return { flags: ['--db', url], db: url };
}

function spemu(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SPEMU_')));
  // From a folder of its own (so nothing lands in the checkout), with tsx found from here.
  const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), join(ROOT, 'src/cli/main.ts'), ...args], { cwd: tempDir(), env });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => { stdout += String(d); });
  child.stderr.on('data', (d) => { stderr += String(d); });
  return new Promise((resolve) => child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr })));
}

const seedInto = async (db: string, tenant: object) =>
  (await startServer({ db, data: db.startsWith('postgres') ? tempDir() : dirname(db), port: 0, logLevel: 'silent', tokenSecret: SECRET, anonymousUser: OWNER, seed: tenant })).close();

describe(`spemu commands (${backend})`, () => {
  it('--help lists the commands; an unknown one is refused with the list', async () => {
    const help = await spemu(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^ {7}spemu <command> \[arguments\] {3}\(the commands are listed at the end\)$/m);
    const [, list] = help.stdout.split('\nCommands (spemu <command> --help for each):\n');
    assert.ok(list, 'a Commands section at the end of --help');
    const listed = list.trimEnd().split('\n').map((line) => /^  (\S+)\s+\S/.exec(line)?.[1]);
    // The commands named here independently of the table, then the table main.ts dispatches from:
    // a command that runs must be in --help, and every one in --help must run (its own --help).
    for (const name of ['token', 'identity-header', 'rotate-signing-key', 'migrate', 'export', 'import', 'webhooks', 'import-projectdata']) assert.ok(listed.includes(name), `--help names ${name}`);
    assert.deepEqual(listed, Object.keys(COMMANDS));
    for (const [name, own] of await Promise.all(listed.map(async (name) => [name!, await spemu([name!, '--help'])] as const))) {
      assert.equal(own.code, 0, `spemu ${name} --help: ${own.stderr}`);
      assert.match(own.stdout, new RegExp(`^Usage: spemu ${name}( |$)`, 'm'));
    }
    const wrong = await spemu(['exprot', 'x']);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /Unknown command 'exprot'.*\n.*export/s);
  });

  it('migrate applies what is pending, says what, and exits; a second run has nothing to do', async () => {
    const { flags } = await freshDatabase();
    const first = await spemu(['migrate', ...flags]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, new RegExp(`^Applied ${migrationNames().length} migrations to `));
    for (const name of migrationNames()) assert.match(first.stdout, new RegExp(`^  ${name}$`, 'm'));
    assert.doesNotMatch(first.stdout, /:[^@/\s]*@/, 'no password is printed');
    const second = await spemu(['migrate', ...flags]);
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, new RegExp(`^Nothing to apply: .* is at ${migrationNames().at(-1)}`));
  });

  it('export and import a workspace, with progress on stderr; import refuses a full target unless --force', async () => {
    const source = await freshDatabase();
    await seedInto(source.db, minimalTenant({ lists: [{ title: 'Moved', items: [{ Title: 'one' }, { Title: 'two' }] }] }));
    const file = join(tempDir(), 'ws.ndjson.gz');
    const exported = await spemu(['export', file, ...source.flags]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stderr, /^exported \d+ tables, [\d,]+ rows in [\d.]+ s \([\d,]+ rows\/s\)$/m);
    assert.match(exported.stderr, /^ {2}items_\d+: 2 rows$/m);

    const target = await freshDatabase();
    const imported = await spemu(['import', file, ...target.flags]);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stderr, /^imported \d+ tables, [\d,]+ rows in/m);
    const again = await spemu(['import', file, ...target.flags]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already holds a spemu workspace.*--force/);
    const forced = await spemu(['import', file, '--force', '--quiet', ...target.flags]);
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(forced.stderr, '');

    const server = await startServer({ db: target.db, data: tempDir(), port: 0, logLevel: 'silent', tokenSecret: SECRET, anonymousUser: OWNER });
    try {
      const r = await fetch(`${server.url}/sites/test/_api/web/lists/getbytitle('Moved')/items?$select=Title`, { headers: { Accept: 'application/json;odata=nometadata' } });
      assert.deepEqual(((await r.json()) as { value: Array<{ Title: string }> }).value.map((i) => i.Title), ['one', 'two']);
    } finally {
      await server.close();
    }

    // '-' streams the file to stdout (progress stays on stderr).
    const piped = await spemu(['export', '-', '--quiet', ...source.flags]);
    assert.equal(piped.code, 0, piped.stderr);
    assert.equal(JSON.parse(piped.stdout.split('\n')[0]!).format, 'spemu-export');
    assert.deepEqual(JSON.parse(piped.stdout.trimEnd().split('\n').at(-1)!).end, 'export');
  });

  it('export of a database that holds no workspace, and import of a missing file, say so', async () => {
    const { flags } = await freshDatabase();
    if (backend === 'sqlite') assert.match((await spemu(['export', join(tempDir(), 'x.ndjson'), ...flags])).stderr, /no SQLite database/);
    else assert.match((await spemu(['export', join(tempDir(), 'x.ndjson'), ...flags])).stderr, /no spemu workspace/);
    const missing = await spemu(['import', join(tempDir(), 'nope.ndjson'), ...flags]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /There is no file/);
  });

  it('import-projectdata loads exported pages into a PWA site, reports them, and skips them on a second run', async () => {
    const { flags, db } = await freshDatabase();
    const tenant = { ...minimalTenant(), projectData: { '/sites/test': { dates: 'onprem' } } };
    await seedInto(db, tenant);
    const dir = tempDir();
    const project = '11111111-1111-4111-8111-111111111111';
    writeFileSync(join(dir, 'Projects-1.json'), JSON.stringify({ d: { results: [
      { __metadata: { type: 'ReportingData.Project' }, ProjectId: project, ProjectName: 'Apollo', ProjectStartDate: '/Date(1464768000000)/', ProjectCost: '1200.500000' },
    ] } }));
    writeFileSync(join(dir, 'Tasks-1.json'), JSON.stringify({ 'odata.metadata': 'https://x/_api/ProjectData/$metadata#Tasks', value: [
      { ProjectId: project, TaskId: '00000000-0000-4000-8000-000000000001', TaskName: 'Design', TaskFinishDate: '2016-06-30T00:00:00' },
    ] }));
    const first = await spemu(['import-projectdata', '/sites/test', dir, ...flags]);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stderr, /imported 2 rows from 2 files in [\d.]+ s \(Projects 1, Tasks 1\)/);
    const second = await spemu(['import-projectdata', '/sites/test', dir, ...flags]);
    assert.match(second.stderr, /imported 0 rows from 0 files .*2 files already imported, skipped/);
    const server = await startServer({ db, data: db.startsWith('postgres') ? tempDir() : dirname(db), port: 0, logLevel: 'silent', tokenSecret: SECRET, anonymousUser: OWNER });
    try {
      const res = await fetch(`${server.url}/sites/test/_api/ProjectData/Tasks?$select=TaskName,TaskFinishDate`, { headers: { Accept: 'application/json' } });
      assert.deepEqual((await res.json() as { value: unknown[] }).value, [{ TaskFinishDate: '2016-06-30T00:00:00', TaskName: 'Design' }]);
    } finally {
      await server.close();
    }
    const unknownSite = await spemu(['import-projectdata', '/sites/nope', dir, ...flags]);
    assert.equal(unknownSite.code, 1);
    assert.match(unknownSite.stderr, /^spemu: No site exists at '\/sites\/nope'/m);
  });
});

describe('--reset on PostgreSQL', { skip: backend === 'postgres' ? false : 'PostgreSQL leg only (SQLite --reset: workspace-sqlite.test.ts)' }, () => {
  const tables = async (url: string) => {
    const c = await openPostgres({ url });
    try {
      const { rows } = await sql<{ t: string }>`select tablename as t from pg_tables where schemaname = current_schema() order by 1`.execute(c.db);
      return rows.map((r) => r.t);
    } finally {
      await c.db.destroy();
    }
  };
  const run = async (url: string, text: string) => {
    const c = await openPostgres({ url });
    try { return (await sql.raw(text).execute(c.db)).rows; } finally { await c.db.destroy(); }
  };

  it("drops spemu's tables (run-time ones too) and seeds again, leaving other tables alone", async () => {
    const { db } = await freshDatabase();
    await seedInto(db, minimalTenant({ lists: [{ title: 'Old', items: [{ Title: 'a' }] }, { title: 'Older' }] }));
    await run(db, 'create table keep_me (id int primary key, note text)');
    await run(db, "insert into keep_me values (1, 'not spemu''s')");
    const before = await tables(db);
    assert.ok(before.filter((t) => t.startsWith('items_')).length >= 3);

    const server = await startServer({ db, port: 0, logLevel: 'silent', tokenSecret: SECRET, anonymousUser: OWNER, reset: true, seed: minimalTenant({ lists: [{ title: 'New' }] }) });
    try {
      const r = await fetch(`${server.url}/sites/test/_api/web/lists?$select=Title`, { headers: { Accept: 'application/json;odata=nometadata' } });
      const titles = ((await r.json()) as { value: Array<{ Title: string }> }).value.map((l) => l.Title);
      assert.ok(titles.includes('New') && !titles.includes('Old') && !titles.includes('Older'), titles.join());
    } finally {
      await server.close();
    }
    const now = await tables(db);
    assert.ok(now.includes('keep_me'));
    assert.deepEqual(await run(db, 'select note from keep_me'), [{ note: "not spemu's" }]);
    // One item table per list of the new tenant, numbered afresh: the old ones are gone.
    const lists = await run(db, 'select table_name from lists order by row_id');
    assert.deepEqual(now.filter((t) => t.startsWith('items_')).sort(), lists.map((l: any) => l.table_name).sort());
  });

  it('refuses, dropping nothing, when another table depends on one of them', async () => {
    const { db } = await freshDatabase();
    await seedInto(db, minimalTenant());
    await run(db, 'create table depends (site_id text references sites (id))');
    const before = await tables(db);
    await assert.rejects(startServer({ db, port: 0, logLevel: 'silent', tokenSecret: SECRET, reset: true, seed: minimalTenant() }), /depend/i);
    assert.deepEqual(await tables(db), before);
  });
});
