// SP.List and the web's list collection.

import type { List, Web } from '../../domain/model.ts';
import { createListWithFields } from '../../domain/lists.ts';
import { isKnownTemplate } from '../../domain/templates.ts';
import { errors } from '../../errors.ts';
import type { ApiContext } from '../context.ts';
import { absoluteUrl, folderEntity, listEditLink, listEntity, selectProps } from '../entities.ts';
import { boolProp, intProp, readEntityBody, stringProp, type Properties } from '../body.ts';
import { noContent, type Outcome } from '../outcome.ts';
import type { ResourceType } from '../resource.ts';
import { emptyOk, entityCollection, guidText, singleEntity, stringArgument, versionFromIfMatch } from './shared.ts';

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

function listOutcome(list: List, web: Web, ctx: ApiContext, status = 200): Outcome {
  const entity = listEntity(list, web, ctx);
  const expanded = new Set<string>();
  for (const [head] of ctx.query.expand) {
    if (head === 'RootFolder' && !expanded.has(head)) {
      entity.props.push(['RootFolder', { kind: 'expanded', navigationLink: `${listEditLink(list)}/RootFolder`, value: folderEntity(list, ctx) }]);
      expanded.add(head);
    } else if (head !== 'RootFolder') {
      throw errors.unknownSelectProperty(head ?? '');
    }
  }
  const metadataName = 'SP.ApiData.Lists';
  const selected = selectProps(entity, ctx.query.select, expanded);
  const headers: Record<string, string> = { ETag: entity.etag! };
  if (status === 201) headers.Location = `${ctx.apiUrl}${listEditLink(list)}`;
  return { status, payload: { kind: 'entity', metadataName, entity: selected }, headers };
}

async function requireList(found: Promise<List | undefined>, error: () => Error): Promise<List> {
  const list = await found;
  if (!list) throw error();
  return list;
}

export const listsType: ResourceType<{ kind: 'lists'; web: Web }> = {
  key: async (r, args, ctx) => {
    const id = guidText(stringArgument(args));
    return { kind: 'list', list: await requireList(ctx.store.getListById(r.web.id, id), errors.listNotFoundById) };
  },
  methods: {
    getbytitle: {
      kind: 'function',
      async invoke(r, args, ctx) {
        const title = stringArgument(args, 'title');
        const list = await requireList(ctx.store.getListByTitle(r.web.id, title),
          () => errors.listNotFoundByTitle(title, absoluteUrl(ctx, r.web.serverRelativeUrl)));
        return { kind: 'list', list };
      },
    },
    getbyid: {
      kind: 'function',
      async invoke(r, args, ctx) {
        const id = guidText(stringArgument(args, 'id'));
        return { kind: 'list', list: await requireList(ctx.store.getListById(r.web.id, id), errors.listNotFoundById) };
      },
    },
  },
  async get(r, ctx) {
    const lists = await ctx.store.getLists(r.web.id);
    return entityCollection(lists.map((l) => listEntity(l, r.web, ctx)), 'SP.ApiData.Lists', ctx);
  },
  async create(r, ctx) {
    const props = listProps(ctx);
    const title = checkTitle(stringProp(props, 'Title'));
    const template = intProp(props, 'BaseTemplate') ?? 100;
    if (!isKnownTemplate(template) || template === 112) throw errors.badArgument(`The list template ${template} is not supported by spemu.`);
    if (await ctx.store.getListByTitle(r.web.id, title)) throw errors.listAlreadyExists();
    const list = await createListWithFields(ctx.store, r.web, {
      title, description: stringProp(props, 'Description') ?? '', baseTemplate: template,
      hidden: boolProp(props, 'Hidden'), enableVersioning: boolProp(props, 'EnableVersioning'),
    }, ctx.now());
    return listOutcome(list, r.web, ctx, 201);
  },
};

export const listType: ResourceType<{ kind: 'list'; list: List }> = {
  navigation: {
    items: async (r) => ({ kind: 'items', list: r.list }),
    fields: async (r) => ({ kind: 'fields', list: r.list }),
    rootfolder: async (r) => ({ kind: 'rootFolder', list: r.list }),
    parentweb: async (_r, ctx) => ({ kind: 'web', web: ctx.web }),
  },
  methods: {
    getitembyid: {
      kind: 'function',
      async invoke(r, args) {
        const v = args[0]?.value;
        const literal = v?.kind === 'alias' ? v.value : v;
        if (literal?.type !== 'number') throw errors.resourceNotFound();
        return { kind: 'item', list: r.list, id: literal.value };
      },
    },
    recycle: {
      kind: 'action',
      async invoke(r, _args, ctx) {
        await ctx.store.deleteList(r.list);
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
      if (await ctx.store.getListByTitle(r.list.webId, title)) throw errors.listAlreadyExists();
    }
    const updated = await ctx.store.updateList(r.list, {
      title, description: stringProp(props, 'Description'), hidden: boolProp(props, 'Hidden'),
      enableVersioning: boolProp(props, 'EnableVersioning'),
    }, ctx.now());
    return noContent({ ETag: `"${updated.version}"` });
  },
  async delete(r, ctx, ifMatch) {
    const expected = versionFromIfMatch(ifMatch);
    if (expected !== null && expected !== r.list.version) throw errors.etagMismatch(ifMatch ?? '', `"${r.list.version}"`);
    await ctx.store.deleteList(r.list);
    return emptyOk();
  },
};

export const rootFolderType: ResourceType<{ kind: 'rootFolder'; list: List }> = {
  get: async (r, ctx) => singleEntity(folderEntity(r.list, ctx), 'SP.Folder', ctx),
};
