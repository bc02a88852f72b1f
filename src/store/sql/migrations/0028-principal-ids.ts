// One principal id space per site collection. Before this, a site's users (rows of its User
// Information List, numbered 1, 2, 3, …) could have the ids of its default groups (Owners 3,
// Visitors 4, Members 5) or of a group of its own, so a permission given to the user went to
// the group. Each such user moves to a fresh id from the list's counter, and every reference
// to it moves too: items' Author, Editor, check-out holder and person or lookup-to-users
// values (single and multi) in every list of the site collection, past versions, recycled
// items, upload sessions, sharing links' creators, groups' owners and members, the change log,
// and the scope of a unique permission on the user's row. A group of the site's own at 3, 4 or
// 5 moves too, with its members. A role assignment whose principal is such an id stays with
// the (default) group: it is the group the REST API showed for it.
// All in one transaction (PostgreSQL: the migrator's; SQLite: its own).

import { sql, type Kysely, type Migration } from 'kysely';
import type { Flavour } from './frozen.ts';

export const principalIds = (flavour: Flavour): Migration => ({
  up: (db) => (db.isTransaction ? up(db, flavour) : db.transaction().execute((trx) => up(trx, flavour))),
});

const USER_INFO_LIST = 112;
const DEFAULT_GROUPS = [3, 4, 5];
/** Columns every item table has that name a site user. */
const USER_COLUMNS = ['author_id', 'editor_id', 'checkout_user_id'];

type IdMap = Map<number, number>;

interface ListRow { rowId: number; id: string; table: string }
/** A list's fields that hold site user ids, by internal name: one id, or a JSON array of ids. */
interface References { single: Map<string, string>; multi: Map<string, string> }

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  const tables = new Set((await db.introspection.getTables()).map((t) => t.name));
  for (const site of await db.selectFrom('sites').select(['id', 'root_web_id']).execute()) {
    const siteId = String(site.id);
    const uil = await db.selectFrom('lists').select(['row_id', 'id', 'table_name', 'next_item_id'])
      .where('web_id', '=', site.root_web_id).where('base_template', '=', USER_INFO_LIST).executeTakeFirst();
    if (!uil) continue;
    const own = (await db.selectFrom('site_groups').select('id').where('site_id', '=', siteId).execute()).map((r) => Number(r.id));
    const groupIds = [...new Set([...DEFAULT_GROUPS, ...own])];
    const users = (await db.selectFrom(String(uil.table_name)).select('id').execute()).map((r) => Number(r.id));
    const clashing = users.filter((id) => groupIds.includes(id)).sort((a, b) => a - b);
    // A group of the site's own could take 3, 4 or 5 from the counter too (a site with few users).
    const ownClashing = own.filter((id) => DEFAULT_GROUPS.includes(id)).sort((a, b) => a - b);
    if (clashing.length === 0 && ownClashing.length === 0) continue;
    // Fresh ids: past the counter, every user and every group (the counter is past the users already).
    let next = Math.max(Number(uil.next_item_id), ...users.map((u) => u + 1), ...groupIds.map((g) => g + 1));
    const moves: IdMap = new Map(clashing.map((id) => [id, next++]));
    const groupMoves: IdMap = new Map(ownClashing.map((id) => [id, next++]));
    await db.updateTable('lists').set({ next_item_id: next }).where('row_id', '=', uil.row_id).execute();
    const userList: ListRow = { rowId: Number(uil.row_id), id: String(uil.id), table: String(uil.table_name) };
    if (moves.size) await moveUsers(db, flavour, tables, siteId, userList, moves);
    // Its role assignments stay with the default group, which the REST API showed for the id.
    for (const [from, to] of groupMoves) {
      await db.updateTable('site_groups').set({ id: to }).where('site_id', '=', siteId).where('id', '=', from).execute();
      await db.updateTable('site_group_members').set({ group_id: to }).where('site_id', '=', siteId).where('group_id', '=', from).execute();
    }
  }
}

