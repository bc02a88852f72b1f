// SP.Site and SP.Web.

import type { MethodDef, ResourceType } from '../resource.ts';
import { webUnshareObject } from './sharing.ts';
import { webFileMethods } from './files.ts';
import { siteEntity, WEB_SHAPE, webEntity, webEntityHead } from '../entities.ts';
import { selectedEntity } from './selected-entity.ts';
import { getChangesMethod, withCurrentChangeToken } from './changes.ts';
import { errors } from '../../../../wire/errors.ts';
import { singleEntity, stringArgument } from './shared.ts';
import { associatedGroupEntity, webPrincipalMethods, webPrincipalNavigation } from './principals.ts';
import { getUserEffectivePermissions, roleAssignmentsNavigation, securableMethods, securableNavigation, withSecurableProperties } from './security.ts';
import type { Web } from '../../../../domain/model.ts';
import { urlPrefix } from '../../../../domain/names.ts';
import { decodeUrlText } from '../../../../domain/documents.ts';
import { readEntityBody, stringProp } from '../body.ts';
import type { ApiContext } from '../context.ts';
import { NO_NAVIGATIONS, projectEntity, type Navigation } from '../expand.ts';
import { ok, type Outcome, voidResult } from '../outcome.ts';
import { openWebById, subwebMethods, webInformationEntity } from './webs.ts';
import { siteCustomActions, webCustomActions } from './custom-actions.ts';
import { webExtraMethods } from './list-extras.ts';
import { userResource } from './user-resources.ts';
import { siteHubMethods, webHubMethods } from './hub-sites.ts';
import { hubOf } from '../../../../services/hub-sites.ts';
import { getClientSideWebParts } from './web-parts.ts';
import { siteRecycleBinMethods, siteRecycleBinNavigation, webRecycleBinMethods, webRecycleBinNavigation } from './recycle-bin.ts';

export const siteType: ResourceType<{ kind: 'site' }> = {
  navigation: {
    rootweb: async (_r, ctx) => ({ kind: 'web', web: (await ctx.store.sites.web(ctx.site.rootWebId)) ?? ctx.web }),
    features: async (_r, ctx) => ({ kind: 'features', holder: { kind: 'site', siteId: ctx.site.id } }),
    usercustomactions: async (_r, ctx) => siteCustomActions(ctx.site.id),
    ...siteRecycleBinNavigation,
  },
  methods: {
    openwebbyid: openWebById,
    ...siteRecycleBinMethods,
    getchanges: getChangesMethod((_r, ctx) => ({ siteId: ctx.site.id, scope: { kind: 'site' }, tokenScope: 'site', id: ctx.site.id })),
    ...siteHubMethods,
  },
  get: async (_r, ctx) => singleEntity(await withCurrentChangeToken(siteEntity(ctx.site, ctx, (await hubOf(ctx.store, ctx.site))?.siteId), ctx, 'site', ctx.site.id), 'SP.Site', ctx),
};

type WebResource = { kind: 'web'; web: Web };

