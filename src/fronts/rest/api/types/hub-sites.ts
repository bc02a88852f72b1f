// Hub sites (SP.HubSite): `_api/HubSites` and `HubSites/GetById?hubSiteId='…'`, a site
// collection's RegisterHubSite and UnRegisterHubSite, a web's HubSiteData(forceRefresh) and
// SyncHubSiteTheme, and `_api/siteiconmanager/setsitelogo`. Registering and unregistering need
// Full Control of the site collection's root web (SharePoint Online asks a tenant or site
// administrator; spemu has no tenant administrator role): anyone else gets SharePoint's 403.

import type { Site } from '../../../../domain/model.ts';
import { TENANT_ID_KEY } from '../../../../domain/settings.ts';
import { fail } from '../../../../domain/errors.ts';
import { errors } from '../../../../wire/errors.ts';
import { argumentLiteral, type Argument } from '../../../../odata/path.ts';
import { hubOf, SITE_LOGO_TYPES } from '../../../../services/hub-sites.ts';
import { canReachSite } from '../../../../identity/site-reach.ts';
import type { HubSiteRow } from '../../../../store/hub-sites.ts';
import type { Entity } from '../../../../wire/values.ts';
import { readMethodBody } from '../body.ts';
import type { ApiContext } from '../context.ts';
import { absoluteUrl } from '../entities.ts';
import { noContent, ok, voidResult } from '../outcome.ts';
import type { MethodDef, ResourceOf, ResourceType } from '../resource.ts';
import { requireOnSecurable } from '../authorize-on.ts';

import { argument, entityCollection, guidText, singleEntity } from './shared.ts';

const EMPTY_GUID = '00000000-0000-0000-0000-000000000000';
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The tenant's id: SP.HubSite's TenantInstanceId (the empty GUID where the tenant file gave none). */
const tenantInstanceId = async (ctx: ApiContext) => (await ctx.store.settings.get(TENANT_ID_KEY)) ?? EMPTY_GUID;

/** The site collection a hub is, by its id. */
async function siteOfHub(hub: HubSiteRow, ctx: ApiContext): Promise<Site | undefined> {
  if (hub.siteId === ctx.site.id) return ctx.site;
  return (await ctx.store.sites.all()).find((s) => s.id === hub.siteId);
}

/** SP.HubSite, its properties in SharePoint Online's order; `link` is its address as it was reached. */
async function hubEntity(hub: HubSiteRow, ctx: ApiContext, link: string): Promise<Entity> {
  const site = await siteOfHub(hub, ctx);
  return {
    type: 'SP.HubSite', id: `${ctx.apiUrl}${link}`, editLink: link, etag: `"${hub.version}"`,
    props: [
      ['Description', hub.description], ['EnablePermissionsSync', false], ['EnforcedECTs', null], ['EnforcedECTsVersion', 0],
      ['HideNameInNavigation', false], ['ID', hub.siteId], ['LogoUrl', hub.logoUrl], ['ParentHubSiteId', EMPTY_GUID],
      ['PermissionsSyncTag', 0], ['RelatedHubSiteIds', { kind: 'collection', elementType: 'Edm.Guid', items: [] }],
      ['RequiresJoinApproval', false], ['SiteDesignId', EMPTY_GUID], ['SiteId', hub.siteId],
      ['SiteUrl', site ? absoluteUrl(ctx, site.url) : null], ['Targets', null], ['TenantInstanceId', await tenantInstanceId(ctx)],
      ['Title', hub.title],
    ],
  };
}

/** GetById's `hubSiteId`: in its parentheses, or (as SharePoint documents and PnPjs sends it) in the query string. */
function hubSiteIdArgument(args: Argument[], ctx: ApiContext): string {
  const inPath = argumentLiteral(argument(args, 'hubSiteId'));
  let text: string | undefined;
  if (inPath && (inPath.type === 'string' || inPath.type === 'guid')) text = inPath.value;
  else {
    for (const [name, value] of ctx.requestUrl.searchParams) if (name.toLowerCase() === 'hubsiteid') { text = value; break; }
    text = text?.trim().replace(/^guid'(.*)'$/i, '$1').replace(/^'(.*)'$/, '$1');
  }
  if (!text) throw fail.hubSiteNotFound();
  return guidText(text);
}

