// A directory user's UPN (or email) and password, checked: for Authorization: Basic and for the
// sign-in page. scrypt is slow on purpose, so a verified pair is remembered a while (keyed by an
// HMAC, never the password), and an unknown user costs the same work as a known one.

import { createHmac } from 'node:crypto';
import type { Store } from '../store/store.ts';
import type { DirectoryUser } from '../store/directory.ts';
import { hashPassword, verifyPassword } from '../identity/passwords.ts';
import { isDisabled } from '../identity/disabled-users.ts';

/** Verified Basic credentials are remembered this long, so a scripted client does not pay scrypt per request. */
const BASIC_CACHE_MS = 5 * 60 * 1000;
const BASIC_CACHE_SIZE = 1000;

/** The user these are; undefined for an unknown user, a wrong password or a disabled account alike. */
export type PasswordCheck = (name: string, password: string) => Promise<DirectoryUser | undefined>;

export function createPasswordCheck(store: Store, secret: Uint8Array): PasswordCheck {
  let dummyHash: Promise<string> | undefined;
  /** HMAC(secret, upn, password, stored hash) → when the entry lapses. Never the password itself. */
  const basicCache = new Map<string, number>();

  return async (name, password) => {
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
  };
}
