// SP.List and the web's list collection.

import { listCamlMethods } from './list-caml.ts';
import type { List, Web } from '../../../../domain/model.ts';
import type { FixedLibrary } from '../../../../services/lists.ts';
import { errors } from '../../../../wire/errors.ts';
import type { ApiContext } from '../context.ts';
import { getChangesMethod, withCurrentChangeToken, withCurrentChangeTokens } from './changes.ts';
import { getListItemChangesSinceToken } from './list-item-changes.ts';
import { absoluteUrl, folderEntity, LIST_SHAPE, listEditLink, listEntity, webEntity } from '../entities.ts';
import { selectedEntity } from './selected-entity.ts';
import { NO_NAVIGATIONS, projectedCollection, projectEntity, type Navigation } from '../expand.ts';
import { boolProp, intProp, readEntityBody, stringProp, type Properties } from '../body.ts';
import { noContent, ok, type Outcome } from '../outcome.ts';
import { requirePermission } from '../../../../identity/permissions.ts';
import { getUserEffectivePermissions, roleAssignmentsNavigation, securableMethods, securableNavigation, withSecurableProperties } from './security.ts';
import type { Entity } from '../../../../wire/values.ts';
import type { ResourceType } from '../resource.ts';
import { listViewMethods, listViewNavigation, viewEntity } from './views.ts';
import { addValidateUpdateItemUsingPath } from './form-updates.ts';
import { listCustomActions } from './custom-actions.ts';
import { listExtraMethods, listExtraNavigation } from './list-extras.ts';
import { listFormMethods, listFormNavigation } from './list-forms.ts';
import { CATALOGS } from '../../../../domain/templates.ts';
import { userResource } from './user-resources.ts';
import { emptyOk, entityCollection, guidText, stringArgument } from './shared.ts';
import { urlPrefix } from '../../../../domain/names.ts';
import { argumentLiteral } from '../../../../odata/path.ts';

/** SP.List properties a client may set; known but inert ones are accepted and ignored. */
const SETTABLE = new Set(['Title', 'Description', 'BaseTemplate', 'Hidden', 'EnableVersioning', 'AllowContentTypes',
  'ContentTypesEnabled', 'EnableAttachments', 'EnableFolderCreation', 'EnableMinorVersions', 'EnableModeration',
  'ForceCheckout', 'MajorVersionLimit', 'MajorWithMinorVersionsLimit', 'NoCrawl', 'OnQuickLaunch', 'DraftVersionVisibility',
  'DocumentTemplateUrl', 'Direction', 'IrmEnabled', 'ReadSecurity', 'WriteSecurity', 'ValidationFormula', 'ValidationMessage',
  'DisableGridEditing', 'ExcludeFromOfflineClient', 'ListExperienceOptions', 'TemplateFeatureId', 'QuickLaunchOption',
  'DisableCommenting']);

function listProps(ctx: ApiContext): Properties {
  const props = readEntityBody(ctx, 'SP.List');
  for (const key of Object.keys(props)) if (!SETTABLE.has(key)) throw errors.unknownBodyProperty(key, 'SP.List');
  return props;
}

/** The list with `$expand=RootFolder,ParentWeb` and `$select` (below them too), as PnPjs's list.getParentInfos asks. */
async function listOutcome(cached: List, web: Web, ctx: ApiContext, status = 200): Promise<Outcome> {
  const list = (await ctx.store.lists.withCounters([cached]))[0]!;
  // A plain `$select` (`getbytitle('Tasks')?$select=Id,ItemCount`): only what it names is made.
  const selection = LIST_SHAPE.selection(ctx.query);
  if (selection) {
    const link = listEditLink(list);
    const entity = await selectedEntity(LIST_SHAPE, selection, { list, web }, { id: `${ctx.apiUrl}${link}`, editLink: link, etag: `"${list.version}"` },
      ctx, { kind: 'list', web, list }, { scope: 'list', id: list.id });
    return { status, payload: { kind: 'entity', metadataName: 'SP.ApiData.Lists', entity }, headers: listHeaders(entity.etag!, link, status, ctx) };
  }
  const entity = await withCurrentChangeToken(await withSecurableProperties(listEntity(list, web, ctx), ctx, { kind: 'list', web, list }), ctx, 'list', list.id);
  const link = listEditLink(list);
  const selected = await projectEntity(entity, ctx.query.expand.length ? listNavigations(list, web, ctx) : NO_NAVIGATIONS, ctx);
  return { status, payload: { kind: 'entity', metadataName: 'SP.ApiData.Lists', entity: selected }, headers: listHeaders(entity.etag!, link, status, ctx) };
}

