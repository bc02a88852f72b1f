// The measures of issue #13 beyond a single hot request, used by the hot-path section:
// a tenant file with a 100k-item list seeded on SQLite and on PostgreSQL; a 1000-part
// `$batch` of reads; the 1M-item list's indexed query under `--workers 2`.

import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { median } from './load.ts';

/** A tenant file in `dir`: the demo tenant (its pictures copied beside it) plus a list of `items` items (4 fields, one indexed). */
export function writeBigTenant(demoTenant: string, dir: string, items: number): string {
  const tenant = JSON.parse(readFileSync(demoTenant, 'utf8')) as {
    users: Array<{ picture?: string }>; sites: Array<{ url: string; lists?: unknown[] }>;
  };
  for (const user of tenant.users) if (user.picture) cpSync(resolve(dirname(demoTenant), user.picture), resolve(dir, user.picture));
  // Files' contents (`"content": { "file": … }`) are relative to the tenant file too.
  const copyContents = (node: unknown): void => {
    if (Array.isArray(node)) { node.forEach(copyContents); return; }
    if (!node || typeof node !== 'object') return;
    const content = (node as { content?: { file?: unknown } }).content;
    if (typeof content?.file === 'string') cpSync(resolve(dirname(demoTenant), content.file), resolve(dir, content.file));
    Object.values(node).forEach(copyContents);
  };
  copyContents(tenant.sites);
  const categories = ['Bug', 'Feature', 'Chore'];
  tenant.sites[0]!.lists = [...(tenant.sites[0]!.lists ?? []), {
    title: 'Seeded', fields: [
      { name: 'Priority', type: 'Number', indexed: true }, { name: 'Category', type: 'Choice', choices: categories },
      { name: 'Due', type: 'DateTime' }, { name: 'Notes', type: 'Note' },
    ],
    items: Array.from({ length: items }, (_, i) => ({
      Title: `Seeded item ${i}`, Priority: i % 1000, Category: categories[i % 3], Due: '2026-01-02T03:04:05Z', Notes: `note ${i}`,
    })),
  }];
  const file = join(dir, `tenant-${items}.json`);
  writeFileSync(file, JSON.stringify(tenant));
  return file;
}

/** A `$batch` of `parts` GETs of `path` (no changeset), as PnPjs sends reads. */
function readBatch(siteUrl: string, path: string, parts: number): { boundary: string; body: string } {
  const boundary = `batch_${randomUUID()}`;
  const origin = new URL(siteUrl).origin;
  const lines: string[] = [];
  for (let i = 0; i < parts; i++) {
    lines.push(`--${boundary}\n`, 'Content-Type: application/http\n', 'Content-Transfer-Encoding: binary\n\n',
      `GET ${origin}${path} HTTP/1.1\n`, 'accept: application/json\n\n');
  }
  lines.push(`--${boundary}--\n`);
  return { boundary, body: lines.join('') };
}

export interface BatchReads { parts: number; samplesMs: number[]; medianMs: number }

/** Times `runs` batches of `parts` reads each, one at a time, after one unmeasured batch; every part must answer 200. */
export async function measureBatchReads(siteUrl: string, path: string, options: { parts: number; runs: number; headers: Record<string, string> }): Promise<BatchReads> {
  const { boundary, body } = readBatch(siteUrl, path, options.parts);
  const send = async (): Promise<number> => {
    const started = performance.now();
    const response = await fetch(`${siteUrl}/_api/$batch`, {
      method: 'POST', headers: { ...options.headers, 'Content-Type': `multipart/mixed; boundary=${boundary}` }, body,
    });
    const text = await response.text();
    const elapsed = performance.now() - started;
    const ok = text.match(/^HTTP\/1\.1 200 /gm)?.length ?? 0;
    if (response.status !== 200 || ok !== options.parts) throw new Error(`$batch of ${options.parts} reads → ${response.status}, ${ok} parts 200: ${text.slice(0, 300)}`);
    return elapsed;
  };
  await send();
  const samplesMs: number[] = [];
  for (let i = 0; i < options.runs; i++) samplesMs.push(await send());
  return { parts: options.parts, samplesMs, medianMs: median(samplesMs) };
}
