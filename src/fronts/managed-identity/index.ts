// Front: a managed-identity endpoint, so clients that run "in Azure" get a token from spemu
// with no stand-in (`--managed-identity <upn|app client id>`). Two of Azure's protocols, both GET:
//
//   /_spemu/managed-identity/token   App Service / Functions (IDENTITY_ENDPOINT + IDENTITY_HEADER,
//                                    or the older MSI_ENDPOINT + MSI_SECRET): the caller shows
//                                    X-IDENTITY-HEADER, the workspace's own secret.
//   /metadata/identity/oauth2/token  IMDS (and Cloud Shell's MSI_ENDPOINT form): no secret but
//                                    `Metadata: true`, so, as IMDS is reachable only from its own
//                                    machine, spemu answers it only to loopback peers.

import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { FrontDeps } from '../../pipeline/deps.ts';
import { firstHeader } from '../../pipeline/request.ts';
import { peerTrust } from '../../pipeline/origin.ts';
import { newRequestId } from '../../wire/headers.ts';
import { TENANT_ID_KEY } from '../../domain/settings.ts';
import { findManagedIdentity, identityIds, issueManagedIdentityToken, isManagedIdentityHeader, namesIdentity } from '../../identity/managed-identity.ts';

export interface ManagedIdentityOptions {
  deps: FrontDeps;
  /** `--managed-identity`: the app's client id or the directory user's UPN; undefined: none is assigned. */
  identity: string | undefined;
}

export const APP_SERVICE_PATH = '/_spemu/managed-identity/token';
export const IMDS_PATH = '/metadata/identity/oauth2/token';

const isLoopback = peerTrust(['loopback']);
type Query = Record<string, string | undefined>;
type Issued = { accessToken: string; expiresOn: number; notBefore: number; resource: string; clientId: string };
const defined = (value: string | undefined) => (value?.trim() ? value : undefined);

/** The query's parameters, each once (the first of a repeated one), as strings. */
function queryOf(req: FastifyRequest): Query {
  const query: Query = {};
  for (const [key, value] of Object.entries(req.query as Record<string, unknown>)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === 'string') query[key] = first;
  }
  return query;
}

export const managedIdentityFront: FastifyPluginAsync<ManagedIdentityOptions> = async (app, { deps, identity: name }) => {
  /** The token for the query's resource and identity, or why not (`notFound`: no such identity). */
  async function issue(req: FastifyRequest, query: Query): Promise<Issued | 'noResource' | 'notFound'> {
    const resource = query.resource?.trim();
    if (!resource) return 'noResource';
    const identity = name === undefined ? undefined : await findManagedIdentity(deps.store, name);
    if (!identity) return 'notFound';
    const named = defined(query.client_id) ?? defined(query.principal_id) ?? defined(query.object_id) ?? defined(query.mi_res_id);
    if (named !== undefined && !namesIdentity(identity, named)) return 'notFound';
    const tenantId = ((await deps.store.settings.get(TENANT_ID_KEY)) ?? '').toLowerCase();
    const now = deps.clock();
    const token = await issueManagedIdentityToken(deps.signingKeys, { origin: req.publicOrigin, tenantId }, identity, resource, now);
    return { accessToken: token.accessToken, expiresOn: token.expiresOn, notBefore: Math.floor(now.getTime() / 1000), resource, clientId: identityIds(identity).clientId };
  }

  // App Service, api-version 2019-08-01: errors as { StatusCode, Message, CorrelationId }.
  app.get(APP_SERVICE_PATH, async (req, reply) => {
    const query = queryOf(req);
    const refuse = (status: number, message: string) => send(req, reply, status, { StatusCode: status, Message: message, CorrelationId: newRequestId() });
    if (!isManagedIdentityHeader(deps.secret, firstHeader(req, 'x-identity-header'))) {
      return refuse(401, 'The X-IDENTITY-HEADER header is missing or is not this endpoint\'s IDENTITY_HEADER.');
    }
    if (query['api-version'] !== '2019-08-01') return refuse(400, `The api-version '${query['api-version'] ?? ''}' is not supported: use 2019-08-01.`);
    const result = await issue(req, query);
    if (result === 'noResource') return refuse(400, "Required query parameter 'resource' is missing.");
    if (result === 'notFound') return refuse(400, 'No Managed Identity found for specified ClientId/ResourceId/PrincipalId.');
    return send(req, reply, 200, {
      access_token: result.accessToken, expires_on: String(result.expiresOn), resource: result.resource,
      token_type: 'Bearer', client_id: result.clientId,
    });
  });

  // IMDS, api-version 2018-02-01 (and Cloud Shell, which sends none): errors as OAuth's { error, error_description }.
  app.get(IMDS_PATH, async (req, reply) => {
    const query = queryOf(req);
    const refuse = (status: number, description: string) => send(req, reply, status, { error: 'invalid_request', error_description: description });
    // The socket's own peer, never a forwarded address: a proxy in front is not "this machine".
    if (!isLoopback(req.socket.remoteAddress)) return refuse(403, 'The instance metadata endpoint answers only this machine.');
    if (firstHeader(req, 'metadata')?.toLowerCase() !== 'true') return refuse(400, 'Required metadata header not specified');
    const result = await issue(req, query);
    if (result === 'noResource') return refuse(400, "Required query variable 'resource' is missing");
    if (result === 'notFound') return refuse(400, 'Identity not found');
    // Counted from the token's issue (its nbf), not from after signing it: a first signing
    // (the key made then) can cross a second, and expires_in would disagree with its own nbf.
    const lifetime = String(result.expiresOn - result.notBefore);
    return send(req, reply, 200, {
      access_token: result.accessToken, refresh_token: '', expires_in: lifetime, expires_on: String(result.expiresOn),
      ext_expires_in: lifetime, not_before: String(result.notBefore), resource: result.resource, token_type: 'Bearer',
      client_id: result.clientId,
    });
  });
};

/** One log line per request, by path: never the identity header, and never the token. */
function send(req: FastifyRequest, reply: FastifyReply, status: number, body: object): FastifyReply {
  req.log.info({ method: req.method, path: req.url.split('?')[0], status }, 'managed identity');
  return reply.code(status).headers({ 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' }).send(JSON.stringify(body));
}