export const hubSitesType: ResourceType<ResourceOf<'hubSites'>> = {
  methods: {
    getbyid: {
      kind: 'function',
      async invoke(_r, args, ctx) {
        const hub = await ctx.store.hubSites.get(hubSiteIdArgument(args, ctx));
        // A hub whose site the caller cannot reach is not found, as one that is not there.
        if (!hub || !(await canReachSite(ctx.store, ctx.principal, ctx.site.id, hub.siteId))) throw fail.hubSiteNotFound();
        return { kind: 'hubSite', hub };
      },
    },
  },
  // The hubs of the tenant whose sites the caller can reach (SharePoint lists the hubs the user can see).
  async get(_r, ctx) {
    const hubs: HubSiteRow[] = [];
    for (const hub of await ctx.store.hubSites.all()) if (await canReachSite(ctx.store, ctx.principal, ctx.site.id, hub.siteId)) hubs.push(hub);
    return entityCollection(await Promise.all(hubs.map((hub) => hubEntity(hub, ctx, `SP.HubSite${hub.siteId}`))), 'SP.HubSite', ctx);
  },
};

export const hubSiteType: ResourceType<ResourceOf<'hubSite'>> = {
  get: async (r, ctx) => singleEntity(await hubEntity(r.hub, ctx, 'HubSites/GetById'), 'SP.HubSite', ctx),
};

/** Full Control of the site collection's root web too, where the path addressed a subweb with permissions of its own. */
async function requireSiteOwner(ctx: ApiContext): Promise<void> {
  const root = ctx.web.id === ctx.site.rootWebId ? ctx.web : await ctx.store.sites.web(ctx.site.rootWebId);
  if (root) await requireOnSecurable({ kind: 'web', web: root }, 'ManageWeb', ctx);
}

/** JoinHubSite's hub id: `JoinHubSite('…')` (PnPjs), or by name (`hubSiteId`); not a GUID: SharePoint's conversion error. */
function joinHubSiteId(args: Argument[]): string {
  const literal = argumentLiteral(argument(args, 'hubSiteId'));
  if (!literal || literal.type === 'null') throw errors.nullParameter('hubSiteId', 'Edm.Guid');
  const text = literal.type === 'string' || literal.type === 'guid' ? guidText(literal.value) : '';
  if (!GUID.test(text)) throw errors.invalidPropertyValue('Edm.Guid');
  return text;
}

/** SP.Site's methods: RegisterHubSite (answers the new SP.HubSite), UnRegisterHubSite (204) and JoinHubSite. */
export const siteHubMethods: Record<string, MethodDef<ResourceOf<'site'>>> = {
  // Joining (or leaving, with the empty GUID) is the joining site's owners' business, as registering is.
  joinhubsite: {
    kind: 'action', permission: 'ManageWeb', body: 'none',
    async invoke(_r, args, ctx) {
      const hubSiteId = joinHubSiteId(args);
      await requireSiteOwner(ctx);
      // A hub whose site the caller cannot reach is not found (as GetById answers), not joined.
      if (hubSiteId !== EMPTY_GUID && !(await canReachSite(ctx.store, ctx.principal, ctx.site.id, hubSiteId))) throw fail.hubSiteNotFound();
      await ctx.services.hubSites.join(ctx.site, hubSiteId);
      return voidResult('JoinHubSite');
    },
  },
  registerhubsite: {
    kind: 'action', permission: 'ManageWeb', body: 'none',
    async invoke(_r, _args, ctx) {
      await requireSiteOwner(ctx);
      const hub = await ctx.services.hubSites.register(ctx.site);
      return singleEntity(await hubEntity(hub, ctx, 'site/RegisterHubSite'), 'SP.HubSite', ctx);
    },
  },
  unregisterhubsite: {
    kind: 'action', permission: 'ManageWeb', body: 'none',
    async invoke(_r, _args, ctx) {
      await requireSiteOwner(ctx);
      await ctx.services.hubSites.unregister(ctx.site);
      return noContent();
    },
  },
};

/**
 * HubSiteData's JSON text (SharePoint answers it as a string): the hub the web's site collection
 * is, its name, URL, logo and top navigation; SharePoint's defaults for what spemu does not keep.
 */
