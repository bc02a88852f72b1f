// Who is making the request, and what they may do on the site it addresses.
//
// identify():  credentials → a directory user, or 401 with SharePoint Online's challenge.
//              Authorization: Basic (UPN + password), Authorization: Bearer (a JWT, see
//              identity/tokens.ts), or the session cookie of /_spemu/login; with none, the
//              configured anonymousUser (a local-development convenience), else 401.
// authorize(): that user on a site → the Principal (role, User Information List row), or
//              403 when the user holds no role there.

import { hasAnyAssignment } from '../identity/effective-permissions.ts';
import { createHmac } from 'node:crypto';
import type { Principal, Site } from '../domain/model.ts';
import type { Store } from '../store/store.ts';
import type { DirectoryUser } from '../store/directory.ts';
import { fail } from '../domain/errors.ts';
import { hashPassword, verifyPassword } from '../identity/passwords.ts';
import { siteRoleOf } from '../identity/roles.ts';
import { ensureSiteUser, findSiteUser, userLogin } from '../identity/site-users.ts';
import { SHAREPOINT_APP_ID, TokenError, tokenExpiry, verifyToken, type AuthMode } from '../identity/tokens.ts';
import { VerifiedTokens } from '../identity/verified-tokens.ts';
import { readCookie, SESSION_COOKIE, verifySession } from '../identity/sessions.ts';
import { checkDigest, issueDigest } from '../identity/digest.ts';
import { isoSeconds } from '../domain/values.ts';
import { TENANT_ID_KEY } from '../domain/settings.ts';

export interface RequestCredentials {
  authorization?: string | undefined;
  cookie?: string | undefined;
}

/** A directory user and how the request proved it is them. */
export interface Identity {
  user: DirectoryUser;
  via: Principal['via'];
}

export interface Authenticator {
  /** The user the credentials prove; SharePoint's 401 when there are none (and no anonymousUser) or they are bad. */
  identify(credentials: RequestCredentials): Promise<Identity>;
  /** The user on `site`: role and User Information List row (created on first visit); 403 without a role. */
  authorize(site: Site, identity: Identity): Promise<Principal>;
  /** identify, then authorize. */
  authenticate(site: Site, credentials: RequestCredentials): Promise<Principal>;
  /**
   * The X-RequestDigest check for a write: required for cookie and Basic writes (and every
   * write with requireDigest); one that is sent is always checked. 403 when it fails.
   */
  checkWriteDigest(site: Site, principal: Principal, digest: string | undefined): void;
  /** The directory user whose UPN (or email) and password these are; undefined for an unknown user or a wrong password alike. */
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
}


/** Said to a client that starts NTLM or Negotiate (node-sp-auth does for user, password and domain). */
const NO_WINDOWS_AUTH = 'spemu does not support NTLM or Negotiate (Windows) authentication: sign in with forms authentication'
  + ' (node-sp-auth: { username, password, fba: true }), Basic or a Bearer token.';

/** Verified Basic credentials are remembered this long, so a scripted client does not pay scrypt per request. */
const BASIC_CACHE_MS = 5 * 60 * 1000;
const BASIC_CACHE_SIZE = 1000;

