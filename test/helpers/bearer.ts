// A bearer token for a directory user, signed with a test server's `tokenSecret`: how the
// PnPjs tests act as an owner, a member or a visitor in one process.

import { SignJWT } from 'jose';

export async function bearerFor(secret: string, upn: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const jwt = await new SignJWT({ upn }).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(now).setNotBefore(now)
    .setExpirationTime(now + 3600).sign(new TextEncoder().encode(secret));
  return `Bearer ${jwt}`;
}
