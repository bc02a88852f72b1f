// Authorization: Bearer — which of the three token kinds spemu takes this one is, told apart by
// its header and claims, and handed to that kind's verifier:
//   high-trust add-in token (bearer-high-trust.ts)  checked in both modes: it is an app's, never a user token to replay;
//   Entra-shaped RS256 token (bearer-entra.ts)      in strict mode (loose mode takes any well-formed JWT as spemu's own);
//   otherwise spemu's HS256 token (bearer-spemu.ts).

import type { Store } from '../store/store.ts';
import type { AuthMode } from '../identity/tokens.ts';
import { isEntraShaped } from '../identity/entra-tokens.ts';
import { isHighTrustShaped } from '../identity/high-trust-tokens.ts';
import type { SigningKeys } from '../identity/signing-keys.ts';
import { VerifiedTokens } from '../identity/verified-tokens.ts';
import type { Challenge, Identity } from './caller-identity.ts';
import { createSpemuBearer } from './bearer-spemu.ts';
import { createEntraBearer } from './bearer-entra.ts';
import { createHighTrustBearer } from './bearer-high-trust.ts';

export interface BearerTokenOptions {
  store: Store;
  secret: Uint8Array;
  mode: AuthMode;
  clock: () => Date;
  signingKeys?: SigningKeys | undefined;
  challenge: Challenge;
}

/** The identity a bearer token proves, or the challenge (401) when it proves none. */
export function createBearerVerifier(options: BearerTokenOptions): (token: string, origin: string | undefined) => Promise<Identity> {
  const { store, clock, challenge } = options;
  /** Tokens checked for an origin (Entra-shaped and high-trust, under different keys), until their `exp`. */
  const originTokens = new VerifiedTokens();
  const spemu = createSpemuBearer({ store, secret: options.secret, mode: options.mode, clock, challenge });
  const entra = createEntraBearer({ store, clock, signingKeys: options.signingKeys, cache: originTokens, challenge });
  const highTrust = createHighTrustBearer({ store, clock, cache: originTokens, challenge });

  return async (token, origin) => {
    if (isHighTrustShaped(token)) return highTrust(token, origin);
    if (options.mode === 'strict' && isEntraShaped(token)) return entra(token, origin);
    return spemu(token, origin);
  };
}
