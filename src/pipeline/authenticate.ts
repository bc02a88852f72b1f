// Who is making the request, and what they may do on the site it addresses.
//
// identify():  credentials → a directory user or an app, or 401 with SharePoint Online's challenge.
//              Authorization: Basic (UPN + password), Authorization: Bearer (an HS256 JWT of
//              `spemu token`, identity/tokens.ts, or an Entra-shaped RS256 token of the identity
//              front, identity/entra-tokens.ts: delegated for a user, app-only for an app, or a
//              high-trust add-in token, identity/high-trust-tokens.ts: app-only), or
//              the session cookie of /_spemu/login; with none, the configured anonymousUser (a
//              local-development convenience), else 401.
// authorize(): that user on a site → the Principal (role, User Information List row), or
//              403 when the user holds no role there. An app-only caller acts as SharePoint's
//              `SHAREPOINT\app` with the role its granted permissions give (identity/apps.ts).

import { hasAnyAssignment } from '../identity/effective-permissions.ts';
import { createHmac } from 'node:crypto';
import type { Principal, Site, SiteRoleName } from '../domain/model.ts';
import { strongerRole } from '../domain/permissions.ts';
import type { Store } from '../store/store.ts';
import type { DirectoryUser } from '../store/directory.ts';
import { fail } from '../domain/errors.ts';
import { hashPassword, verifyPassword } from '../identity/passwords.ts';
import { siteRoleOf } from '../identity/roles.ts';
import { ensureSiteUser, findSiteUser, userLogin } from '../identity/site-users.ts';
import { SHAREPOINT_APP_ID, TOKEN_DIAGNOSTICS, TokenError, tokenExpiry, verifyToken, type AuthMode } from '../identity/tokens.ts';
import { isEntraShaped, verifyEntraToken } from '../identity/entra-tokens.ts';
import { highTrustChecks, isHighTrustShaped, verifyHighTrustToken } from '../identity/high-trust-tokens.ts';
import type { SigningKeys } from '../identity/signing-keys.ts';
import { appRoles, appSiteRole, findApp, hasSitePermission, type RegisteredApp } from '../identity/apps.ts';
import { entraChecks } from './entra-bearer.ts';
import { isDisabled } from '../identity/disabled-users.ts';
import { VerifiedTokens } from '../identity/verified-tokens.ts';
import { readCookie, SESSION_COOKIE, verifySession } from '../identity/sessions.ts';
import { checkDigest, issueDigest } from '../identity/digest.ts';
import { isoSeconds } from '../domain/values.ts';
import { TENANT_ID_KEY } from '../domain/settings.ts';

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

/** An app acting on its own (an app-only token): its client id and granted application permissions. */
export interface AppCaller {
  clientId: string;
  roles: string[];
  app: RegisteredApp;
}

/** Who a request is charged to by throttling: the user, or an app acting on its own (`app:<client id>`). */
export const callerKey = (identity: Identity): string => identity.user ? identity.user.upn : `app:${identity.app.clientId}`;

/** A directory user, or an app acting on its own, and how the request proved it. */
export type Identity =
  /** `scopeCap`: the strongest site role a delegated token's `scp` allows (AllSites.Read: visitor; Write, Manage: member). */
  | { user: DirectoryUser; app?: undefined; via: Principal['via']; scopeCap?: SiteRoleName | undefined }
  | { user?: undefined; app: AppCaller; via: 'bearer' };

/** The login app-only callers act as, and its display name, as SharePoint Online shows them. */
export const APP_PRINCIPAL_LOGIN = 'SHAREPOINT\\app';
export const APP_PRINCIPAL_TITLE = 'SharePoint App';

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

/** Verified Basic credentials are remembered this long, so a scripted client does not pay scrypt per request. */
const BASIC_CACHE_MS = 5 * 60 * 1000;
const BASIC_CACHE_SIZE = 1000;

/**
 * The strongest site role SharePoint's delegated scopes allow: AllSites.FullControl any,
 * AllSites.Manage and AllSites.Write Edit (member), AllSites.Read Read (visitor). A token naming
 * none of them (MyFiles.*, other APIs' scopes) is not capped: spemu has no OneDrive to tell apart.
 */
export function scopeCap(scp: string | undefined): SiteRoleName | undefined {
  const scopes = new Set((scp ?? '').split(' ').map((s) => s.toLowerCase()));
  if (scopes.has('allsites.fullcontrol')) return undefined;
  if (scopes.has('allsites.manage') || scopes.has('allsites.write')) return 'member';
  if (scopes.has('allsites.read')) return 'visitor';
  return undefined;
}