function listHeaders(etag: string, link: string, status: number, ctx: ApiContext): Record<string, string> {
  const headers: Record<string, string> = { ETag: etag };
  if (status === 201) headers.Location = `${ctx.apiUrl}${link}`;
  return headers;
}

/**
 * A list's version policies (SP.VersionPolicyManager): spemu trims versions only by count
 * (MajorVersionLimit), never by age, which SharePoint calls NoExpiration (DefaultTrimMode 0).
 */
function versionPoliciesEntity(list: List, ctx: ApiContext): Entity {
  const link = `${listEditLink(list)}/VersionPolicies`;
  return { type: 'SP.VersionPolicyManager', id: `${ctx.apiUrl}${link}`, editLink: link, props: [['DefaultExpireAfterDays', 0], ['DefaultTrimMode', 0]] };
}

/** What `$expand` may load below a list: its root folder, its web, its default view, its role assignments, its version policies. */
function listNavigations(list: List, web: Web, ctx: ApiContext): Record<string, Navigation> {
  const link = listEditLink(list);
  return {
    RootFolder: { link: `${link}/RootFolder`, load: async () => folderEntity(list, ctx) },
    ParentWeb: { link: `${link}/ParentWeb`, load: async () => webEntity(web, ctx) },
    DefaultView: {
      link: `${link}/DefaultView`,
      load: async () => { const view = (await ctx.store.views.of(list)).find((v) => v.defaultView); return view ? viewEntity(list, view, ctx) : null; },
    },
    RoleAssignments: roleAssignmentsNavigation(link, { kind: 'list', web, list }, ctx),
    VersionPolicies: { link: `${link}/VersionPolicies`, load: async () => versionPoliciesEntity(list, ctx) },
  };
}

async function requireList(found: Promise<List | undefined>, error: () => Error): Promise<List> {
  const list = await found;
  if (!list) throw error();
  return list;
}

/** The libraries a site makes on first use: Site Assets (a document library) and Site Pages (template 119). */
const SITE_ASSETS: FixedLibrary = { title: 'Site Assets', relativeUrl: 'SiteAssets', baseTemplate: 101 };
const SITE_PAGES: FixedLibrary = { title: 'Site Pages', relativeUrl: 'SitePages', baseTemplate: 119 };

/**
 * EnsureSiteAssetsLibrary / EnsureSitePagesLibrary: the library at its fixed URL, created on
 * the first call (which needs Edit; later calls only read).
 */
async function ensureLibrary(web: Web, library: FixedLibrary, ctx: ApiContext): Promise<Outcome> {
  let list = await ctx.store.lists.byUrl(web.id, `${urlPrefix(web.serverRelativeUrl)}/${library.relativeUrl}`);
  if (!list) {
    // Making it is managing lists; finding it is reading.
    requirePermission(ctx.principal, 'ManageLists');
    list = await ctx.services.lists.ensureLibrary(web, library);
  }
  return listOutcome(list, web, ctx);
}

/**
 * A list of `web` by id; or, from a subweb, one of the site collection's catalogs (kept on the
 * root web): `getCatalog` answers those from any web, and clients follow the id it gives.
 */
async function listById(web: Web, id: string, ctx: ApiContext): Promise<List | undefined> {
  const own = await ctx.store.lists.byId(web.id, id);
  if (own || web.id === ctx.site.rootWebId) return own;
  const root = await ctx.store.lists.byId(ctx.site.rootWebId, id);
  return root && CATALOGS[root.baseTemplate] ? root : undefined;
}

