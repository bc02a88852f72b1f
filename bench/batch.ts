// "Batch of 100 item adds": PnPjs-style `$batch` bodies (bare LF, one changeset of 100 item
// POSTs) sent one after another to a running spemu; the median wall time per batch. Part of
// `npm run bench`; alone: `npx tsx bench/batch.ts` (starts its own in-memory server).

import { randomUUID } from 'node:crypto';
import { median } from './load.ts';

export interface BatchRun {
  /** Requests per batch. */
  size: number;
  samplesMs: number[];
  medianMs: number;
}

export const BATCH_TARGET_MS = 250;

/** A PnPjs 4 batch body (reference §9.1): one changeset of `size` item adds. */
function pnpBatch(siteUrl: string, list: string, size: number, round: number): { boundary: string; body: string } {
  const batch = randomUUID();
  const changeset = randomUUID();
  const lines = [`--batch_${batch}\n`, `Content-Type: multipart/mixed; boundary="changeset_${changeset}"\n\n`];
  for (let i = 0; i < size; i++) {
    lines.push(`--changeset_${changeset}\n`, 'Content-Type: application/http\n', 'Content-Transfer-Encoding: binary\n\n',
      `POST ${siteUrl}/_api/web/lists/getByTitle('${list}')/items HTTP/1.1\n`,
      'accept: application/json\n', 'content-type: application/json;charset=utf-8\n\n',
      `${JSON.stringify({ Title: `Batch ${round} item ${i}` })}\n\n`);
  }
  lines.push(`--changeset_${changeset}--\n\n`, `--batch_${batch}--\n`);
  return { boundary: `batch_${batch}`, body: lines.join('') };
}

/** Creates a list, warms up with one batch, then times `batches` batches of `size` adds each. */
export async function measureBatchAdds(siteUrl: string, options: { batches: number; size: number; headers?: Record<string, string> }): Promise<BatchRun> {
  const list = `BatchBench${Date.now()}`;
  const headers = { Accept: 'application/json', ...options.headers };
  const created = await fetch(`${siteUrl}/_api/web/lists`, {
    method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify({ Title: list, BaseTemplate: 100 }),
  });
  if (created.status !== 201) throw new Error(`creating ${list} → ${created.status}: ${await created.text()}`);
  const send = async (round: number): Promise<number> => {
    const { boundary, body } = pnpBatch(siteUrl, list, options.size, round);
    const started = performance.now();
    const r = await fetch(`${siteUrl}/_api/$batch`, { method: 'POST', headers: { ...headers, 'Content-Type': `multipart/mixed; boundary=${boundary}` }, body });
    const text = await r.text();
    const ms = performance.now() - started;
    const created201 = text.split('HTTP/1.1 201 Created').length - 1;
    if (r.status !== 200 || created201 !== options.size) throw new Error(`$batch → ${r.status}, ${created201}/${options.size} created: ${text.slice(0, 300)}`);
    return ms;
  };
  await send(0);
  const samplesMs: number[] = [];
  for (let round = 1; round <= options.batches; round++) samplesMs.push(await send(round));
  return { size: options.size, samplesMs, medianMs: median(samplesMs) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { startServer } = await import('../src/index.ts');
  const { fileURLToPath } = await import('node:url');
  const seed = fileURLToPath(new URL('../demo/tenant.json', import.meta.url));
  const server = await startServer({ db: ':memory:', port: 0, logLevel: 'warn', seed, anonymousUser: 'alice@contoso.onmicrosoft.com' });
  try {
    const run = await measureBatchAdds(`${server.url}/sites/dev`, { batches: 10, size: 100 });
    console.log(`[bench] batch of ${run.size} item adds: median ${run.medianMs.toFixed(1)} ms (samples ${run.samplesMs.map((s) => s.toFixed(0)).join(', ')})`);
  } finally {
    await server.close();
  }
}
