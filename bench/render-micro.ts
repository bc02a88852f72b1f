// Render + serialize of item reads in process, without HTTP: the stages issue #13's breakdown
// names (item projection → payload, payload → text) with the row reads, as a resolved GET runs
// them, in CPU time per request per dialect over the demo tenant.
//
//   npx tsx bench/render-micro.ts [iterations=20000]

import { readFileSync } from 'node:fs';
import { openApiFixture } from '../test/helpers/api-context.ts';
import { DEMO_TENANT } from '../test/helpers/server.ts';
import { resolve } from '../src/fronts/rest/api/resolve.ts';
import { parseApiPath } from '../src/odata/path.ts';
import { parseRequestQuery } from '../src/fronts/rest/query-options.ts';
import { rawQueryOf } from '../src/pipeline/request.ts';
import { outcomeResponse } from '../src/fronts/rest/pipeline.ts';
import type { Dialect } from '../src/wire/dialect.ts';

const PATHS = {
  item: "web/lists/getbytitle('Tasks')/items(1)?$select=Title,Author/ID,Author/Title,Author/LastName,Editor/ID,Editor/Title,Editor/LastName&$expand=Author,Editor",
  page: "web/lists/getbytitle('Tasks')/items?$select=Title,Author/ID,Author/Title,Editor/Title&$expand=Author,Editor&$top=20",
  full: "web/lists/getbytitle('Tasks')/items(1)",
};

async function main(): Promise<void> {
  const n = Number(process.argv[2] ?? 20000);
  process.chdir(new URL('../demo/', import.meta.url).pathname);
  const api = await openApiFixture(JSON.parse(readFileSync(DEMO_TENANT, 'utf8')), '/sites/dev');
  for (const [name, path] of Object.entries(PATHS)) {
    const ctx = await api.context(path);
    const segments = parseApiPath(path.split('?', 1)[0]!, parseRequestQuery(rawQueryOf(path)).aliases);
    const plan = await resolve(segments, 'GET', ctx);
    for (const dialect of ['minimal', 'verbose', 'nometadata'] as Dialect[]) {
      const run = async () => outcomeResponse(await plan.run(ctx), 'id', dialect, { apiUrl: ctx.apiUrl, select: ctx.query.selectText });
      for (let i = 0; i < n / 4; i++) await run();
      // CPU time, not wall time: on a shared machine the process waits for a core more than it runs.
      const samples: number[] = [];
      for (let round = 0; round < 5; round++) {
        const t0 = process.cpuUsage();
        for (let i = 0; i < n / 5; i++) await run();
        const used = process.cpuUsage(t0);
        samples.push((used.user + used.system) / (n / 5));
      }
      samples.sort((x, y) => x - y);
      console.log(`${name.padEnd(5)} ${dialect.padEnd(10)} ${samples[2]!.toFixed(2)} µs CPU per request (handler + serialize; median of 5)`);
    }
  }
  await api.close();
}

main().then(() => process.exit(0), (e: unknown) => { console.error(e); process.exit(1); });
