// SP.Site and SP.Web.

import type { ResourceType } from '../resource.ts';
import { siteEntity, webEntity } from '../entities.ts';
import { errors } from '../../errors.ts';
import { singleEntity, stringArgument } from './shared.ts';
import { webPrincipalMethods, webPrincipalNavigation } from './principals.ts';

export const siteType: ResourceType<{ kind: 'site' }> = {
  // The site's and web's own properties need Full Control (Manage Web Site), as in SharePoint.
  writeRole: 'owner',
  navigation: {
    rootweb: async (_r, ctx) => ({ kind: 'web', web: ctx.web }),
  },
  get: async (_r, ctx) => singleEntity(siteEntity(ctx.site, ctx), 'SP.Site', ctx),
};

export const webType: ResourceType<{ kind: 'web'; web: import('../../domain/model.ts').Web }> = {
  writeRole: 'owner',
  navigation: {
    lists: async (r) => ({ kind: 'lists', web: r.web }),
    ...webPrincipalNavigation,
  },
  methods: {
    ...webPrincipalMethods,
    getlist: {
      kind: 'function',
      async invoke(r, args, ctx) {
        const url = stringArgument(args, 'strUrl');
        // Absolute URLs work too: only their path counts.
        const path = /^https?:\/\//i.test(url) ? new URL(url).pathname : url;
        const list = await ctx.store.getListByUrl(r.web.id, decodeURIComponent(path));
        if (!list) throw errors.listNotFoundByUrl();
        return { kind: 'list', list };
      },
    },
  },
  get: async (r, ctx) => singleEntity(webEntity(r.web, ctx), 'SP.Web', ctx),
};

