// SP.UserResource: a web's or list's TitleResource and DescriptionResource, the title or
// description per UI culture. spemu's sites have one language (en-US), so every culture's value
// is the one the web or list has (SharePoint answers the default value for a culture without
// its own); setting a value per culture is not supported.

import { errors } from '../../../../wire/errors.ts';
import { readMethodBody } from '../body.ts';
import type { ApiContext } from '../context.ts';
import { ok } from '../outcome.ts';
import type { Resource, ResourceType } from '../resource.ts';

type UserResource = { kind: 'userResource'; value: (ctx: ApiContext) => Promise<string> };

export const userResource = (value: (ctx: ApiContext) => Promise<string>): Resource => ({ kind: 'userResource', value });

export const userResourceType: ResourceType<UserResource> = {
  methods: {
    getvalueforuiculture: {
      kind: 'action', permission: 'Open', body: 'json',
      async invoke(r, _args, ctx) {
        if (typeof readMethodBody(ctx).cultureName !== 'string') throw errors.badArgument('The body must be {"cultureName":"…"}.');
        return ok({ kind: 'primitive', methodName: 'GetValueForUICulture', edmType: 'Edm.String', value: await r.value(ctx) });
      },
    },
    setvalueforuiculture: { kind: 'action', permission: 'ManageWeb', body: 'json', invoke: async () => { throw errors.notImplemented('SetValueForUICulture (spemu\'s sites have one language)'); } },
  },
  get: async (r, ctx) => ok({ kind: 'entity', metadataName: 'SP.UserResource', entity: { type: 'SP.UserResource', id: `${ctx.apiUrl}SP.UserResource`, editLink: 'SP.UserResource', props: [['Value', await r.value(ctx)]] } }),
};
