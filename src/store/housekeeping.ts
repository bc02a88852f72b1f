// Periodic work on the store that no request does: uploads abandoned mid-way are ended
// (SharePoint Online drops a chunked upload whose next chunk is 30 minutes late), then blobs
// no row names are collected, once past a grace period that covers any write in progress, and
// the change log drops what its retention no longer keeps (SharePoint keeps 60 days).
// List webhook subscriptions past their expiration go too (with their queued notifications).
// Every instance or worker may run it: each step is a conditional statement that two runs
// cannot both apply.

import type { Store } from './store.ts';

/** Days the change log keeps changes unless told otherwise (`--change-log-days`). */
export const CHANGE_RETENTION_DAYS = 60;

export const UPLOAD_IDLE_MS = 30 * 60_000;
export const BLOB_GRACE_MS = 60 * 60_000;

export async function houseKeep(store: Store, now: Date, changeRetentionDays = CHANGE_RETENTION_DAYS): Promise<{ uploads: number; blobs: number; leftovers: number; subscriptions: number; changes: number }> {
  const subscriptions = await store.subscriptions.purgeExpired(now.toISOString());
  const uploads = await store.uploads.purge(new Date(now.getTime() - UPLOAD_IDLE_MS).toISOString().replace(/\.\d{3}Z$/, 'Z'));
  const { blobs, leftovers } = await store.blobs.collect(new Date(now.getTime() - BLOB_GRACE_MS));
  const changes = await store.changes.purge(new Date(now.getTime() - changeRetentionDays * 86_400_000).toISOString());
  return { uploads, blobs, leftovers, subscriptions, changes };
}

/** Runs `houseKeep` every `intervalMs` (not keeping the process alive); errors are logged, never thrown. */
export function scheduleHousekeeping(store: Store, clock: () => Date, log: (e: unknown) => void, intervalMs = 10 * 60_000, changeRetentionDays = CHANGE_RETENTION_DAYS): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    houseKeep(store, clock(), changeRetentionDays).catch(log).finally(() => { running = false; });
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
