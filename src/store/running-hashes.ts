// The SHA-256 of an upload in progress, kept as its chunks are appended, so that finishing it
// costs no second read of its bytes. Per process: a chunk that another process (or this one
// before a restart) appended is not in it, and then the bytes are read back once to catch up
// (`RunningHashes.digest`'s `readBack`). A state is trusted only while its length is exactly
// the offset the next append starts at: bytes below an upload's recorded offset never change.

import { createHash, type Hash } from 'node:crypto';

interface Running { hash: Hash; size: number }

export class RunningHashes {
  private readonly states = new Map<string, Running>();

  /** The state for appending to `key` at `offset`, read back from `readBack` if this process does not hold it. */
  async at(key: string, offset: number, readBack: () => Promise<AsyncIterable<Uint8Array>>): Promise<Running> {
    const known = this.states.get(key);
    this.states.delete(key); // taken: a failed append must not leave a state that is ahead of its bytes
    if (known && known.size === offset) return known;
    const running: Running = { hash: createHash('sha256'), size: 0 };
    if (offset > 0) for await (const piece of await readBack()) { running.hash.update(piece); running.size += piece.byteLength; }
    if (running.size !== offset) throw new Error(`upload bytes ${key}: ${running.size} stored, ${offset} expected`);
    return running;
  }

  /** Keeps the state after a successful append. */
  keep(key: string, running: Running): void {
    this.states.set(key, running);
  }

  /** The digest of the bytes of `key`, `size` long (the state is kept: a digest is of a copy). */
  async digest(key: string, size: number, readBack: () => Promise<AsyncIterable<Uint8Array>>): Promise<string> {
    const running = await this.at(key, size, readBack);
    this.keep(key, running);
    return running.hash.copy().digest('hex');
  }

  forget(key: string): void {
    this.states.delete(key);
  }
}

/** Runs tasks one at a time per key (in this process). */
export class KeyedQueue {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    const result = before.then(task, task);
    const tail = result.catch(() => {});
    this.tails.set(key, tail);
    void tail.then(() => { if (this.tails.get(key) === tail) this.tails.delete(key); });
    return result;
  }
}
