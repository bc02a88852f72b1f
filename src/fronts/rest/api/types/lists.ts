// SP.List and the web's list collection.

import type { List, Web } from '../../../../domain/model.ts';
import { createListWithFields } from '../../../../services/lists.ts';
import { isKnownTemplate } from '../../../../domain/templates.ts';
import { errors } from '../../../../wire/errors.ts';
import type { ApiContext } from '../context.ts';
import { absoluteUrl, folderEntity, listEditLink, listEntity, webEntity } from '../entities.ts';
import { projectEntity } from '../expand.ts';
import { boolProp, intProp, readEntityBody, stringProp, type Properties } from '../body.ts';
import { noContent, ok, type Outcome } from '../outcome.ts';
import { requirePermission } from '../../../../identity/permissions.ts';
import { getUserEffectivePermissions, securableNavigation, withSecurableProperties } from './security.ts';
import type { ResourceType } from '../resource.ts';
import { emptyOk, entityCollection, guidText, singleEntity, stringArgument, versionFromIfMatch } from './shared.ts';
import { urlPrefix } from '../../../../domain/names.ts';
import { argumentLiteral } from '../../../../odata/path.ts';

/** SP.List properties a client may set; known but inert ones are accepted and ignored. */
const SETTABLE = new Set(['Title', 'Description', 'BaseTemplate', 'Hidden', 'EnableVersioning', 'AllowContentTypes',
  'ContentTypesEnabled', 'EnableAttachments', 'EnableFolderCreation', 'EnableMinorVersions', 'EnableModeration',
  'ForceCheckout', 'MajorVersionLimit', 'MajorWithMinorVersionsLimit', 'NoCrawl', 'OnQuickLaunch', 'DraftVersionVisibility',
  'DocumentTemplateUrl', 'Direction', 'IrmEnabled', 'ReadSecurity', 'WriteSecurity', 'ValidationFormula', 'ValidationMessage',
  'DisableGridEditing', 'ExcludeFromOfflineClient', 'ListExperienceOptions', 'TemplateFeatureId', 'QuickLaunchOption']);

function listProps(ctx: ApiContext): Properties {
  const props = readEntityBody(ctx, 'SP.List');
  for (const key of Object.keys(props)) if (!SETTABLE.has(key)) throw errors.unknownBodyProperty(key, 'SP.List');
  return props;
}

function checkTitle(title: string | undefined): string {
  if (title === undefined || title.trim() === '') throw errors.badArgument('The list title must not be empty.');
  if (title.length > 255) throw errors.badArgument('The list title must not be longer than 255 characters.');
  return title;
}

/** The list with `$expand=RootFolder,ParentWeb` and `$select` (below them too), as PnPjs's list.getParentInfos asks. */
async function listOutcome(list: List, web: Web, ctx: ApiContext, status = 200): Promise<Outcome> {
  const entity = withSecurableProperties(listEntity(list, web, ctx), ctx, false);
  const link = listEditLink(list);
  const selected = await projectEntity(entity, {
    RootFolder: { link: `${link}/RootFolder`, load: async () => folderEntity(list, ctx) },
    ParentWeb: { link: `${link}/ParentWeb`, load: async () => webEntity(web, ctx) },
  }, ctx);
  const headers: Record<string, string> = { ETag: entity.etag! };
  if (status === 201) headers.Location = `${ctx.apiUrl}${link}`;
  return { status, payload: { kind: 'entity', metadataName: 'SP.ApiData.Lists', entity: selected }, headers };
}

async function requireList(found: Promise<List | undefined>, error: () => Error): Promise<List> {
  const list = await found;
  if (!list) throw error();
  return list;
}

/** The libraries a site makes on first use: Site Assets (a document library) and Site Pages (template 119). */
const SITE_ASSETS = { title: 'Site Assets', relativeUrl: 'SiteAssets', baseTemplate: 101 };
const SITE_PAGES = { title: 'Site Pages', relativeUrl: 'SitePages', baseTemplate: 119 };

/**
 * EnsureSiteAssetsLibrary / EnsureSitePagesLibrary: the library at its fixed URL, created on
 * the first call (which needs Edit; later calls only read).
 */
async function ensureLibrary(web: Web, library: typeof SITE_ASSETS, ctx: ApiContext): Promise<Outcome> {
  const url = `${urlPrefix(web.serverRelativeUrl)}/${library.relativeUrl}`;
  let list = await ctx.store.lists.byUrl(web.id, url);
  if (!list) {
    // Making it is managing lists; finding it is reading.
    requirePermission(ctx.principal, 'ManageLists');
    list = await ctx.store.transaction(async (tx) => {
      const existing = await tx.lists.byUrl(web.id, url);
      if (existing) return existing;
      if (await tx.lists.byTitle(web.id, library.title)) throw errors.listAlreadyExists();
      return createListWithFields(tx, web, { ...library, description: '' }, ctx.now());
    });
  }
  return listOutcome(list, web, ctx);
}

