// Feature states on SQL: a row per feature a web or site collection switched.

import type { FeatureHolder, FeatureRepository } from '../features.ts';
import { bool } from './rows.ts';
import type { SqlSession } from './session.ts';

const holderKey = (holder: FeatureHolder) => (holder.kind === 'web' ? `web:${holder.webId}` : `site:${holder.siteId}`);

export class SqlFeatures implements FeatureRepository {
  constructor(private readonly s: SqlSession) {}

  async states(holder: FeatureHolder): Promise<Map<string, boolean>> {
    const rows = await this.s.db.selectFrom('feature_states').select(['feature_id', 'active']).where('holder', '=', holderKey(holder)).execute();
    return new Map(rows.map((r) => [String(r.feature_id), bool(r.active)]));
  }

  async set(holder: FeatureHolder, featureId: string, active: boolean): Promise<void> {
    await this.s.db.insertInto('feature_states').values({ holder: holderKey(holder), feature_id: featureId, active: active ? 1 : 0 })
      .onConflict((oc) => oc.columns(['holder', 'feature_id']).doUpdateSet({ active: active ? 1 : 0 })).execute();
  }
}
