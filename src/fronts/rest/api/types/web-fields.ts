// A web's site columns: `web/fields` (the web's own, and on a root web SharePoint's built-in
// ones) and `web/availablefields` (every column the web may use: its own and its parents'),
// with the same creation forms, look-ups and changes as a list's fields.

import type { SiteColumn, Web } from '../../../../domain/model.ts';
import { availableColumns, webColumns } from '../../../../services/site-columns.ts';
import type { ApiContext } from '../context.ts';
import { webFieldOwner, type FieldOwner } from '../entities.ts';
import { fieldChanges, fieldDefinition } from '../field-bodies.ts';
import { readEntityBody, type Properties } from '../body.ts';
import { noContent, type Outcome } from '../outcome.ts';
import type { Resource, ResourceType } from '../resource.ts';
import { dependentLookupMethod, fieldCollectionOutcome, fieldCreation, fieldKey, fieldLookupMethods, fieldOutcome, showInFormMethods } from './fields.ts';
import { emptyOk } from './shared.ts';

type WebFieldsResource = { kind: 'webFields'; web: Web; available: boolean };
type WebFieldResource = { kind: 'webField'; web: Web; column: SiteColumn };

const columnsOf = (r: WebFieldsResource, ctx: ApiContext) => (r.available ? availableColumns(ctx.store, r.web) : webColumns(ctx.store, r.web));
const columnResource = (r: WebFieldsResource, column: SiteColumn): Resource => ({ kind: 'webField', web: r.web, column });

/** A column is shown as its own web's, wherever it was reached from (a parent's column through `availablefields`). */
async function ownerWeb(column: SiteColumn, via: Web, ctx: ApiContext): Promise<Web> {
  return column.webId === via.id ? via : (await ctx.store.sites.web(column.webId)) ?? via;
}

async function addColumn(r: WebFieldsResource, props: Properties, ctx: ApiContext, metadataType?: string): Promise<Outcome> {
  // SharePoint adds through `availablefields` to the web itself, as through `fields`.
  const column = await ctx.services.siteColumns.add(r.web, fieldDefinition(props, metadataType));
  return fieldOutcome(column, webFieldOwner(r.web), ctx, 201);
}

export const webFieldsType: ResourceType<WebFieldsResource> = {
  permissions: { create: 'ManageLists' },
  key: fieldKey(columnsOf, columnResource),
  methods: {
    ...fieldLookupMethods(columnsOf, columnResource),
    addfield: { kind: 'action', permission: 'ManageLists', invoke: (r, _args, ctx) => addColumn(r, fieldCreation.addField(ctx), ctx) },
    createfieldasxml: { kind: 'action', permission: 'ManageLists', invoke: (r, _args, ctx) => addColumn(r, fieldCreation.schemaXml(ctx), ctx) },
    adddependentlookupfield: dependentLookupMethod<WebFieldsResource>(async (r, name, primary, show, ctx) => ({
      field: await ctx.services.siteColumns.addDependentLookup(r.web, name, primary, show), owner: webFieldOwner(r.web),
    })),
  },
  async get(r, ctx) {
    const columns = await columnsOf(r, ctx);
    // Each column under its own web's scope (a parent's column reached through `availablefields`).
    const owners = new Map<string, FieldOwner>();
    for (const c of columns) if (!owners.has(c.webId)) owners.set(c.webId, webFieldOwner(await ownerWeb(c, r.web, ctx)));
    return fieldCollectionOutcome(columns, (c) => owners.get(c.webId)!, ctx);
  },
  async create(r, ctx) {
    const { props, metadataType } = fieldCreation.entity(ctx);
    return addColumn(r, props, ctx, metadataType);
  },
};

export const webFieldType: ResourceType<WebFieldResource> = {
  permissions: { update: 'ManageLists', delete: 'ManageLists' },
  methods: showInFormMethods<WebFieldResource>('ManageLists', async (r, changes, ctx) => { await ctx.services.siteColumns.update(r.column, changes); }),
  get: async (r, ctx) => fieldOutcome(r.column, webFieldOwner(await ownerWeb(r.column, r.web, ctx)), ctx),
  async update(r, ctx) {
    const props = readEntityBody(ctx, 'SP.Field', (t) => /^SP\.Field\w*$/.test(t));
    await ctx.services.siteColumns.update(r.column, fieldChanges(props));
    return noContent();
  },
  async delete(r, ctx) {
    await ctx.services.siteColumns.delete(r.column);
    return emptyOk();
  },
};
