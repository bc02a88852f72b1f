// Chunked uploads (StartUpload, ContinueUpload, FinishUpload, CancelUpload): one row per upload
// in progress, naming the file it is for, the offset the next chunk must start at, and the
// blobs of the chunks received so far (each holding a reference while the upload lasts).

import { sql, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour } from './frozen.ts';

export const uploadSessions = (flavour: Flavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  const int = sql.raw(columnType(flavour, 'int'));
  await db.schema.createTable('upload_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('list_row_id', int, (c) => c.notNull())
    .addColumn('item_id', int, (c) => c.notNull())
    .addColumn('user_id', int, (c) => c.notNull())
    .addColumn('next_offset', int, (c) => c.notNull())
    .addColumn('chunks', 'text', (c) => c.notNull())
    .addColumn('touched', 'text', (c) => c.notNull())
    .execute();
}
