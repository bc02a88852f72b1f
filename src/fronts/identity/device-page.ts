// `/_spemu/devicelogin`: where a user finishes a device-code sign-in (Entra's
// microsoft.com/devicelogin). Signed in through `/_spemu/login` (the session cookie; without
// one the page sends the browser there and back), the user enters the code the device showed
// and approves or declines. The session cookie is SameSite=Lax, so no other site can post here
// in the user's name.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FrontDeps } from '../../pipeline/deps.ts';
import { RequestBody } from '../../pipeline/body.ts';
import { readCookie, SESSION_COOKIE, verifySession } from '../../identity/sessions.ts';
import { findDeviceRequest, isExpired, setDeviceState } from '../../identity/device-codes.ts';

export const DEVICE_LOGIN_PATH = '/_spemu/devicelogin';

const HEADERS = { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'X-Frame-Options': 'DENY', 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'" };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(upn: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>spemu device sign-in</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem}input{font-size:1.2rem;letter-spacing:.1em;width:100%;margin:.5rem 0}button{margin:.5rem .5rem 0 0;padding:.4rem 1rem}.error{color:#a80000}</style></head>
<body><h1>Sign in on another device</h1><p>Signed in as <strong>${escapeHtml(upn)}</strong>.</p>${body}</body></html>`;
}

const codeForm = (code = '', error = '') => `${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="${DEVICE_LOGIN_PATH}"><label for="code">Enter the code shown on your device</label>
<input id="code" name="code" autocomplete="off" required autofocus value="${escapeHtml(code)}">
<button type="submit" name="decision" value="approve">Approve</button><button type="submit" name="decision" value="decline">Decline</button></form>`;

function signedIn(req: FastifyRequest, deps: FrontDeps): string | undefined {
  const session = readCookie(req.headers.cookie, SESSION_COOKIE);
  return session ? verifySession(deps.secret, session, deps.clock()) : undefined;
}

export function registerDevicePage(app: FastifyInstance, deps: FrontDeps): void {
  app.get(DEVICE_LOGIN_PATH, async (req: FastifyRequest, reply: FastifyReply) => {
    const upn = signedIn(req, deps);
    if (!upn) return reply.code(303).header('Location', `/_spemu/login?returnUrl=${encodeURIComponent(DEVICE_LOGIN_PATH)}`).send();
    return reply.code(200).headers(HEADERS).send(page(upn, codeForm()));
  });

  app.post(DEVICE_LOGIN_PATH, async (req: FastifyRequest, reply: FastifyReply) => {
    const upn = signedIn(req, deps);
    if (!upn) return reply.code(303).header('Location', `/_spemu/login?returnUrl=${encodeURIComponent(DEVICE_LOGIN_PATH)}`).send();
    const text = (await RequestBody.fromRequest(req.body, req.headers['content-length'], deps.bodyLimit)?.bytes())?.toString('utf8') ?? '';
    const form = new URLSearchParams(text);
    const code = form.get('code') ?? '';
    const request = await findDeviceRequest(deps.store, code);
    if (!request || request.state !== 'pending' || isExpired(request, deps.clock())) {
      return reply.code(400).headers(HEADERS).send(page(upn, codeForm(code, 'That code is not valid, or has expired, or was already used. Check it and try again.')));
    }
    const approve = form.get('decision') !== 'decline';
    await setDeviceState(deps.store, request, approve ? 'approved' : 'declined', upn);
    const done = approve
      ? `<p>You have signed in to <strong>${escapeHtml(request.appDisplayName)}</strong> on your device. You may close this window.</p>`
      : `<p>You declined to sign in to <strong>${escapeHtml(request.appDisplayName)}</strong>.</p>`;
    return reply.code(200).headers(HEADERS).send(page(upn, done));
  });
}
