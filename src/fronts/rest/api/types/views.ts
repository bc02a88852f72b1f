// SP.View and SP.ViewFieldCollection: a list's `views` (by id, `getById`, `getByTitle`, `add`,
// POST), `defaultView`, `getView('…')`, a view's MERGE / DELETE, `SetViewXml`, `renderAsHtml`,
// and its `viewFields` (`schemaXml`, `addViewField`, `moveViewFieldTo`, `removeViewField`,
// `removeAllViewFields`).

import type { List } from '../../../../domain/model.ts';
import type { View, ViewPatch } from '../../../../domain/views.ts';
import { errors } from '../../../../wire/errors.ts';
import type { Entity, Value } from '../../../../wire/values.ts';
import { boolProp, intProp, readEntityBody, readMethodBody, readParameters, stringProp, arrayValue, type Properties } from '../body.ts';
import type { ApiContext } from '../context.ts';
import { listEditLink, resourcePathValue } from '../entities.ts';
import { noContent, ok, type Outcome } from '../outcome.ts';
import type { MethodDef, ResourceType } from '../resource.ts';
import type { ViewInput } from '../../../../services/views.ts';
import { emptyOk, entityCollection, guidText, singleEntity, stringArgument } from './shared.ts';
import { voidAction } from './documents-shared.ts';
import { renderViewHtml } from './view-html.ts';

type ViewsResource = { kind: 'views'; list: List };
type ViewResource = { kind: 'view'; list: List; view: View };
type ViewFieldsResource = { kind: 'viewFields'; list: List; view: View };

const xmlAttr = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const fieldRefs = (view: View) => view.fields.map((f) => `<FieldRef Name="${xmlAttr(f)}" />`).join('');
const upper = (b: boolean) => (b ? 'TRUE' : 'FALSE');
const SCOPE_NAMES = ['', 'Recursive', 'RecursiveAll', 'FilesOnly'];

/** The view as SharePoint's schema writes it (ListViewXml, HtmlSchemaXml). */
export function viewSchemaXml(view: View): string {
  const scope = view.scope ? ` Scope="${SCOPE_NAMES[view.scope]}"` : '';
  return `<View Name="{${view.id.toUpperCase()}}" DefaultView="${upper(view.defaultView)}" Type="HTML" DisplayName="${xmlAttr(view.title)}" `
    + `Url="${xmlAttr(view.serverRelativeUrl)}" Level="1" BaseViewID="1" ContentTypeID="0x"${scope}${view.hidden ? ' Hidden="TRUE"' : ''}>`
    + `<Query>${view.query}</Query><ViewFields>${fieldRefs(view)}</ViewFields>`
    + `<RowLimit Paged="${upper(view.paged)}">${view.rowLimit}</RowLimit><Toolbar Type="Standard" /></View>`;
}

const viewLink = (list: List, view: View) => `${listEditLink(list)}/Views(guid'${view.id}')`;

export function viewEntity(list: List, view: View, ctx: ApiContext): Entity {
  const link = viewLink(list, view);
  const xml = viewSchemaXml(view);
  return {
    type: 'SP.View', id: `${ctx.apiUrl}${link}`, editLink: link, deferred: ['ViewFields'],
    props: [
      ['Aggregations', null], ['AggregationsStatus', null], ['AssociatedContentTypeId', null], ['BaseViewId', '1'],
      ['CalendarViewStyles', null], ['ColumnWidth', null], ['ContentTypeId', { kind: 'complex', type: 'SP.ContentTypeId', props: [['StringValue', '0x']] }],
      ['CustomFormatter', null], ['DefaultView', view.defaultView], ['DefaultViewForContentType', false], ['EditorModified', false],
      ['Formats', null], ['GridLayout', null], ['Hidden', view.hidden], ['HtmlSchemaXml', xml], ['Id', view.id],
      ['ImageUrl', '/_layouts/15/images/generic.png?rev=47'], ['IncludeRootFolder', false], ['ViewJoins', null], ['JSLink', 'clienttemplates.js'],
      ['ListViewXml', xml], ['Method', null], ['MobileDefaultView', false], ['MobileView', false], ['ModerationType', null],
      ['NewDocumentTemplates', null], ['OrderedView', false], ['Paged', view.paged], ['PersonalView', view.personal],
      ['ViewProjectedFields', null], ['ViewQuery', view.query], ['ReadOnlyView', false], ['RequiresClientIntegration', false],
      ['RowLimit', view.rowLimit], ['Scope', view.scope], ['ServerRelativePath', resourcePathValue(view.serverRelativeUrl)],
      ['ServerRelativeUrl', view.serverRelativeUrl], ['StyleId', null], ['TabularView', false], ['Threaded', false], ['Title', view.title],
      ['Toolbar', ''], ['ToolbarTemplateName', null], ['ViewType', 'HTML'], ['ViewData', null], ['ViewType2', null],
      ['VisualizationInfo', null],
    ],
  };
}

