// An app acting on its own (an app-only Entra token, or a high-trust add-in token): which
// registered app it is and which application permissions it holds. Shared by every bearer kind
// that can carry an app, so they all refuse the same apps for the same reasons.

import type { StoreReader } from '../store/store.ts';
import { appRoles, findApp, hasSitePermission, type RegisteredApp } from './apps.ts';
import { TOKEN_DIAGNOSTICS } from './tokens.ts';

/** An app acting on its own (an app-only token): its client id and granted application permissions. */
export interface AppCaller {
  clientId: string;
  roles: string[];
  app: RegisteredApp;
}

/**
 * The app-only caller for `clientId`, with `roles` as its token says or (undefined) the app's
 * own permissions; else the 401 diagnostics saying why not. The app is looked up every time:
 * an app removed from the tenant file stops working at once.
 */
export async function findAppCaller(store: Pick<StoreReader, 'settings'>, clientId: string, tokenRoles: string[] | undefined): Promise<AppCaller | { refused: string }> {
  const app = await findApp(store, clientId);
  if (!app) return { refused: TOKEN_DIAGNOSTICS.unknownApp };
  const roles = tokenRoles ?? appRoles(app);
  if (!hasSitePermission(roles)) return { refused: TOKEN_DIAGNOSTICS.unsupportedAppOnly };
  return { clientId: app.clientId, roles, app };
}
