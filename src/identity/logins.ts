// Login names as clients send them to EnsureUser and the site-user lookups: claims logins
// (`i:0#.f|membership|<upn>`, `c:0t.c|tenant|<id>`, …), Windows logins (`i:0#.w|DOMAIN\user`,
// `DOMAIN\user`), plain UPNs and emails, group names and the built-in "Everyone" claims.
// Parsing is pure; resolving looks the name up in the tenant directory.

import type { StoreReader } from '../store/store.ts';
import { TENANT_ID_KEY } from '../domain/settings.ts';
import { EVERYONE_LOGIN, everyoneExceptExternalLogin, type SitePrincipal } from './site-users.ts';

export const EVERYONE_TITLE = 'Everyone';
export const EVERYONE_EXCEPT_EXTERNAL_TITLE = 'Everyone except external users';

/** What a login name says, before the directory is asked. */
export type ParsedLogin =
  /** A UPN or email: `i:0#.f|membership|<x>` or the bare address. */
  | { kind: 'user'; name: string }
  /** A Windows account: `i:0#.w|DOMAIN\user` or `DOMAIN\user`; the domain is not kept. */
  | { kind: 'account'; account: string }
  /** A directory group by id: `c:0t.c|tenant|<id>`, `c:0o.c|federateddirectoryclaimprovider|<id>`. */
  | { kind: 'groupId'; id: string }
  | { kind: 'everyone' }
  | { kind: 'everyoneExceptExternal'; tenantId: string }
  /** No claims prefix and no `@`: a group's display name (or one of the built-in titles). */
  | { kind: 'name'; name: string }
  /** A claims login spemu has no principal for (app principals, other providers). */
  | { kind: 'unknown' };

const USER_CLAIM = /^i:0#\.f\|membership\|(.+)$/i;
const WINDOWS_CLAIM = /^i:0#\.w\|(.+)$/i;
const SECURITY_GROUP_CLAIM = /^c:0t\.c\|tenant\|(.+)$/i;
/** M365 group owners are `<id>_o`: the same group as far as spemu's directory knows. */
const M365_GROUP_CLAIM = /^c:0o\.c\|federateddirectoryclaimprovider\|([^_]+)(?:_o)?$/i;
const EVERYONE_EXCEPT_EXTERNAL_CLAIM = /^c:0-\.f\|rolemanager\|spo-grid-all-users\/(.+)$/i;

export function parseLogin(text: string): ParsedLogin {
  const login = text.trim();
  let m: RegExpExecArray | null;
  if ((m = USER_CLAIM.exec(login))) return { kind: 'user', name: m[1]! };
  if ((m = WINDOWS_CLAIM.exec(login))) return { kind: 'account', account: accountPart(m[1]!) };
  if ((m = SECURITY_GROUP_CLAIM.exec(login)) || (m = M365_GROUP_CLAIM.exec(login))) return { kind: 'groupId', id: m[1]! };
  if (login.toLowerCase() === EVERYONE_LOGIN) return { kind: 'everyone' };
  if ((m = EVERYONE_EXCEPT_EXTERNAL_CLAIM.exec(login))) return { kind: 'everyoneExceptExternal', tenantId: m[1]! };
  // Any other claims encoding (`i:0i.t|…` app principals, `c:0!.s|windows`, …).
  if (/^[ic]:0[^|]*\|/i.test(login)) return { kind: 'unknown' };
  if (login.includes('\\')) return { kind: 'account', account: accountPart(login) };
  if (login.includes('@')) return { kind: 'user', name: login };
  return { kind: 'name', name: login };
}

/** `DOMAIN\user` → `user`. */
const accountPart = (login: string) => login.slice(login.lastIndexOf('\\') + 1);

/** The directory principal a login names, or undefined when there is none (or more than one). */
export async function resolveLogin(store: StoreReader, text: string): Promise<SitePrincipal | undefined> {
  const parsed = parseLogin(text);
  switch (parsed.kind) {
    case 'user': {
      const user = await store.directory.findUser(parsed.name);
      return user ? { kind: 'user', user } : undefined;
    }
    case 'account': {
      // The account name is the part of the UPN before the @, compared ignoring case; a name
      // that several users share resolves to nobody rather than to an arbitrary one of them.
      const wanted = parsed.account.toLowerCase();
      if (!wanted) return undefined;
      const matches = (await store.directory.listUsers()).filter((u) => u.upn.slice(0, u.upn.indexOf('@')).toLowerCase() === wanted);
      return matches.length === 1 ? { kind: 'user', user: matches[0]! } : undefined;
    }
    case 'groupId': {
      const group = await store.directory.findGroup(parsed.id);
      return group && group.id.toLowerCase() === parsed.id.toLowerCase() ? { kind: 'group', group } : undefined;
    }
    case 'everyone':
      return { kind: 'special', loginName: EVERYONE_LOGIN, title: EVERYONE_TITLE };
    case 'everyoneExceptExternal': {
      const tenantId = await store.settings.get(TENANT_ID_KEY);
      return tenantId && tenantId.toLowerCase() === parsed.tenantId.toLowerCase() ? everyoneExceptExternal(tenantId) : undefined;
    }
    case 'name': {
      const lower = parsed.name.toLowerCase();
      if (lower === EVERYONE_TITLE.toLowerCase()) return { kind: 'special', loginName: EVERYONE_LOGIN, title: EVERYONE_TITLE };
      if (lower === EVERYONE_EXCEPT_EXTERNAL_TITLE.toLowerCase()) {
        const tenantId = await store.settings.get(TENANT_ID_KEY);
        return tenantId ? everyoneExceptExternal(tenantId) : undefined;
      }
      if (!lower) return undefined;
      const group = await store.directory.findGroup(parsed.name);
      return group ? { kind: 'group', group } : undefined;
    }
    case 'unknown':
      return undefined;
  }
}

const everyoneExceptExternal = (tenantId: string): SitePrincipal =>
  ({ kind: 'special', loginName: everyoneExceptExternalLogin(tenantId), title: EVERYONE_EXCEPT_EXTERNAL_TITLE });
