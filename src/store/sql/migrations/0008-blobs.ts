// Blobs (the bytes of files, attachments and file versions): one row per distinct content
// (its SHA-256), naming where its bytes are (a file of the workspace on SQLite, chunks below
// on PostgreSQL), its size, how many rows name it, and when it was last put (collection
// leaves recent ones alone). `blob_chunks` holds the bytes on PostgreSQL, 1 MiB a row.

import { sql, type Kysely, type Migration } from 'kysely';
import { columnType, type Flavour } from './frozen.ts';

export const blobs = (flavour: Flavour): Migration => ({ up: (db) => up(db, flavour) });

async function up(db: Kysely<any>, flavour: Flavour): Promise<void> {
  const int = sql.raw(columnType(flavour, 'int'));
  await db.schema.createTable('blobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('size', int, (c) => c.notNull())
    .addColumn('refs', int, (c) => c.notNull())
    .addColumn('touched', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('blobs_unreferenced').on('blobs').columns(['refs', 'touched']).execute();
  await db.schema.createIndex('blobs_storage_key').on('blobs').column('storage_key').execute();
  await db.schema.createTable('blob_chunks')
    .addColumn('storage_key', 'text', (c) => c.notNull())
    .addColumn('seq', int, (c) => c.notNull())
    .addColumn('data', sql.raw(flavour === 'postgres' ? 'bytea' : 'blob'), (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('blob_chunks_pk', ['storage_key', 'seq'])
    .execute();
  await db.schema.createIndex('blob_chunks_created').on('blob_chunks').column('created').execute();
}
