// `spemu identity-header`: prints the IDENTITY_HEADER of a workspace's managed-identity
// endpoint (`--managed-identity`), found from the secret as the server finds it:
// --token-secret / SPEMU_TOKEN_SECRET, else the workspace's token-secret file. Printed on
// request only, so that the server's banner and logs never hold it.

import { ConfigError } from '../config.ts';
import { resolveSecret, SecretError } from '../identity/secret.ts';
import { managedIdentityHeader } from '../identity/managed-identity.ts';
import { readArguments, type Command } from './command.ts';

export const IDENTITY_HEADER_USAGE = `Usage: spemu identity-header [--data <dir>] [--token-secret <s>]

Prints the secret clients show spemu's managed-identity endpoint (App Service's IDENTITY_HEADER):
  export IDENTITY_HEADER=$(spemu identity-header)

  --data <dir>            the server's workspace folder (default ./.spemu; SPEMU_DATA)
  --token-secret <s>      the server's --token-secret, if it was given one (SPEMU_TOKEN_SECRET)`;

export function identityHeaderCommand(argv: string[], env: NodeJS.ProcessEnv): string {
  const { values, positionals } = readArguments(argv, { data: { type: 'string' }, 'token-secret': { type: 'string' }, help: { type: 'boolean' } }, IDENTITY_HEADER_USAGE);
  if (values.help) return IDENTITY_HEADER_USAGE;
  if (positionals.length > 0) throw new ConfigError(`Unexpected argument '${positionals[0]}'.\n\n${IDENTITY_HEADER_USAGE}`);
  try {
    return managedIdentityHeader(resolveSecret({
      tokenSecret: (values['token-secret'] as string | undefined) || env.SPEMU_TOKEN_SECRET || undefined,
      dataDir: (values.data as string | undefined) || env.SPEMU_DATA || '.spemu',
    }));
  } catch (e) {
    throw e instanceof SecretError ? new ConfigError(e.message) : e;
  }
}

export const identityHeaderCli: Command = {
  async run(argv, env) {
    console.log(identityHeaderCommand(argv, env));
    return 0;
  },
};
