// The server's throttling-and-faults settings as the options ask for them, and under `--workers`
// the primary's and a worker's end of their one shared state (pipeline/throttle/shared-gate.ts).
// Apart from index.ts so that the primary, which serves nothing, loads none of the server's code.

import type { Worker } from 'node:cluster';
import { ConfigError, resolveOptions, type ResolvedOptions, type ServerOptions } from './config.ts';
import type { GateState } from './pipeline/throttle/gate.ts';
import { readFaultsFile, watchFaultsFile } from './pipeline/throttle/faults-file.ts';
import { FaultConfigError } from './pipeline/throttle/faults.ts';
import { ThrottleConfigError } from './pipeline/throttle/config.ts';
import { GateHub, WorkerGateHome } from './pipeline/throttle/shared-gate.ts';

/**
 * Under `--workers`, the primary's end of the one throttling-and-faults state: the state the
 * options ask for, every worker attached to it, the faults file watched here once and each
 * reload handed to every worker.
 */
export function primaryGate(options: ServerOptions, report: { reloaded(path: string, rules: number): void; invalid(error: Error): void }): { attach(worker: Worker): void; stop(): void } {
  const gate = gateSettings(options);
  const hub = new GateHub(gate.state);
  const faultsFile = gate.faultsFile;
  const stop = faultsFile ? watchFaultsFile(faultsFile, (faults) => {
    void hub.publish({ faults });
    report.reloaded(faultsFile, faults.rules.length);
  }, report.invalid) : () => {};
  return { attach: (worker) => hub.attach(worker), stop };
}

/** A worker's end of that state, for `startServer`'s `sharedGate`. */
export const workerGate = (): WorkerGateHome => new WorkerGateHome();

/**
 * The throttling-and-faults state the options ask for at start (the faults file read now), and
 * the faults file to watch: startServer's, or under --workers the primary's for every worker.
 */
export function gateSettings(options: ServerOptions): { state: GateState; faultsFile: string | undefined } {
  return gateSettingsOf(resolveOptions(options));
}

export function gateSettingsOf(resolved: ResolvedOptions): { state: GateState; faultsFile: string | undefined } {
  const faults = resolved.faultsFile ? configValue(() => readFaultsFile(resolved.faultsFile!)) : resolved.faults;
  return { state: { throttle: resolved.throttle, faults: faults ?? { seed: 1, rules: [] } }, faultsFile: resolved.faultsFile };
}

/** A throttle or faults value checked as startServer checks it: a ConfigError when it is wrong. */
export function configValue<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    throw e instanceof FaultConfigError || e instanceof ThrottleConfigError ? new ConfigError(e.message) : e;
  }
}
