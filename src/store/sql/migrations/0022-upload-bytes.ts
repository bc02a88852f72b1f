// A chunked upload's bytes grow under one storage key (blob-disk.ts, blob-chunks.ts) instead of
// one blob per chunk, so finishing it copies nothing: the row names that key. An upload begun
// before keeps its list of chunk blobs (`chunks`) until its next chunk joins them under a key.

import type { Kysely, Migration } from 'kysely';

export const uploadBytes = (): Migration => ({ up: (db) => up(db) });

async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('upload_sessions').addColumn('storage_key', 'text').execute();
  await db.schema.createIndex('upload_sessions_storage_key').on('upload_sessions').column('storage_key').execute();
}
