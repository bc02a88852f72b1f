// SP.UserCustomAction: `site/userCustomActions`, `web/userCustomActions` and
// `lists(…)/userCustomActions` (GET, POST, `('id')` / `getById`, `clear`), an action's GET,
// MERGE and DELETE.

import type { List } from '../../../../domain/model.ts';
import { CUSTOM_ACTION_PROPERTIES } from '../../../../services/custom-actions.ts';
import type { CustomActionHolder, StoredCustomAction } from '../../../../store/custom-actions.ts';
import { errors } from '../../../../wire/errors.ts';
import type { Entity, Value } from '../../../../wire/values.ts';
import { readEntityBody } from '../body.ts';
import type { ApiContext } from '../context.ts';
import { listEditLink } from '../entities.ts';
import { noContent } from '../outcome.ts';
import type { ResourceType } from '../resource.ts';
import { voidAction } from './documents-shared.ts';
import { emptyOk, entityCollection, guidText, singleEntity, stringArgument } from './shared.ts';

type ActionsResource = { kind: 'customActions'; holder: CustomActionHolder; link: string };
type ActionResource = { kind: 'customAction'; holder: CustomActionHolder; link: string; action: StoredCustomAction };

/** SharePoint's SP.UserCustomActionScope: 2 site collection, 3 web, 4 list. */
const SCOPES = { site: 2, web: 3, list: 4 } as const;

const DEFAULTS: Record<string, Value> = {
  ClientSideComponentId: '00000000-0000-0000-0000-000000000000', ClientSideComponentProperties: '', CommandUIExtension: null,
  Description: null, Group: null, HostProperties: '', ImageUrl: null, Location: null, Name: null, RegistrationId: null,
  RegistrationType: 0, ScriptBlock: null, ScriptSrc: null, Sequence: 0, Title: null, Url: null,
};

function actionEntity(r: { holder: CustomActionHolder; link: string }, action: StoredCustomAction, ctx: ApiContext): Entity {
  const link = `${r.link}/UserCustomActions(guid'${action.id}')`;
  const value = (name: string): Value => (name in action.props ? action.props[name] as Value : DEFAULTS[name] ?? null);
  const rights = action.props.Rights as { High?: unknown; Low?: unknown } | undefined;
  return {
    type: 'SP.UserCustomAction', id: `${ctx.apiUrl}${link}`, editLink: link,
    props: [
      ...Object.keys(CUSTOM_ACTION_PROPERTIES).filter((n) => n !== 'Rights').sort().map((n): [string, Value] => [n, value(n)]),
      ['Id', action.id],
      ['Rights', { kind: 'complex', type: 'SP.BasePermissions', props: [['High', String(rights?.High ?? '0')], ['Low', String(rights?.Low ?? '0')]] }],
      ['Scope', SCOPES[r.holder.kind]], ['VersionOfUserCustomAction', '1.0.1.0'],
    ],
  };
}

const propsOf = (ctx: ApiContext) => {
  const { ...props } = readEntityBody(ctx, 'SP.UserCustomAction');
  return props as Record<string, unknown>;
};

async function actionById(r: ActionsResource, id: string, ctx: ApiContext): Promise<ActionResource> {
  const action = (await ctx.store.customActions.of(r.holder)).find((a) => a.id === guidText(id));
  if (!action) throw errors.customActionNotFound();
  return { kind: 'customAction', holder: r.holder, link: r.link, action };
}

export const customActionsType: ResourceType<ActionsResource> = {
  permissions: { create: 'ManageWeb' },
  key: (r, args, ctx) => actionById(r, stringArgument(args), ctx),
  methods: {
    getbyid: { kind: 'function', invoke: (r, args, ctx) => actionById(r, stringArgument(args, 'id'), ctx) },
    clear: voidAction('Clear', 'ManageWeb', async (r, _args, ctx) => { await ctx.services.customActions.clear(r.holder); }),
  },
  get: async (r, ctx) => entityCollection((await ctx.store.customActions.of(r.holder)).map((a) => actionEntity(r, a, ctx)), 'SP.ApiData.UserCustomActions', ctx),
  async create(r, ctx) {
    const action = await ctx.services.customActions.add(r.holder, propsOf(ctx));
    return { ...singleEntity(actionEntity(r, action, ctx), 'SP.UserCustomAction', ctx), status: 201 };
  },
};

export const customActionType: ResourceType<ActionResource> = {
  permissions: { update: 'ManageWeb', delete: 'ManageWeb' },
  get: async (r, ctx) => singleEntity(actionEntity(r, r.action, ctx), 'SP.UserCustomAction', ctx),
  async update(r, ctx) {
    await ctx.services.customActions.update(r.holder, r.action.id, propsOf(ctx));
    return noContent();
  },
  async delete(r, ctx) {
    await ctx.services.customActions.delete(r.holder, r.action.id);
    return emptyOk();
  },
};

/** Where each securable's custom actions are. */
export const siteCustomActions = (siteId: string): ActionsResource => ({ kind: 'customActions', holder: { kind: 'site', siteId }, link: 'Site' });
export const webCustomActions = (webId: string): ActionsResource => ({ kind: 'customActions', holder: { kind: 'web', webId }, link: 'Web' });
export const listCustomActions = (list: List): ActionsResource =>
  ({ kind: 'customActions', holder: { kind: 'list', listRowId: list.rowId }, link: listEditLink(list) });
