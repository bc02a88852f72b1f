// Which features a web or site collection has switched from their defaults.

export type FeatureHolder = { kind: 'web'; webId: string } | { kind: 'site'; siteId: string };

export interface FeatureRepository {
  /** Feature id → on or off, for the features whose state was set (others are at their default). */
  states(holder: FeatureHolder): Promise<Map<string, boolean>>;
  set(holder: FeatureHolder, featureId: string, active: boolean): Promise<void>;
}
