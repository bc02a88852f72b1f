// `spemu rotate-signing-key [--data <dir>]`: a new RS256 key signs Entra-shaped tokens (running
// servers sharing the workspace take it within seconds); the replaced key's public half stays in
// the JWKS for a day, so the tokens it signed keep working until they expire (identity/signing-keys.ts).

import { parseArgs } from 'node:util';
import { ConfigError } from '../config.ts';
import { RECHECK_MS, RETIRED_KEY_KEPT_MS, rotateSigningKey } from '../identity/signing-keys.ts';
import type { Command } from './command.ts';

export const ROTATE_USAGE = `Usage: spemu rotate-signing-key [--data <dir>]

Makes a new key for the tokens of spemu's identity endpoints (RS256) in the workspace's
identity/signing-keys.json. Servers sharing the workspace sign with it within ${RECHECK_MS / 1000} seconds; the
old public key stays published for ${RETIRED_KEY_KEPT_MS / 3_600_000} hours, so its tokens stay valid until they expire.

  --data <dir>            the workspace folder (default ./.spemu; SPEMU_DATA)`;

export function rotateCommand(argv: string[], env: NodeJS.ProcessEnv, now = new Date()): string {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({ args: argv, strict: true, allowPositionals: false, options: { data: { type: 'string' }, help: { type: 'boolean' } } }).values;
  } catch (e) {
    throw new ConfigError(`${(e as Error).message}\n\n${ROTATE_USAGE}`);
  }
  if (values.help) return ROTATE_USAGE;
  const dir = (values.data as string | undefined) || env.SPEMU_DATA || '.spemu';
  return `New signing key ${rotateSigningKey(dir, now)} in ${dir}; servers using this workspace sign with it within ${RECHECK_MS / 1000} seconds.`;
}

export const rotateSigningKeyCli: Command = {
  async run(argv, env) {
    console.log(rotateCommand(argv, env));
    return 0;
  },
};
