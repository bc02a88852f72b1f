// Who a request proved to be, before any site is involved: the value identify() hands to
// authorize(), and what throttling charges requests to. Its own file so the bearer verifiers
// and the fronts can name it without importing the authenticator.

import type { Principal, SiteRoleName } from '../domain/model.ts';
import type { DirectoryUser } from '../store/directory.ts';
import type { AppCaller } from '../identity/app-callers.ts';

export type { AppCaller } from '../identity/app-callers.ts';

/** A directory user, or an app acting on its own, and how the request proved it. */
export type Identity =
  /** `scopeCap`: the strongest site role a delegated token's `scp` allows (AllSites.Read: visitor; Write, Manage: member). */
  | { user: DirectoryUser; app?: undefined; via: Principal['via']; scopeCap?: SiteRoleName | undefined }
  | { user?: undefined; app: AppCaller; via: 'bearer' };

/** Who a request is charged to by throttling: the user, or an app acting on its own (`app:<client id>`). */
export const callerKey = (identity: Identity): string => identity.user ? identity.user.upn : `app:${identity.app.clientId}`;

/** SharePoint's 401 for the request's origin (auth-challenge.ts); never returns. */
export type Challenge = (diagnostics?: string, origin?: string, notice?: string) => Promise<never>;
