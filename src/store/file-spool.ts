// Writing a stream into a file fast without giving up durability: the pieces a request body
// arrives in (often 64 KiB) are gathered into ~1 MiB writes (one writev, no copy), one write is
// in flight while the next is gathered (reading the socket and writing the disk overlap, with
// at most two of them held), and every 32 MiB written is handed to the disk in the background
// (fdatasync), so the one fsync that makes the file durable at the end has little left to do.

import type { FileHandle } from 'node:fs/promises';

const WRITE_BYTES = 1024 * 1024;
const SYNC_EVERY_BYTES = 32 * 1024 * 1024;

export class FileSpool {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private writing: Promise<void> = Promise.resolve();
  private syncing: Promise<void> | undefined;
  private unsynced = 0;
  private failure: unknown;

  constructor(private readonly file: FileHandle, private position: number) {}

  /** Takes one piece; resolves once it may be given the next (a write is started when enough is gathered). */
  async push(piece: Uint8Array): Promise<void> {
    if (piece.byteLength === 0) return;
    this.pending.push(Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength));
    this.pendingBytes += piece.byteLength;
    if (this.pendingBytes < WRITE_BYTES) return;
    await this.writing;
    this.startWrite();
  }

  /**
   * Writes what is left and makes the file durable: fdatasync, which flushes the data and the
   * metadata needed to read it back (its size), not its times.
   */
  async finish(): Promise<void> {
    await this.writing;
    this.startWrite();
    await this.writing;
    await this.syncing;
    if (this.failure) throw this.failure;
    await this.file.datasync();
  }

  /** Waits for what is in flight (after a failure, before the file is closed and removed). */
  async settle(): Promise<void> {
    await this.writing.catch(() => {});
    await this.syncing?.catch(() => {});
  }

  private startWrite(): void {
    if (this.failure) throw this.failure;
    if (this.pendingBytes === 0) return;
    const buffers = this.pending;
    const length = this.pendingBytes;
    const at = this.position;
    this.pending = [];
    this.pendingBytes = 0;
    this.position += length;
    this.writing = this.writeAll(buffers, length, at).then(() => {
      this.unsynced += length;
      if (this.unsynced >= SYNC_EVERY_BYTES && !this.syncing) {
        this.unsynced = 0;
        this.syncing = this.file.datasync().catch((e: unknown) => { this.failure ??= e; }).finally(() => { this.syncing = undefined; });
      }
    }, (e: unknown) => { this.failure ??= e; });
  }

  private async writeAll(buffers: Buffer[], length: number, at: number): Promise<void> {
    let written = (await this.file.writev(buffers, at)).bytesWritten;
    if (written === length) return;
    // A short write (rare): the rest as one buffer.
    const all = Buffer.concat(buffers, length);
    while (written < length) written += (await this.file.write(all, written, length - written, at + written)).bytesWritten;
  }
}
