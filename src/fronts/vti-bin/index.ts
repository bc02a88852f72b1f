// Front: `{site}/_vti_bin/…`, SharePoint's SOAP and legacy services. Today it serves the forms
// login of on-premises-style clients (authentication.asmx, authentication.ts) and CSOM's
// ProcessQuery, the slice of it csom/ serves (client-svc.ts; the rest answers CSOM's "not
// implemented" ErrorInfo); every other `_vti_bin` path stays with SharePoint REST, which
// answers it as it does today (the realm discovery request
// to `client.svc` gets the 401 challenge it looks for).

import type { FastifyPluginAsync } from 'fastify';
import type { FrontDeps } from '../../pipeline/deps.ts';
import type { SitePathRouter } from '../../pipeline/site-paths.ts';
import { AUTHENTICATION_PATH, serveLogin } from './authentication.ts';
import { PROCESS_QUERY_PATH, serveProcessQuery } from './client-svc.ts';

export const vtiBinFront: FastifyPluginAsync<{ deps: FrontDeps; sitePaths: SitePathRouter }> = async (_app, { deps, sitePaths }) => {
  sitePaths.add({
    name: 'vti_bin',
    claims: (pathname, method) => method === 'POST' && AUTHENTICATION_PATH.test(pathname),
    handle: (req, reply) => serveLogin(req, reply, deps),
  });
  sitePaths.add({
    name: 'vti_bin_client_svc',
    claims: (pathname, method) => method === 'POST' && PROCESS_QUERY_PATH.test(pathname),
    handle: (req, reply) => serveProcessQuery(req, reply, deps),
  });
};
