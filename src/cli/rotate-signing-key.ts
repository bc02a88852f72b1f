// `spemu rotate-signing-key [--data <dir>]`: a new RS256 key signs Entra-shaped tokens from the
// next server start; the replaced key's public half stays in the JWKS for a day, so the tokens
// it signed keep working until they expire (identity/signing-keys.ts).

import { parseArgs } from 'node:util';
import { ConfigError } from '../config.ts';
import { RETIRED_KEY_KEPT_MS, rotateSigningKey } from '../identity/signing-keys.ts';
import type { Command } from './command.ts';

export const ROTATE_USAGE = `Usage: spemu rotate-signing-key [--data <dir>]

Makes a new key for the tokens of spemu's identity endpoints (RS256) in the workspace's
identity/signing-keys.json. Restart the servers sharing the workspace to sign with it; the old
public key stays published for ${RETIRED_KEY_KEPT_MS / 3_600_000} hours, so its tokens stay valid until they expire.

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
  return `New signing key ${rotateSigningKey(dir, now)} in ${dir}; restart the servers that use this workspace.`;
}

export const rotateSigningKeyCli: Command = {
  async run(argv, env) {
    console.log(rotateCommand(argv, env));
    return 0;
  },
};
