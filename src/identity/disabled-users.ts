// Disabled accounts (`accountEnabled: false` in the tenant file), as Entra ID has them: they
// cannot sign in by any means and get no token. One setting, written by the tenant loader.

import { TENANT_DISABLED_USERS_KEY } from '../domain/settings.ts';
import type { StoreReader } from '../store/store.ts';

let parsed: { text: string; upns: Set<string> } | undefined;

export async function isDisabled(store: Pick<StoreReader, 'settings'>, upn: string): Promise<boolean> {
  const text = (await store.settings.get(TENANT_DISABLED_USERS_KEY)) ?? '[]';
  if (parsed?.text !== text) parsed = { text, upns: new Set(JSON.parse(text) as string[]) };
  return parsed.upns.has(upn.toLowerCase());
}
