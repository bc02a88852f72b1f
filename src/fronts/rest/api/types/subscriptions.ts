// List webhooks: `lists(…)/subscriptions` (GET, POST) and `subscriptions('id')` (GET, PATCH,
// DELETE), Microsoft.SharePoint.Webhooks.Subscription entities as SharePoint writes them
// (camelCase properties; `resource` is the list's id). Creating, renewing and removing need
// edit permission on the list; the rules and the validation handshake are the service's.

import type { List } from '../../../../domain/model.ts';
import type { Subscription } from '../../../../store/subscriptions.ts';
import { errors } from '../../../../wire/errors.ts';
import type { Entity } from '../../../../wire/values.ts';
import type { NewSubscription } from '../../../../services/webhooks/subscriptions.ts';
import { readMethodBody } from '../body.ts';
import type { ApiContext } from '../context.ts';
import { listEditLink } from '../entities.ts';
import { noContent } from '../outcome.ts';
import type { ResourceType } from '../resource.ts';
import { entityCollection, guidText, singleEntity, stringArgument } from './shared.ts';

type SubscriptionsResource = { kind: 'subscriptions'; list: List };
type SubscriptionResource = { kind: 'subscription'; list: List; subscription: Subscription };

const TYPE = 'Microsoft.SharePoint.Webhooks.Subscription';

/** SharePoint shows whole seconds when there are no milliseconds (`2016-04-27T16:17:57Z`). */
const wireDate = (iso: string): string => iso.replace(/\.000Z$/, 'Z');

function subscriptionEntity(list: List, sub: Subscription, ctx: ApiContext): Entity {
  const link = `${listEditLink(list)}/subscriptions('${sub.id}')`;
  return {
    type: TYPE, id: `${ctx.apiUrl}${link}`, editLink: link,
    props: [
      ['clientState', sub.clientState], ['expirationDateTime', wireDate(sub.expiration)], ['id', sub.id],
      ['notificationUrl', sub.notificationUrl], ['resource', sub.listId], ['resourceData', null],
    ],
  };
}

/** The body's settable properties; a wrong type is SharePoint's property-value error. */
function readSubscriptionBody(ctx: ApiContext): NewSubscription {
  const body = readMethodBody(ctx);
  const text = (name: string): string | undefined => {
    const v = body[name];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') throw errors.invalidPropertyValue('Edm.String');
    return v;
  };
  return { notificationUrl: text('notificationUrl'), expirationDateTime: text('expirationDateTime'), clientState: text('clientState') };
}

async function byId(r: SubscriptionsResource, id: string, ctx: ApiContext): Promise<SubscriptionResource> {
  const subscription = await ctx.store.subscriptions.get(r.list, guidText(id));
  if (!subscription) throw errors.subscriptionNotFound();
  return { kind: 'subscription', list: r.list, subscription };
}

export const subscriptionsType: ResourceType<SubscriptionsResource> = {
  permissions: { get: 'ViewListItems', create: 'EditListItems' },
  key: (r, args, ctx) => byId(r, stringArgument(args), ctx),
  methods: {
    getbyid: { kind: 'function', invoke: (r, args, ctx) => byId(r, stringArgument(args, 'id', 'subscriptionId'), ctx) },
  },
  get: async (r, ctx) => entityCollection((await ctx.store.subscriptions.ofList(r.list)).map((s) => subscriptionEntity(r.list, s, ctx)), 'SP.ApiData.Subscriptions', ctx),
  async create(r, ctx) {
    const sub = await ctx.services.subscriptions.create(ctx.site, r.list, readSubscriptionBody(ctx));
    return { ...singleEntity(subscriptionEntity(r.list, sub, ctx), TYPE, ctx), status: 201 };
  },
};

export const subscriptionType: ResourceType<SubscriptionResource> = {
  permissions: { get: 'ViewListItems', update: 'EditListItems', delete: 'EditListItems' },
  get: async (r, ctx) => singleEntity(subscriptionEntity(r.list, r.subscription, ctx), TYPE, ctx),
  async update(r, ctx) {
    await ctx.services.subscriptions.update(r.list, r.subscription.id, readSubscriptionBody(ctx));
    return noContent();
  },
  async delete(r, ctx) {
    await ctx.services.subscriptions.delete(r.list, r.subscription.id);
    return noContent();
  },
};
