// `spemu import-projectdata <site> <file-or-folder>`: loads data exported from Project Online
// into a PWA site, streaming. Accepts what people have: the pages that
// `GET …/_api/ProjectData/<Set>?$format=json` returned (verbose `{"d":{"results":[…]}}`,
// JSON light `{"odata.metadata":"…#Tasks","value":[…]}`), a tenant-style object
// (`{"Projects":[…],"Tasks":[…]}`) or a bare array, with `/Date(…)/` or ISO dates.
// Files are read token by token (stream-json), so a file of millions of rows needs no
// more memory than one batch. Progress marks make a second run resume where one stopped.

import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';
import { parser } from 'stream-json';
import Assembler from 'stream-json/assembler.js';
import type { Site } from '../domain/model.ts';
import type { Store } from '../store/store.ts';
import { builtInSet, ENTITY_SETS } from '../domain/projectdata/catalogue.ts';
import type { PdEntitySet } from '../domain/projectdata/model.ts';
import { currentSet } from './projectdata.ts';
import { typeRows, withCustom } from '../domain/projectdata/rows.ts';
import type { PdSiteOptions } from '../store/projectdata.ts';

export interface ImportOptions {
  /** The entity set of files that do not say (a bare array named `export.json`). */
  set?: string | undefined;
  /** Options for a site that is not a PWA site yet (default: Project Online dates). */
  siteOptions?: PdSiteOptions | undefined;
  /** Rows per transaction. */
  batchSize?: number | undefined;
  onProgress?: (progress: ImportProgress) => void;
}

export interface ImportProgress {
  file: string;
  set: string;
  /** Rows written from this file so far. */
  rows: number;
  /** Rows written in this run, all files. */
  total: number;
  /** Files skipped because an earlier run finished them. */
  skipped: number;
  done: boolean;
}

export interface ImportSummary {
  files: number;
  skipped: number;
  rows: number;
  bySet: Record<string, number>;
}

export class ImportError extends Error {}

const ROW_ARRAY_PARENTS = ['d', 'value', 'results'];
const BY_TYPE = new Map(ENTITY_SETS.map((s) => [`ReportingData.${s.entityType}`, s.name]));

/** The entity set a file name suggests: `Tasks.json`, `Tasks-0003.json`, `Tasks_page2.json.gz`. */
function setFromFileName(path: string): string | undefined {
  const stem = /^([A-Za-z]+)/.exec(basename(path))?.[1];
  return stem && builtInSet(stem) ? stem : undefined;
}

export async function importProjectData(store: Store, siteUrl: string, path: string, options: ImportOptions = {}): Promise<ImportSummary> {
  const site = await store.sites.byUrl(siteUrl);
  if (!site) throw new ImportError(`No site exists at '${siteUrl}'. Add it to the tenant file's sites first.`);
  if (options.set !== undefined && !builtInSet(options.set)) throw new ImportError(`'${options.set}' is not a ProjectData entity set.`);
  if (!(await store.projectData.options(site.id))) {
    await store.projectData.setOptions(site.id, options.siteOptions ?? { dates: 'online', pageSizes: {}, readers: [] });
  }
  const files = await inputFiles(path);
  const marks = await store.projectData.importMarks(site.id);
  const summary: ImportSummary = { files: 0, skipped: 0, rows: 0, bySet: {} };
  for (const file of files) {
    // Name, size and modification time: a file exported again under the same name is a new file, not one already done.
    const info = await stat(file);
    if (info.size === 0) throw new ImportError(`${file} is empty: an exported page holds at least {"value":[]}.`);
    const id = `${basename(file)}:${info.size}:${Math.floor(info.mtimeMs)}`;
    if (marks.has(`${id}#done`)) {
      summary.skipped++;
      continue;
    }
    // Rows a stopped run already committed from this file are passed over (upserts would also make them harmless).
    const resumeAt = Math.max(0, ...[...marks].filter((m) => m.startsWith(`${id}#`)).map((m) => Number(m.slice(id.length + 1)) || 0));
    await new FileImport(store, site, file, id, resumeAt, options, summary).run();
    await store.projectData.addImportMark(site.id, `${id}#done`);
    summary.files++;
  }
  return summary;
}