export const listsType: ResourceType<{ kind: 'lists'; web: Web }> = {
  permissions: { create: 'ManageLists' },
  key: async (r, args, ctx) => {
    const id = guidText(stringArgument(args));
    return { kind: 'list', list: await requireList(listById(r.web, id, ctx), errors.listNotFoundById) };
  },
  methods: {
    getbytitle: {
      kind: 'function',
      async invoke(r, args, ctx) {
        const title = stringArgument(args, 'title');
        const list = await requireList(ctx.store.lists.byTitle(r.web.id, title),
          () => errors.listNotFoundByTitle(title, absoluteUrl(ctx, r.web.serverRelativeUrl)));
        return { kind: 'list', list };
      },
    },
    getbyid: {
      kind: 'function',
      async invoke(r, args, ctx) {
        const id = guidText(stringArgument(args, 'id'));
        return { kind: 'list', list: await requireList(listById(r.web, id, ctx), errors.listNotFoundById) };
      },
    },
    ensuresiteassetslibrary: { kind: 'action', permission: 'ViewListItems', invoke: (r, _args, ctx) => ensureLibrary(r.web, SITE_ASSETS, ctx) },
    ensuresitepageslibrary: { kind: 'action', permission: 'ViewListItems', invoke: (r, _args, ctx) => ensureLibrary(r.web, SITE_PAGES, ctx) },
    // The same library under the name PnPjs's clientside pages use to find a page's item.
    ensureclientrenderedsitepageslibrary: { kind: 'action', permission: 'ViewListItems', invoke: (r, _args, ctx) => ensureLibrary(r.web, SITE_PAGES, ctx) },
  },
  async get(r, ctx) {
    const lists = await ctx.store.lists.withCounters(await ctx.store.lists.inWeb(r.web.id));
    // A plain `$select` with no `$filter` or `$orderby` (which read any property) and no change
    // token (read once for all lists below): only what it names is made for each list.
    const { filter, orderBy, skip, top } = ctx.query;
    const selection = filter || orderBy.length ? undefined : LIST_SHAPE.selection(ctx.query);
    if (selection && !selection.changeToken) {
      let shown = skip ? lists.slice(skip) : lists;
      if (top !== undefined) shown = shown.slice(0, top);
      const entities: Entity[] = [];
      for (const list of shown) {
        const link = listEditLink(list);
        entities.push(await selectedEntity(LIST_SHAPE, selection, { list, web: r.web }, { id: `${ctx.apiUrl}${link}`, editLink: link, etag: `"${list.version}"` },
          ctx, { kind: 'list', web: r.web, list }, { scope: 'list', id: list.id }));
      }
      return ok({ kind: 'entitySet', metadataName: 'SP.ApiData.Lists', entities });
    }
    const byId = new Map(lists.map((l) => [l.id, l]));
    const entities: Entity[] = [];
    for (const l of lists) entities.push(await withSecurableProperties(listEntity(l, r.web, ctx), ctx, { kind: 'list', web: r.web, list: l }));
    await withCurrentChangeTokens(entities, ctx, 'list');
    // `$expand=RootFolder` (CLI for Microsoft 365's `spo list list`), ParentWeb or DefaultView, for each list.
    return projectedCollection(entities, (e) => listNavigations(byId.get(String(e.props.find(([k]) => k === 'Id')?.[1]))!, r.web, ctx), 'SP.ApiData.Lists', ctx);
  },
  async create(r, ctx) {
    const props = listProps(ctx);
    const list = await ctx.services.lists.create(r.web, {
      title: stringProp(props, 'Title') ?? '', description: stringProp(props, 'Description') ?? '',
      baseTemplate: intProp(props, 'BaseTemplate') ?? 100,
      hidden: boolProp(props, 'Hidden'), enableVersioning: boolProp(props, 'EnableVersioning'),
      enableModeration: boolProp(props, 'EnableModeration'), enableMinorVersions: boolProp(props, 'EnableMinorVersions'),
      disableCommenting: boolProp(props, 'DisableCommenting'),
    });
    return listOutcome(list, r.web, ctx, 201);
  },
};

