// The change log over REST: `getChanges` on SP.Site, SP.Web and SP.List (PnPjs posts
// `{query: SP.ChangeQuery}`) answering SP.Change* entities, and CurrentChangeToken on the three.

import type { Change } from '../../../../domain/change-tokens.ts';
import { formatToken, type TokenScopeName } from '../../../../domain/change-tokens.ts';
import { userInfoList } from '../../../../identity/site-users.ts';
import { effectivePermissions, isVisible, itemVisibility as visibilityIn } from '../../../../identity/effective-permissions.ts';
import { grants, type BasePermissions } from '../../../../domain/permissions.ts';
import { currentChangeToken, DEFAULT_CHANGE_RETENTION_DAYS, isChangeQueryProperty, readChanges, tokenOfChange, type ChangeQueryInput, type ChangeScope, type ChangeVisibility } from '../../../../services/changes.ts';
import { errors } from '../../../../wire/errors.ts';
import type { Entity, Value } from '../../../../wire/values.ts';
import type { ApiContext } from '../context.ts';
import { freshEntityId } from '../entities.ts';
import { ok } from '../outcome.ts';
import type { MethodDef, Resource } from '../resource.ts';

/** The scope a resource reads changes in, and how its tokens name it. */
export interface ChangeTarget extends ChangeScope {
  tokenScope: TokenScopeName;
  id: string;
}

const record = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : {};

/** A ChangeToken in a body: `{StringValue}` (verbose: with its `__metadata`); refused otherwise. */
function tokenText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  const text = record(value).StringValue;
  if (typeof text !== 'string') throw errors.invalidPropertyValue('SP.ChangeToken');
  return text;
}

/** SP.ChangeQuery from `{query: {…}}`: unknown properties and values of the wrong type are SharePoint's 400s. */
export function readChangeQuery(body: unknown): ChangeQueryInput {
  const query = record(record(body).query);
  const flags: Record<string, boolean> = {};
  for (const [name, value] of Object.entries(query)) {
    if (!isChangeQueryProperty(name)) throw errors.unknownBodyProperty(name, 'SP.ChangeQuery');
    if (name === '__metadata' || name.startsWith('ChangeToken') || name === 'FetchLimit') continue;
    if (typeof value !== 'boolean' && value !== null) throw errors.invalidPropertyValue('Edm.Boolean');
    flags[name] = value === true;
  }
  const limit = query.FetchLimit;
  if (limit !== undefined && limit !== null && !(typeof limit === 'number' && Number.isInteger(limit)) && !(typeof limit === 'string' && /^-?\d+$/.test(limit))) {
    throw errors.invalidPropertyValue('Edm.Int64');
  }
  return {
    flags, start: tokenText(query.ChangeTokenStart), end: tokenText(query.ChangeTokenEnd),
    fetchLimit: limit === undefined || limit === null ? undefined : Number(limit), latestFirst: flags.LatestFirst,
  };
}

const retention = (ctx: ApiContext) => ctx.settings.changeRetentionDays ?? DEFAULT_CHANGE_RETENTION_DAYS;

/** `getchanges` on a site collection, a web or a list. */
export function getChangesMethod(target: (r: Resource, ctx: ApiContext) => ChangeTarget): MethodDef<Resource> {
  return {
    kind: 'action', permission: 'ViewListItems',
    async invoke(r, _args, ctx) {
      const t = target(r, ctx);
      const query = readChangeQuery(ctx.body);
      const changes = await readChanges(ctx.store.changes, t, query, { retentionDays: retention(ctx), now: new Date() }, await itemVisibility(ctx));
      const editors = await editorsOf(changes, ctx);
      const itemFlag = query.flags.Item === true;
      return ok({ kind: 'entitySet', metadataName: 'Collection(SP.Change)', entities: changes.map((c) => changeEntity(c, t, itemFlag, editors, ctx)) });
    },
  };
}

/** Whether the answer shows CurrentChangeToken (no `$select`, `*`, or named): the log is read only then. */
const selected = (ctx: ApiContext): boolean =>
  !ctx.query.select || ctx.query.select.some((path) => path[0] === '*' || path[0]?.toLowerCase() === 'currentchangetoken');

/** CurrentChangeToken (SP.ChangeToken) of a site collection, web or list, as the log stands now. */
export async function currentTokenValue(ctx: ApiContext, scope: TokenScopeName, id: string): Promise<Value> {
  return { kind: 'complex', type: 'SP.ChangeToken', props: [['StringValue', await currentChangeToken(ctx.store.changes, ctx.site.id, scope, id, new Date())]] };
}

