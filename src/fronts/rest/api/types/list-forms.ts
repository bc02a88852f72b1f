// A list's forms and what a form shows. `list/forms` (SP.Form: the display, edit and new
// forms every list has, at SharePoint's URLs: `DispForm.aspx` beside a list's items, under
// `Forms/` in a library), `forms.getById` and `forms(guid'…')`; and
// `renderlistformdata(itemid, formid, mode)`, the form's data as SharePoint's JSON string: the
// item's values (as RenderListDataAsStream shows them), ListSchema (the fields by internal
// name), the control modes and the web, item and list attributes. Nothing is stored: a form's
// id is derived from the list's id and the form's type, so it is the same on every request.

import { createHash } from 'node:crypto';
import type { Field, Item, List } from '../../../../domain/model.ts';
import { FIELD_KINDS } from '../../../../domain/field-kinds.ts';
import { grants, permissionsOfRole } from '../../../../domain/permissions.ts';
import { effectivePermissions } from '../../../../identity/effective-permissions.ts';
import { fail } from '../../../../domain/errors.ts';
import { errors } from '../../../../wire/errors.ts';
import type { Entity } from '../../../../wire/values.ts';
import { listEditLink, resourcePathValue } from '../entities.ts';
import { listDataRows } from '../list-data-rows.ts';
import { listContentTypes } from '../../../../services/content-types.ts';
import { ok } from '../outcome.ts';
import type { ApiContext } from '../context.ts';
import type { MethodDef, Resource, ResourceType } from '../resource.ts';
import { argument, entityCollection, guidText, singleEntity, stringArgument } from './shared.ts';
import { argumentLiteral } from '../../../../odata/path.ts';

type ListResource = { kind: 'list'; list: List };
type FormsResource = { kind: 'forms'; list: List };
type FormResource = { kind: 'form'; list: List; form: ListForm };

/** SharePoint's PageType of each form, and its page. */
const FORMS = [
  { type: 4, page: 'DispForm.aspx', name: 'displayform' },
  { type: 6, page: 'EditForm.aspx', name: 'editform' },
  { type: 8, page: 'NewForm.aspx', name: 'newform' },
] as const;

export interface ListForm { id: string; type: number; url: string; name: string }

const DOCUMENT_LIBRARY = 1;

