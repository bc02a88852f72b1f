// Benchmark sections beyond the core run: each is measured in the same run (so its figures
// sit beside the core ones taken on the same machine state) and writes a part of its own in
// docs/benchmarks.md. A part survives runs that do not measure it, with its own date.
//
// To add one (e.g. a ProjectData benchmark): write bench/<name>.ts exporting a BenchSection,
// add it to SECTIONS in bench/run.ts, and give it a flag there if it should not always run.
// `npm run bench -- --only <id>` runs it alone (no core run) and rewrites only its part.

import type { ServerOptions } from '../src/index.ts';
import type { LoadFigures, LoadOptions } from './load.ts';
import type { ServerChild } from './processes.ts';
import type { BatchRun } from './batch.ts';
import type { MillionRun } from './report.ts';
import type { Workspace } from './generate.ts';

export interface Settings {
  durationSeconds: number;
  rounds: number;
  warmupSeconds: number;
  connections: number;
  bigConnections: number;
  batchCount: number;
}

export interface SectionContext {
  root: string;
  settings: Settings;
  flags: Record<string, string | boolean | undefined>;
  /** `YYYY-MM-DD HH:MM UTC, <command>`: heads the section in the doc. */
  runLine: string;
  log(text: string): void;
  /** spemu in a child process of its own (startServer options); `READY` awaited. */
  startSpemu(options: ServerOptions): Promise<ServerChild>;
  stopSpemu(child: ServerChild, name: string): Promise<void>;
  /** One GET first, so a broken endpoint fails the run instead of being measured. */
  checkOk(url: string, expect?: (body: string) => boolean): Promise<void>;
  /** A load on one or several servers; `headers` add to (or replace) `Accept: application/json`. */
  load(child: ServerChild | ServerChild[], options: Omit<LoadOptions, 'url'>): Promise<LoadFigures>;
  /** What the core run measured, to set beside. */
  core: { batch: BatchRun; million: MillionRun | undefined; itemPath: string; benchUser: string; demoTenant: string; coldStartMs: number };
  /** The cached 1M-item SQLite workspace (undefined with --skip-1m). */
  millionWorkspace(): Promise<Workspace | undefined>;
}

export interface BenchSection {
  /** Names the section's part of the doc (between `<!-- section:<id>:start/end -->`). */
  id: string;
  /** Whether this run measures it. */
  enabled(flags: SectionContext['flags']): boolean;
  /** It reads the core run's figures (`core.batch`, `core.million`, `core.coldStartMs`), so `--only` cannot run it. */
  needsCore?: boolean;
  /** Measures, prints its figures, and returns its part of docs/benchmarks.md (markdown, `##` heading first). */
  run(context: SectionContext): Promise<string>;
}
