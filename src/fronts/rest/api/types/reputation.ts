// Microsoft.Office.Server.ReputationModel.Reputation's static SetRating and SetLike, as PnPjs's
// item.rate() and item.like()/unlike() call them: `_api/Microsoft.Office.Server.ReputationModel.
// Reputation.SetRating(listID=@a1,itemID=@a2,rating=@a3)?@a1='{list id}'&@a2='5'&@a3=4` (SetLike:
// `like=@a3`, true or false). SetRating answers the item's new average rating (Edm.Single),
// SetLike nothing. Anyone who may view the item rates and likes it (docs/compatibility.md).

import { fail } from '../../../../domain/errors.ts';
import type { List } from '../../../../domain/model.ts';
import { argumentLiteral } from '../../../../odata/path.ts';
import { errors } from '../../../../wire/errors.ts';
import { requireOnSecurable } from '../authorize-on.ts';
import { ok } from '../outcome.ts';
import type { ResourceType } from '../resource.ts';
import type { ApiContext } from '../context.ts';
import { argument, emptyOk, guidText, integerArgument, stringArgument } from './shared.ts';

/** The list (by the `listID` argument, a 404 when the web has none) and the item id a call names. */
async function ratedItem(args: Parameters<typeof argument>[0], ctx: ApiContext): Promise<{ list: List; itemId: number }> {
  const list = await ctx.store.lists.byId(ctx.web.id, guidText(stringArgument(args, 'listID')));
  if (!list) throw fail.listNotFoundById();
  return { list, itemId: integerArgument(args, 'itemID') };
}

export const reputationType: ResourceType<{ kind: 'reputation' }> = {
  methods: {
    setrating: {
      kind: 'action', permission: 'ViewListItems', body: 'none',
      async invoke(_r, args, ctx) {
        const { list, itemId } = await ratedItem(args, ctx);
        const rating = argumentLiteral(argument(args, 'rating'));
        const value = rating?.type === 'number' ? rating.value : rating?.type === 'string' ? Number(rating.value) : NaN;
        if (!Number.isFinite(value)) throw errors.badArgument('The rating must be a whole number from 1 to 5.');
        await requireOnSecurable({ kind: 'item', web: ctx.web, list, id: itemId }, 'ViewListItems', ctx);
        const { average } = await ctx.services.comments.rate(list, itemId, value);
        return ok({ kind: 'primitive', methodName: 'SetRating', edmType: 'Edm.Single', value: average });
      },
    },
    setlike: {
      kind: 'action', permission: 'ViewListItems', body: 'none',
      async invoke(_r, args, ctx) {
        const { list, itemId } = await ratedItem(args, ctx);
        const like = argumentLiteral(argument(args, 'like'));
        const value = like?.type === 'boolean' ? like.value : like?.type === 'string' ? { true: true, false: false }[like.value.toLowerCase()] : undefined;
        if (typeof value !== 'boolean') throw errors.badArgument('The like must be true or false.');
        await requireOnSecurable({ kind: 'item', web: ctx.web, list, id: itemId }, 'ViewListItems', ctx);
        await ctx.services.comments.likeItem(list, itemId, value);
        return emptyOk();
      },
    },
  },
};