export const webType: ResourceType<WebResource> = {
  // The web's own properties need Manage Web Site (Full Control), as in SharePoint; so does deleting a subweb.
  permissions: { update: 'ManageWeb', delete: 'ManageWeb' },
  navigation: {
    lists: async (r) => ({ kind: 'lists', web: r.web }),
    ...webPrincipalNavigation,
    webs: async (r) => ({ kind: 'webs', web: r.web }),
    fields: async (r) => ({ kind: 'webFields', web: r.web, available: false }),
    availablefields: async (r) => ({ kind: 'webFields', web: r.web, available: true }),
    rootfolder: async (r) => ({ kind: 'webFolder', web: r.web, path: '' }),
    folders: async (r) => ({ kind: 'webFolders', web: r.web, path: '' }),
    webinfos: async (r) => ({ kind: 'webInfos', web: r.web }),
    ...webRecycleBinNavigation,
    contenttypes: async (r) => ({ kind: 'contentTypes', web: r.web }),
    navigation: async (r) => ({ kind: 'navigation', web: r.web }),
    titleresource: async (r) => userResource(async (ctx) => (await ctx.store.sites.web(r.web.id))?.title ?? r.web.title),
    descriptionresource: async (r) => userResource(async (ctx) => (await ctx.store.sites.web(r.web.id))?.description ?? r.web.description),
    features: async (r) => ({ kind: 'features', holder: { kind: 'web', webId: r.web.id } }),
    usercustomactions: async (r) => webCustomActions(r.web.id),
    availablecontenttypes: async (r) => ({ kind: 'contentTypes', web: r.web }),
    /** SP.WebInformation of the parent; null for a site collection's root web. */
    parentweb: async (r) => ({ kind: 'readOnly', read: async (ctx) => parentWebOutcome(r.web, ctx) }),
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
    ...securableNavigation<WebResource>(async (r) => ({ base: 'Web', securable: { kind: 'web', web: r.web } })),
  },
  methods: {
    ...webPrincipalMethods,
    ...subwebMethods,
    ...securableMethods<WebResource>(async (r) => ({ base: 'Web', securable: { kind: 'web', web: r.web } })),
    ...webExtraMethods,
    ...webFileMethods,
    ...webHubMethods,
    getusereffectivepermissions: getUserEffectivePermissions,
    getclientsidewebparts: getClientSideWebParts,
    ...webRecycleBinMethods,
    unshareobject: webUnshareObject as MethodDef<WebResource>,
    getchanges: getChangesMethod((r, ctx) => {
      const { web } = r as WebResource;
      return { siteId: ctx.site.id, scope: { kind: 'web', webId: web.id }, tokenScope: 'web', id: web.id };
    }),
    getlist: {
      kind: 'function',
      async invoke(r, args, ctx) {
        const url = stringArgument(args, 'strUrl');
        // Absolute URLs work too: only their path counts. A path without its leading slash is
        // still server-relative (PnPjs's combine() drops it: `sites/dev/SitePages`); failing that,
        // relative to the web (`SitePages`).
        const path = decodeUrlText(/^https?:\/\//i.test(url) ? new URL(url).pathname : url);
        const list = await ctx.store.lists.byUrl(r.web.id, path.startsWith('/') ? path : `/${path}`)
          ?? (path.startsWith('/') ? undefined : await ctx.store.lists.byUrl(r.web.id, `${urlPrefix(r.web.serverRelativeUrl)}/${path}`));
        if (!list) throw errors.listNotFoundByUrl();
        return { kind: 'list', list };
      },
    },
  },
  async get(r, ctx) {
    // A plain `$select` (`web?$select=Title`): only what it names is made.
    const selection = WEB_SHAPE.selection(ctx.query);
    if (selection) {
      const { source, id } = webEntityHead(r.web, ctx);
      const entity = await selectedEntity(WEB_SHAPE, selection, source, { id, editLink: 'Web' }, ctx, { kind: 'web', web: r.web }, { scope: 'web', id: r.web.id });
      return ok({ kind: 'entity', metadataName: 'SP.Web', entity });
    }
    const entity = await withCurrentChangeToken(await withSecurableProperties(webEntity(r.web, ctx), ctx, { kind: 'web', web: r.web }), ctx, 'web', r.web.id);
    const projected = await projectEntity(entity, ctx.query.expand.length ? webNavigations(r.web, ctx) : NO_NAVIGATIONS, ctx);
    return ok({ kind: 'entity', metadataName: 'SP.Web', entity: projected });
  },
  /**
   * MERGE: Title, Description and SiteLogoUrl (CLI for Microsoft 365's `spo web set --siteLogoUrl`;
   * null or '' resets it) are kept; SP.Web's other settings are not modelled and are refused.
   */
  async update(r, ctx) {
    const props = readEntityBody(ctx, 'SP.Web');
    for (const key of Object.keys(props)) {
      if (key === 'Title' || key === 'Description' || key === 'SiteLogoUrl') continue;
      if (webEntity(r.web, ctx).props.some(([name]) => name === key)) throw errors.notImplemented(`Setting SP.Web.${key}`);
      throw errors.unknownBodyProperty(key, 'SP.Web');
    }
    const siteLogoUrl = props.SiteLogoUrl === null ? null : stringProp(props, 'SiteLogoUrl');
    await ctx.services.webs.update(r.web, { title: stringProp(props, 'Title'), description: stringProp(props, 'Description'), siteLogoUrl });
    return { status: 204 };
  },
  /** A subweb, with its lists and their content (a web with subwebs is refused). */
  async delete(r, ctx) {
    await ctx.services.webs.delete(r.web);
    return { status: 200 };
  },
};

/** What `$expand` may load below a web: its parent's SP.WebInformation, its associated groups. */
function webNavigations(web: Web, ctx: ApiContext): Record<string, Navigation> {
  return {
    ParentWeb: { link: 'Web/ParentWeb', load: async () => { const parent = await parentOf(web, ctx); return parent ? webInformationEntity(parent, ctx) : null; } },
    AssociatedOwnerGroup: { link: 'Web/AssociatedOwnerGroup', load: () => associatedGroupEntity('owner', ctx) },
    AssociatedMemberGroup: { link: 'Web/AssociatedMemberGroup', load: () => associatedGroupEntity('member', ctx) },
    AssociatedVisitorGroup: { link: 'Web/AssociatedVisitorGroup', load: () => associatedGroupEntity('visitor', ctx) },
    // Needs Enumerate Permissions, as reading them any other way (security.ts).
    RoleAssignments: roleAssignmentsNavigation('Web', { kind: 'web', web }, ctx),
  };
}

async function parentOf(web: Web, ctx: ApiContext): Promise<Web | undefined> {
  return web.parentId === null ? undefined : ctx.store.sites.web(web.parentId);
}

async function parentWebOutcome(web: Web, ctx: ApiContext): Promise<Outcome> {
  const parent = await parentOf(web, ctx);
  if (!parent) return voidResult('ParentWeb');
  return singleEntity(webInformationEntity(parent, ctx), 'SP.WebInformation', ctx);
}