function viewFieldsEntity(list: List, view: View, ctx: ApiContext): Entity {
  const link = `${viewLink(list, view)}/ViewFields`;
  const items: Value = { kind: 'collection', elementType: 'Edm.String', items: view.fields };
  return { type: 'SP.ViewFieldCollection', id: `${ctx.apiUrl}${link}`, editLink: link, props: [['SchemaXml', fieldRefs(view)], ['Items', items]] };
}

async function viewById(list: List, id: string, ctx: ApiContext): Promise<ViewResource> {
  const wanted = guidText(id);
  const view = (await ctx.store.views.of(list)).find((v) => v.id === wanted);
  if (!view) throw errors.viewNotFound();
  return { kind: 'view', list, view };
}

/** `{Title, RowLimit, ViewQuery, …}` (a POST to `views`, or `views/add`'s SP.ViewCreationInformation). */
function viewInput(props: Properties): ViewInput {
  const fields = props.ViewFields === undefined || props.ViewFields === null ? undefined : arrayValue(props.ViewFields);
  if (props.ViewFields != null && (!fields || !fields.every((f) => typeof f === 'string'))) throw errors.invalidPropertyValue('Collection(Edm.String)');
  const viewType = props.ViewTypeKind;
  if (viewType !== undefined && viewType !== 1 && viewType !== 0) throw errors.notImplemented(`A view of type ${String(viewType)} (only HTML views)`);
  return {
    title: stringProp(props, 'Title') ?? '', personal: boolProp(props, 'PersonalView'),
    defaultView: boolProp(props, 'SetAsDefaultView') ?? boolProp(props, 'DefaultView'), hidden: boolProp(props, 'Hidden'),
    rowLimit: intProp(props, 'RowLimit'), paged: boolProp(props, 'Paged'), scope: intProp(props, 'Scope'),
    query: stringProp(props, 'ViewQuery') ?? stringProp(props, 'Query'), fields: fields as string[] | undefined,
  };
}

const CREATE_PROPS = new Set(['Title', 'PersonalView', 'SetAsDefaultView', 'DefaultView', 'Hidden', 'RowLimit', 'Paged', 'Scope', 'ViewQuery', 'Query', 'ViewFields', 'ViewTypeKind']);
const UPDATE_PROPS = new Set(['Title', 'DefaultView', 'Hidden', 'RowLimit', 'Paged', 'Scope', 'ViewQuery']);

async function createView(r: ViewsResource, props: Properties, ctx: ApiContext, status: number): Promise<Outcome> {
  for (const key of Object.keys(props)) if (!CREATE_PROPS.has(key)) throw errors.unknownBodyProperty(key, 'SP.View');
  const view = await ctx.services.views.create(r.list, viewInput(props));
  const outcome = singleEntity(viewEntity(r.list, view, ctx), 'SP.View', ctx);
  return { ...outcome, status };
}

export const viewsType: ResourceType<ViewsResource> = {
  permissions: { create: 'ManageLists' },
  key: (r, args, ctx) => viewById(r.list, stringArgument(args), ctx),
  methods: {
    getbyid: { kind: 'function', invoke: (r, args, ctx) => viewById(r.list, stringArgument(args, 'guidId', 'id'), ctx) },
    getbytitle: {
      kind: 'function',
      async invoke(r, args, ctx) {
        const title = stringArgument(args, 'strTitle', 'title');
        const view = (await ctx.store.views.of(r.list)).find((v) => v.title.toLowerCase() === title.toLowerCase());
        if (!view) throw errors.viewNotFound();
        return { kind: 'view', list: r.list, view };
      },
    },
    add: { kind: 'action', permission: 'ManageLists', body: 'json', invoke: (r, _args, ctx) => createView(r, readParameters(ctx, 'SP.ViewCreationInformation'), ctx, 200) },
  },
  get: async (r, ctx) => entityCollection((await ctx.store.views.of(r.list)).map((v) => viewEntity(r.list, v, ctx)), 'SP.ApiData.Views', ctx),
  create: (r, ctx) => createView(r, readEntityBody(ctx, 'SP.View'), ctx, 201),
};

