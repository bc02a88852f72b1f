// `--faults faults.json`: the rules read at start, and again whenever the file changes, so a
// test run (or a person) can switch faults on and off without restarting spemu. A file that
// does not parse is reported and the rules in force stay.

import { readFileSync, unwatchFile, watchFile } from 'node:fs';
import { FaultConfigError, parseFaults, type FaultsConfig } from './faults.ts';

export function readFaultsFile(path: string): FaultsConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new FaultConfigError(`--faults: cannot read '${path}': ${(e as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = text.trim() === '' ? {} : JSON.parse(text);
  } catch (e) {
    throw new FaultConfigError(`--faults: '${path}' is not JSON: ${(e as Error).message}`);
  }
  return parseFaults(doc, path);
}

/** Polls the file (fs.watchFile: editors that replace the file are seen too); returns the function that stops it. */
export function watchFaultsFile(path: string, onChange: (faults: FaultsConfig) => void, onError: (e: Error) => void, intervalMs = 250): () => void {
  const listener = (current: { mtimeMs: number; size: number }, previous: { mtimeMs: number; size: number }) => {
    if (current.mtimeMs === previous.mtimeMs && current.size === previous.size) return;
    try {
      onChange(readFaultsFile(path));
    } catch (e) {
      onError(e as Error);
    }
  };
  watchFile(path, { interval: intervalMs, persistent: false }, listener);
  return () => unwatchFile(path, listener);
}
