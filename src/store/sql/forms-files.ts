// A library's Forms files on SQL (store/forms-files.ts): one row each, cached per list, since
// every file added to the library reads its column defaults from one of them. Cached by the
// list's id, never its row id: SQLite gives a deleted list's row id to the next list made, and a
// list's delete (whose rows go by the foreign key's cascade) names no entry of this scope.

import { sql } from 'kysely';
import type { List } from '../../domain/model.ts';
import type { FormsFile, FormsFileRepository } from '../forms-files.ts';
import type { SqlSession } from './session.ts';

const SCOPE = 'formsFiles';
const COLUMNS = ['name', 'content', 'unique_id', 'version', 'created', 'modified', 'author_id', 'editor_id'] as const;

function rowToFile(r: Record<string, unknown>): FormsFile {
  return {
    name: String(r.name), content: new Uint8Array(Buffer.from(String(r.content), 'base64')), uniqueId: String(r.unique_id),
    version: Number(r.version), created: String(r.created), modified: String(r.modified), authorId: Number(r.author_id), editorId: Number(r.editor_id),
  };
}

export class SqlFormsFiles implements FormsFileRepository {
  constructor(private readonly s: SqlSession) {}

  of(list: List): Promise<FormsFile[]> {
    return this.s.cached(SCOPE, list.id, async () => {
      const rows = await this.s.db.selectFrom('list_forms_files').select([...COLUMNS]).where('list_row_id', '=', list.rowId).orderBy('name_key').execute();
      return rows.map(rowToFile);
    });
  }

  put(list: List, file: { name: string; content: Uint8Array; uniqueId: string; actorId: number; now: string }): Promise<FormsFile> {
    const key = file.name.toLowerCase();
    return this.s.metadataWrite([[SCOPE, list.id]], async ({ db }) => {
      const content = Buffer.from(file.content).toString('base64');
      // One statement: two saves racing leave one row, the later content, its version moved once per save.
      await db.insertInto('list_forms_files').values({
        list_row_id: list.rowId, name_key: key, name: file.name, content, size: file.content.byteLength, unique_id: file.uniqueId,
        version: 1, created: file.now, modified: file.now, author_id: file.actorId, editor_id: file.actorId,
      }).onConflict((oc) => oc.columns(['list_row_id', 'name_key']).doUpdateSet({
        content, size: file.content.byteLength, modified: file.now, editor_id: file.actorId, version: sql`list_forms_files.version + 1`,
      })).execute();
      const row = await db.selectFrom('list_forms_files').select([...COLUMNS]).where('list_row_id', '=', list.rowId).where('name_key', '=', key).executeTakeFirstOrThrow();
      return rowToFile(row);
    });
  }

  delete(list: List, name: string): Promise<boolean> {
    return this.s.metadataWrite([[SCOPE, list.id]], async ({ db }) => {
      const result = await db.deleteFrom('list_forms_files').where('list_row_id', '=', list.rowId).where('name_key', '=', name.toLowerCase()).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }
}
