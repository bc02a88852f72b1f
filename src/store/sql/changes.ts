// The change log on SQL: reading it (an index walk from a position onward: (site, number),
// (web, number) or (list, number)), purging it by age, and writing what a unit of work
// recorded, just before it commits (`writeChanges`, called by SqlSession.transaction).

import { sql, type Kysely } from 'kysely';
import type { Change, ChangeDraft, ChangeObjectKind, ChangeTypeNumber } from '../../domain/change-tokens.ts';
import type { ChangeQuery, ChangeRepository } from '../changes.ts';
import type { SqlSession } from './session.ts';

/** Rows per multi-row insert (9 parameters each: under SQLite's and PostgreSQL's limits). */
const INSERT_CHUNK = 1000;

/** The query `query` runs: exported so that a test can ask the database for its plan. */
export function changeQuerySql(db: Kysely<any>, query: ChangeQuery) {
  let q = db.selectFrom('change_log').selectAll();
  const { scope } = query;
  // The scope's own index leads: (web_id, number) or (list_id, number); the site collection's is the primary key.
  if (scope.kind === 'web') q = q.where('web_id', '=', scope.webId);
  else if (scope.kind === 'list') q = q.where('list_id', '=', scope.listId);
  q = q.where('site_id', '=', query.siteId);
  const { after, upTo } = query;
  if (after && 'number' in after) q = q.where('number', '>', after.number);
  if (after && 'time' in after) q = q.where('time', '>', after.time);
  if (upTo && 'number' in upTo) q = q.where('number', '<=', upTo.number);
  if (upTo && 'time' in upTo) q = q.where('time', '<=', upTo.time);
  q = q.where('object_kind', 'in', query.kinds.length ? [...query.kinds] : ['']);
  q = q.where('change_type', 'in', query.types.length ? [...query.types] : [-1]);
  return q.orderBy('number', query.latestFirst ? 'desc' : 'asc').limit(query.limit);
}

export class SqlChanges implements ChangeRepository {
  constructor(private readonly s: SqlSession) {}

  async query(query: ChangeQuery): Promise<Change[]> {
    if (query.kinds.length === 0 || query.types.length === 0 || query.limit <= 0) return [];
    const rows = await changeQuerySql(this.s.db, query).execute();
    return rows.map(rowToChange);
  }

  async latest(siteId: string): Promise<number> {
    const row = await this.s.db.selectFrom('change_numbers').select('last_number').where('site_id', '=', siteId).executeTakeFirst();
    return Number(row?.last_number ?? 0);
  }

  /** Site collection by site collection, so that each delete walks the (site_id, time) index. */
  async purge(before: string): Promise<number> {
    const sites = await this.s.db.selectFrom('change_numbers').select('site_id').execute();
    let removed = 0;
    for (const { site_id } of sites) {
      const result = await this.s.db.deleteFrom('change_log').where('site_id', '=', site_id).where('time', '<', before).executeTakeFirst();
      removed += Number(result.numDeletedRows);
    }
    return removed;
  }
}

function rowToChange(r: Record<string, unknown>): Change {
  return {
    siteId: String(r.site_id), number: Number(r.number), time: String(r.time),
    kind: String(r.object_kind) as ChangeObjectKind, type: Number(r.change_type) as ChangeTypeNumber,
    webId: String(r.web_id), listId: r.list_id ? String(r.list_id) : undefined,
    itemId: r.item_id === null || r.item_id === undefined ? undefined : Number(r.item_id),
    uniqueId: r.unique_id ? String(r.unique_id) : undefined,
    details: r.details ? JSON.parse(String(r.details)) as Change['details'] : undefined,
  };
}

/**
 * Writes what a unit of work recorded, inside its transaction: each draft gets its site
 * collection (from its web where it does not say), the next numbers of that site collection
 * and the time. Taking the numbers updates the site collection's counter row, which stays
 * locked until the commit: writers of one site collection number their changes in commit
 * order, so a reader that saw number n never later finds a change numbered below it.
 */
export async function writeChanges(session: SqlSession, drafts: readonly ChangeDraft[], now: Date = new Date()): Promise<void> {
  const db = session.db;
  const sites = new Map<string, string>();
  for (const d of drafts) if (d.siteId && d.webId) sites.set(d.webId, d.siteId);
  const unknown = [...new Set(drafts.filter((d) => !d.siteId && d.webId && !sites.has(d.webId)).map((d) => d.webId))];
  if (unknown.length) {
    for (const r of await db.selectFrom('webs').select(['id', 'site_id']).where('id', 'in', unknown).execute()) sites.set(String(r.id), String(r.site_id));
  }
  const bySite = new Map<string, ChangeDraft[]>();
  for (const d of drafts) {
    const siteId = d.siteId ?? sites.get(d.webId);
    if (!siteId) continue; // a web gone without its own change recorded: nothing to place the change in
    const list = bySite.get(siteId) ?? [];
    list.push(d);
    bySite.set(siteId, list);
  }
  const time = now.toISOString();
  // One lock order across transactions: site collections by id.
  for (const siteId of [...bySite.keys()].sort()) {
    const group = bySite.get(siteId)!;
    const taken = await db.insertInto('change_numbers').values({ site_id: siteId, last_number: group.length })
      .onConflict((oc) => oc.column('site_id').doUpdateSet({ last_number: sql`change_numbers.last_number + ${group.length}` }))
      .returning('last_number').executeTakeFirstOrThrow();
    const first = Number(taken.last_number) - group.length + 1;
    const rows = group.map((d, i) => ({
      site_id: siteId, number: first + i, time, object_kind: d.kind, change_type: d.type, web_id: d.webId,
      list_id: d.listId ?? '', item_id: d.itemId ?? null, unique_id: d.uniqueId ?? null,
      details: d.details ? JSON.stringify(d.details) : null,
    }));
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) await db.insertInto('change_log').values(rows.slice(i, i + INSERT_CHUNK)).execute();
  }
}
