// Front: an Entra ID-compatible identity provider under spemu's own origin, so unmodified
// MSAL, @azure/identity and PnPjs get tokens from spemu as they would from
// login.microsoftonline.com (pointed at it with knownAuthorities / authorityHost):
//   GET  /{tenant}/v2.0/.well-known/openid-configuration   OpenID discovery (v2.0)
//   GET  /{tenant}/.well-known/openid-configuration        OpenID discovery (v1.0)
//   GET  /{tenant}/discovery/v2.0/keys, /{tenant}/discovery/keys   the JWKS
//   GET  /common/discovery/instance                        MSAL's instance discovery
//   POST /{tenant}/oauth2/v2.0/token, /{tenant}/oauth2/token        the token endpoint (token.ts)
//   POST /{tenant}/oauth2/v2.0/devicecode, /{tenant}/oauth2/devicecode  device code requests
//   GET|POST /_spemu/devicelogin                            where the user approves one (device-page.ts)
//   GET  /{tenant}/oauth2/v2.0/authorize, /{tenant}/oauth2/authorize  the code flow with PKCE (authorize.ts)
// {tenant} is the tenant id, a domain it uses, or common / organizations. Tokens are made by
// identity/entra-tokens.ts and checked by the shared authenticate stage.

import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { FrontDeps } from '../../pipeline/deps.ts';
import { RequestBody } from '../../pipeline/body.ts';
import { DomainError } from '../../domain/errors.ts';
import { TENANT_HOSTS_KEY } from '../../domain/settings.ts';
import { resolveTenantSegment, tenantNames, type TenantNames } from '../../identity/tenant-names.ts';
import { instanceDiscovery, jwksDocument, openIdConfigurationV1, openIdConfigurationV2, type DiscoveryTenant } from './discovery.ts';
import { EntraError, entraErrorBody, entraErrors } from './errors.ts';
import { deviceCode, grantToken } from './token.ts';
import { registerDevicePage } from './device-page.ts';
import { authorize } from './authorize.ts';

type Params = { tenant: string };

const NO_STORE = { 'Cache-Control': 'no-store, no-cache', Pragma: 'no-cache' };

/** JSON as Entra sends it; any origin may read it (single-page apps call these endpoints cross-origin, as Entra allows). */
function sendJson(reply: FastifyReply, status: number, body: unknown, headers: Record<string, string> = {}): FastifyReply {
  return reply.code(status).headers({ 'Content-Type': 'application/json; charset=utf-8', 'Access-Control-Allow-Origin': '*', ...headers }).send(JSON.stringify(body));
}

/** One log line per identity request: never the body, the query or a header (they carry secrets). */
function logLine(req: FastifyRequest, status: number, extra: Record<string, unknown> = {}): void {
  req.log.info({ method: req.method, path: req.url.split('?')[0], status, ...extra }, 'identity request');
}

function sendError(req: FastifyRequest, reply: FastifyReply, err: EntraError, deps: FrontDeps, extra: Record<string, unknown> = {}): FastifyReply {
  const correlation = typeof req.headers['client-request-id'] === 'string' ? req.headers['client-request-id'] : randomUUID();
  logLine(req, err.status, { ...extra, error: err.error, code: err.code });
  return sendJson(reply, err.status, entraErrorBody(err, req.publicOrigin, deps.clock(), correlation), NO_STORE);
}

export const identityFront: FastifyPluginAsync<{ deps: FrontDeps }> = async (app, { deps }) => {
  registerIdentity(app, deps);
};

