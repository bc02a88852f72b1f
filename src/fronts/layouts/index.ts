// Front: `{site}/_layouts/15/…` pages that clients fetch directly: userphoto.aspx and
// download.aspx.

import type { FastifyPluginAsync } from 'fastify';
import type { FrontDeps } from '../../pipeline/deps.ts';
import type { SitePathRouter } from '../../pipeline/site-paths.ts';
import { downloadFront } from './download.ts';
import { userPhotoFront } from './userphoto.ts';

export const layoutsFront: FastifyPluginAsync<{ deps: FrontDeps; sitePaths: SitePathRouter }> = async (_app, { deps, sitePaths }) => {
  sitePaths.add(userPhotoFront(deps));
  sitePaths.add(downloadFront(deps));
};
