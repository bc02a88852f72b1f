// Web parts: a file's limited web part manager (SP.WebParts.LimitedWebPartManager,
// `…/getLimitedWebPartManager(scope=1)`) and the client-side web parts a web offers
// (`web/GetClientSideWebParts`). spemu keeps no classic web parts on any file — a modern page
// keeps none either, its content is in its item — so every manager's WebParts is empty.

import { clientSideWebParts } from '../../../../domain/client-side-components.ts';
import type { Item, List, Web } from '../../../../domain/model.ts';
import { argumentLiteral, type Argument } from '../../../../odata/path.ts';
import { errors } from '../../../../wire/errors.ts';
import type { Value } from '../../../../wire/values.ts';
import { ok, type Outcome } from '../outcome.ts';
import type { MethodDef, ResourceType } from '../resource.ts';
import { argument, entityCollection, guidText, singleEntity, stringArgument } from './shared.ts';
import { pathLink, pathOf, urlOf } from './documents-shared.ts';
import { readMethodBody } from '../body.ts';

/** System.Web.UI.WebControls.WebParts.PersonalizationScope: User 0, Shared 1. */
export type PersonalizationScope = 0 | 1;

type Manager = { kind: 'webPartManager'; list: List; item: Item; scope: PersonalizationScope };
type Definitions = { kind: 'webPartDefinitions'; list: List; item: Item; scope: PersonalizationScope };

/** `scope=1` (named, as PnPjs sends it) or `(1)`: 0 or 1, anything else refused. */
function scopeArgument(args: Argument[]): PersonalizationScope {
  const literal = argumentLiteral(argument(args, 'scope'));
  const value = literal?.type === 'number' ? literal.value : literal?.type === 'string' && /^\d+$/.test(literal.value) ? Number(literal.value) : undefined;
  if (value !== 0 && value !== 1) throw errors.badArgument('Value does not fall within the expected range.');
  return value;
}

/** `getLimitedWebPartManager(scope=n)` on a file: reading it needs read access to the file. */
export const getLimitedWebPartManager: MethodDef<{ kind: 'file'; list: List; item: Item }> = {
  kind: 'function', permission: 'ViewListItems',
  invoke: async (r, args) => ({ kind: 'webPartManager', list: r.list, item: r.item, scope: scopeArgument(args) }),
};

const managerLink = (r: Manager | Definitions): string =>
  `${pathLink('File', urlOf(r.list, pathOf(r.item)))}/GetLimitedWebPartManager(scope=${r.scope})`;

const primitive = (methodName: string, edmType: string, value: Value): Outcome => ok({ kind: 'primitive', methodName, edmType, value });

export const webPartManagerType: ResourceType<Manager> = {
  permissions: { get: 'ViewListItems' },
  navigation: {
    scope: async (r) => ({ kind: 'readOnly', read: async () => primitive('Scope', 'Edm.Int32', r.scope) }),
    haspersonalizedparts: async () => ({ kind: 'readOnly', read: async () => primitive('HasPersonalizedParts', 'Edm.Boolean', false) }),
    webparts: async (r) => ({ kind: 'webPartDefinitions', list: r.list, item: r.item, scope: r.scope }),
  },
  methods: {
    /** Nothing to export: the file keeps no web part of that id (or any). */
    exportwebpart: {
      kind: 'action', permission: 'ViewListItems', body: 'json',
      async invoke(_r, args, ctx) {
        const id = argument(args, 'webpartid') !== undefined ? stringArgument(args, 'webpartid') : readMethodBody(ctx).webPartId;
        if (typeof id !== 'string' || !isGuid(id)) throw errors.badArgument('webPartId must be a GUID.');
        throw errors.resourceNotFound();
      },
    },
    /** Adding a classic web part to a page: spemu keeps none. */
    importwebpart: {
      kind: 'action', permission: 'AddAndCustomizePages', body: 'none',
      invoke: async () => { throw errors.notImplemented('ImportWebPart'); },
    },
  },
  get: async (r, ctx) => singleEntity({
    type: 'SP.WebParts.LimitedWebPartManager', id: `${ctx.apiUrl}${managerLink(r)}`, editLink: managerLink(r), deferred: ['WebParts'],
    props: [['HasPersonalizedParts', false], ['Scope', r.scope]],
  }, 'SP.WebParts.LimitedWebPartManager', ctx),
};

const isGuid = (text: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(guidText(text));

/** A web part of the collection by its storage id (`getById('…')`, `WebParts(guid'…')`): there is none. */
function noWebPart(args: Argument[]): never {
  if (!isGuid(stringArgument(args, 'id'))) throw errors.badArgument('The web part id must be a GUID.');
  throw errors.resourceNotFound();
}

export const webPartDefinitionsType: ResourceType<Definitions> = {
  permissions: { get: 'ViewListItems' },
  key: async (_r, args) => noWebPart(args),
  methods: {
    getbyid: { kind: 'function', permission: 'ViewListItems', invoke: async (_r, args) => noWebPart(args) },
    /** By the control's id (any text, `g_…` on classic pages): none either. */
    getbycontrolid: { kind: 'function', permission: 'ViewListItems', invoke: async (_r, args) => { stringArgument(args, 'controlid', 'id'); throw errors.resourceNotFound(); } },
  },
  get: async (_r, ctx) => entityCollection([], 'SP.ApiData.WebPartDefinitions', ctx),
};

const COMPONENT_TYPE = 'Microsoft.SharePoint.ClientSideComponent.SPClientSideComponentQueryResult';

/** `web/GetClientSideWebParts` (GET, or POST as PnP Core sends it; `includeErrors` changes nothing: none fail). */
export const getClientSideWebParts: MethodDef<{ kind: 'web'; web: Web }> = {
  kind: 'function',
  async invoke() {
    const items: Value[] = clientSideWebParts().map((c) => ({
      kind: 'complex', type: COMPONENT_TYPE,
      props: [['ComponentType', c.componentType], ['Id', c.id], ['Manifest', c.manifest], ['ManifestType', c.manifestType], ['Name', c.name], ['Status', c.status]],
    }));
    return primitive('GetClientSideWebParts', `Collection(${COMPONENT_TYPE})`, { kind: 'collection', elementType: COMPONENT_TYPE, items });
  },
};
