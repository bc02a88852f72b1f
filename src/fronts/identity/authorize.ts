// `/{tenant}/oauth2/v2.0/authorize` (and v1.0 `/oauth2/authorize`): the authorization code flow
// with PKCE, as MSAL browser and other public or confidential clients start it. The sign-in UI
// is `/_spemu/login`: without a session the browser goes there and comes back; with one, the
// code is sent to the redirect URI at once (spemu asks no consent). The redirect URI must be one
// registered on the app (a loopback one with any port, RFC 8252), checked before anything is sent
// there: until then errors are Entra's JSON, after it they go to the redirect URI as OAuth says.

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FrontDeps } from '../../pipeline/deps.ts';
import { findApp, type RegisteredApp } from '../../identity/apps.ts';
import { issueAuthCode } from '../../identity/auth-codes.ts';
import { readCookie, SESSION_COOKIE, verifySession } from '../../identity/sessions.ts';
import type { TenantNames } from '../../identity/tenant-names.ts';
import { EntraError, entraErrors } from './errors.ts';
import { requestedScopes } from './token.ts';

const LOOPBACK = ['localhost', '127.0.0.1', '[::1]'];

/** Registered exactly, or a loopback redirect registered with another port (RFC 8252 §7.3). */
export function redirectAllowed(app: RegisteredApp, uri: string): boolean {
  if (app.redirectUris.includes(uri)) return true;
  let asked: URL;
  try {
    asked = new URL(uri);
  } catch {
    return false;
  }
  if (asked.protocol !== 'http:' || !LOOPBACK.includes(asked.hostname)) return false;
  return app.redirectUris.some((registered) => {
    try {
      const r = new URL(registered);
      return r.protocol === 'http:' && r.hostname === asked.hostname && r.pathname === asked.pathname;
    } catch {
      return false;
    }
  });
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Sends the answer to the client: query (the default for code), fragment or form_post. */
function respond(reply: FastifyReply, redirectUri: string, mode: string, values: Record<string, string>): FastifyReply {
  if (mode === 'form_post') {
    const inputs = Object.entries(values).map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`).join('');
    return reply.code(200).headers({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' })
      .send(`<!doctype html><html><body onload="document.forms[0].submit()"><form method="post" action="${escapeHtml(redirectUri)}">${inputs}<noscript><button type="submit">Continue</button></noscript></form></body></html>`);
  }
  const url = new URL(redirectUri);
  const params = new URLSearchParams(values);
  if (mode === 'fragment') url.hash = params.toString();
  else for (const [k, v] of params) url.searchParams.append(k, v);
  return reply.code(302).header('Location', url.toString()).header('Cache-Control', 'no-store').send();
}

export async function authorize(req: FastifyRequest, reply: FastifyReply, deps: FrontDeps, version: 1 | 2, names: TenantNames, tenantHosts: readonly string[]): Promise<{ sent: FastifyReply } | { error: EntraError }> {
  const query = new URLSearchParams(req.url.slice(req.url.indexOf('?') + 1 || req.url.length));
  const clientId = query.get('client_id') ?? '';
  if (!clientId) return { error: entraErrors.missingParameter('client_id') };
  const app = await findApp(deps.store, clientId);
  if (!app) return { error: entraErrors.unknownApp(clientId, names.tenantName) };
  const redirectUri = query.get('redirect_uri') ?? app.redirectUris[0] ?? '';
  if (!redirectUri || !redirectAllowed(app, redirectUri)) return { error: entraErrors.redirectMismatch(redirectUri, app.clientId) };
  const state = query.get('state');
  const mode = query.get('response_mode') ?? 'query';
  // From here errors go back to the client, with its state.
  const fail = (err: EntraError) => ({ sent: respond(reply, redirectUri, mode, {
    error: err.error, error_description: `AADSTS${err.code}: ${err.description}`, ...(state !== null ? { state } : {}),
  }) });
  const responseType = query.get('response_type') ?? '';
  if (responseType !== 'code') return fail(entraErrors.unsupportedResponseType(responseType));
  const challenge = query.get('code_challenge') ?? undefined;
  const method = query.get('code_challenge_method') ?? (challenge ? 'plain' : undefined);
  if (challenge !== undefined && ((method !== 'S256' && method !== 'plain') || !/^[A-Za-z0-9\-._~]{43,128}$/.test(challenge))) return fail(entraErrors.badChallengeMethod());
  let scopes;
  try {
    const scopeParams = new URLSearchParams(query);
    scopes = requestedScopes({ version, params: scopeParams, origin: req.publicOrigin, tenantHosts, names });
  } catch (e) {
    if (e instanceof EntraError) return fail(e);
    throw e;
  }
  // The sign-in: the session of /_spemu/login, else a trip there and back to this same URL.
  const session = readCookie(req.headers.cookie, SESSION_COOKIE);
  const upn = session ? verifySession(deps.secret, session, deps.clock()) : undefined;
  const user = upn ? await deps.store.directory.findUser(upn) : undefined;
  if (!user || query.get('prompt') === 'login') {
    if (query.get('prompt') === 'none') return fail(new EntraError(400, 'login_required', 50058, 'A silent sign-in request was sent but no user is signed in.'));
    const back = new URL(req.url, 'http://x');
    back.searchParams.delete('prompt');
    return { sent: reply.code(303).header('Location', `/_spemu/login?returnUrl=${encodeURIComponent(back.pathname + back.search)}`).send() };
  }
  const code = await issueAuthCode(deps.secret, {
    upn: user.upn, clientId: app.clientId, redirectUri: query.get('redirect_uri') ?? '', scopes: scopes.names, oidc: scopes.oidc, resource: scopes.resource,
    codeChallenge: challenge, codeChallengeMethod: method as 'S256' | 'plain' | undefined, nonce: query.get('nonce') ?? undefined,
  }, deps.clock());
  return { sent: respond(reply, redirectUri, mode, { code, ...(state !== null ? { state } : {}), session_state: user.objectId }) };
}
