// Sharing links (SP.SharingLinkInfo): the links an item, a folder or a file has been given by
// shareLink, one per kind (organization view, anonymous edit, …), until deleteLinkByKind,
// unshareLink or unshareObject removes them. `scope` names the object as role assignments do
// (`item:<list row id>:<item id>`); `token` is the link's own part of its URL.

import { sql, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour } from './frozen.ts';

export const sharingLinks = (flavour: Flavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  const int = sql.raw(columnType(flavour, 'int'));
  await db.schema.createTable('sharing_links')
    .addColumn('share_id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('kind', int, (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    // ISO 8601 UTC, or null for a link that does not expire.
    .addColumn('expiration', 'text')
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('created_by', int, (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .addColumn('modified_by', int, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sharing_links_scope').on('sharing_links').columns(['site_id', 'scope', 'kind']).unique().execute();
  await db.schema.createIndex('sharing_links_token').on('sharing_links').column('token').unique().execute();
}
