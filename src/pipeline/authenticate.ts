// Who is making the request, and what they may do on the site it addresses: the authenticate
// stage every front shares. This file is the dispatcher; each scheme's verifier is in its own file.
//
// identify():  credentials → a directory user or an app, or 401 with SharePoint Online's challenge
//              (auth-challenge.ts). By the Authorization scheme:
//                Bearer  bearer-tokens.ts picks the token kind: spemu's HS256 (bearer-spemu.ts), an
//                        Entra-shaped RS256 token, delegated or app-only (bearer-entra.ts), or a
//                        high-trust add-in token, app-only (bearer-high-trust.ts);
//                Basic   UPN + password (password-check.ts), when basicAuth is on;
//                NTLM / Negotiate  refused with a notice saying what spemu takes instead.
//              Without Authorization: the session cookie of /_spemu/login; with none, the configured
//              anonymousUser (a local-development convenience), else 401.
// authorize(): that identity on a site → the Principal, or 403 (site-principals.ts).
// Write digests (X-RequestDigest) are issued and checked here too (identity/digest.ts).

import type { Principal, Site } from '../domain/model.ts';
import type { Store } from '../store/store.ts';
import type { DirectoryUser } from '../store/directory.ts';
import { fail } from '../domain/errors.ts';
import type { AuthMode } from '../identity/tokens.ts';
import type { SigningKeys } from '../identity/signing-keys.ts';
import { isDisabled } from '../identity/disabled-users.ts';
import { readCookie, SESSION_COOKIE, verifySession } from '../identity/sessions.ts';
import { checkDigest, issueDigest } from '../identity/digest.ts';
import type { Identity } from './caller-identity.ts';
import { createChallenge } from './auth-challenge.ts';
import { createBearerVerifier } from './bearer-tokens.ts';
import { createPasswordCheck } from './password-check.ts';
import { createSiteAuthorizer } from './site-principals.ts';
import { BASIC_PROVEN_MS, BEARER_PROVEN_MS, ProvenIdentities } from './proven-identities.ts';
import { tokenExpiry } from '../identity/tokens.ts';

// Moved out of this file; still importable from here.
export { callerKey, type AppCaller, type Identity } from './caller-identity.ts';
export { APP_PRINCIPAL_LOGIN, APP_PRINCIPAL_TITLE } from './site-principals.ts';
export { scopeCap } from '../identity/delegated-scopes.ts';

export interface RequestCredentials {
  authorization?: string | undefined;
  cookie?: string | undefined;
  /**
   * The origin the request came in on (req.publicOrigin): an Entra-shaped token's audience
   * must name it (or one of the tenant's hosts), its issuer a host spemu answers for. Without
   * it, Entra-shaped tokens are refused.
   */
  origin?: string | undefined;
}

export interface Authenticator {
  /**
   * The user the credentials prove; SharePoint's 401 when there are none (and no anonymousUser) or
   * they are bad. Answered at once (not a promise) for an Authorization header proven before.
   */
  identify(credentials: RequestCredentials): Identity | Promise<Identity>;
  /** The user on `site`: role and User Information List row (created on first visit); 403 without a role. */
  authorize(site: Site, identity: Identity): Promise<Principal>;
  /** identify, then authorize. */
  authenticate(site: Site, credentials: RequestCredentials): Promise<Principal>;
  /**
   * The X-RequestDigest check for a write: required for cookie and Basic writes (and every
   * write with requireDigest); one that is sent is always checked. 403 when it fails.
   */
  checkWriteDigest(site: Site, principal: Principal, digest: string | undefined): void;
  /** The directory user whose UPN (or email) and password these are; undefined for an unknown user, a wrong password or a disabled account alike. */
  checkPassword(name: string, password: string): Promise<DirectoryUser | undefined>;
  /** A new request digest for the principal on the site (contextinfo's FormDigestValue). */
  issueDigest(site: Site, principal: Principal): string;
  readonly digestTimeoutSeconds: number;
}

export interface AuthenticatorOptions {
  store: Store;
  secret: Uint8Array;
  /** `loose` accepts any well-formed JWT without checking its signature. */
  mode: AuthMode;
  basicAuth: boolean;
  /** A directory user's UPN that requests without credentials act as; undefined: 401. */
  anonymousUser?: string | undefined;
  requireDigest: boolean;
  digestTimeoutSeconds: number;
  clock: () => Date;
  /** The keys Entra-shaped tokens are checked with (identity/signing-keys.ts); none: such tokens are refused. */
  signingKeys?: SigningKeys | undefined;
}


/** Said to a client that starts NTLM or Negotiate (node-sp-auth does for user, password and domain). */
const NO_WINDOWS_AUTH = 'spemu does not support NTLM or Negotiate (Windows) authentication: sign in with forms authentication'
  + ' (node-sp-auth: { username, password, fba: true }), Basic or a Bearer token.';

