// Browser sessions: a cookie carrying `<payload>.<mac>`, the payload naming the user and
// when the session ends, the MAC an HMAC-SHA256 of it with the workspace secret. Nothing is
// stored on the server, so every instance sharing the secret accepts it; logging out
// clears the cookie (a copy kept elsewhere stays valid until it expires).

import { createHmac, timingSafeEqual } from 'node:crypto';

/** SharePoint Online's session cookie name; spemu's value is its own signed session. */
export const SESSION_COOKIE = 'FedAuth';
/** How long a session lasts: a working day. */
export const SESSION_SECONDS = 12 * 3600;

const mac = (secret: Uint8Array, payload: string) => createHmac('sha256', secret).update(`spemu-session\n${payload}`).digest();

export function issueSession(secret: Uint8Array, upn: string, now: Date): { value: string; expires: Date } {
  const expires = new Date(now.getTime() + SESSION_SECONDS * 1000);
  const payload = Buffer.from(JSON.stringify({ upn, exp: Math.floor(expires.getTime() / 1000) })).toString('base64url');
  return { value: `${payload}.${mac(secret, payload).toString('base64url')}`, expires };
}

/** The user of a genuine, unexpired session value; undefined otherwise. */
export function verifySession(secret: Uint8Array, value: string, now: Date): string | undefined {
  const [payload, signature, extra] = value.split('.');
  if (!payload || !signature || extra !== undefined) return undefined;
  const expected = mac(secret, payload);
  const sent = Buffer.from(signature, 'base64url');
  if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) return undefined;
  try {
    const { upn, exp } = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { upn?: unknown; exp?: unknown };
    if (typeof upn !== 'string' || typeof exp !== 'number' || exp * 1000 <= now.getTime()) return undefined;
    return upn;
  } catch {
    return undefined;
  }
}

/** A cookie's value from a Cookie header, or undefined. */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const raw = part.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
      try {
        return decodeURIComponent(raw);
      } catch {
        return raw;
      }
    }
  }
  return undefined;
}

/** The Set-Cookie header for a session value (an empty value with max-age 0 signs out). */
export function sessionCookieHeader(value: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
