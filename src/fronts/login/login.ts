// Cookie sessions for browsers: GET /_spemu/login (a small sign-in page), POST /_spemu/login
// (form or JSON: upn + password) sets the session cookie, POST /_spemu/logout clears it.
// The cookie is HttpOnly and SameSite=Lax, holds a signed, expiring session (identity/
// sessions.ts) and nothing else; requests that carry it need X-RequestDigest to write.
// The page and the sign-in itself are shared with SharePoint's forms page (pipeline/sign-in-page.ts).

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticator } from '../../pipeline/authenticate.ts';
import { readCookie, SESSION_COOKIE, verifySession } from '../../identity/sessions.ts';
import { escapeHtml, PAGE_HEADERS, readBodyText, safeReturnUrl, sessionCookie, signIn, signInDocument, signInForm } from '../../pipeline/sign-in-page.ts';

export interface LoginOptions {
  authenticator: Authenticator;
  secret: Uint8Array;
  clock: () => Date;
  /** Largest request body, in bytes. */
  bodyLimit: number;
}

const FAILED = 'The user name or password is incorrect.';

function page(state: { signedInAs?: string | undefined; error?: string | undefined; returnUrl?: string | undefined; upn?: string | undefined }): string {
  const body = state.signedInAs
    ? `<p>Signed in as <strong>${escapeHtml(state.signedInAs)}</strong>.</p>
       ${state.returnUrl ? `<p><a href="${escapeHtml(state.returnUrl)}">Continue</a></p>` : ''}
       <form method="post" action="/_spemu/logout"><button type="submit">Sign out</button></form>`
    : signInForm({
      action: '/_spemu/login', userField: 'upn', passwordField: 'password', error: state.error, upn: state.upn,
      hidden: state.returnUrl ? { returnUrl: state.returnUrl } : {},
    });
  return signInDocument('Sign in to spemu', body);
}

/** upn, password and returnUrl from a form or JSON body. */
async function readForm(req: FastifyRequest, bodyLimit: number): Promise<{ json: boolean; fields: Record<string, unknown> }> {
  const contentType = String(req.headers['content-type'] ?? '').toLowerCase();
  const text = await readBodyText(req, bodyLimit);
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
    const session = await signIn(options, req, upn, password);
    if (!session) {
      // One answer for an unknown user and a wrong password.
      if (json || wantsJson(req)) return reply.code(401).header('Cache-Control', 'no-store').send({ error: 'invalid_grant', error_description: FAILED });
      return reply.code(401).headers(PAGE_HEADERS).send(page({ error: FAILED, returnUrl, upn }));
    }
    reply.header('Set-Cookie', session.cookie).header('Cache-Control', 'no-store');
    if (json || wantsJson(req)) return reply.code(200).send({ upn: session.upn, expires: session.expires.toISOString() });
    if (returnUrl) return reply.code(303).header('Location', returnUrl).send();
    return reply.code(200).headers(PAGE_HEADERS).send(page({ signedInAs: session.upn }));
  });

  app.post('/_spemu/logout', async (req, reply) => {
    reply.header('Set-Cookie', sessionCookie(req, '', 0)).header('Cache-Control', 'no-store');
    if (wantsJson(req) || String(req.headers['content-type'] ?? '').includes('json')) return reply.code(204).send();
    return reply.code(303).header('Location', '/_spemu/login').send();
  });
}
