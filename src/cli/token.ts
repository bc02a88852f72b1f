// `spemu token --upn alice@… [--expires 1h]`: prints a bearer token the server accepts. The
// secret is found as the server finds it: --token-secret / SPEMU_TOKEN_SECRET, else the
// workspace's token-secret file (--data / SPEMU_DATA, default ./.spemu; made if missing).

import { parseArgs } from 'node:util';
import { ConfigError } from '../config.ts';
import { resolveSecret, SecretError } from '../identity/secret.ts';
import { issueToken, parseDuration } from '../identity/tokens.ts';
import type { Command } from './command.ts';

export const TOKEN_USAGE = `Usage: spemu token --upn <user> [--expires <duration>] [--data <dir>] [--token-secret <s>]

Prints a bearer token (a JWT signed HS256 with the workspace secret) for a directory user:
  curl -H "Authorization: Bearer $(spemu token --upn alice@contoso.onmicrosoft.com)" …

  --upn <user>            the user's UPN (the token's upn claim)
  --expires <duration>    lifetime: 3600, 90s, 30m, 1h, 7d (default 1h)
  --data <dir>            workspace folder whose secret signs it (default ./.spemu; SPEMU_DATA)
  --token-secret <s>      sign with this secret instead (SPEMU_TOKEN_SECRET)`;

export async function tokenCommand(argv: string[], env: NodeJS.ProcessEnv, now = new Date()): Promise<string> {
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: argv, strict: true, allowPositionals: false,
      options: { upn: { type: 'string' }, expires: { type: 'string' }, data: { type: 'string' }, 'token-secret': { type: 'string' }, help: { type: 'boolean' } },
    }).values;
  } catch (e) {
    throw new ConfigError(`${(e as Error).message}\n\n${TOKEN_USAGE}`);
  }
  if (values.help) return TOKEN_USAGE;
  const upn = (values.upn as string | undefined)?.trim();
  if (!upn) throw new ConfigError(`spemu token needs --upn.\n\n${TOKEN_USAGE}`);
  const expiresText = (values.expires as string | undefined) ?? '1h';
  const expiresInSeconds = parseDuration(expiresText);
  if (expiresInSeconds === undefined) throw new ConfigError(`--expires must be a duration such as 3600, 90s, 30m, 1h or 7d, not '${expiresText}'.`);
  let secret: Uint8Array;
  try {
    secret = resolveSecret({
      tokenSecret: (values['token-secret'] as string | undefined) || env.SPEMU_TOKEN_SECRET || undefined,
      dataDir: (values.data as string | undefined) || env.SPEMU_DATA || '.spemu',
    });
  } catch (e) {
    throw e instanceof SecretError ? new ConfigError(e.message) : e;
  }
  return issueToken(secret, upn, { expiresInSeconds, now });
}

export const tokenCli: Command = {
  async run(argv, env) {
    console.log(await tokenCommand(argv, env));
    return 0;
  },
};
