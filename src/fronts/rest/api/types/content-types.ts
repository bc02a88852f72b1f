// SP.ContentType: a web's `contentTypes` (and `availableContentTypes`), a list's
// `contentTypes` with `addAvailableContentType`, `contentTypes('0x…')` / `getById`, a type's
// MERGE / DELETE, `fieldLinks`, `fields`, `parent`, `workflowAssociations`; an item's
// `ContentType`.

import type { ContentType } from '../../../../domain/content-types.ts';
import { normaliseContentTypeId, parentContentTypeId } from '../../../../domain/content-types.ts';
import type { Field, List, Web } from '../../../../domain/model.ts';
import { listContentTypes, webContentTypes } from '../../../../services/content-types.ts';
import { errors } from '../../../../wire/errors.ts';
import type { Entity, Value } from '../../../../wire/values.ts';
import { boolProp, readEntityBody, readMethodBody, stringProp, type Properties } from '../body.ts';
import type { ApiContext } from '../context.ts';
import { fieldEntity, listEditLink, listFieldOwner } from '../entities.ts';
import { noContent, type Outcome } from '../outcome.ts';
import type { MethodDef, Resource, ResourceType } from '../resource.ts';
import { emptyOk, entityCollection, singleEntity, stringArgument } from './shared.ts';

/** Where a type is listed: a web's collection or a list's. */
export type ContentTypeHome = { web: Web; list?: List | undefined };
type TypesResource = { kind: 'contentTypes' } & ContentTypeHome;
type TypeResource = { kind: 'contentType'; type: ContentType } & ContentTypeHome;

const typesOf = (home: ContentTypeHome, ctx: ApiContext): Promise<ContentType[]> =>
  home.list ? listContentTypes(ctx.store, home.list) : webContentTypes(ctx.store, home.web);

const typeLink = (home: ContentTypeHome, type: ContentType) =>
  `${home.list ? listEditLink(home.list) : 'Web'}/ContentTypes('${type.id}')`;

const contentTypeIdValue = (id: string): Value => ({ kind: 'complex', type: 'SP.ContentTypeId', props: [['StringValue', id]] });
const xmlAttr = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function contentTypeEntity(home: ContentTypeHome, type: ContentType, ctx: ApiContext): Entity {
  const link = typeLink(home, type);
  const links = type.fieldLinks.map((l) => `<FieldRef ID="{${l.id}}" Name="${xmlAttr(l.name)}"${l.required ? ' Required="TRUE"' : ''} />`).join('');
  const schema = `<ContentType ID="${type.id}" Name="${xmlAttr(type.name)}" Group="${xmlAttr(type.group)}" Description="${xmlAttr(type.description)}"`
    + `${type.hidden ? ' Hidden="TRUE"' : ''}${type.sealed ? ' Sealed="TRUE"' : ''}${type.readOnly ? ' ReadOnly="TRUE"' : ''}><FieldRefs>${links}</FieldRefs></ContentType>`;
  return {
    type: 'SP.ContentType', id: `${ctx.apiUrl}${link}`, editLink: link,
    deferred: ['FieldLinks', 'Fields', 'Parent', 'WorkflowAssociations'],
    props: [
      ['Description', type.description], ['DisplayFormTemplateName', 'ListForm'], ['DisplayFormUrl', ''], ['DocumentTemplate', ''],
      ['DocumentTemplateUrl', ''], ['EditFormTemplateName', 'ListForm'], ['EditFormUrl', ''], ['Group', type.group], ['Hidden', type.hidden],
      ['Id', contentTypeIdValue(type.id)], ['JSLink', ''], ['MobileDisplayFormUrl', ''], ['MobileEditFormUrl', ''], ['MobileNewFormUrl', ''],
      ['Name', type.name], ['NewFormTemplateName', 'ListForm'], ['NewFormUrl', ''], ['ReadOnly', type.readOnly], ['SchemaXml', schema],
      ['Scope', home.list ? home.list.serverRelativeUrl : home.web.serverRelativeUrl], ['Sealed', type.sealed], ['StringId', type.id],
    ],
  };
}

