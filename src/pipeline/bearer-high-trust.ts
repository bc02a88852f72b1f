// Authorization: Bearer with a high-trust add-in token (identity/high-trust-tokens.ts: signed by
// a trusted issuer's certificate, for this request's origin). Always app-only, acting with the
// registered app's own permissions.

import type { Store } from '../store/store.ts';
import { TENANT_HOSTS_KEY, TENANT_TRUSTED_ISSUERS_KEY } from '../domain/settings.ts';
import { TokenError } from '../identity/tokens.ts';
import { highTrustChecks, verifyHighTrustToken } from '../identity/high-trust-tokens.ts';
import type { VerifiedTokens } from '../identity/verified-tokens.ts';
import { findAppCaller } from '../identity/app-callers.ts';
import type { Challenge, Identity } from './caller-identity.ts';

export interface HighTrustBearerOptions {
  store: Store;
  clock: () => Date;
  /** Tokens checked for an origin (origin + token → client id), until their `exp`. */
  cache: VerifiedTokens;
  challenge: Challenge;
}

export function createHighTrustBearer(options: HighTrustBearerOptions): (token: string, origin: string | undefined) => Promise<Identity> {
  const { store, cache, challenge } = options;

  return async (token, origin) => {
    if (!origin) return challenge(undefined, origin);
    const now = options.clock();
    // A verification holds only under the trust it was made with: the trusted issuers (their
    // certificates) and the tenant's host names, which another instance started with a new tenant
    // file may have changed (two cached settings reads).
    const trust = `${await store.settings.get(TENANT_TRUSTED_ISSUERS_KEY) ?? ''}\n${await store.settings.get(TENANT_HOSTS_KEY) ?? ''}`;
    const cacheKey = `high-trust\n${origin}\n${trust}\n${token}`;
    let clientId = cache.get(cacheKey, now.getTime());
    if (clientId === undefined) {
      try {
        const verified = await verifyHighTrustToken(token, await highTrustChecks(store, origin, now));
        clientId = verified.clientId;
        cache.remember(cacheKey, clientId, now.getTime(), verified.exp);
      } catch (e) {
        if (e instanceof TokenError) return challenge(e.diagnostics, origin);
        throw e;
      }
    }
    const caller = await findAppCaller(store, clientId, undefined);
    return 'refused' in caller ? challenge(caller.refused, origin) : { app: caller, via: 'bearer' };
  };
}