export const listsType: ResourceType<{ kind: 'lists'; web: Web }> = {
  permissions: { create: 'ManageLists' },
  key: async (r, args, ctx) => {
    const id = guidText(stringArgument(args));
    return { kind: 'list', list: await requireList(ctx.store.lists.byId(r.web.id, id), errors.listNotFoundById) };
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
        return { kind: 'list', list: await requireList(ctx.store.lists.byId(r.web.id, id), errors.listNotFoundById) };
      },
    },
    ensuresiteassetslibrary: { kind: 'action', permission: 'ViewListItems', invoke: (r, _args, ctx) => ensureLibrary(r.web, SITE_ASSETS, ctx) },
    ensuresitepageslibrary: { kind: 'action', permission: 'ViewListItems', invoke: (r, _args, ctx) => ensureLibrary(r.web, SITE_PAGES, ctx) },
  },
  async get(r, ctx) {
    const lists = await ctx.store.lists.inWeb(r.web.id);
    return entityCollection(lists.map((l) => withSecurableProperties(listEntity(l, r.web, ctx), ctx, false)), 'SP.ApiData.Lists', ctx);
  },
  async create(r, ctx) {
    const props = listProps(ctx);
    const title = checkTitle(stringProp(props, 'Title'));
    const template = intProp(props, 'BaseTemplate') ?? 100;
    if (!isKnownTemplate(template) || template === 112) throw errors.badArgument(`The list template ${template} is not supported by spemu.`);
    if (await ctx.store.lists.byTitle(r.web.id, title)) throw errors.listAlreadyExists();
    const list = await createListWithFields(ctx.store, r.web, {
      title, description: stringProp(props, 'Description') ?? '', baseTemplate: template,
      hidden: boolProp(props, 'Hidden'), enableVersioning: boolProp(props, 'EnableVersioning'),
    }, ctx.now());
    return listOutcome(list, r.web, ctx, 201);
  },
};

type ListResource = { kind: 'list'; list: List };

export const listType: ResourceType<ListResource> = {
  permissions: { update: 'ManageLists', delete: 'ManageLists' },
  navigation: {
    items: async (r) => ({ kind: 'items', list: r.list }),
    fields: async (r) => ({ kind: 'fields', list: r.list }),
    rootfolder: async (r) => ({ kind: 'rootFolder', list: r.list }),
    parentweb: async (_r, ctx) => ({ kind: 'web', web: ctx.web }),
    ...securableNavigation<ListResource>(async (r) => listEditLink(r.list)),
  },
  methods: {
    getusereffectivepermissions: getUserEffectivePermissions,
    /** A new item id, taken from the list's counter so that no item added later gets it. */
    reservelistitemid: {
      kind: 'action', permission: 'AddListItems',
      async invoke(r, _args, ctx) {
        const id = await ctx.store.items.reserveId(r.list);
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
        await ctx.store.lists.delete(r.list);
        return { status: 200, payload: { kind: 'primitive', methodName: 'Recycle', edmType: 'Edm.Guid', value: r.list.id } };
      },
    },
  },
  get: async (r, ctx) => listOutcome(r.list, ctx.web, ctx),
  async update(r, ctx, ifMatch) {
    const props = listProps(ctx);
    const expected = versionFromIfMatch(ifMatch);
    if (expected !== null && expected !== r.list.version) throw errors.etagMismatch(ifMatch ?? '', `"${r.list.version}"`);
    const title = props.Title === undefined ? undefined : checkTitle(stringProp(props, 'Title'));
    if (title !== undefined && title.toLowerCase() !== r.list.title.toLowerCase()) {
      if (await ctx.store.lists.byTitle(r.list.webId, title)) throw errors.listAlreadyExists();
    }
    const updated = await ctx.store.lists.update(r.list, {
      title, description: stringProp(props, 'Description'), hidden: boolProp(props, 'Hidden'),
      enableVersioning: boolProp(props, 'EnableVersioning'),
    }, ctx.now());
    return noContent({ ETag: `"${updated.version}"` });
  },
  async delete(r, ctx, ifMatch) {
    const expected = versionFromIfMatch(ifMatch);
    if (expected !== null && expected !== r.list.version) throw errors.etagMismatch(ifMatch ?? '', `"${r.list.version}"`);
    await ctx.store.lists.delete(r.list);
    return emptyOk();
  },
};

export const rootFolderType: ResourceType<{ kind: 'rootFolder'; list: List }> = {
  get: async (r, ctx) => singleEntity(folderEntity(r.list, ctx), 'SP.Folder', ctx),
};