function fieldLinkEntities(home: ContentTypeHome, type: ContentType, ctx: ApiContext): Entity[] {
  return type.fieldLinks.map((l) => {
    const link = `${typeLink(home, type)}/FieldLinks(guid'${l.id}')`;
    return {
      type: 'SP.FieldLink', id: `${ctx.apiUrl}${link}`, editLink: link,
      props: [['FieldInternalName', null], ['Hidden', l.hidden], ['Id', l.id], ['Name', l.name], ['ReadOnly', false], ['Required', l.required], ['ShowInDisplayForm', true]],
    };
  });
}

/** The type's fields: a list type's are the list's fields it links; a site type's, what its links say of them. */
async function fieldEntities(home: ContentTypeHome, type: ContentType, ctx: ApiContext): Promise<Entity[]> {
  if (home.list) {
    const list = home.list;
    const fields = await ctx.store.fields.of(list);
    return type.fieldLinks.flatMap((l) => fields.filter((f: Field) => f.internalName === l.name).map((f) => fieldEntity(f, listFieldOwner(list), ctx)));
  }
  return type.fieldLinks.map((l) => {
    const link = `${typeLink(home, type)}/Fields(guid'${l.id}')`;
    return {
      type: 'SP.Field', id: `${ctx.apiUrl}${link}`, editLink: link,
      props: [['Hidden', l.hidden], ['Id', l.id], ['InternalName', l.name], ['Required', l.required], ['StaticName', l.name], ['Title', l.name]],
    };
  });
}

async function typeById(home: ContentTypeHome, idText: string, ctx: ApiContext): Promise<TypeResource> {
  const id = normaliseContentTypeId(idText);
  const type = id === undefined ? undefined : (await typesOf(home, ctx)).find((t) => t.id === id);
  if (!type) throw errors.contentTypeNotFound();
  return { kind: 'contentType', type, web: home.web, list: home.list };
}

const CREATE_PROPS = new Set(['Id', 'Name', 'Description', 'Group']);
const UPDATE_PROPS = new Set(['Name', 'Description', 'Group', 'Hidden']);

/** `Id` as `{"StringValue":"0x…"}` (as PnPjs sends it) or as a string. */
function idProp(props: Properties): string {
  const id = props.Id;
  const text = typeof id === 'string' ? id : id && typeof id === 'object' ? (id as { StringValue?: unknown }).StringValue : undefined;
  if (typeof text !== 'string') throw errors.badArgument('A new content type needs an Id ({"StringValue":"0x…"}).');
  return text;
}

export const contentTypesType: ResourceType<TypesResource> = {
  permissions: { create: 'ManageLists' },
  key: (r, args, ctx) => typeById(r, stringArgument(args), ctx),
  methods: {
    getbyid: { kind: 'function', invoke: (r, args, ctx) => typeById(r, stringArgument(args, 'contentTypeId', 'id'), ctx) },
    addavailablecontenttype: {
      kind: 'action', permission: 'ManageLists', body: 'json',
      async invoke(r, _args, ctx) {
        if (!r.list) throw errors.methodNotAllowed('POST');
        const body = readMethodBody(ctx);
        if (typeof body.contentTypeId !== 'string') throw errors.badArgument('The body must be {"contentTypeId":"0x…"}.');
        const added = await ctx.services.contentTypes.addToList(r.web, r.list, body.contentTypeId);
        return singleEntity(contentTypeEntity(r, added, ctx), 'SP.ContentType', ctx);
      },
    },
  },
  get: async (r, ctx) => entityCollection((await typesOf(r, ctx)).map((t) => contentTypeEntity(r, t, ctx)), 'SP.ApiData.ContentTypes', ctx),
  async create(r, ctx) {
    // A list takes types with addAvailableContentType; POST makes site content types.
    if (r.list) throw errors.notImplemented('Creating a list content type with POST (use addAvailableContentType)');
    const props = readEntityBody(ctx, 'SP.ContentType');
    for (const key of Object.keys(props)) if (!CREATE_PROPS.has(key)) throw errors.unknownBodyProperty(key, 'SP.ContentType');
    const type = await ctx.services.contentTypes.create(r.web, {
      id: idProp(props), name: stringProp(props, 'Name') ?? '', description: stringProp(props, 'Description') ?? '', group: stringProp(props, 'Group') ?? '',
    });
    return { ...singleEntity(contentTypeEntity(r, type, ctx), 'SP.ContentType', ctx), status: 201 };
  },
};

