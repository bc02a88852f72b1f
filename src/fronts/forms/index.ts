// Front: `{site}/_forms/default.aspx`, SharePoint's forms-based sign-in page (sign-in.ts). It
// claims its path below any site, in any letter case, before the files front would take a GET.

import type { FastifyPluginAsync } from 'fastify';
import type { FrontDeps } from '../../pipeline/deps.ts';
import type { SitePathRouter } from '../../pipeline/site-paths.ts';
import { FORMS_PAGE, serveFormsPage } from './sign-in.ts';

export const formsFront: FastifyPluginAsync<{ deps: FrontDeps; sitePaths: SitePathRouter }> = async (_app, { deps, sitePaths }) => {
  sitePaths.add({
    name: 'forms',
    claims: (pathname, method) => (method === 'GET' || method === 'HEAD' || method === 'POST') && FORMS_PAGE.test(pathname),
    handle: (req, reply) => serveFormsPage(req, reply, deps),
  });
};