export function createAuthenticator(options: AuthenticatorOptions): Authenticator {
  const { store, secret } = options;
  let realm: string | undefined;
  let dummyHash: Promise<string> | undefined;
  /** HMAC(secret, upn, password, stored hash) → when the entry lapses. Never the password itself. */
  const basicCache = new Map<string, number>();
  /** Bearer tokens whose signature and claims were checked, until their `exp`. */
  const verifiedTokens = new VerifiedTokens();
  /** Entra-shaped tokens checked for an origin (origin + token → who, as JSON), until their `exp`. */
  const entraTokens = new VerifiedTokens();
  /** In-flight User Information List row creations, so two first requests make one row. */
  const ensuring = new Map<string, Promise<number>>();
  const siteUserIds = new Map<string, number>();

  /** SharePoint Online's challenge, naming spemu's own authority at the origin the request came in on. */
  async function challenge(diagnostics?: string, origin?: string, notice?: string): Promise<never> {
    realm ??= (await store.settings.get(TENANT_ID_KEY)) ?? '00000000-0000-0000-0000-000000000000';
    const issuers = origin ? `${origin}/*/` : 'https://sts.windows.net/*/';
    const authorizationUri = origin ? `${origin}/${realm}/oauth2/authorize` : 'https://login.windows.net/common/oauth2/authorize';
    const bearer = `Bearer realm="${realm}",client_id="${SHAREPOINT_APP_ID}",trusted_issuers="00000001-0000-0000-c000-000000000000@*,D3776938-3DBA-481F-A652-4BEDFCAB7CD8@*,${issuers},00000003-0000-0ff1-ce00-000000000000@90140122-8516-11e1-8eff-49304924019b",authorization_uri="${authorizationUri}"`;
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
    if ((basicCache.get(key) ?? 0) > now) return (await isDisabled(store, user.upn)) ? undefined : user;
    if (!(await verifyPassword(password, stored))) return undefined;
    // A disabled account is refused like a wrong password (after the same work): no session, no Basic, no token.
    if (await isDisabled(store, user.upn)) return undefined;
    if (basicCache.size >= BASIC_CACHE_SIZE) {
      for (const [k, until] of basicCache) if (until <= now || basicCache.size >= BASIC_CACHE_SIZE) basicCache.delete(k);
    }
    basicCache.set(key, now + BASIC_CACHE_MS);
    return user;
  }

  async function basic(encoded: string, origin: string | undefined): Promise<DirectoryUser> {
    const decoded = Buffer.from(encoded, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) return challenge(undefined, origin);
    return (await checkPassword(decoded.slice(0, colon), decoded.slice(colon + 1))) ?? challenge(undefined, origin);
  }

  async function bearer(token: string, origin: string | undefined): Promise<Identity> {
    // Checked in both modes: a high-trust token is an app's, never a user token to replay.
    if (isHighTrustShaped(token)) return highTrustBearer(token, origin);
    if (options.mode === 'strict' && isEntraShaped(token)) return entraBearer(token, origin);
    const now = options.clock();
    let name = verifiedTokens.get(token, now.getTime());
    if (name === undefined) {
      try {
        name = await verifyToken(token, secret, options.mode, now);
      } catch (e) {
        if (e instanceof TokenError) return challenge(e.diagnostics, origin);
        throw e;
      }
      verifiedTokens.remember(token, name, now.getTime(), tokenExpiry(token));
    }
    // The user is looked up every time: a removed user's token stops working at once.
    const user = await store.directory.findUser(name);
    return user ? { user, via: 'bearer' } : challenge(undefined, origin);
  }

  /** An Entra-shaped token: checked against our keys, this tenant's issuer and the request's origin (entra-bearer.ts). */
  async function entraBearer(token: string, origin: string | undefined): Promise<Identity> {
    if (!origin || !options.signingKeys) return challenge(undefined, origin);
    const now = options.clock();
    // Keyed by origin too: the audience check depends on it.
    const cacheKey = `${origin}\n${token}`;
    let verified = entraTokens.get(cacheKey, now.getTime());
    if (verified === undefined) {
      try {
        const principal = await verifyEntraToken(token, { keys: options.signingKeys, now, ...(await entraChecks(store, origin)) });
        verified = JSON.stringify(principal.kind === 'user'
          ? { upn: principal.upn, scp: typeof principal.claims.scp === 'string' ? principal.claims.scp : undefined }
          : { clientId: principal.clientId, roles: principal.roles });
        entraTokens.remember(cacheKey, verified, now.getTime(), principal.claims.exp);
      } catch (e) {
        if (e instanceof TokenError) return challenge(e.diagnostics, origin);
        throw e;
      }
    }
    const claims = JSON.parse(verified) as { upn?: string; scp?: string; clientId?: string; roles?: string[] };
    if (claims.upn !== undefined) {
      const user = await store.directory.findUser(claims.upn);
      return user ? { user, via: 'bearer', scopeCap: scopeCap(claims.scp) } : challenge(undefined, origin);
    }
    return appIdentity(claims.clientId ?? '', claims.roles, origin);
  }

  /**
   * An app acting on its own: `roles` as its token says, or (undefined) the app's permissions.
   * The app is looked up every time: an app removed from the tenant file stops working at once.
   */
  async function appIdentity(clientId: string, tokenRoles: string[] | undefined, origin: string | undefined): Promise<Identity> {
    const app = await findApp(store, clientId);
    if (!app) return challenge(TOKEN_DIAGNOSTICS.unknownApp, origin);
    const roles = tokenRoles ?? appRoles(app);
    if (!hasSitePermission(roles)) return challenge(TOKEN_DIAGNOSTICS.unsupportedAppOnly, origin);
    return { app: { clientId: app.clientId, roles, app }, via: 'bearer' };
  }

  /** A high-trust add-in token (identity/high-trust-tokens.ts): app-only, with the app's permissions. */
  async function highTrustBearer(token: string, origin: string | undefined): Promise<Identity> {
    if (!origin) return challenge(undefined, origin);
    const now = options.clock();
    const cacheKey = `high-trust\n${origin}\n${token}`;
    let clientId = entraTokens.get(cacheKey, now.getTime());
    if (clientId === undefined) {
      try {
        const verified = await verifyHighTrustToken(token, await highTrustChecks(store, origin, now));
        clientId = verified.clientId;
        entraTokens.remember(cacheKey, clientId, now.getTime(), verified.exp);
      } catch (e) {
        if (e instanceof TokenError) return challenge(e.diagnostics, origin);
        throw e;
      }
    }
    return appIdentity(clientId, undefined, origin);
  }

  /** Who the credentials prove, unless it is a disabled account (which signs in by no means). */
  async function identify(credentials: RequestCredentials): Promise<Identity> {
    const identity = await identifyAnyone(credentials);
    if (identity.user && await isDisabled(store, identity.user.upn)) return challenge(undefined, credentials.origin);
    return identity;
  }

  async function identifyAnyone(credentials: RequestCredentials): Promise<Identity> {
    const authorization = credentials.authorization?.trim();
    const origin = credentials.origin;
    if (authorization) {
      const [scheme = '', ...rest] = authorization.split(/\s+/);
      const value = rest.join(' ');
      if (/^bearer$/i.test(scheme) && value) return bearer(value, origin);
      if (/^basic$/i.test(scheme) && value && options.basicAuth) return { user: await basic(value, origin), via: 'basic' };
      // Windows authentication is not offered (docs/compatibility.md, "NTLM"): say so, and offer only what spemu takes.
      if (/^(ntlm|negotiate)$/i.test(scheme)) return challenge(undefined, origin, NO_WINDOWS_AUTH);
      return challenge(undefined, origin);
    }
    const session = readCookie(credentials.cookie, SESSION_COOKIE);
    if (session !== undefined) {
      const upn = verifySession(secret, session, options.clock());
      const user = upn ? await store.directory.findUser(upn) : undefined;
      return user ? { user, via: 'cookie' } : challenge(undefined, origin);
    }
    if (options.anonymousUser) {
      const user = await store.directory.findUser(options.anonymousUser);
      if (user) return { user, via: 'anonymous' };
    }
    return challenge(undefined, origin);
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

  /** An app-only caller on a site: `SHAREPOINT\\app`, with the role its grant gives there (403 without one). */
  async function authorizeApp(site: Site, caller: AppCaller): Promise<Principal> {
    const role = appSiteRole(caller.roles, caller.app, site.url);
    if (role === 'none') throw fail.accessDenied();
    const key = `${site.id}\n${APP_PRINCIPAL_LOGIN}`;
    let userId = siteUserIds.get(key);
    if (userId === undefined) {
      const row = await ensureSiteUser(store, site, { kind: 'special', loginName: APP_PRINCIPAL_LOGIN, title: APP_PRINCIPAL_TITLE }, { now: isoSeconds(options.clock().getTime()) });
      siteUserIds.set(key, row.id);
      userId = row.id;
    }
    return { userId, loginName: APP_PRINCIPAL_LOGIN, upn: null, role, via: 'bearer' };
  }

  async function authorize(site: Site, identity: Identity): Promise<Principal> {
    if (identity.app) return authorizeApp(site, identity.app);
    const held = await siteRoleOf(store.directory, site.id, identity.user.upn);
    // A delegated token acts with the user's permissions, no more than its scopes allow.
    const role = identity.scopeCap && held !== 'none' && strongerRole(held, identity.scopeCap) === held ? identity.scopeCap : held;
    if (role === 'none') {
      // No role on the site, but maybe something in it was shared with them (a role assignment on a list or an item).
      const row = await findSiteUser(store, site, userLogin(identity.user.upn));
      const principal: Principal = { userId: row?.id ?? -1, loginName: userLogin(identity.user.upn), upn: identity.user.upn, role, via: identity.via };
      if (!(await hasAnyAssignment(store, site, principal))) throw fail.accessDenied();
      if (row) return principal;
      // Given access only through a claim that covers them ("Everyone except external users", a
      // directory group): they become a site user on first sign-in, as SharePoint adds them.
      const added = await ensureSiteUser(store, site, { kind: 'user', user: identity.user }, { now: isoSeconds(options.clock().getTime()) });
      return { ...principal, userId: added.id };
    }
    const userId = await siteUserId(site, identity.user, held === 'owner');
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
