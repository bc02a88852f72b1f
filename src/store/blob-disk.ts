// Bytes in files under a folder of the workspace (SQLite): `sha256/ab/<sha256>.<random>`.
// A write goes to `tmp/`, is hashed as it streams, fsync'd, then renamed into place and its
// folder fsync'd, so a key handed out survives a crash. The random suffix makes every write
// its own file: which file is *the* content of a SHA-256 is decided by the `blobs` table
// (sql/blobs.ts), so a collection removing an old copy can never remove a newer write of the
// same bytes.
//
// A chunked upload's bytes grow in one file, `uploads/<random>`, a chunk appended (and
// fsync'd) per request; when the upload finishes that file is the blob's, as it is (its key
// stays), so its bytes are written once.

import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { Readable } from 'node:stream';
import type { ByteRange, ByteStore } from './blobs.ts';
import { FileSpool } from './file-spool.ts';
import { RunningHashes } from './running-hashes.ts';

export class DiskBytes implements ByteStore {
  private readonly hashes = new RunningHashes();

  constructor(private readonly root: string) {}

  private get tmp(): string { return join(this.root, 'tmp'); }
  private get uploads(): string { return join(this.root, 'uploads'); }

  async write(source: AsyncIterable<Uint8Array>, limit: number, tooLarge: () => Error) {
    await mkdir(this.tmp, { recursive: true });
    const temp = join(this.tmp, randomBytes(16).toString('hex'));
    const hash = createHash('sha256');
    let size = 0;
    const file = await open(temp, 'wx');
    const spool = new FileSpool(file, 0);
    try {
      for await (const chunk of source) {
        size += chunk.byteLength;
        if (size > limit) throw tooLarge();
        hash.update(chunk);
        await spool.push(chunk);
      }
      await spool.finish();
    } catch (e) {
      await spool.settle();
      await file.close().catch(() => {});
      await unlink(temp).catch(() => {});
      throw e;
    }
    await file.close();
    const sha256 = hash.digest('hex');
    const folder = join(this.root, 'sha256', sha256.slice(0, 2));
    await mkdir(folder, { recursive: true });
    const key = `sha256/${sha256.slice(0, 2)}/${sha256}.${randomBytes(4).toString('hex')}`;
    await rename(temp, join(this.root, key));
    await syncFolder(folder);
    return { key, sha256, size };
  }

  async append(key: string | undefined, offset: number, source: AsyncIterable<Uint8Array>, limit: number, tooLarge: () => Error) {
    let file;
    const fresh = key === undefined;
    if (key === undefined) {
      if (offset !== 0) throw new Error('a new upload starts at offset 0');
      await mkdir(this.uploads, { recursive: true });
      key = `uploads/${randomBytes(16).toString('hex')}`;
      file = await open(this.pathOf(key), 'wx');
      // The file's name must outlive a crash as its bytes will (the chunk is acknowledged).
      await syncFolder(this.uploads);
    } else {
      file = await open(this.pathOf(key), 'r+');
    }
    const target = key;
    let size = offset;
    const spool = new FileSpool(file, offset);
    let running;
    try {
      running = await this.hashes.at(target, offset, async () => createReadStream(this.pathOf(target), { start: 0, end: offset - 1 }));
      // What a broken append left past the recorded offset goes.
      await file.truncate(offset);
      for await (const chunk of source) {
        size += chunk.byteLength;
        if (size > limit) throw tooLarge();
        running.hash.update(chunk);
        await spool.push(chunk);
      }
      await spool.finish();
    } catch (e) {
      await spool.settle();
      await file.close().catch(() => {});
      // A first chunk that failed leaves nothing: no upload names its bytes.
      if (fresh) await rm(this.pathOf(target), { force: true });
      throw e;
    }
    await file.close();
    running.size = size;
    this.hashes.keep(target, running);
    return { key: target, size };
  }

  digest(key: string, size: number): Promise<string> {
    return this.hashes.digest(key, size, async () => createReadStream(this.pathOf(key), { start: 0, end: size - 1 }));
  }

  async read(key: string, _size: number, range?: ByteRange): Promise<Readable | undefined> {
    const path = this.pathOf(key);
    try {
      await stat(path);
    } catch {
      return undefined;
    }
    return createReadStream(path, range ? { start: range.start, end: range.end } : {});
  }

  async remove(key: string): Promise<void> {
    this.hashes.forget(key);
    await rm(this.pathOf(key), { force: true });
  }

  async sweep(before: Date, named: (key: string) => Promise<boolean>): Promise<number> {
    let removed = 0;
    const old = async (path: string) => (await stat(path).catch(() => undefined))?.mtime.getTime() ?? Infinity;
    // Temporary files of writes that never finished.
    for (const name of await readdir(this.tmp).catch(() => [] as string[])) {
      const path = join(this.tmp, name);
      if ((await old(path)) < before.getTime()) { await rm(path, { force: true }); removed++; }
    }
    // Files renamed into place whose row was never recorded (a crash in between), and uploads'
    // files that no upload in progress nor blob names (a crash before the first chunk was recorded,
    // or after an upload ended, before its file went).
    const folders = (await readdir(join(this.root, 'sha256')).catch(() => [] as string[])).map((prefix) => join(this.root, 'sha256', prefix));
    for (const folder of [...folders, this.uploads]) {
      for (const name of await readdir(folder).catch(() => [] as string[])) {
        const path = join(folder, name);
        const key = relative(this.root, path).split(sep).join('/');
        if ((await old(path)) < before.getTime() && !(await named(key))) { await this.remove(key); removed++; }
      }
    }
    return removed;
  }

  /** Keys are made here; anything else (a `..` from a corrupt row) is refused. */
  private pathOf(key: string): string {
    if (!/^(sha256\/[0-9a-f]{2}\/[0-9a-f]{64}\.[0-9a-f]{8}|uploads\/[0-9a-f]{32})$/.test(key)) throw new Error(`not a blob key: ${key}`);
    return join(this.root, key);
  }
}

/** A rename is durable once its folder is synced (POSIX); where a folder cannot be opened for that, the rename stands alone. */
async function syncFolder(folder: string): Promise<void> {
  let handle;
  try {
    handle = await open(folder, 'r');
    await handle.sync();
  } catch {
    // Some platforms (Windows) cannot fsync a directory.
  } finally {
    await handle?.close();
  }
}