export function createAuthenticator(options: AuthenticatorOptions): Authenticator {
  const { store, secret } = options;
  let realm: string | undefined;
  let dummyHash: Promise<string> | undefined;
  /** HMAC(secret, upn, password, stored hash) → when the entry lapses. Never the password itself. */
  const basicCache = new Map<string, number>();
  /** Bearer tokens whose signature and claims were checked, until their `exp`. */
  const verifiedTokens = new VerifiedTokens();
  /** In-flight User Information List row creations, so two first requests make one row. */
  const ensuring = new Map<string, Promise<number>>();
  const siteUserIds = new Map<string, number>();

  async function challenge(diagnostics?: string, notice?: string): Promise<never> {
    realm ??= (await store.settings.get(TENANT_ID_KEY)) ?? '00000000-0000-0000-0000-000000000000';
    const bearer = `Bearer realm="${realm}",client_id="${SHAREPOINT_APP_ID}",trusted_issuers="00000001-0000-0000-c000-000000000000@*,D3776938-3DBA-481F-A652-4BEDFCAB7CD8@*,https://sts.windows.net/*/,00000003-0000-0ff1-ce00-000000000000@90140122-8516-11e1-8eff-49304924019b",authorization_uri="https://login.windows.net/common/oauth2/authorize"`;
    throw fail.unauthorized(options.basicAuth ? [bearer, 'Basic realm="spemu"'] : [bearer], diagnostics, notice);
  }

  async function checkPassword(name: string, password: string): Promise<DirectoryUser | undefined> {
    const user = name ? await store.directory.findUser(name) : undefined;
    const stored = user ? await store.directory.passwordHash(user.upn) : undefined;
    if (!user || !stored) {
      // The same work as for a real user, so timing does not tell who exists either.
      await verifyPassword(password, await (dummyHash ??= hashPassword('spemu: no such user')));
      return undefined;
    }
    const key = createHmac('sha256', secret).update(`spemu-basic\n${user.upn.toLowerCase()}\n${password}\n${stored}`).digest('base64url');
    const now = Date.now();
    if ((basicCache.get(key) ?? 0) > now) return user;
    if (!(await verifyPassword(password, stored))) return undefined;
    if (basicCache.size >= BASIC_CACHE_SIZE) {
      for (const [k, until] of basicCache) if (until <= now || basicCache.size >= BASIC_CACHE_SIZE) basicCache.delete(k);
    }
    basicCache.set(key, now + BASIC_CACHE_MS);
    return user;
  }

  async function basic(encoded: string): Promise<DirectoryUser> {
    const decoded = Buffer.from(encoded, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return challenge();
    return (await checkPassword(decoded.slice(0, colon), decoded.slice(colon + 1))) ?? challenge();
  }

  async function bearer(token: string): Promise<DirectoryUser> {
    const now = options.clock();
    let name = verifiedTokens.get(token, now.getTime());
    if (name === undefined) {
      try {
        name = await verifyToken(token, secret, options.mode, now);
      } catch (e) {
        if (e instanceof TokenError) return challenge(e.diagnostics);
        throw e;
      }
      verifiedTokens.remember(token, name, now.getTime(), tokenExpiry(token));
    }
    // The user is looked up every time: a removed user's token stops working at once.
    return (await store.directory.findUser(name)) ?? challenge();
  }

  async function identify(credentials: RequestCredentials): Promise<Identity> {
    const authorization = credentials.authorization?.trim();
    if (authorization) {
      const [scheme = '', ...rest] = authorization.split(/\s+/);
      const value = rest.join(' ');
      if (/^bearer$/i.test(scheme) && value) return { user: await bearer(value), via: 'bearer' };
      if (/^basic$/i.test(scheme) && value && options.basicAuth) return { user: await basic(value), via: 'basic' };
      // Windows authentication is not offered (docs/compatibility.md, "NTLM"): say so, and offer only what spemu takes.
      if (/^(ntlm|negotiate)$/i.test(scheme)) return challenge(undefined, NO_WINDOWS_AUTH);
      return challenge();
    }
    const session = readCookie(credentials.cookie, SESSION_COOKIE);
    if (session !== undefined) {
      const upn = verifySession(secret, session, options.clock());
      const user = upn ? await store.directory.findUser(upn) : undefined;
      return user ? { user, via: 'cookie' } : challenge();
    }
    if (options.anonymousUser) {
      const user = await store.directory.findUser(options.anonymousUser);
      if (user) return { user, via: 'anonymous' };
    }
    return challenge();
  }

  async function siteUserId(site: Site, user: DirectoryUser, siteAdmin: boolean): Promise<number> {
    const key = `${site.id}\n${user.upn.toLowerCase()}`;
    // A user's row, once there, keeps its id for good: look it up once per process.
    const known = siteUserIds.get(key);
    if (known !== undefined) return known;
    let pending = ensuring.get(key);
    if (!pending) {
      pending = ensureSiteUser(store, site, { kind: 'user', user }, { siteAdmin, now: isoSeconds(options.clock().getTime()) })
        .then((row) => { siteUserIds.set(key, row.id); return row.id; });
      ensuring.set(key, pending);
      pending.finally(() => ensuring.delete(key)).catch(() => {});
    }
    return pending;
  }

  async function authorize(site: Site, identity: Identity): Promise<Principal> {
    const role = await siteRoleOf(store.directory, site.id, identity.user.upn);
    if (role === 'none') {
      // No role on the site, but maybe something in it was shared with them (a role assignment on a list or an item).
      const row = await findSiteUser(store, site, userLogin(identity.user.upn));
      const principal: Principal = { userId: row?.id ?? -1, loginName: userLogin(identity.user.upn), upn: identity.user.upn, role, via: identity.via };
      if (row && await hasAnyAssignment(store, site, principal)) return principal;
      throw fail.accessDenied();
    }
    const userId = await siteUserId(site, identity.user, role === 'owner');
    return { userId, loginName: userLogin(identity.user.upn), upn: identity.user.upn, role, via: identity.via };
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