export const contentTypeType: ResourceType<TypeResource> = {
  permissions: { update: 'ManageLists', delete: 'ManageLists' },
  navigation: {
    fieldlinks: async (r) => ({ kind: 'readOnly', read: async (ctx) => entityCollection(fieldLinkEntities(r, r.type, ctx), 'SP.ApiData.FieldLinks', ctx) }),
    fields: async (r) => ({ kind: 'readOnly', read: async (ctx) => entityCollection(await fieldEntities(r, r.type, ctx), 'SP.ApiData.Fields', ctx) }),
    workflowassociations: async () => ({ kind: 'readOnly', read: async (ctx) => entityCollection([], 'SP.Workflow.WorkflowAssociations', ctx) }),
    parent: async (r, ctx) => {
      // A list's copy has the type it copies as its parent; a site type, its parent id's.
      const parentId = parentContentTypeId(r.type.id);
      const offered = await webContentTypes(ctx.store, r.web);
      const parent = parentId === undefined ? undefined
        : offered.filter((t) => r.type.id.startsWith(t.id) && t.id !== r.type.id).sort((a, b) => b.id.length - a.id.length)[0];
      if (!parent) throw errors.contentTypeNotFound();
      return { kind: 'contentType', type: parent, web: r.web } as Resource;
    },
  },
  get: async (r, ctx) => singleEntity(contentTypeEntity(r, r.type, ctx), 'SP.ContentType', ctx),
  async update(r, ctx): Promise<Outcome> {
    const props = readEntityBody(ctx, 'SP.ContentType');
    for (const key of Object.keys(props)) {
      if (UPDATE_PROPS.has(key)) continue;
      if (contentTypeEntity(r, r.type, ctx).props.some(([name]) => name === key)) throw errors.notImplemented(`Setting SP.ContentType.${key}`);
      throw errors.unknownBodyProperty(key, 'SP.ContentType');
    }
    await ctx.services.contentTypes.update(r.type, {
      name: stringProp(props, 'Name'), description: stringProp(props, 'Description'), group: stringProp(props, 'Group'), hidden: boolProp(props, 'Hidden'),
    });
    return noContent();
  },
  async delete(r, ctx) {
    await ctx.services.contentTypes.delete(r.web, r.type);
    return emptyOk();
  },
};

/** `items(n)/ContentType`: the list's type the item is of. */
export async function contentTypeOfItem(list: List, contentTypeId: string, ctx: ApiContext): Promise<Resource> {
  const type = (await listContentTypes(ctx.store, list)).find((t) => t.id === contentTypeId);
  if (!type) throw errors.contentTypeNotFound();
  return { kind: 'contentType', type, web: ctx.web, list } as Resource;
}

/** A folder's ContentTypeOrder: the list's visible types but Folder, as SharePoint orders a new item's choices. */
export async function contentTypeOrder(list: List, ctx: ApiContext): Promise<Value> {
  const types = (await listContentTypes(ctx.store, list)).filter((t) => !t.hidden && !t.id.startsWith('0x0120'));
  return { kind: 'collection', elementType: 'SP.ContentTypeId', items: types.map((t) => contentTypeIdValue(t.id)) };
}
