// SP.Site and SP.Web.

import type { ResourceType } from '../resource.ts';
import { webFileMethods } from './files.ts';
import { siteEntity, webEntity } from '../entities.ts';
import { errors } from '../../../../wire/errors.ts';
import { singleEntity, stringArgument } from './shared.ts';
import { webPrincipalMethods, webPrincipalNavigation } from './principals.ts';
import { getUserEffectivePermissions, securableNavigation, withSecurableProperties } from './security.ts';
import type { Web } from '../../../../domain/model.ts';
import { urlPrefix } from '../../../../domain/names.ts';

export const siteType: ResourceType<{ kind: 'site' }> = {
  navigation: {
    rootweb: async (_r, ctx) => ({ kind: 'web', web: ctx.web }),
  },
  get: async (_r, ctx) => singleEntity(siteEntity(ctx.site, ctx), 'SP.Site', ctx),
};

type WebResource = { kind: 'web'; web: Web };

export const webType: ResourceType<WebResource> = {
  // The web's own properties need Manage Web Site (Full Control), as in SharePoint.
  permissions: { update: 'ManageWeb' },
  navigation: {
    lists: async (r) => ({ kind: 'lists', web: r.web }),
    ...webPrincipalNavigation,
    webs: async (r) => ({ kind: 'webs', web: r.web }),
    rootfolder: async (r) => ({ kind: 'webFolder', web: r.web, path: '' }),
    folders: async (r) => ({ kind: 'webFolders', web: r.web, path: '' }),
    webinfos: async (r) => ({ kind: 'webs', web: r.web }),
    allproperties: async (r) => ({ kind: 'propertyValues', web: r.web }),
    regionalsettings: async (r) => ({ kind: 'regionalSettings', web: r.web }),
    roledefinitions: async () => ({ kind: 'roleDefinitions' }),
    /** The site's Documents library ("Shared Documents"), else its first document library. */
    defaultdocumentlibrary: async (r, ctx) => {
      const lists = await ctx.store.lists.inWeb(r.web.id);
      const base = urlPrefix(r.web.serverRelativeUrl);
      const list = lists.find((l) => l.serverRelativeUrl.toLowerCase() === `${base}/shared documents`.toLowerCase())
        ?? lists.find((l) => l.baseTemplate === 101);
      if (!list) throw errors.listNotFoundByUrl();
      return { kind: 'list', list };
    },
    ...securableNavigation<WebResource>(async () => 'Web'),
  },
  methods: {
    ...webPrincipalMethods,
    ...webFileMethods,
    getusereffectivepermissions: getUserEffectivePermissions,
    getlist: {
      kind: 'function',
      async invoke(r, args, ctx) {
        const url = stringArgument(args, 'strUrl');
        // Absolute URLs work too: only their path counts.
        const path = /^https?:\/\//i.test(url) ? new URL(url).pathname : url;
        const list = await ctx.store.lists.byUrl(r.web.id, decodeURIComponent(path));
        if (!list) throw errors.listNotFoundByUrl();
        return { kind: 'list', list };
      },
    },
  },
  get: async (r, ctx) => singleEntity(withSecurableProperties(webEntity(r.web, ctx), ctx, true), 'SP.Web', ctx),
};

