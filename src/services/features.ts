// Switching features of a web or site collection: a known definition of that scope, on
// only if off (unless forced), off only if on.

import { fail } from '../domain/errors.ts';
import { featureDefinition, FEATURE_DEFINITIONS, type FeatureDefinition, type FeatureScope } from '../domain/features.ts';
import type { FeatureHolder } from '../store/features.ts';
import type { Store, StoreReader } from '../store/store.ts';

const scopeOf = (holder: FeatureHolder): FeatureScope => holder.kind;

/** The features on at `holder`: their default, or what was set. */
export async function activeFeatures(store: Pick<StoreReader, 'features'>, holder: FeatureHolder): Promise<FeatureDefinition[]> {
  const states = await store.features.states(holder);
  return FEATURE_DEFINITIONS.filter((f) => f.scope === scopeOf(holder) && (states.get(f.id) ?? f.activeByDefault));
}

export class FeatureService {
  constructor(private readonly store: Store) {}

  async activate(holder: FeatureHolder, featureId: string, force: boolean, where: string): Promise<FeatureDefinition> {
    const definition = featureDefinition(featureId, scopeOf(holder));
    if (!definition) throw fail.featureNotInstalled(featureId);
    if (!force && (await activeFeatures(this.store, holder)).some((f) => f.id === definition.id)) throw fail.featureActive(definition.displayName, definition.id, where);
    await this.store.features.set(holder, definition.id, true);
    return definition;
  }

  async deactivate(holder: FeatureHolder, featureId: string): Promise<void> {
    const definition = featureDefinition(featureId, scopeOf(holder));
    if (!definition || !(await activeFeatures(this.store, holder)).some((f) => f.id === definition.id)) throw fail.featureNotActive(featureId);
    await this.store.features.set(holder, definition.id, false);
  }
}
