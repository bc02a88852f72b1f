// Where a PostgreSQL spemu's time goes during a load: statements per request (from
// pg_stat_database) and CPU milliseconds per request of spemu and of the database's own
// processes (from /proc: Linux, and only for a database on this machine).

import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import type { LoadFigures } from './load.ts';

export interface Cost {
  statementsPerRequest: number;
  spemuCpuMs?: number | undefined;
  postgresCpuMs?: number | undefined;
}

const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim() || 100);

/** utime + stime of a process, in ms; undefined if it is gone. */
function cpuMs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return undefined;
  }
}

const parentOf = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);

/** The postmaster and its children (backends, checkpointer, …). */
function clusterPids(postmaster: number): number[] {
  const out = [postmaster];
  for (const name of readdirSync('/proc')) {
    const pid = Number(name);
    if (Number.isInteger(pid) && pid !== postmaster) { try { if (parentOf(pid) === postmaster) out.push(pid); } catch { /* gone */ } }
  }
  return out;
}

export async function measureCost(dbUrl: string, spemuPid: number, run: () => Promise<LoadFigures>): Promise<{ figures: LoadFigures; cost: Cost }> {
  const client = new pg.Client({ connectionString: dbUrl });
  await client.connect();
  try {
    const transactions = async () => Number((await client.query('select xact_commit + xact_rollback as n from pg_stat_database where datname = current_database()')).rows[0].n);
    // The checkpointer's parent is the postmaster, if the database runs here.
    const checkpointer = Number((await client.query("select pid from pg_stat_activity where backend_type = 'checkpointer'")).rows[0]?.pid ?? 0);
    const postmaster = checkpointer && existsSync(`/proc/${checkpointer}`) ? parentOf(checkpointer) : 0;
    const pids = postmaster ? clusterPids(postmaster) : [];
    const snapshot = () => ({ spemu: cpuMs(spemuPid), postgres: pids.reduce((s, p) => s + (cpuMs(p) ?? 0), 0) });
    // Counts the warm-up left unreported arrive first (an idle backend reports within 10 s).
    await new Promise((r) => setTimeout(r, 11_000));
    const before = { tx: await transactions(), cpu: snapshot() };
    const figures = await run();
    const after = snapshot();
    await new Promise((r) => setTimeout(r, 11_000)); // an idle backend reports its counts within 10 s (PostgreSQL 15)
    const requests = figures.requests;
    // Each read is its own transaction, so for a read load transactions are statements.
    const cost: Cost = { statementsPerRequest: ((await transactions()) - before.tx - 1) / requests };
    if (before.cpu.spemu !== undefined && after.spemu !== undefined) cost.spemuCpuMs = (after.spemu - before.cpu.spemu) / requests;
    if (pids.length) cost.postgresCpuMs = (after.postgres - before.cpu.postgres) / requests;
    return { figures, cost };
  } finally {
    await client.end();
  }
}
