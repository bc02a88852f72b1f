// Front: a document library's files at their own URLs, `{site}/{library}/{path}` (and their
// past versions at `{site}/_vti_history/{id}/{path}`), as browsers and download tools fetch
// them. Registered before SharePoint REST, which keeps every path this front leaves.

import type { FastifyPluginAsync } from 'fastify';
import type { FrontDeps } from '../../pipeline/deps.ts';
import type { SitePathRouter } from '../../pipeline/site-paths.ts';
import { fileUrlFront } from './file-urls.ts';

export const filesFront: FastifyPluginAsync<{ deps: FrontDeps; sitePaths: SitePathRouter }> = async (_app, { deps, sitePaths }) => {
  sitePaths.add(fileUrlFront(deps));
};
