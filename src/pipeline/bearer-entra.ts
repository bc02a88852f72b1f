// Authorization: Bearer with an Entra-shaped RS256 token of spemu's identity front
// (identity/entra-tokens.ts checks signature and lifetime; entra-issuer-audience.ts what its
// issuer and audience must say for this request's origin). Delegated tokens name a directory user,
// capped by their scopes; app-only tokens name a registered app with the roles they carry.

import type { Store } from '../store/store.ts';
import { TokenError } from '../identity/tokens.ts';
import { verifyEntraToken } from '../identity/entra-tokens.ts';
import type { SigningKeys } from '../identity/signing-keys.ts';
import type { VerifiedTokens } from '../identity/verified-tokens.ts';
import { findAppCaller } from '../identity/app-callers.ts';
import { scopeCap } from '../identity/delegated-scopes.ts';
import { entraChecks } from './entra-issuer-audience.ts';
import { TENANT_HOSTS_KEY, TENANT_ID_KEY } from '../domain/settings.ts';
import type { Challenge, Identity } from './caller-identity.ts';

export interface EntraBearerOptions {
  store: Store;
  clock: () => Date;
  /** The keys such tokens are checked with; none: every Entra-shaped token is refused. */
  signingKeys?: SigningKeys | undefined;
  /** Tokens checked for an origin (origin + token → who, as JSON), until their `exp`. */
  cache: VerifiedTokens;
  challenge: Challenge;
}

export function createEntraBearer(options: EntraBearerOptions): (token: string, origin: string | undefined) => Promise<Identity> {
  const { store, cache, challenge } = options;

  return async (token, origin) => {
    if (!origin || !options.signingKeys) return challenge(undefined, origin);
    const now = options.clock();
    // Keyed by origin too: the audience check depends on it. And by what entraChecks reads: a
    // verification holds only under the tenant id and host names it was checked against, which
    // another instance started with a new tenant file may have changed (two cached settings reads).
    const trust = `${await store.settings.get(TENANT_ID_KEY) ?? ''}\n${await store.settings.get(TENANT_HOSTS_KEY) ?? ''}`;
    const cacheKey = `entra\n${origin}\n${trust}\n${token}`;
    let verified = cache.get(cacheKey, now.getTime());
    if (verified === undefined) {
      try {
        const principal = await verifyEntraToken(token, { keys: options.signingKeys, now, ...(await entraChecks(store, origin)) });
        verified = JSON.stringify(principal.kind === 'user'
          ? { upn: principal.upn, scp: typeof principal.claims.scp === 'string' ? principal.claims.scp : undefined }
          : { clientId: principal.clientId, roles: principal.roles });
        cache.remember(cacheKey, verified, now.getTime(), principal.claims.exp);
      } catch (e) {
        if (e instanceof TokenError) return challenge(e.diagnostics, origin);
        throw e;
      }
    }
    const claims = JSON.parse(verified) as { upn?: string; scp?: string; clientId?: string; roles?: string[] };
    if (claims.upn !== undefined) {
      // The user is looked up every time: a removed user's token stops working at once.
      const user = await store.directory.findUser(claims.upn);
      return user ? { user, via: 'bearer', scopeCap: scopeCap(claims.scp) } : challenge(undefined, origin);
    }
    const caller = await findAppCaller(store, claims.clientId ?? '', claims.roles);
    return 'refused' in caller ? challenge(caller.refused, origin) : { app: caller, via: 'bearer' };
  };
}
