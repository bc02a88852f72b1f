// Who may change how spemu behaves at run time (fault rules, throttling): a directory user
// who proves who they are as for `/_api` (Basic, Bearer, the session cookie, or the
// anonymous user) and owns at least one site of the tenant — the closest spemu has to a
// SharePoint administrator (identity/tenant-admins.ts). Anyone else: SharePoint's 401, or 403.

import type { FastifyRequest } from 'fastify';
import type { FrontDeps } from '../../pipeline/deps.ts';
import { ownsAnySite } from '../../identity/tenant-admins.ts';
import { errors } from '../../wire/errors.ts';

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export async function requireAdmin(req: FastifyRequest, deps: FrontDeps): Promise<string> {
  const identity = await deps.authenticator.identify({ authorization: first(req.headers.authorization), cookie: first(req.headers.cookie) });
  // Apps act on sites, not on spemu: run-time switches are for people.
  if (!identity.user) throw errors.accessDenied();
  if (await ownsAnySite(deps.store, identity.user.upn)) return identity.user.upn;
  throw errors.accessDenied();
}
