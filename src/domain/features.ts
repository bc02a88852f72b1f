// Features: SharePoint's switchable capabilities of a web or a site collection, by id. spemu
// knows the definitions below (the ones team sites and PnP provisioning touch most), each
// with the scope it lives at and whether a new team site has it on. Switching one records the
// choice; spemu's behaviour does not change with them.

export type FeatureScope = 'web' | 'site';

export interface FeatureDefinition {
  id: string;
  displayName: string;
  scope: FeatureScope;
  /** On in a new team site. */
  activeByDefault: boolean;
}

const feature = (id: string, displayName: string, scope: FeatureScope, activeByDefault = false): FeatureDefinition =>
  ({ id, displayName, scope, activeByDefault });

export const FEATURE_DEFINITIONS: readonly FeatureDefinition[] = [
  feature('00bfea71-4ea5-48d4-a4ad-7ea5c011abe5', 'TeamCollab', 'web', true),
  feature('d95c97f3-e528-4da2-ae9f-32b3535fbb59', 'MobilityRedirect', 'web', true),
  feature('00bfea71-d8fe-4fec-8dad-01c19a6e4053', 'WikiPageHomePage', 'web', true),
  feature('b6917cb1-93a0-4b97-a84d-7cf49975d4ec', 'BaseSiteStapling', 'web', true),
  feature('a7a2793e-67cd-4dc1-9fd0-43f61581207a', 'FollowingContent', 'web'),
  feature('87294c72-f260-42f3-a41b-981a2ffce37a', 'MDSFeature', 'web'),
  feature('f151bb39-7c3b-414f-bb36-6bf18872052f', 'SiteNotebook', 'web'),
  feature('94c94ca6-b32f-4da9-a9e3-1f3d343d7ecb', 'PublishingWeb', 'web'),
  feature('4aec7207-0d02-4f4f-aa07-b370199cd0c7', 'MetaDataNav', 'web'),
  feature('e3540c7d-6bea-403c-a224-1a12eafee4c4', 'SharePoint Lists and Libraries experience', 'site'),
  feature('3bae86a2-776d-499d-9db8-fa4cdc7884f8', 'DocumentSet', 'site'),
  feature('f6924d36-2fa8-4f0b-b16d-06b7250180fa', 'PublishingSite', 'site'),
  feature('b21b090c-c796-4b0f-ac0f-7ef1659c20ae', 'BaseSite', 'site', true),
  feature('8581a8a7-cf16-4770-ac54-260265ddb0b2', 'DocId', 'site'),
  feature('7201d6a4-a5d3-49a1-8c19-19c4bac6e668', 'MetadataNavigationAndFiltering', 'site'),
];

export const featureDefinition = (id: string, scope: FeatureScope): FeatureDefinition | undefined =>
  FEATURE_DEFINITIONS.find((f) => f.scope === scope && f.id === id.replace(/[{}]/g, '').toLowerCase());
