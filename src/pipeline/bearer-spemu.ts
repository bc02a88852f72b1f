// Authorization: Bearer with an HS256 token of `spemu token` (identity/tokens.ts), signed with
// the workspace secret; in `loose` mode any well-formed JWT. It names a directory user.

import type { Store } from '../store/store.ts';
import { TokenError, tokenExpiry, verifyToken, type AuthMode } from '../identity/tokens.ts';
import { VerifiedTokens } from '../identity/verified-tokens.ts';
import type { Challenge, Identity } from './caller-identity.ts';

export interface SpemuBearerOptions {
  store: Store;
  secret: Uint8Array;
  mode: AuthMode;
  clock: () => Date;
  challenge: Challenge;
}

export function createSpemuBearer(options: SpemuBearerOptions): (token: string, origin: string | undefined) => Promise<Identity> {
  const { store, challenge } = options;
  /** Tokens whose signature and claims were checked (token → user name), until their `exp`. */
  const verifiedTokens = new VerifiedTokens();

  return async (token, origin) => {
    const now = options.clock();
    let name = verifiedTokens.get(token, now.getTime());
    if (name === undefined) {
      try {
        name = await verifyToken(token, options.secret, options.mode, now);
      } catch (e) {
        if (e instanceof TokenError) return challenge(e.diagnostics, origin);
        throw e;
      }
      verifiedTokens.remember(token, name, now.getTime(), tokenExpiry(token));
    }
    // The user is looked up every time: a removed user's token stops working at once.
    const user = await store.directory.findUser(name);
    return user ? { user, via: 'bearer' } : challenge(undefined, origin);
  };
}