/** Until when a proven header is taken again: a bearer token until its own `exp`, capped; Basic a while. */
function provenUntil(identity: Identity, authorization: string, now: number): number {
  if (identity.via !== 'bearer') return now + BASIC_PROVEN_MS;
  let exp: number | undefined;
  try {
    exp = tokenExpiry(authorization.trim().replace(/^bearer\s+/i, ''));
  } catch {
    return now; // not a JWT we can read the expiry of: not kept
  }
  return Math.min(now + BEARER_PROVEN_MS, exp === undefined ? Infinity : exp * 1000);
}

export function createAuthenticator(options: AuthenticatorOptions): Authenticator {
  const { store, secret } = options;
  const challenge = createChallenge(store, options.basicAuth);
  const checkPassword = createPasswordCheck(store, secret);
  const bearer = createBearerVerifier({ store, secret, mode: options.mode, clock: options.clock, signingKeys: options.signingKeys, challenge });
  const authorize = createSiteAuthorizer(store, options.clock);

  /** Authorization: Basic — base64 of `name:password`. */
  async function basic(encoded: string, origin: string | undefined): Promise<DirectoryUser> {
    const decoded = Buffer.from(encoded, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return challenge(undefined, origin);
    return (await checkPassword(decoded.slice(0, colon), decoded.slice(colon + 1))) ?? challenge(undefined, origin);
  }

  /** Identities Authorization headers proved, while the store stays as it was (proven-identities.ts). */
  const proven = new ProvenIdentities();

  /**
   * Who the credentials prove, unless it is a disabled account (which signs in by no means).
   * An Authorization header proven before, with nothing in the store changed since, is answered
   * at once from `proven` (no promise to wait for); a cookie or no credentials are checked each
   * time (both are cheap).
   */
  function identify(credentials: RequestCredentials): Identity | Promise<Identity> {
    const authorization = credentials.authorization;
    const key = authorization ? proven.keyOf(authorization, credentials.origin) : undefined;
    const generation = store.generation();
    const now = options.clock().getTime();
    const known = key === undefined ? undefined : proven.get(key, generation, now);
    return known ?? prove(credentials, key, generation, now);
  }

  /** identify's work for credentials not proven before; kept only if nothing changed while it was done. */
  async function prove(credentials: RequestCredentials, key: string | undefined, generation: number, now: number): Promise<Identity> {
    const identity = await identifyAnyone(credentials);
    if (identity.user && await isDisabled(store, identity.user.upn)) return challenge(undefined, credentials.origin);
    // Not kept if the store moved meanwhile: it may rest on a user or key just changed.
    if (key !== undefined && store.generation() === generation) proven.remember(key, identity, generation, now, provenUntil(identity, credentials.authorization!, now));
    return identity;
  }

  async function identifyAnyone(credentials: RequestCredentials): Promise<Identity> {
    const authorization = credentials.authorization?.trim();
    const origin = credentials.origin;
    // An Authorization header is taken before any cookie: a client that sends one means it.
    if (authorization) {
      const [scheme = '', ...rest] = authorization.split(/\s+/);
      const value = rest.join(' ');
      if (/^bearer$/i.test(scheme) && value) return bearer(value, origin);
      if (/^basic$/i.test(scheme) && value && options.basicAuth) return { user: await basic(value, origin), via: 'basic' };
      // Windows authentication is not offered (docs/compatibility.md, "NTLM"): say so, and offer only what spemu takes.
      if (/^(ntlm|negotiate)$/i.test(scheme)) return challenge(undefined, origin, NO_WINDOWS_AUTH);
      return challenge(undefined, origin);
    }
    // The browser's session from /_spemu/login (sessions.ts): signed with the workspace secret.
    const session = readCookie(credentials.cookie, SESSION_COOKIE);
    if (session !== undefined) {
      const upn = verifySession(secret, session, options.clock());
      const user = upn ? await store.directory.findUser(upn) : undefined;
      return user ? { user, via: 'cookie' } : challenge(undefined, origin);
    }
    // No credentials at all: act as the configured local-development user, if there is one.
    if (options.anonymousUser) {
      const user = await store.directory.findUser(options.anonymousUser);
      if (user) return { user, via: 'anonymous' };
    }
    return challenge(undefined, origin);
  }

  return {
    identify,
    authorize,
    authenticate: async (site, credentials) => authorize(site, await identify(credentials)),
    checkPassword,
    issueDigest: (site, principal) => issueDigest(secret, principal.loginName, site.id, options.clock()),
    digestTimeoutSeconds: options.digestTimeoutSeconds,
    checkWriteDigest(site, principal, digest) {
      const sent = digest?.trim();
      if (!sent) {
        if (options.requireDigest || principal.via === 'basic' || principal.via === 'cookie') throw fail.digestInvalid();
        return;
      }
      const result = checkDigest(secret, sent, principal.loginName, site.id, options.clock(), options.digestTimeoutSeconds);
      if (result === 'invalid') throw fail.digestInvalid();
      if (result === 'expired') throw fail.digestExpired();
    },
  };
}
