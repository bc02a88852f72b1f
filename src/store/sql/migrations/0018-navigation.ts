// Navigation nodes of webs: the quick launch and the top navigation bar, each a tree of
// nodes (title, URL, visible) in order. Every web there is gets the quick launch a new team
// site has (Home, Documents, Pages, Site contents), as new webs do.

import { sql, type ColumnDefinitionBuilder, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour } from './frozen.ts';

/** An integer key the database assigns: SQLite's rowid alias, PostgreSQL's identity column (as 0001 makes them). */
const serialKey = (flavour: Flavour) => (c: ColumnDefinitionBuilder) =>
  flavour === 'postgres' ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey();

export const navigation = (flavour: Flavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  const int = sql.raw(columnType(flavour, 'int'));
  await db.schema.createTable('navigation_nodes')
    .addColumn('id', 'integer', serialKey(flavour))
    .addColumn('web_id', 'text', (c) => c.notNull())
    // 'quicklaunch' or 'topnavigationbar'
    .addColumn('menu', 'text', (c) => c.notNull())
    .addColumn('parent_id', int)
    .addColumn('position', int, (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('visible', int, (c) => c.notNull())
    .addColumn('external', int, (c) => c.notNull())
    .execute();
  await sql`create index navigation_nodes_web on navigation_nodes (web_id, menu, parent_id, position)`.execute(db);
  // As domain/navigation.ts makes them today, written out here so that this migration never changes.
  const webs = await db.selectFrom('webs').select(['id', 'server_relative_url']).execute();
  for (const web of webs) {
    const base = String(web.server_relative_url).replace(/\/$/, '');
    const nodes: Array<[string, string]> = [
      ['Home', base || '/'], ['Documents', `${base}/Shared Documents/Forms/AllItems.aspx`],
      ['Pages', `${base}/SitePages`], ['Site contents', `${base}/_layouts/15/viewlsts.aspx`],
    ];
    for (const [position, [title, url]] of nodes.entries()) {
      await db.insertInto('navigation_nodes').values({ web_id: web.id, menu: 'quicklaunch', parent_id: null, position, title, url, visible: 1, external: 0 }).execute();
    }
  }
}
