// Folders and files of a tenant file's lists. Every file's content is put as a blob before the
// load's one unit of work (a blob is never put inside one, store/blobs.ts), a content file
// streamed from disk rather than read whole; inside the unit of work, folders and files are
// placed through DocumentService, so a tenant file's names and places obey the rules an upload
// does. A load that fails leaves blobs no row names, which housekeeping collects.

import { createReadStream } from 'node:fs';
import { resolve } from 'node:path';
import { splitPath } from '../domain/documents.ts';
import type { Field, List, StoredValue } from '../domain/model.ts';
import { normaliseDateTime } from '../domain/values.ts';
import { CHUNKED_UPLOAD_LIMIT, DocumentService } from '../services/documents.ts';
import type { BlobRef } from '../store/blobs.ts';
import type { Store } from '../store/store.ts';
import { folderPath, websOf, type TenantContent, type TenantDocument, type TenantFile, type TenantList } from './types.ts';
import { TenantFileError } from './validate.ts';

/** Each file of the tenant file with the blob of its content. */
export type Contents = Map<TenantDocument, BlobRef>;

/** Puts the content of every file the tenant file states; `baseDir` is where content files are. */
export async function putContents(store: Store, tenant: TenantFile, baseDir: string): Promise<Contents> {
  const contents: Contents = new Map();
  for (const [s, site] of tenant.sites.entries()) {
    for (const { def: web, pointer } of websOf(site, `/sites/${s}`)) for (const [l, list] of (web.lists ?? []).entries()) {
      for (const [f, file] of (list.files ?? []).entries()) {
        const at = `${pointer}/lists/${l}/files/${f}/content`;
        try {
          contents.set(file, await store.blobs.put(bytesOf(file.content, baseDir), {
            limit: CHUNKED_UPLOAD_LIMIT, tooLarge: () => new Error(`larger than ${CHUNKED_UPLOAD_LIMIT} bytes, the largest file spemu keeps`),
          }));
        } catch (error) {
          const where = 'file' in file.content ? `${at}/file` : at;
          throw new TenantFileError([{ path: where, message: (error as Error).message }], 'Cannot load the content of a file of the tenant file');
        }
      }
    }
  }
  return contents;
}

function bytesOf(content: TenantContent, baseDir: string): AsyncIterable<Uint8Array> {
  if ('file' in content) return createReadStream(resolve(baseDir, content.file));
  return once('text' in content ? Buffer.from(content.text, 'utf8') : Buffer.from(content.base64, 'base64'));
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** What placing a list's files needs from the site's load: its people and values as items have them. */
export interface SiteLoad {
  /** The site's default actor (its first owner) and the load's time. */
  actorId: number;
  now: string;
  user(upn: string): Promise<number>;
  value(field: Field, raw: unknown): Promise<StoredValue>;
}

/** The list's folders, then its files (their folders made as needed), in the tenant file's order. */
export async function loadDocuments(store: Store, list: List, def: TenantList, contents: Contents, site: SiteLoad): Promise<void> {
  const folders = new DocumentService(store, { userId: site.actorId, now: () => site.now });
  for (const folder of def.folders ?? []) await folders.ensureFolder(list, folderPath(folder));
  const fields = await store.fields.of(list);
  for (const file of def.files ?? []) {
    const { path, content: _content, permissions: _permissions, author, editor, created, modified, ...rest } = file;
    const values: Record<string, StoredValue> = {};
    for (const [name, raw] of Object.entries(rest)) values[name] = await site.value(fields.find((f) => f.internalName === name)!, raw);
    const authorId = author ? await site.user(author) : site.actorId;
    const editorId = editor ? await site.user(editor) : authorId;
    // Validated as ISO 8601 already; the load's time where the file states none.
    const createdAt = (created && normaliseDateTime(created)) || site.now;
    const modifiedAt = (modified && normaliseDateTime(modified)) || createdAt;
    await folders.ensureFolder(list, splitPath(path).dir);
    await new DocumentService(store, { userId: editorId, now: () => modifiedAt })
      .placeFile(list, path, contents.get(file)!, { overwrite: false, values, authorId, created: createdAt });
  }
}