async function moveUsers(db: Kysely<any>, flavour: Flavour, tables: Set<string>, siteId: string, userList: ListRow, moves: IdMap): Promise<void> {
  const lists: ListRow[] = (await db.selectFrom('lists').innerJoin('webs', 'webs.id', 'lists.web_id')
    .select(['lists.row_id as row_id', 'lists.id as id', 'lists.table_name as table_name']).where('webs.site_id', '=', siteId).execute())
    .map((r) => ({ rowId: Number(r.row_id), id: String(r.id), table: String(r.table_name) }));
  const references = new Map<number, References>();
  for (const list of lists) references.set(list.rowId, await referencesOf(db, list, userList));

  // The users' own rows first, then whatever names them.
  for (const [from, to] of moves) await db.updateTable(userList.table).set({ id: to }).where('id', '=', from).execute();
  for (const list of lists) {
    const refs = references.get(list.rowId)!;
    const present = await columnsOf(db, flavour, list.table);
    const columns = new Set([...USER_COLUMNS, ...refs.single.values()].filter((c) => present.has(c)));
    for (const column of columns) {
      for (const [from, to] of moves) await db.updateTable(list.table).set({ [column]: to }).where(column, '=', from).execute();
    }
    for (const column of new Set([...refs.multi.values()].filter((c) => present.has(c)))) {
      const rows = await db.selectFrom(list.table).select(['id', column]).where(column, 'is not', null).execute();
      for (const row of rows) {
        const moved = moveIdList(row[column], moves);
        if (moved !== undefined) await db.updateTable(list.table).set({ [column]: moved }).where('id', '=', row.id).execute();
      }
    }
    await moveVersions(db, list, refs, moves, list.rowId === userList.rowId);
  }
  await moveRecycled(db, siteId, lists, references, moves);

  const rowIds = lists.map((l) => l.rowId);
  for (const [from, to] of moves) {
    if (tables.has('upload_sessions') && rowIds.length) {
      await db.updateTable('upload_sessions').set({ user_id: to }).where('user_id', '=', from).where('list_row_id', 'in', rowIds).execute();
    }
    if (tables.has('sharing_links')) {
      await db.updateTable('sharing_links').set({ created_by: to }).where('site_id', '=', siteId).where('created_by', '=', from).execute();
      await db.updateTable('sharing_links').set({ modified_by: to }).where('site_id', '=', siteId).where('modified_by', '=', from).execute();
    }
    await db.updateTable('site_groups').set({ owner_id: to }).where('site_id', '=', siteId).where('owner_id', '=', from).execute();
    await db.updateTable('site_group_members').set({ user_id: to }).where('site_id', '=', siteId).where('user_id', '=', from).execute();
    // A unique permission on the user's own row keeps its row (its principals stay as they were).
    const scopeFrom = `item:${userList.rowId}:${from}`;
    const scopeTo = `item:${userList.rowId}:${to}`;
    for (const table of ['unique_scopes', 'role_assignments', 'sharing_links']) {
      if (tables.has(table)) await db.updateTable(table).set({ scope: scopeTo }).where('site_id', '=', siteId).where('scope', '=', scopeFrom).execute();
    }
  }
  if (tables.has('change_log')) await moveChanges(db, siteId, userList, moves);
}

/** The list's person fields, and its lookups into the User Information List (not dependent lookups: they read their primary's column). */
async function referencesOf(db: Kysely<any>, list: ListRow, userList: ListRow): Promise<References> {
  const refs: References = { single: new Map(), multi: new Map() };
  const key = (id: unknown) => String(id ?? '').replace(/[{}]/g, '').toLowerCase();
  for (const f of await db.selectFrom('fields').select(['internal_name', 'kind', 'column_name', 'options']).where('list_row_id', '=', list.rowId).execute()) {
    const kind = String(f.kind);
    let options: Record<string, unknown> = {};
    try { options = JSON.parse(String(f.options ?? '{}')) ?? {}; } catch { /* unreadable options: no lookup target */ }
    const toUsers = kind === 'User' || kind === 'UserMulti'
      || ((kind === 'Lookup' || kind === 'LookupMulti') && !options.primaryFieldId && key(options.lookupListId) === key(userList.id));
    if (!toUsers) continue;
    (kind.endsWith('Multi') ? refs.multi : refs.single).set(String(f.internal_name), String(f.column_name));
  }
  return refs;
}

async function columnsOf(db: Kysely<any>, flavour: Flavour, table: string): Promise<Set<string>> {
  const rows = flavour === 'sqlite'
    ? (await sql<{ name: string }>`select name from pragma_table_info(${table})`.execute(db)).rows
    : (await sql<{ name: string }>`select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ${table}`.execute(db)).rows;
  return new Set(rows.map((r) => String(r.name)));
}

/** A multi-value column's JSON array of ids with the moved ids replaced; undefined if none moved. */
function moveIdList(value: unknown, moves: IdMap): string | undefined {
  if (typeof value !== 'string') return undefined;
  let ids: unknown;
  try { ids = JSON.parse(value); } catch { return undefined; }
  if (!Array.isArray(ids) || !ids.some((id) => moves.has(Number(id)))) return undefined;
  return JSON.stringify(ids.map((id) => moves.get(Number(id)) ?? id));
}

