// The 401 every refused credential ends in: SharePoint Online's Bearer challenge (which clients
// such as @pnp/nodejs and node-sp-auth read the realm and authority from), naming spemu's own
// authority at the origin the request came in on, plus Basic when Basic is on.

import { fail } from '../domain/errors.ts';
import { TENANT_ID_KEY } from '../domain/settings.ts';
import { SHAREPOINT_APP_ID } from '../identity/tokens.ts';
import type { StoreReader } from '../store/store.ts';
import type { Challenge } from './caller-identity.ts';

export function createChallenge(store: Pick<StoreReader, 'settings'>, basicAuth: boolean): Challenge {
  // The tenant id is fixed once the tenant is loaded: read it once per process.
  let realm: string | undefined;
  return async (diagnostics, origin, notice) => {
    realm ??= (await store.settings.get(TENANT_ID_KEY)) ?? '00000000-0000-0000-0000-000000000000';
    const issuers = origin ? `${origin}/*/` : 'https://sts.windows.net/*/';
    const authorizationUri = origin ? `${origin}/${realm}/oauth2/authorize` : 'https://login.windows.net/common/oauth2/authorize';
    const bearer = `Bearer realm="${realm}",client_id="${SHAREPOINT_APP_ID}",trusted_issuers="00000001-0000-0000-c000-000000000000@*,D3776938-3DBA-481F-A652-4BEDFCAB7CD8@*,${issuers},00000003-0000-0ff1-ce00-000000000000@90140122-8516-11e1-8eff-49304924019b",authorization_uri="${authorizationUri}"`;
    throw fail.unauthorized(basicAuth ? [bearer, 'Basic realm="spemu"'] : [bearer], diagnostics, notice);
  };
}