async function inputFiles(path: string): Promise<string[]> {
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new ImportError(`${path} does not exist.`);
  if (!info.isDirectory()) return [path];
  const names = (await readdir(path)).filter((n) => /\.json(\.gz)?$/i.test(n));
  // Natural order, so Tasks-2 comes before Tasks-10 and a resumed run walks the same sequence.
  names.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
  if (names.length === 0) throw new ImportError(`${path} holds no .json files.`);
  return names.map((n) => join(path, n));
}

/**
 * The file's tokens, with the errors of reading and parsing it (not valid JSON, a corrupt
 * .gz, unreadable) as ImportErrors; errors of writing rows pass through as they are.
 */
async function* readable<T>(file: string, tokens: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = tokens[Symbol.asyncIterator]();
  try {
    for (;;) {
      let next: IteratorResult<T>;
      try {
        next = await iterator.next();
      } catch (e) {
        throw new ImportError(`${file}: not valid JSON (${(e as Error).message})`);
      }
      if (next.done) return;
      yield next.value;
    }
  } finally {
    await iterator.return?.(); // stopped early (a bad row): close the file
  }
}

/** One file: walks its JSON tokens, assembling each row of a row array and writing them in batches per set. */
class FileImport {
  private readonly pending = new Map<string, unknown[]>();
  private rowsSeen = 0;
  private rowsWritten = 0;
  private lastReport = 0;
  /** The set named by the page's `odata.metadata` (`…/$metadata#Tasks`). */
  private pageSet: string | undefined;

  constructor(
    private readonly store: Store, private readonly site: Site, private readonly file: string, private readonly id: string,
    private readonly resumeAt: number, private readonly options: ImportOptions, private readonly summary: ImportSummary,
  ) {}

  async run(): Promise<void> {
    // pipeline, not pipe: a read error or a corrupt .gz must end the walk below, not the process.
    const source = createReadStream(this.file);
    const walker = parser.asStream({ packValues: true, streamValues: false });
    const tokens = /\.gz$/i.test(this.file) ? pipeline(source, createGunzip(), walker, () => {}) : pipeline(source, walker, () => {});
    let foundRows = false;
    // The path of keys and indices from the root to where the walker stands.
    const path: Array<string | number> = [];
    const containers: Array<'object' | 'array'> = [];
    let rowArrayDepth = -1;
    let rowSet: string | undefined;
    let assembler: Assembler | undefined;
    for await (const token of readable(this.file, tokens as AsyncIterable<{ name: string; value?: unknown }>)) {
      if (assembler) {
        assembler.consume(token as never);
        if (assembler.done) {
          await this.row(assembler.current, rowSet);
          assembler = undefined;
        }
        continue;
      }
      switch (token.name) {
        case 'startObject':
        case 'startArray': {
          const inRowArray = rowArrayDepth >= 0 && containers.length === rowArrayDepth + 1;
          if (inRowArray && token.name === 'startObject') {
            assembler = new Assembler();
            assembler.consume(token as never);
            break;
          }
          if (inRowArray) this.notARow(); // an array where a row should be
          if (token.name === 'startArray' && rowArrayDepth < 0) {
            const set = this.rowArraySet(path);
            if (set !== null) { rowArrayDepth = containers.length; rowSet = set; foundRows = true; }
          }
          containers.push(token.name === 'startObject' ? 'object' : 'array');
          path.push(token.name === 'startArray' ? 0 : '');
          break;
        }
        case 'endObject':
        case 'endArray':
          containers.pop();
          path.pop();
          if (rowArrayDepth === containers.length) {
            rowArrayDepth = -1;
            await this.flushAll(); // a set's rows end here: commit them (and a resume mark) before the next set's
          }
          this.advance(path, containers);
          break;
        case 'keyValue':
          path[path.length - 1] = String(token.value);
          break;
        case 'stringValue':
          if ((path[path.length - 1] === 'odata.metadata' || path[path.length - 1] === '@odata.context') && path.length === 1) {
            this.pageSet = /#([A-Za-z]+)/.exec(String(token.value))?.[1];
          }
          this.advance(path, containers);
          break;
        default:
          if (!token.name.endsWith('Value')) break;
          // A number, string, true, false or null where a row should be: data this import cannot place.
          if (rowArrayDepth >= 0 && containers.length === rowArrayDepth + 1) this.notARow();
          this.advance(path, containers);
      }
    }
    // Nothing that looks like rows (a single entity, a whole tenant file): saying so beats importing nothing.
    if (!foundRows) throw new ImportError(`${this.file}: no rows found; expected an exported page ({"value":[…]} or {"d":{"results":[…]}}), an array of rows, or {"Tasks":[…], …}.`);
    await this.flushAll();
    this.report(true);
  }

