// The `spemu <name> …` commands: the table main.ts dispatches from and the help lists (both
// read it, so a command cannot be runnable yet missing from `spemu --help`). A new command is one
// line here; each module is loaded only when its command runs (the server's modules are not).

import type { Command } from './command.ts';

export const COMMANDS: Record<string, { summary: string; load: () => Promise<Command> }> = {
  token: { summary: 'print a bearer token for a directory user', load: async () => (await import('./token.ts')).tokenCli },
  'identity-header': { summary: 'print the IDENTITY_HEADER of the managed-identity endpoint (--managed-identity)', load: async () => (await import('./identity-header.ts')).identityHeaderCli },
  'rotate-signing-key': { summary: 'make a new key for identity tokens (the old one verifies for a day)', load: async () => (await import('./rotate-signing-key.ts')).rotateSigningKeyCli },
  migrate: { summary: 'apply pending schema migrations and exit', load: async () => (await import('./migrate.ts')).migrateCommand },
  export: { summary: 'write the whole workspace to a file (NDJSON; .gz: gzip)', load: async () => (await import('./transfer.ts')).exportCommand },
  import: { summary: 'load a file written by export into an empty database', load: async () => (await import('./transfer.ts')).importCommand },
  webhooks: { summary: 'list the webhook notifications waiting, or flush them now (list|flush)', load: async () => (await import('./webhooks.ts')).webhooksCommand },
  'import-projectdata': { summary: 'load pages exported from Project Online\'s ProjectData feed into a PWA site', load: async () => (await import('./import-projectdata.ts')).importProjectDataCommand },
};

/** One line a command: its name, then its summary (the same column as the flags in USAGE). */
export const commandList = (): string => Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(30)}${c.summary}`).join('\n');