export const viewType: ResourceType<ViewResource> = {
  permissions: { update: 'ManageLists', delete: 'ManageLists' },
  navigation: {
    viewfields: async (r) => ({ kind: 'viewFields', list: r.list, view: r.view }),
  },
  methods: {
    renderashtml: {
      kind: 'function', permission: 'ViewListItems',
      async invoke(r, _args, ctx) {
        return ok({ kind: 'primitive', methodName: 'RenderAsHtml', edmType: 'Edm.String', value: await renderViewHtml(r.list, r.view, ctx) });
      },
    },
    setviewxml: voidAction('SetViewXml', 'ManageLists', async (r, _args, ctx) => {
      const xml = readMethodBody(ctx).viewXml;
      if (typeof xml !== 'string') throw errors.badArgument('The body must be {"viewXml":"<View>…</View>"}.');
      await ctx.services.views.setXml(r.list, r.view, xml);
    }, 'json'),
  },
  get: async (r, ctx) => singleEntity(viewEntity(r.list, r.view, ctx), 'SP.View', ctx),
  async update(r, ctx) {
    const props = readEntityBody(ctx, 'SP.View');
    for (const key of Object.keys(props)) {
      if (UPDATE_PROPS.has(key)) continue;
      if (viewEntity(r.list, r.view, ctx).props.some(([name]) => name === key)) throw errors.notImplemented(`Setting SP.View.${key}`);
      throw errors.unknownBodyProperty(key, 'SP.View');
    }
    const patch: ViewPatch = {
      title: stringProp(props, 'Title'), defaultView: boolProp(props, 'DefaultView'), hidden: boolProp(props, 'Hidden'),
      rowLimit: intProp(props, 'RowLimit'), paged: boolProp(props, 'Paged'), scope: intProp(props, 'Scope'), query: stringProp(props, 'ViewQuery'),
    };
    for (const key of Object.keys(patch) as Array<keyof ViewPatch>) if (patch[key] === undefined) delete patch[key];
    await ctx.services.views.update(r.list, r.view, patch);
    return noContent();
  },
  async delete(r, ctx) {
    await ctx.services.views.delete(r.list, r.view);
    return emptyOk();
  },
};

/** A view-field method taking the column's name in the path (`addViewField('Created')`). */
function columnAction(methodName: string, run: (r: ViewFieldsResource, name: string, ctx: ApiContext) => Promise<unknown>): MethodDef<ViewFieldsResource> {
  return voidAction(methodName, 'ManageLists', async (r, args, ctx) => { await run(r, stringArgument(args, 'strField', 'field'), ctx); });
}

export const viewFieldsType: ResourceType<ViewFieldsResource> = {
  methods: {
    schemaxml: {
      kind: 'function',
      invoke: async (r) => ok({ kind: 'primitive', methodName: 'SchemaXml', edmType: 'Edm.String', value: fieldRefs(r.view) }),
    },
    addviewfield: columnAction('AddViewField', (r, name, ctx) => ctx.services.views.addField(r.list, r.view, name)),
    removeviewfield: columnAction('RemoveViewField', (r, name, ctx) => ctx.services.views.removeField(r.list, r.view, name)),
    removeallviewfields: voidAction('RemoveAllViewFields', 'ManageLists', async (r, _args, ctx) => { await ctx.services.views.removeAllFields(r.list, r.view); }),
    moveviewfieldto: voidAction('MoveViewFieldTo', 'ManageLists', async (r, _args, ctx) => {
      const body = readMethodBody(ctx);
      if (typeof body.field !== 'string' || typeof body.index !== 'number') throw errors.badArgument('The body must be {"field":"…","index":n}.');
      await ctx.services.views.moveField(r.list, r.view, body.field, body.index);
    }, 'json'),
  },
  get: async (r, ctx) => singleEntity(viewFieldsEntity(r.list, r.view, ctx), 'SP.ViewFieldCollection', ctx),
};

/** What a list has for its views: `views`, `defaultView`, `getView('…')`. */
export const listViewNavigation = {
  views: async (r: { list: List }) => ({ kind: 'views' as const, list: r.list }),
  defaultview: async (r: { list: List }, ctx: ApiContext) => {
    const view = (await ctx.store.views.of(r.list)).find((v) => v.defaultView);
    if (!view) throw errors.viewNotFound();
    return { kind: 'view' as const, list: r.list, view };
  },
};

export const listViewMethods: Record<string, MethodDef<{ kind: 'list'; list: List }>> = {
  getview: { kind: 'function', invoke: (r, args, ctx) => viewById(r.list, stringArgument(args, 'viewGuid', 'id'), ctx) },
};