async function hubSiteDataText(hub: HubSiteRow, ctx: ApiContext): Promise<string> {
  const site = await siteOfHub(hub, ctx);
  const nodes = site ? await ctx.store.navigation.all(site.rootWebId, 'topnavigationbar') : [];
  type NavNode = { Id: number; Title: string; Url: string; IsDocLib: boolean; IsExternal: boolean; ParentId: number; ListTemplateType: number; Children: NavNode[] };
  const made = new Map<number, NavNode>();
  const top: NavNode[] = [];
  // Parents come before their children (NavigationRepository.all).
  for (const n of nodes) {
    if (!n.visible) continue;
    const node: NavNode = { Id: n.id, Title: n.title, Url: n.external || !n.url.startsWith('/') ? n.url : absoluteUrl(ctx, n.url), IsDocLib: false, IsExternal: n.external, ParentId: n.parentId ?? 1002, ListTemplateType: 0, Children: [] };
    made.set(n.id, node);
    if (n.parentId === null) top.push(node);
    else made.get(n.parentId)?.Children.push(node);
  }
  return JSON.stringify({
    headerEmphasis: null, themeKey: null, name: hub.title, url: site ? absoluteUrl(ctx, site.url) : null, logoUrl: hub.logoUrl,
    usesMetadataNavigation: false, megaMenuEnabled: false, navigation: top, isNavAudienceTargeted: false,
    siteDesignId: EMPTY_GUID, requiresJoinApproval: false, hideNameInNavigation: false, parentHubSiteId: EMPTY_GUID,
    relatedHubSiteIds: [], tenantInstanceId: await tenantInstanceId(ctx), isSameTenantInstance: true,
  });
}

/** SP.Web's methods: HubSiteData(forceRefresh) (null where the site collection is in no hub) and SyncHubSiteTheme (204). */
export const webHubMethods: Record<string, MethodDef<ResourceOf<'web'>>> = {
  hubsitedata: {
    kind: 'function',
    async invoke(_r, args, ctx) {
      // forceRefresh only empties SharePoint's cache: spemu reads the hub fresh every time.
      const force = argumentLiteral(argument(args, 'forceRefresh'));
      if (force !== undefined && force.type !== 'boolean') throw fail.badArgument('forceRefresh must be true or false.');
      const hub = await hubOf(ctx.store, ctx.site);
      if (!hub) return voidResult('HubSiteData');
      return ok({ kind: 'primitive', methodName: 'HubSiteData', edmType: 'Edm.String', value: await hubSiteDataText(hub, ctx) });
    },
  },
  // Hubs carry no theme in spemu: nothing to apply, as on a site whose hub has none.
  synchubsitetheme: { kind: 'action', permission: 'ManageWeb', body: 'none', invoke: async () => noContent() },
};

/** setsitelogo's URL as it is kept: absolute and server-relative as given, else relative to the web; '' resets. */
function logoPath(url: string, ctx: ApiContext): string {
  const text = url.trim();
  if (text === '' || /^https?:\/\//i.test(text) || text.startsWith('/')) return text;
  return `${ctx.web.serverRelativeUrl.replace(/\/$/, '')}/${text}`;
}

/**
 * `_api/siteiconmanager/setsitelogo`, as PnPjs's site.setSiteLogo and CLI for Microsoft 365 send it:
 * a WebLogo is the addressed web's SiteLogoUrl (a web metadata write, as a MERGE of it), a HubLogo
 * the hub's LogoUrl (absolute); an empty relativeLogoUrl resets either (CLI's `--siteLogoUrl ""`).
 */
export const siteIconManagerType: ResourceType<ResourceOf<'siteIconManager'>> = {
  methods: {
    setsitelogo: {
      kind: 'action', permission: 'ManageWeb', body: 'json',
      async invoke(_r, _args, ctx) {
        const body = readMethodBody(ctx);
        const read = (name: string) => Object.entries(body).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];
        const url = read('relativeLogoUrl');
        const type = read('type') ?? SITE_LOGO_TYPES.WebLogo;
        const aspect = read('aspect') ?? 0;
        // Everything is checked before anything is written.
        if (typeof url !== 'string') throw fail.badArgument('relativeLogoUrl must be the URL of an image.');
        if (typeof type !== 'number' || !Number.isInteger(type) || type < 0 || type > 3) throw fail.badArgument('type must be a SiteLogoType from 0 (WebLogo) to 3 (GlobalNavLogo).');
        if (typeof aspect !== 'number' || !Number.isInteger(aspect) || aspect < 0 || aspect > 1) throw fail.badArgument('aspect must be a SiteLogoAspect: 0 (Square) or 1 (Rectangular).');
        // A header background or global navigation logo is not kept: say so rather than answer as done.
        if (type !== SITE_LOGO_TYPES.WebLogo && type !== SITE_LOGO_TYPES.HubLogo) throw errors.notImplemented(`SetSiteLogo of type ${type}`);
        const path = logoPath(url, ctx);
        if (type === SITE_LOGO_TYPES.WebLogo) await ctx.services.webs.update(ctx.web, { siteLogoUrl: path });
        else {
          // The hub's logo is the site collection's: Manage Web on its root web, not only on a subweb addressed.
          await requireSiteOwner(ctx);
          await ctx.services.hubSites.setLogo(ctx.site, path === '' || /^https?:\/\//i.test(path) ? path : absoluteUrl(ctx, path));
        }
        return voidResult('SetSiteLogo');
      },
    },
  },
};
