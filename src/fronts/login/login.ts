// Cookie sessions for browsers: GET /_spemu/login (a small sign-in page), POST /_spemu/login
// (form or JSON: upn + password) sets the session cookie, POST /_spemu/logout clears it.
// The cookie is HttpOnly and SameSite=Lax, holds a signed, expiring session (identity/
// sessions.ts) and nothing else; requests that carry it need X-RequestDigest to write.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator } from '../../pipeline/authenticate.ts';
import { RequestBody } from '../../pipeline/body.ts';
import { issueSession, readCookie, SESSION_COOKIE, SESSION_SECONDS, sessionCookieHeader, verifySession } from '../../identity/sessions.ts';

export interface LoginOptions {
  authenticator: Authenticator;
  secret: Uint8Array;
  clock: () => Date;
  /** Largest request body, in bytes. */
  bodyLimit: number;
}

const FAILED = 'The user name or password is incorrect.';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Only a path on this server: never `//other.host` or an absolute URL (no open redirect). */
function safeReturnUrl(value: unknown): string | undefined {
  return typeof value === 'string' && /^\/(?![/\\])/.test(value) && !/[\r\n]/.test(value) ? value : undefined;
}

function page(state: { signedInAs?: string | undefined; error?: string | undefined; returnUrl?: string | undefined; upn?: string | undefined }): string {
  const returnField = state.returnUrl ? `<input type="hidden" name="returnUrl" value="${escapeHtml(state.returnUrl)}">` : '';
  const body = state.signedInAs
    ? `<p>Signed in as <strong>${escapeHtml(state.signedInAs)}</strong>.</p>
       ${state.returnUrl ? `<p><a href="${escapeHtml(state.returnUrl)}">Continue</a></p>` : ''}
       <form method="post" action="/_spemu/logout"><button type="submit">Sign out</button></form>`
    : `${state.error ? `<p class="error" role="alert">${escapeHtml(state.error)}</p>` : ''}
       <form method="post" action="/_spemu/login">
         <label for="upn">User name</label>
         <input id="upn" name="upn" type="email" autocomplete="username" required autofocus value="${escapeHtml(state.upn ?? '')}" placeholder="alice@contoso.onmicrosoft.com">
         <label for="password">Password</label>
         <input id="password" name="password" type="password" autocomplete="current-password" required>
         ${returnField}
         <button type="submit">Sign in</button>
       </form>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · spemu</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, -apple-system, "Segoe UI", sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: Canvas; color: CanvasText; }
  main { width: min(22rem, 90vw); padding: 2rem; border: 1px solid color-mix(in srgb, CanvasText 20%, transparent); border-radius: .5rem; }
  h1 { margin: 0 0 1.25rem; font-size: 1.25rem; font-weight: 600; }
  label { display: block; margin: .75rem 0 .25rem; font-size: .875rem; }
  input { box-sizing: border-box; width: 100%; padding: .5rem; font: inherit; border: 1px solid GrayText; border-radius: .25rem; }
  button { margin-top: 1.25rem; width: 100%; padding: .55rem; font: inherit; font-weight: 600; color: #fff; background: #0f6cbd; border: 0; border-radius: .25rem; cursor: pointer; }
  button:hover { background: #115ea3; }
  .error { margin: 0 0 .5rem; padding: .5rem; color: #a4262c; background: #fde7e9; border-radius: .25rem; }
  .note { margin-top: 1.25rem; font-size: .75rem; opacity: .7; }
</style>
</head>
<body>
<main>
<h1>Sign in to spemu</h1>
${body}
<p class="note">A local SharePoint emulator. The session lasts ${SESSION_SECONDS / 3600} hours.</p>
</main>
</body>
</html>
`;
}

const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

const cookieHeader = (req: FastifyRequest, value: string, maxAge: number) => sessionCookieHeader(value, maxAge, req.publicOrigin.startsWith('https:'));

/** upn, password and returnUrl from a form or JSON body. */
async function readForm(req: FastifyRequest, bodyLimit: number): Promise<{ json: boolean; fields: Record<string, unknown> }> {
  const contentType = String(req.headers['content-type'] ?? '').toLowerCase();
  const text = (await RequestBody.fromRequest(req.body, req.headers['content-length'], bodyLimit)?.bytes())?.toString('utf8') ?? '';
  if (contentType.includes('json')) {
    try {
      const parsed: unknown = JSON.parse(text);
      return { json: true, fields: parsed && typeof parsed === 'object' ? parsed as Record<string, unknown> : {} };
    } catch {
      return { json: true, fields: {} };
    }
  }
  return { json: false, fields: Object.fromEntries(new URLSearchParams(text)) };
}

const wantsJson = (req: FastifyRequest) => String(req.headers.accept ?? '').includes('json');

export function registerLogin(app: FastifyInstance, options: LoginOptions): void {
  app.get('/_spemu/login', async (req, reply) => {
    const query = req.query as Record<string, unknown>;
    const session = readCookie(req.headers.cookie, SESSION_COOKIE);
    const signedInAs = session ? verifySession(options.secret, session, options.clock()) : undefined;
    return reply.code(200).headers(PAGE_HEADERS).send(page({ signedInAs, returnUrl: safeReturnUrl(query.returnUrl ?? query.ReturnUrl ?? query.Source) }));
  });

  app.post('/_spemu/login', async (req: FastifyRequest, reply: FastifyReply) => {
    const { json, fields } = await readForm(req, options.bodyLimit);
    const upn = typeof fields.upn === 'string' ? fields.upn.trim() : '';
    const password = typeof fields.password === 'string' ? fields.password : '';
    const query = req.query as Record<string, unknown>;
    const returnUrl = safeReturnUrl(fields.returnUrl ?? query.returnUrl ?? query.ReturnUrl);
    const user = upn && password ? await options.authenticator.checkPassword(upn, password) : undefined;
    if (!user) {
      // One answer for an unknown user and a wrong password.
      if (json || wantsJson(req)) return reply.code(401).header('Cache-Control', 'no-store').send({ error: 'invalid_grant', error_description: FAILED });
      return reply.code(401).headers(PAGE_HEADERS).send(page({ error: FAILED, returnUrl, upn }));
    }
    const session = issueSession(options.secret, user.upn, options.clock());
    reply.header('Set-Cookie', cookieHeader(req, session.value, SESSION_SECONDS)).header('Cache-Control', 'no-store');
    if (json || wantsJson(req)) return reply.code(200).send({ upn: user.upn, expires: session.expires.toISOString() });
    if (returnUrl) return reply.code(303).header('Location', returnUrl).send();
    return reply.code(200).headers(PAGE_HEADERS).send(page({ signedInAs: user.upn }));
  });

  app.post('/_spemu/logout', async (req, reply) => {
    reply.header('Set-Cookie', cookieHeader(req, '', 0)).header('Cache-Control', 'no-store');
    if (wantsJson(req) || String(req.headers['content-type'] ?? '').includes('json')) return reply.code(204).send();
    return reply.code(303).header('Location', '/_spemu/login').send();
  });
}
