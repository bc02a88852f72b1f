// A tenant file's folders and files of one list, checked for what the JSON Schema cannot say:
// names SharePoint allows, each path used once (a file's path is no folder's), base64 that
// decodes, files in document libraries only, and content files that stay inside the tenant
// file's folder and exist. Field values and history of files are checked as items' are
// (validate.ts).

import { stat } from 'node:fs/promises';
import { isAbsolute, posix, resolve, win32 } from 'node:path';
import { nameProblem } from '../domain/documents.ts';
import type { TenantProblem } from './validate.ts';

type Json = Record<string, unknown>;

/** What the schema's documentPath pattern allows; anything else the schema reports already. */
const SCHEMA_PATH = /^[^/\\]([^\\]*[^/\\])?$/;
/** RFC 4648 base64, padded: what decodes to exactly the bytes meant (Buffer.from skips anything else silently). */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Problems of list `list` (at JSON Pointer `base`), which is a document library or not. */
export function libraryProblems(list: Json, base: string, isLibrary: boolean): TenantProblem[] {
  const problems: TenantProblem[] = [];
  const files = entries(list.files);
  if (files.length > 0 && !isLibrary) {
    problems.push({ path: `${base}/files`, message: `files go in a document library (template 101); this list's template is ${String(list.template ?? 100)}` });
  }
  // Every folder a path makes, by lower-case path (names compare case-insensitively): where it is first named.
  const folders = new Map<string, string>();
  const noteFolders = (path: string, where: string, withLast: boolean) => {
    const names = path.split('/');
    for (let n = 1; n <= names.length - (withLast ? 0 : 1); n++) {
      const key = names.slice(0, n).join('/').toLowerCase();
      if (!folders.has(key)) folders.set(key, where);
    }
  };
  for (const [index, folder] of entries(list.folders)) {
    // A folder is its path, or an object with its path (and permissions).
    const path = isObject(folder) ? folder.path : folder;
    const where = isObject(folder) ? `${base}/folders/${index}/path` : `${base}/folders/${index}`;
    if (typeof path !== 'string' || !SCHEMA_PATH.test(path)) continue;
    const problem = pathProblem(path);
    if (problem) problems.push({ path: where, message: problem });
    else noteFolders(path, where, true);
  }
  const valid: Array<[number, string]> = [];
  for (const [index, file] of files) {
    const path = isObject(file) ? file.path : undefined;
    if (typeof path !== 'string' || !SCHEMA_PATH.test(path)) continue;
    const problem = pathProblem(path);
    if (problem) problems.push({ path: `${base}/files/${index}/path`, message: problem });
    else { noteFolders(path, `${base}/files/${index}/path`, false); valid.push([index, path]); }
  }
  const taken = new Map<string, string>();
  for (const [index, path] of valid) {
    const where = `${base}/files/${index}/path`;
    const key = path.toLowerCase();
    const folder = folders.get(key);
    const file = taken.get(key);
    if (folder !== undefined) problems.push({ path: where, message: `"${path}" is also a folder (${folder})` });
    else if (file !== undefined) problems.push({ path: where, message: `duplicate file path "${path}" (also ${file})` });
    else taken.set(key, where);
  }
  for (const [index, file] of files) {
    const content = isObject(file) && isObject(file.content) ? file.content : undefined;
    if (typeof content?.base64 === 'string' && !BASE64.test(content.base64)) {
      problems.push({ path: `${base}/files/${index}/content/base64`, message: 'is not base64 (A-Z, a-z, 0-9, + and /, padded with = to a multiple of 4 characters)' });
    }
    if (typeof content?.file === 'string' && !absolute(content.file) && escapes(content.file)) { // absolute: the schema's pattern says so
      problems.push({ path: `${base}/files/${index}/content/file`, message: "climbs out of the tenant file's folder; a file's content must be inside it" });
    }
  }
  return problems;
}

/** Content files of list `list` that are not there, relative to `baseDir` (the tenant file's folder). */
export async function contentFileProblems(list: Json, base: string, baseDir: string): Promise<TenantProblem[]> {
  const problems: TenantProblem[] = [];
  for (const [index, file] of entries(list.files)) {
    const path = isObject(file) && isObject(file.content) ? file.content.file : undefined;
    if (typeof path !== 'string' || escapes(path)) continue; // reported by libraryProblems or the schema
    const absolute = resolve(baseDir, path);
    if (!(await stat(absolute).then((s) => s.isFile(), () => false))) problems.push({ path: `${base}/files/${index}/content/file`, message: `file not found: ${absolute}` });
  }
  return problems;
}

/** Why a path inside a list is not one SharePoint allows (the schema has refused a leading or trailing slash). */
function pathProblem(path: string): string | undefined {
  for (const name of path.split('/')) {
    if (name === '') return 'has an empty name between two /';
    const problem = nameProblem(name);
    if (problem) return `"${name}": ${problem}`;
  }
  return undefined;
}

/**
 * Whether a content file's path leaves the tenant file's folder: absolute, or climbing out
 * with `..`. Refused so that a tenant file and its folder move together, and so that a tenant
 * file from elsewhere cannot serve files of the machine that loads it. (A symbolic link inside
 * the folder is followed: placing it there was deliberate.)
 */
function escapes(path: string): boolean {
  if (absolute(path)) return true;
  const normal = posix.normalize(path.replaceAll('\\', '/'));
  return normal === '..' || normal.startsWith('../');
}

function absolute(path: string): boolean {
  return isAbsolute(path) || win32.isAbsolute(path);
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function entries(value: unknown): Array<[number, unknown]> {
  return Array.isArray(value) ? [...value.entries()] : [];
}