type ListResource = { kind: 'list'; list: List };

export const listType: ResourceType<ListResource> = {
  permissions: { update: 'ManageLists', delete: 'ManageLists' },
  navigation: {
    items: async (r) => ({ kind: 'items', list: r.list }),
    fields: async (r) => ({ kind: 'fields', list: r.list }),
    rootfolder: async (r) => ({ kind: 'folder', list: r.list, path: '' }),
    parentweb: async (_r, ctx) => ({ kind: 'web', web: ctx.web }),
    ...listViewNavigation,
    contenttypes: async (r, ctx) => ({ kind: 'contentTypes', web: ctx.web, list: r.list }),
    usercustomactions: async (r) => listCustomActions(r.list),
    subscriptions: async (r) => ({ kind: 'subscriptions', list: r.list }),
    ...listExtraNavigation,
    ...listFormNavigation,
    versionpolicies: async (r) => ({ kind: 'readOnly', read: async (c) => ok({ kind: 'entity', metadataName: 'SP.VersionPolicyManager', entity: versionPoliciesEntity(r.list, c) }) }),
    titleresource: async (r) => userResource(async () => r.list.title),
    descriptionresource: async (r) => userResource(async () => r.list.description),
    ...securableNavigation<ListResource>(async (r, ctx) => ({ base: listEditLink(r.list), securable: { kind: 'list', web: ctx.web, list: r.list } })),
  },
  methods: {
    getusereffectivepermissions: getUserEffectivePermissions,
    ...listViewMethods,
    ...securableMethods<ListResource>(async (r, ctx) => ({ base: listEditLink(r.list), securable: { kind: 'list', web: ctx.web, list: r.list } })),
    addvalidateupdateitemusingpath: addValidateUpdateItemUsingPath,
    ...listExtraMethods,
    ...listFormMethods,
    ...listCamlMethods,
    getchanges: getChangesMethod((r, ctx) => {
      const { list } = r as ListResource;
      return { siteId: ctx.site.id, scope: { kind: 'list', listId: list.id }, tokenScope: 'list', id: list.id };
    }),
    getlistitemchangessincetoken: getListItemChangesSinceToken,
    /** A new item id, taken from the list's counter so that no item added later gets it. */
    reservelistitemid: {
      kind: 'action', permission: 'AddListItems',
      async invoke(r, _args, ctx) {
        const id = await ctx.services.items.reserveId(r.list);
        return ok({ kind: 'primitive', methodName: 'ReserveListItemId', edmType: 'Edm.Int32', value: id });
      },
    },
    getitembyid: {
      kind: 'function',
      async invoke(r, args) {
        const literal = argumentLiteral(args[0]?.value);
        if (literal?.type !== 'number') throw errors.resourceNotFound();
        return { kind: 'item', list: r.list, id: literal.value };
      },
    },
    recycle: {
      kind: 'action', permission: 'ManageLists',
      async invoke(r, _args, ctx) {
        const id = await ctx.services.lists.recycle(r.list);
        return { status: 200, payload: { kind: 'primitive', methodName: 'Recycle', edmType: 'Edm.Guid', value: id } };
      },
    },
  },
  get: async (r, ctx) => listOutcome(r.list, ctx.web, ctx),
  async update(r, ctx) {
    const props = listProps(ctx);
    // A Title sent as null or "" is a title to refuse, not one left unchanged.
    const title = props.Title === undefined ? undefined : stringProp(props, 'Title') ?? '';
    const updated = await ctx.services.lists.update(r.list, {
      title, description: stringProp(props, 'Description'), hidden: boolProp(props, 'Hidden'),
      enableVersioning: boolProp(props, 'EnableVersioning'), enableModeration: boolProp(props, 'EnableModeration'),
      enableMinorVersions: boolProp(props, 'EnableMinorVersions'), disableCommenting: boolProp(props, 'DisableCommenting'),
    }, ctx.conditions);
    return noContent({ ETag: `"${updated.version}"` });
  },
  async delete(r, ctx) {
    await ctx.services.lists.delete(r.list, ctx.conditions);
    return emptyOk();
  },
};
