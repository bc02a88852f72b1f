// Front: SharePoint REST, `{site}/_api/…` (but ProjectData, which has a front of its own).
// It takes every site-relative request no other front claims, so unknown paths get
// SharePoint's own answers (401 first, then 404 ResourceNotFoundException).

import type { FastifyPluginAsync } from 'fastify';
import type { FrontDeps } from '../../pipeline/deps.ts';
import type { SitePathRouter } from '../../pipeline/site-paths.ts';
import { handleApi } from './pipeline.ts';

export const restFront: FastifyPluginAsync<{ deps: FrontDeps; sitePaths: SitePathRouter }> = async (_app, { deps, sitePaths }) => {
  sitePaths.add({ name: 'rest', claims: () => true, handle: (req, reply) => handleApi(req, reply, deps) }, { fallback: true });
};