  private notARow(): never {
    throw new ImportError(`${this.file}: row ${this.rowsSeen + 1} is not an object.`);
  }

  /** After a value inside an array, the next one has the next index. */
  private advance(path: Array<string | number>, containers: Array<'object' | 'array'>): void {
    if (containers[containers.length - 1] === 'array') path[path.length - 1] = Number(path[path.length - 1]) + 1;
  }

  /**
   * Is an array starting at `path` a list of rows, and of which set (undefined: per row, from
   * `__metadata`)? `null` when it is not a row array at all.
   */
  private rowArraySet(path: Array<string | number>): string | undefined | null {
    const fallback = this.pageSet ?? this.options.set ?? setFromFileName(this.file);
    if (path.length === 0) return fallback;
    const last = path[path.length - 1];
    if (path.length === 1 && typeof last === 'string' && builtInSet(last)) return last;
    if (path.length <= 2 && typeof last === 'string' && ROW_ARRAY_PARENTS.includes(last)) return fallback;
    return null;
  }

  private async row(value: unknown, arraySet: string | undefined): Promise<void> {
    this.rowsSeen++;
    if (this.rowsSeen <= this.resumeAt) return;
    const type = (value as { __metadata?: { type?: string } } | null)?.__metadata?.type;
    const set = (type && BY_TYPE.get(type)) ?? arraySet;
    if (!set) throw new ImportError(`${this.file}: cannot tell which entity set row ${this.rowsSeen} belongs to; name the file after the set (Tasks.json) or pass --set.`);
    const rows = this.pending.get(set) ?? [];
    rows.push(value);
    this.pending.set(set, rows);
    if (rows.length >= (this.options.batchSize ?? 2000)) await this.flush(set);
  }

  private async flushAll(): Promise<void> {
    for (const set of [...this.pending.keys()]) await this.flush(set);
  }

  /** Writes one set's pending rows in one transaction, with the progress mark that lets a later run resume after them. */
  private async flush(setName: string): Promise<void> {
    const raw = this.pending.get(setName) ?? [];
    if (raw.length === 0) return;
    this.pending.set(setName, []);
    // Rows of other sets still pending were seen earlier: the mark may only count rows written.
    const unwritten = [...this.pending.values()].reduce((n, rows) => n + rows.length, 0);
    await this.store.transaction(async (tx) => {
      const set: PdEntitySet = await currentSet(tx, this.site, setName);
      const typed = typeRows(set, raw);
      if (typed.problems.length > 0) {
        const p = typed.problems[0]!;
        throw new ImportError(`${this.file}: a ${setName} row: ${p.message} (${JSON.stringify(raw[p.row]).slice(0, 200)})`);
      }
      if (typed.added.length > 0) await tx.projectData.addCustomProperties(this.site.id, setName, typed.added);
      await tx.projectData.upsertRows(this.site.id, withCustom(set, typed.added), typed.rows);
      if (unwritten === 0) await tx.projectData.addImportMark(this.site.id, `${this.id}#${this.rowsSeen}`);
    });
    this.rowsWritten += raw.length;
    this.summary.rows += raw.length;
    this.summary.bySet[setName] = (this.summary.bySet[setName] ?? 0) + raw.length;
    this.report(false, setName);
  }

  private report(done: boolean, set = ''): void {
    const now = Date.now();
    if (!done && now - this.lastReport < 500) return;
    this.lastReport = now;
    this.options.onProgress?.({ file: this.file, set, rows: this.rowsWritten, total: this.summary.rows, skipped: this.summary.skipped, done });
  }
}
