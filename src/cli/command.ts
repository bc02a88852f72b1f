// What a `spemu <command>` is: a function from its arguments to an exit code, named (with a
// one-line summary) in commands.ts's table. Flags follow the server's rules: a flag beats its
// SPEMU_<NAME> variable.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ConfigError } from '../config.ts';

export interface Command {
  run(argv: string[], env: NodeJS.ProcessEnv): Promise<number>;
}

type Options = NonNullable<ParseArgsConfig['options']>;

/** parseArgs, with a usage message on a mistake. */
export function readArguments(argv: string[], options: Options, usage: string): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  try {
    const parsed = parseArgs({ args: argv, options, strict: true, allowPositionals: true });
    return { values: parsed.values as Record<string, string | boolean | undefined>, positionals: parsed.positionals };
  } catch (e) {
    throw new ConfigError(`${(e as Error).message}\n\n${usage}`);
  }
}

const PACKAGE_JSON = fileURLToPath(new URL('../../package.json', import.meta.url));
export const packageVersion = (): string => (JSON.parse(readFileSync(PACKAGE_JSON, 'utf8')) as { version: string }).version;