function registerIdentity(app: FastifyInstance, deps: FrontDeps): void {
  /** The tenant a path names, or Entra's "tenant not found". */
  async function tenantOf(segment: string): Promise<{ names: TenantNames; tenant: DiscoveryTenant }> {
    const names = await tenantNames(deps.store);
    const kind = resolveTenantSegment(names, segment);
    if (!kind) throw entraErrors.tenantNotFound(segment);
    const alias = kind === 'alias';
    return { names, tenant: { segment: alias ? segment.toLowerCase() : names.tenantId, tenantId: names.tenantId, alias } };
  }

  const discovery = (version: 1 | 2) => async (req: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => {
    try {
      const { tenant } = await tenantOf(req.params.tenant);
      logLine(req, 200);
      return sendJson(reply, 200, version === 2 ? openIdConfigurationV2(req.publicOrigin, tenant) : openIdConfigurationV1(req.publicOrigin, tenant));
    } catch (e) {
      if (e instanceof EntraError) return sendError(req, reply, e, deps);
      throw e;
    }
  };
  app.get<{ Params: Params }>('/:tenant/v2.0/.well-known/openid-configuration', discovery(2));
  app.get<{ Params: Params }>('/:tenant/.well-known/openid-configuration', discovery(1));

  const keys = (version: 1 | 2) => async (req: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => {
    try {
      const { tenant } = await tenantOf(req.params.tenant);
      logLine(req, 200);
      const issuer = version === 2 ? `${req.publicOrigin}/${tenant.alias ? '{tenantid}' : tenant.tenantId}/v2.0` : undefined;
      return sendJson(reply, 200, jwksDocument(deps.signingKeys, deps.clock(), issuer));
    } catch (e) {
      if (e instanceof EntraError) return sendError(req, reply, e, deps);
      throw e;
    }
  };
  app.get<{ Params: Params }>('/:tenant/discovery/v2.0/keys', keys(2));
  app.get<{ Params: Params }>('/:tenant/discovery/keys', keys(1));

  // MSAL asks `.../common/discovery/instance?api-version=1.1&authorization_endpoint=<authority>/oauth2/v2.0/authorize`.
  app.get<{ Params: Params; Querystring: Record<string, string | undefined> }>('/:tenant/discovery/instance', async (req, reply) => {
    try {
      await tenantOf(req.params.tenant);
      const endpoint = req.query.authorization_endpoint ?? '';
      let segment = 'common';
      try {
        segment = decodeURIComponent(new URL(endpoint).pathname.split('/')[1] || 'common');
      } catch { /* no or bad authorization_endpoint: common */ }
      const { tenant } = await tenantOf(segment);
      logLine(req, 200);
      return sendJson(reply, 200, instanceDiscovery(req.publicOrigin, tenant.segment));
    } catch (e) {
      if (e instanceof EntraError) return sendError(req, reply, e, deps);
      throw e;
    }
  });

  /** A form-posting endpoint (token, devicecode): Entra's JSON answer, or Entra's error. */
  const token = (version: 1 | 2, handle: typeof grantToken) => async (req: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => {
    const params = new URLSearchParams();
    try {
      const { names } = await tenantOf(req.params.tenant);
      const contentType = String(req.headers['content-type'] ?? '').toLowerCase();
      const text = (await RequestBody.fromRequest(req.body, req.headers['content-length'], deps.bodyLimit)?.bytes())?.toString('utf8') ?? '';
      if (contentType && !contentType.startsWith('application/x-www-form-urlencoded')) throw entraErrors.missingParameter('grant_type');
      for (const [name, value] of new URLSearchParams(text)) params.append(name, value);
      const tenantHosts = JSON.parse((await deps.store.settings.get(TENANT_HOSTS_KEY)) ?? '[]') as string[];
      const body = await handle({ version, params, authorization: req.headers.authorization, origin: req.publicOrigin, names, tenantHosts }, deps);
      logLine(req, 200, { grant: params.get('grant_type'), client: params.get('client_id') });
      return sendJson(reply, 200, body, NO_STORE);
    } catch (e) {
      if (e instanceof EntraError) return sendError(req, reply, e, deps, { grant: params.get('grant_type'), client: params.get('client_id') });
      // A body over the limit: Entra's invalid_request rather than SharePoint's error.
      if (e instanceof DomainError) return sendError(req, reply, new EntraError(400, 'invalid_request', 90020, 'The request could not be read.'), deps);
      throw e;
    }
  };
  app.post<{ Params: Params }>('/:tenant/oauth2/v2.0/token', token(2, grantToken));
  app.post<{ Params: Params }>('/:tenant/oauth2/token', token(1, grantToken));
  app.post<{ Params: Params }>('/:tenant/oauth2/v2.0/devicecode', token(2, deviceCode));
  app.post<{ Params: Params }>('/:tenant/oauth2/devicecode', token(1, deviceCode));
  registerDevicePage(app, deps);

  const authorizeRoute = (version: 1 | 2) => async (req: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => {
    try {
      const { names } = await tenantOf(req.params.tenant);
      const tenantHosts = JSON.parse((await deps.store.settings.get(TENANT_HOSTS_KEY)) ?? '[]') as string[];
      const answer = await authorize(req, reply, deps, version, names, tenantHosts);
      if ('error' in answer) return sendError(req, reply, answer.error, deps);
      logLine(req, answer.sent.statusCode);
      return answer.sent;
    } catch (e) {
      if (e instanceof EntraError) return sendError(req, reply, e, deps);
      throw e;
    }
  };
  // CORS preflights of single-page apps (MSAL browser sends X-AnchorMailbox and client-request-id headers).
  const preflight = async (req: FastifyRequest, reply: FastifyReply) => reply.code(204).headers({
    'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
    'Access-Control-Allow-Headers': String(req.headers['access-control-request-headers'] ?? 'Content-Type'), 'Access-Control-Max-Age': '86400',
  }).send();
  for (const path of ['/:tenant/oauth2/v2.0/token', '/:tenant/oauth2/token', '/:tenant/oauth2/v2.0/devicecode', '/:tenant/oauth2/devicecode',
    '/:tenant/v2.0/.well-known/openid-configuration', '/:tenant/.well-known/openid-configuration', '/:tenant/discovery/v2.0/keys', '/:tenant/discovery/keys', '/:tenant/discovery/instance']) {
    app.options(path, preflight);
  }

  app.get<{ Params: Params }>('/:tenant/oauth2/v2.0/authorize', authorizeRoute(2));
  app.get<{ Params: Params }>('/:tenant/oauth2/authorize', authorizeRoute(1));
}
