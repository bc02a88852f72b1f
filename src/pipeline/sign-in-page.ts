// What the two browser sign-in pages share: spemu's own (`/_spemu/login`, fronts/login) and
// SharePoint's forms sign-in page (`/_forms/default.aspx`, fronts/forms). One HTML shell and
// form, the same headers, the same reading of a posted form, the same check of where to go
// afterwards, and one way to sign in: the shared password check, then the FedAuth session cookie.

import type { FastifyRequest } from 'fastify';
import { issueSession, SESSION_SECONDS, sessionCookieHeader } from '../identity/sessions.ts';
import type { Authenticator } from './authenticate.ts';
import { RequestBody } from './body.ts';

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** Headers of every sign-in page: never cached, never framed, posting only to this origin. */
export const PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/**
 * Where to go after signing in: a path on this server (never `//other.host`), or an absolute URL
 * of this same origin (then its path). Anything else is undefined: no open redirect.
 */
export function safeReturnUrl(value: unknown, origin?: string): string | undefined {
  if (typeof value !== 'string' || /[\r\n]/.test(value)) return undefined;
  if (/^\/(?![/\\])/.test(value)) return value;
  if (!origin || !/^https?:\/\//i.test(value)) return undefined;
  try {
    const url = new URL(value);
    return url.origin === new URL(origin).origin ? `${url.pathname}${url.search}${url.hash}` : undefined;
  } catch {
    return undefined;
  }
}

/** A posted body as text (form-encoded or JSON is the caller's to read). */
export async function readBodyText(req: FastifyRequest, bodyLimit: number): Promise<string> {
  return (await RequestBody.fromRequest(req.body, req.headers['content-length'], bodyLimit)?.bytes())?.toString('utf8') ?? '';
}

export interface SignInForm {
  /** Where the form posts (escaped here). */
  action: string;
  /** The input names for the user name and the password, and the submit button's, if named. */
  userField: string;
  passwordField: string;
  submitField?: string;
  /** Hidden inputs posted back as they are. */
  hidden?: Record<string, string>;
  error?: string | undefined;
  /** The user name to show again after a failed attempt. */
  upn?: string | undefined;
}

/** The sign-in form: user name, password, hidden fields, an error above them when there is one. */
export function signInForm(form: SignInForm): string {
  const hidden = Object.entries(form.hidden ?? {})
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" id="${escapeHtml(name)}" value="${escapeHtml(value)}">`).join('\n         ');
  return `${form.error ? `<p class="error" role="alert">${escapeHtml(form.error)}</p>` : ''}
       <form method="post" action="${escapeHtml(form.action)}">
         ${hidden}
         <label for="upn">User name</label>
         <input id="upn" name="${escapeHtml(form.userField)}" type="email" autocomplete="username" required autofocus value="${escapeHtml(form.upn ?? '')}" placeholder="alice@contoso.onmicrosoft.com">
         <label for="password">Password</label>
         <input id="password" name="${escapeHtml(form.passwordField)}" type="password" autocomplete="current-password" required>
         <button type="submit"${form.submitField ? ` name="${escapeHtml(form.submitField)}" value="Sign In"` : ''}>Sign in</button>
       </form>`;
}

/** The page around a sign-in form (or a signed-in notice). */
export function signInDocument(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
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
<h1>${escapeHtml(title)}</h1>
${body}
<p class="note">A local SharePoint emulator. The session lasts ${SESSION_SECONDS / 3600} hours.</p>
</main>
</body>
</html>
`;
}

export interface SignInDeps {
  authenticator: Authenticator;
  secret: Uint8Array;
  clock: () => Date;
}

/**
 * Checks a user name and password (one answer for an unknown user and a wrong password) and,
 * when they are right, makes the FedAuth session: its Set-Cookie header and when it ends.
 */
export async function signIn(deps: SignInDeps, req: FastifyRequest, upn: string, password: string): Promise<{ upn: string; cookie: string; expires: Date } | undefined> {
  const user = upn && password ? await deps.authenticator.checkPassword(upn, password) : undefined;
  if (!user) return undefined;
  const session = issueSession(deps.secret, user.upn, deps.clock());
  return { upn: user.upn, cookie: sessionCookie(req, session.value, SESSION_SECONDS), expires: session.expires };
}

/** The session cookie's Set-Cookie header (`Secure` over HTTPS); an empty value with max-age 0 signs out. */
export const sessionCookie = (req: FastifyRequest, value: string, maxAge: number) => sessionCookieHeader(value, maxAge, req.publicOrigin.startsWith('https:'));