/** Sets an entity's CurrentChangeToken (a placeholder in entities.ts) to the log's current token. */
export async function withCurrentChangeToken(entity: Entity, ctx: ApiContext, scope: TokenScopeName, id: string): Promise<Entity> {
  const at = entity.props.findIndex(([name]) => name === 'CurrentChangeToken');
  if (at < 0 || !selected(ctx)) return entity;
  entity.props[at] = ['CurrentChangeToken', await currentTokenValue(ctx, scope, id)];
  return entity;
}

/** CurrentChangeToken on each of many list entities (a web's lists), from one read of the log. */
export async function withCurrentChangeTokens(entities: Entity[], ctx: ApiContext, scope: TokenScopeName): Promise<Entity[]> {
  if (!selected(ctx)) return entities;
  const latest = await ctx.store.changes.latest(ctx.site.id);
  const now = Date.now();
  for (const entity of entities) {
    const at = entity.props.findIndex(([name]) => name === 'CurrentChangeToken');
    const id = entity.props.find(([name]) => name === 'Id')?.[1];
    if (at >= 0 && typeof id === 'string') {
      entity.props[at] = ['CurrentChangeToken', { kind: 'complex', type: 'SP.ChangeToken', props: [['StringValue', formatToken(scope, id, now, latest)]] }];
    }
  }
  return entities;
}

/**
 * Where some lists or items have unique permissions, whether the caller may see a change: an
 * item change needs View Items on its list and item, as reading the item does (security
 * trimming). Undefined where nothing is unique: everyone with access to the site sees all.
 */
export async function itemVisibility(ctx: ApiContext): Promise<ChangeVisibility | undefined> {
  if ((await ctx.store.roleAssignments.scopes(ctx.site.id)).size === 0) return undefined;
  interface Rule { visible(itemId: number | undefined): boolean; page(itemIds: number[]): Promise<void> }
  const perList = new Map<string, Promise<Rule>>();
  const listRule = (webId: string, listId: string) => {
    let rule = perList.get(listId);
    if (!rule) {
      rule = (async (): Promise<Rule> => {
        const web = await ctx.store.sites.web(webId);
        const list = web ? await ctx.store.lists.byId(webId, listId) : undefined;
        // A list deleted since: its changes (its items' deletions) stay readable as they were.
        if (!web || !list) return { visible: () => true, page: async () => {} };
        const canView = (m: BasePermissions) => grants(m, 'ViewListItems');
        const visibility = await visibilityIn(ctx.store, ctx.site, ctx.principal, web, list, canView);
        if (!visibility) {
          const viewable = canView(await effectivePermissions(ctx.store, ctx.site, ctx.principal, { kind: 'list', web, list }));
          return { visible: () => viewable, page: async () => {} };
        }
        // Where the list has folders with unique permissions, where each changed item is decides
        // too: the places of a page's items, read at once (a deleted item has none, and answers
        // by its own scope and the list's).
        const places = new Map<number, string>();
        return {
          visible: (itemId) => itemId === undefined ? visibility.inherited : isVisible(visibility, itemId, places.get(itemId)),
          async page(itemIds) {
            if (visibility.folders.length === 0) return;
            const missing = itemIds.filter((id) => !places.has(id));
            for (const item of await ctx.store.items.getMany(list, [], missing, [])) places.set(item.id, item.place.dir);
          },
        };
      })();
      perList.set(listId, rule);
    }
    return rule;
  };
  const isItemChange = (change: Change) => change.listId !== undefined && ['item', 'file', 'folder'].includes(change.kind);
  const visible: ChangeVisibility = async (change) => !isItemChange(change) || (await listRule(change.webId, change.listId!)).visible(change.itemId);
  visible.page = async (changes) => {
    const byList = new Map<string, { webId: string; ids: number[] }>();
    for (const c of changes) {
      if (!isItemChange(c) || c.itemId === undefined) continue;
      const entry = byList.get(c.listId!) ?? { webId: c.webId, ids: [] };
      entry.ids.push(c.itemId);
      byList.set(c.listId!, entry);
    }
    for (const [listId, { webId, ids }] of byList) await (await listRule(webId, listId)).page(ids);
  };
  return visible;
}

interface Editor { title: string; email: string; login: string }

/** The site users who made the item changes, read once for the answer. */
async function editorsOf(changes: Change[], ctx: ApiContext): Promise<Map<number, Editor>> {
  const ids = [...new Set(changes.map((c) => c.details?.editorId).filter((id): id is number => typeof id === 'number'))];
  if (ids.length === 0) return new Map();
  const { list, fields } = await userInfoList(ctx.store, ctx.site);
  const rows = await ctx.store.items.getMany(list, fields, ids);
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return new Map(rows.map((row) => [row.id, { title: text(row.values.Title), email: text(row.values.EMail), login: text(row.values.Name) }]));
}

