// SP.Feature: `web/features` and `site/features` (GET, `('id')` / `getById` — null when the
// feature is off —, `add({featureId, force})`, `remove({featureId, force})`).

import type { FeatureDefinition } from '../../../../domain/features.ts';
import { activeFeatures } from '../../../../services/features.ts';
import type { FeatureHolder } from '../../../../store/features.ts';
import { errors } from '../../../../wire/errors.ts';
import type { Entity } from '../../../../wire/values.ts';
import { readMethodBody } from '../body.ts';
import type { ApiContext } from '../context.ts';
import { absoluteUrl } from '../entities.ts';
import { ok, type Outcome, voidResult } from '../outcome.ts';
import type { ResourceType } from '../resource.ts';
import { voidAction } from './documents-shared.ts';
import { entityCollection, guidText, singleEntity, stringArgument } from './shared.ts';

type FeaturesResource = { kind: 'features'; holder: FeatureHolder };

const holderLink = (holder: FeatureHolder) => (holder.kind === 'web' ? 'Web' : 'Site');

function featureEntity(holder: FeatureHolder, feature: FeatureDefinition, ctx: ApiContext): Entity {
  const link = `${holderLink(holder)}/Features(guid'${feature.id}')`;
  return { type: 'SP.Feature', id: `${ctx.apiUrl}${link}`, editLink: link, props: [['DefinitionId', feature.id], ['DisplayName', feature.displayName]] };
}

/** A feature that is on, or SharePoint's null answer when it is off (or unknown). */
async function featureById(r: FeaturesResource, id: string, ctx: ApiContext): Promise<Outcome> {
  const feature = (await activeFeatures(ctx.store, r.holder)).find((f) => f.id === guidText(id));
  return feature ? singleEntity(featureEntity(r.holder, feature, ctx), 'SP.Feature', ctx) : voidResult('Feature');
}

function featureBody(ctx: ApiContext): { featureId: string; force: boolean } {
  const body = readMethodBody(ctx);
  if (typeof body.featureId !== 'string') throw errors.badArgument('The body must name a featureId.');
  if (body.force !== undefined && typeof body.force !== 'boolean') throw errors.badArgument('force must be true or false.');
  return { featureId: body.featureId, force: body.force === true };
}

const scopeUrl = (r: FeaturesResource, ctx: ApiContext) => absoluteUrl(ctx, r.holder.kind === 'web' ? ctx.web.serverRelativeUrl : ctx.site.url);

export const featuresType: ResourceType<FeaturesResource> = {
  key: async (r, args, ctx) => ({ kind: 'readOnly', read: (c) => featureById(r, stringArgument(args), c ?? ctx) }),
  methods: {
    getbyid: { kind: 'function', invoke: async (r, args, ctx) => featureById(r, stringArgument(args, 'featureId', 'id'), ctx) },
    add: {
      kind: 'action', permission: 'ManageWeb', body: 'json',
      async invoke(r, _args, ctx) {
        const { featureId, force } = featureBody(ctx);
        const feature = await ctx.services.features.activate(r.holder, featureId, force, scopeUrl(r, ctx));
        return ok({ kind: 'entity', metadataName: 'SP.Feature', entity: featureEntity(r.holder, feature, ctx) });
      },
    },
    remove: voidAction('Remove', 'ManageWeb', async (r, _args, ctx) => {
      await ctx.services.features.deactivate(r.holder, featureBody(ctx).featureId);
    }, 'json'),
  },
  get: async (r, ctx) => entityCollection((await activeFeatures(ctx.store, r.holder)).map((f) => featureEntity(r.holder, f, ctx)), 'SP.ApiData.Features', ctx),
};
