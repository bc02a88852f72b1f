// Microsoft.Office.Server.ReputationModel.Reputation's static SetRating, as PnPjs's item.rate()
// calls it: `_api/Microsoft.Office.Server.ReputationModel.Reputation.SetRating(listID=@a1,
// itemID=@a2,rating=@a3)?@a1='{list id}'&@a2='5'&@a3=4`. It answers the item's new average
// rating (Edm.Single). Anyone who may view the item rates it (docs/compatibility.md).

import { fail } from '../../../../domain/errors.ts';
import { argumentLiteral } from '../../../../odata/path.ts';
import { errors } from '../../../../wire/errors.ts';
import { requireOnSecurable } from '../authorize-on.ts';
import { ok } from '../outcome.ts';
import type { ResourceType } from '../resource.ts';
import { argument, guidText, integerArgument, stringArgument } from './shared.ts';

export const reputationType: ResourceType<{ kind: 'reputation' }> = {
  methods: {
    setrating: {
      kind: 'action', permission: 'ViewListItems', body: 'none',
      async invoke(_r, args, ctx) {
        const list = await ctx.store.lists.byId(ctx.web.id, guidText(stringArgument(args, 'listID')));
        if (!list) throw fail.listNotFoundById();
        const itemId = integerArgument(args, 'itemID');
        const rating = argumentLiteral(argument(args, 'rating'));
        const value = rating?.type === 'number' ? rating.value : rating?.type === 'string' ? Number(rating.value) : NaN;
        if (!Number.isFinite(value)) throw errors.badArgument('The rating must be a whole number from 1 to 5.');
        await requireOnSecurable({ kind: 'item', web: ctx.web, list, id: itemId }, 'ViewListItems', ctx);
        const { average } = await ctx.services.comments.rate(list, itemId, value);
        return ok({ kind: 'primitive', methodName: 'SetRating', edmType: 'Edm.Single', value: average });
      },
    },
  },
};