const seconds = (iso: string) => iso.replace(/\.\d+Z$/, 'Z');
const contentTypeId = (id: unknown): Value => ({ kind: 'complex', type: 'SP.ContentTypeId', props: [['StringValue', typeof id === 'string' ? id : '']] });

/**
 * The SP.Change* entity of a change, its token naming the query's scope. A file or folder
 * answers as SP.ChangeItem when the query asked for items, else as SP.ChangeFile / SP.ChangeFolder.
 */
export function changeEntity(change: Change, target: ChangeTarget, itemFlag: boolean, editors: Map<number, Editor>, ctx: ApiContext): Entity {
  const d = change.details ?? {};
  const base: Array<[string, Value]> = [
    ['ChangeToken', { kind: 'complex', type: 'SP.ChangeToken', props: [['StringValue', tokenOfChange(change, target.tokenScope, target.id)]] }],
    ['ChangeType', change.type], ['SiteId', change.siteId], ['Time', seconds(change.time)],
  ];
  const { type, props } = ((): { type: string; props: Array<[string, Value]> } => {
    switch (change.kind) {
      case 'item': case 'file': case 'folder': {
        if (change.kind !== 'item' && !itemFlag) {
          return { type: change.kind === 'file' ? 'SP.ChangeFile' : 'SP.ChangeFolder', props: [['UniqueId', change.uniqueId ?? null], ['WebId', change.webId]] };
        }
        const editor = typeof d.editorId === 'number' ? editors.get(d.editorId) : undefined;
        const url = typeof d.url === 'string' ? d.url : '';
        return {
          type: 'SP.ChangeItem', props: [
            ['ActivityType', null], ['ContentTypeId', contentTypeId(d.contentTypeId)], ['Editor', editor?.title ?? ''],
            ['EditorEmailHint', editor?.email ?? null], ['EditorLoginName', editor?.login ?? ''],
            ['FileSystemObjectType', change.kind === 'folder' ? 1 : 0], ['FileType', change.kind === 'file' ? (url.match(/\.([^./]+)$/)?.[1] ?? '') : ''],
            ['Hashtag', ''], ['Hidden', d.hidden === true], ['ItemId', change.itemId ?? 0], ['ListId', change.listId ?? ''],
            ['ListTemplate', typeof d.listTemplate === 'number' ? d.listTemplate : 0], ['ListTitle', typeof d.listTitle === 'string' ? d.listTitle : ''],
            ['ServerRelativeUrl', url], ['SharedByUser', null], ['SharedWithUsers', null],
            ['Title', typeof d.title === 'string' ? d.title : ''], ['UniqueId', change.uniqueId ?? ''], ['WebId', change.webId],
          ],
        };
      }
      case 'list':
        return {
          type: 'SP.ChangeList', props: [
            ['BaseTemplate', typeof d.listTemplate === 'number' ? d.listTemplate : 0], ['Editor', ''], ['Hidden', d.hidden === true],
            ['ListId', change.listId ?? ''], ['RootFolderUrl', typeof d.url === 'string' ? d.url : ''],
            ['Title', typeof d.title === 'string' ? d.title : ''], ['WebId', change.webId],
          ],
        };
      case 'web': return { type: 'SP.ChangeWeb', props: [['WebId', change.webId]] };
      case 'site': return { type: 'SP.ChangeSite', props: [] };
      case 'field': return { type: 'SP.ChangeField', props: [['FieldId', change.uniqueId ?? ''], ['WebId', change.webId]] };
      case 'view': return { type: 'SP.ChangeView', props: [['ListId', change.listId ?? ''], ['ViewId', change.uniqueId ?? ''], ['WebId', change.webId]] };
      case 'contentType': return { type: 'SP.ChangeContentType', props: [['ContentTypeId', contentTypeId(change.uniqueId)], ['WebId', change.webId]] };
      case 'group': return { type: 'SP.ChangeGroup', props: [['GroupId', typeof d.groupId === 'number' ? d.groupId : 0]] };
      case 'user': return { type: 'SP.ChangeUser', props: [['Activate', change.type === 1], ['UserId', typeof d.userId === 'number' ? d.userId : 0]] };
      case 'roleDefinition': return { type: 'SP.Change', props: [] };
      default: return { type: 'SP.Change', props: [] };
    }
  })();
  return { type, id: `${ctx.apiUrl}${type}${freshEntityId()}`, props: [...base, ...props] };
}