/** A GUID from the list's id and the form type (the same for the same form, different across lists). */
function formId(list: List, type: number): string {
  const h = createHash('sha1').update(`${list.id}:form:${type}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function listForms(list: List): ListForm[] {
  const folder = list.baseType === DOCUMENT_LIBRARY ? `${list.serverRelativeUrl}/Forms` : list.serverRelativeUrl;
  return FORMS.map((f) => ({ id: formId(list, f.type), type: f.type, url: `${folder}/${f.page}`, name: f.name }));
}

function formEntity(list: List, form: ListForm, ctx: ApiContext): Entity {
  const link = `${listEditLink(list)}/Forms(guid'${form.id}')`;
  return {
    type: 'SP.Form', id: `${ctx.apiUrl}${link}`, editLink: link,
    props: [['FormType', form.type], ['Id', form.id], ['ResourcePath', resourcePathValue(form.url)], ['ServerRelativeUrl', form.url]],
  };
}

function formById(list: List, id: string): ListForm {
  const form = listForms(list).find((f) => f.id === guidText(id));
  if (!form) throw errors.resourceNotFound();
  return form;
}

export const listFormNavigation = {
  forms: async (r: ListResource): Promise<Resource> => ({ kind: 'forms', list: r.list }),
};

export const formsType: ResourceType<FormsResource> = {
  key: async (r, args) => ({ kind: 'form', list: r.list, form: formById(r.list, stringArgument(args)) }),
  methods: {
    getbyid: { kind: 'function', invoke: async (r, args) => ({ kind: 'form', list: r.list, form: formById(r.list, stringArgument(args, 'id')) }) },
  },
  get: async (r, ctx) => entityCollection(listForms(r.list).map((f) => formEntity(r.list, f, ctx)), 'SP.ApiData.Forms', ctx),
};

export const formType: ResourceType<FormResource> = {
  get: async (r, ctx) => singleEntity(formEntity(r.list, r.form, ctx), 'SP.ApiData.Forms', ctx),
};

// ---- renderlistformdata

/** SP.ControlMode: what the form does with the item. */
const CONTROL_MODES: Record<string, number> = { display: 1, edit: 2, new: 3 };

function controlMode(args: Parameters<MethodDef<ListResource>['invoke']>[1]): number {
  const literal = argumentLiteral(argument(args, 'mode'));
  const raw = literal?.type === 'number' ? String(literal.value) : literal?.type === 'string' ? literal.value : '';
  const mode = /^\d+$/.test(raw) ? Number(raw) : CONTROL_MODES[raw.toLowerCase()];
  if (mode === undefined || mode < 1 || mode > 3) throw errors.badArgument(`The control mode '${raw}' is not valid.`);
  return mode;
}

/** The form named by `formid`: its id, or a page name as PnPjs's docs pass it (`editform`, `DispForm`). */
function namedForm(list: List, name: string): ListForm {
  const lower = name.toLowerCase().replace(/\.aspx$/, '');
  const byName: Record<string, string> = { dispform: 'displayform', displayform: 'displayform', editform: 'editform', newform: 'newform' };
  const form = listForms(list).find((f) => f.name === byName[lower] || f.id === guidText(name));
  if (!form) throw errors.badArgument(`The form '${name}' does not exist in the list.`);
  return form;
}

/** A field as the form's ListSchema describes it. */
function schemaOf(field: Field): Record<string, unknown> {
  const info = FIELD_KINDS[field.kind];
  const out: Record<string, unknown> = {
    Id: field.id, Title: field.title, Hidden: field.hidden, IMEMode: null, Name: field.internalName, Required: field.required,
    Direction: 'none', FieldType: info.typeAsString, Description: field.options.description ?? '', ReadOnlyField: field.readOnly,
    IsAutoHyperLink: false, Type: info.typeAsString, DefaultValue: field.options.defaultValue ?? null,
  };
  if (field.options.choices) out.Choices = field.options.choices;
  if (info.reference === 'lookup') Object.assign(out, { LookupListId: `{${field.options.lookupListId ?? ''}}`, LookupFieldName: field.options.lookupField ?? 'Title' });
  if (field.kind === 'Text') out.MaxLength = field.options.maxLength ?? 255;
  return out;
}

/** The item's values as the form shows them: RenderListDataAsStream's cells, without its row bookkeeping. */
async function itemValues(list: List, fields: Field[], shown: Field[], item: Item | undefined, ctx: ApiContext): Promise<Record<string, unknown>> {
  if (!item) return {};
  const [row] = await listDataRows(list, fields, shown, [item], ctx);
  return row!;
}

/** The item's URL as its row's FileRef: a file's or folder's own, else `<id>_.000` in its folder. */
function itemUrl(list: List, item: Item): string {
  const dir = item.place.dir ? `${list.serverRelativeUrl}/${item.place.dir}` : list.serverRelativeUrl;
  return `${dir}/${item.place.name ?? `${item.id}_.000`}`;
}

const renderListFormData: MethodDef<ListResource> = {
  kind: 'action', permission: 'ViewListItems', body: 'none',
  async invoke(r, args, ctx) {
    const { list } = r;
    const mode = controlMode(args);
    const form = namedForm(list, stringArgument(args, 'formId'));
    const fields = await ctx.store.fields.of(list);
    let item: Item | undefined;
    let mask = permissionsOfRole(ctx.principal.role);
    if (mode !== CONTROL_MODES.new) {
      const literal = argumentLiteral(argument(args, 'itemId'));
      const id = literal?.type === 'number' ? literal.value : literal?.type === 'string' && /^\d+$/.test(literal.value) ? Number(literal.value) : NaN;
      if (!Number.isInteger(id)) throw errors.badArgument('itemId must be an item id.');
      item = await ctx.store.items.get(list, fields, id);
      // An item the caller may not view is one that is not there, as in the list's queries.
      if (item && (await ctx.store.roleAssignments.scopes(ctx.site.id)).size > 0) {
        mask = await effectivePermissions(ctx.store, ctx.site, ctx.principal, { kind: 'item', web: ctx.web, list, id });
        if (!grants(mask, 'ViewListItems')) item = undefined;
      }
      if (!item) throw fail.itemNotFound();
      if (mode === CONTROL_MODES.edit && !grants(mask, 'EditListItems')) throw fail.accessDenied();
    }
    const shown = fields.filter((f) => !f.hidden);
    const values = await itemValues(list, fields, shown, item, ctx);
    const types = await listContentTypes(ctx.store, list);
    const contentType = types.find((t) => t.id === item?.contentTypeId) ?? types[0];
    const data: Record<string, unknown> = {
      ...Object.fromEntries(shown.map((f) => [f.internalName, values[f.internalName] ?? ''])),
      ContentType: contentType?.name ?? 'Item',
      ListSchema: Object.fromEntries(shown.map((f) => [f.internalName, schemaOf(f)])),
      FormControlMode: mode,
      FieldControlModes: Object.fromEntries(shown.map((f) => [f.internalName, f.readOnly ? 1 : mode])),
      WebAttributes: {
        WebUrl: ctx.web.serverRelativeUrl, EffectivePresenceEnabled: false, AllowScriptableWebParts: false, PermissionCustomizePages: false,
        LCID: '1033', CurrentUserId: ctx.principal.userId,
      },
      ItemAttributes: {
        Id: item?.id ?? 0, FsObjType: item?.place.folder ? 1 : 0, ExternalListItem: false,
        Url: item ? itemUrl(list, item) : '', EffectiveBasePermissionsLow: mask.low >>> 0, EffectiveBasePermissionsHigh: mask.high >>> 0,
      },
      ListAttributes: {
        Id: list.id, BaseType: list.baseType, Direction: 'none', ListTemplateType: list.baseTemplate, DefaultItemOpen: 1, EnableVersioning: list.enableVersioning,
      },
      CSRCustomLayout: false, PostBackRequired: false, PreviousPostBackHandled: false, UploadMode: false,
      SubmitButtonID: '', ItemContentTypeName: contentType?.name ?? 'Item', ItemContentTypeId: item?.contentTypeId ?? contentType?.id ?? '0x01',
      JSLinks: '', FormUrl: form.url,
    };
    return ok({ kind: 'primitive', methodName: 'RenderListFormData', edmType: 'Edm.String', value: JSON.stringify(data) });
  },
};

export const listFormMethods: Record<string, MethodDef<ListResource>> = {
  renderlistformdata: renderListFormData,
};