/** An item as item_versions and recycle_bin keep it (any snapshot format: authorId, editorId, values by internal name); true if changed. */
function moveSnapshot(item: any, refs: References | undefined, moves: IdMap, ownRow: boolean): boolean {
  if (!item || typeof item !== 'object') return false;
  let changed = false;
  const swap = (value: unknown) => (typeof value === 'number' && moves.has(value) ? moves.get(value)! : undefined);
  for (const name of ['authorId', 'editorId', ...(ownRow ? ['id'] : [])]) {
    const moved = swap(item[name]);
    if (moved !== undefined) { item[name] = moved; changed = true; }
  }
  const values = item.values;
  if (refs && values && typeof values === 'object') {
    for (const name of refs.single.keys()) {
      const moved = swap(values[name]);
      if (moved !== undefined) { values[name] = moved; changed = true; }
    }
    for (const name of refs.multi.keys()) {
      const moved = moveIdList(values[name], moves);
      if (moved !== undefined) { values[name] = moved; changed = true; }
    }
  }
  return changed;
}

async function moveVersions(db: Kysely<any>, list: ListRow, refs: References, moves: IdMap, ownRows: boolean): Promise<void> {
  const rows = await db.selectFrom('item_versions').select(['item_id', 'ui_version', 'data']).where('list_row_id', '=', list.rowId).execute();
  for (const row of rows) {
    const itemId = Number(row.item_id);
    let data: any;
    try { data = JSON.parse(String(row.data)); } catch { continue; }
    const changed = moveSnapshot(data, refs, moves, ownRows);
    const movedId = ownRows ? moves.get(itemId) : undefined;
    if (!changed && movedId === undefined) continue;
    await db.updateTable('item_versions').set({ data: JSON.stringify(data), item_id: movedId ?? itemId })
      .where('list_row_id', '=', list.rowId).where('item_id', '=', itemId).where('ui_version', '=', row.ui_version).execute();
  }
}

async function moveRecycled(db: Kysely<any>, siteId: string, lists: ListRow[], references: Map<number, References>, moves: IdMap): Promise<void> {
  const byListId = new Map(lists.map((l) => [l.id.toLowerCase(), references.get(l.rowId)]));
  const rows = await db.selectFrom('recycle_bin').select(['id', 'list_id', 'deleted_by', 'data']).where('site_id', '=', siteId).execute();
  for (const row of rows) {
    const deletedBy = moves.get(Number(row.deleted_by));
    let data: any;
    try { data = JSON.parse(String(row.data)); } catch { data = undefined; }
    const refs = byListId.get(String(row.list_id).toLowerCase());
    let changed = false;
    if (data && typeof data === 'object') {
      // Formats 1+: { item, versions }; before them the item itself, its versions inside.
      const item = data.format !== undefined && data.item ? data.item : data;
      changed = moveSnapshot(item, refs, moves, false) || changed;
      const versions = Array.isArray(data.versions) ? data.versions : Array.isArray(item.versions) ? item.versions : [];
      for (const version of versions) changed = moveSnapshot(version, refs, moves, false) || changed;
    }
    if (!changed && deletedBy === undefined) continue;
    await db.updateTable('recycle_bin').set({
      ...(deletedBy !== undefined ? { deleted_by: deletedBy } : {}), ...(changed ? { data: JSON.stringify(data) } : {}),
    }).where('id', '=', row.id).execute();
  }
}

/** The change log's user ids: a user change's item id, an item's editor, a group member. */
async function moveChanges(db: Kysely<any>, siteId: string, userList: ListRow, moves: IdMap): Promise<void> {
  const rows = await db.selectFrom('change_log').select(['number', 'list_id', 'item_id', 'details']).where('site_id', '=', siteId).execute();
  for (const row of rows) {
    let details: any;
    try { details = row.details == null ? undefined : JSON.parse(String(row.details)); } catch { details = undefined; }
    let changed = false;
    if (details && typeof details === 'object') {
      for (const name of ['editorId', 'userId']) {
        const moved = typeof details[name] === 'number' ? moves.get(details[name]) : undefined;
        if (moved !== undefined) { details[name] = moved; changed = true; }
      }
    }
    const ofUserRow = String(row.list_id).toLowerCase() === userList.id.toLowerCase() && row.item_id != null;
    const itemId = ofUserRow ? moves.get(Number(row.item_id)) : undefined;
    if (!changed && itemId === undefined) continue;
    await db.updateTable('change_log').set({ ...(changed ? { details: JSON.stringify(details) } : {}), ...(itemId !== undefined ? { item_id: itemId } : {}) })
      .where('site_id', '=', siteId).where('number', '=', row.number).execute();
  }
}
