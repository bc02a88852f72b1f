// The client-side web parts a site offers (SP.Web.GetClientSideWebParts): a small, fixed set of
// SharePoint's own first-party web parts. spemu runs no SharePoint Framework and has no app
// catalog, so nothing is added to it by installing a package. The ids are SharePoint's
// (PnP Core SDK's and the CLI for Microsoft 365's tables of default web parts agree on them);
// aliases, versions and the toolbox texts are spemu's (docs/compatibility.md, "Web parts").

/** The toolbox groups SharePoint reserves (sp-module-interfaces' PredefinedGroup). */
const GROUPS = {
  textMediaAndContent: { id: 'cf066440-0614-43d6-98ae-0b31cf14c7c3', name: 'Text, media, and content' },
  discovery: { id: '1edbd9a8-0bfb-4aa2-9afd-14b8c45dd489', name: 'Discovery' },
  communication: { id: '75e22ed5-fa14-4829-850a-c890608aca2d', name: 'Communication and collaboration' },
  planning: { id: '1bc7927e-4a5e-4520-b540-71305c79c20a', name: 'Planning and process' },
} as const;

interface FirstPartyWebPart {
  id: string;
  alias: string;
  title: string;
  description: string;
  icon: string;
  group: (typeof GROUPS)[keyof typeof GROUPS];
  properties: Record<string, unknown>;
}

const part = (id: string, alias: string, title: string, description: string, icon: string, group: FirstPartyWebPart['group'], properties: Record<string, unknown> = {}): FirstPartyWebPart =>
  ({ id, alias, title, description, icon, group, properties });

const { textMediaAndContent, discovery, communication, planning } = GROUPS;

/** In the order they are listed. Text is no web part (a page's text control): not here, as in SharePoint. */
const FIRST_PARTY: readonly FirstPartyWebPart[] = [
  part('d1d91016-032f-456d-98a4-721247c305e8', 'ImageWebPart', 'Image', 'Show a picture on the page.', 'Photo2', textMediaAndContent),
  part('c4bd7b2f-7b6e-4599-8485-16504575f590', 'HeroWebPart', 'Hero', 'Show up to five items with pictures and links.', 'SquareShape', textMediaAndContent),
  part('c70391ea-0b10-4ee9-b2b4-006d3fcad0cd', 'QuickLinksWebPart', 'Quick links', 'Add links to important documents and pages.', 'Link', textMediaAndContent),
  part('490d7c76-1824-45b2-9de3-676421c997fa', 'ContentEmbedWebPart', 'Embed', 'Show content from another site, such as a video or a map.', 'Embed', textMediaAndContent, { embedCode: '' }),
  part('b7dd04e1-19ce-4b24-9132-b60a1c2b910d', 'DocumentEmbedWebPart', 'File viewer', 'Show a document, a spreadsheet or a presentation.', 'Page', textMediaAndContent),
  part('af8be689-990e-492a-81f7-ba3e4cd3ed9c', 'ImageGalleryWebPart', 'Image gallery', 'Show a set of pictures.', 'PhotoCollection', textMediaAndContent),
  part('2161a1c6-db61-4731-b97c-3cdb303f7cbb', 'DividerWebPart', 'Divider', 'A line between other web parts.', 'Remove', textMediaAndContent),
  part('8654b779-4886-46d4-8ffb-b5ed960ee986', 'SpacerWebPart', 'Spacer', 'Vertical space between other web parts.', 'Spacer', textMediaAndContent),
  part('0f087d7f-520e-42b7-89c0-496aaf979d58', 'ButtonWebPart', 'Button', 'A button that leads to a page or a file.', 'ButtonControl', textMediaAndContent),
  part('df8e44e7-edd5-46d5-90da-aca1539313b8', 'CallToActionWebPart', 'Call to action', 'A banner with a button that leads somewhere.', 'Megaphone', textMediaAndContent),
  part('f92bf067-bc19-489e-a556-7fe95f508720', 'ListWebPart', 'List', 'Show the items of a list or the files of a document library.', 'CustomList', discovery),
  part('daf0b71c-6de8-4ef7-b511-faae7c388708', 'ContentRollupWebPart', 'Highlighted content', 'Show content found by a filter or a search.', 'FileSearch', discovery),
  part('eb95c819-ab8f-4689-bd03-0c2d65d47b1f', 'SiteActivityWebPart', 'Site activity', 'Show what changed on the site lately.', 'Recent', discovery),
  part('8c88f208-6c77-4bdb-86a0-0c47b4316588', 'NewsWebPart', 'News', 'Show the site\'s news posts.', 'News', communication),
  part('7f718435-ee4d-431c-bdbf-9c4ff326f46e', 'PeopleWebPart', 'People', 'Show people and their profiles.', 'People', communication),
  part('20745d7d-8581-4a6c-bf26-68279bc123fc', 'EventsWebPart', 'Events', 'Show coming events from an events list.', 'Calendar', planning),
];

/** SP.ClientSideComponent's ComponentType of a web part (the CLI for Microsoft 365 keeps only these: 1). */
export const WEB_PART_COMPONENT_TYPE = 1;

/** One row of GetClientSideWebParts (Microsoft.SharePoint.ClientSideComponent.SPClientSideComponentQueryResult). */
export interface ClientSideComponent {
  /** The component id: a bare lower-case GUID. */
  id: string;
  /** SharePoint names its own components by their id (PnP Core finds a default web part by `Name == id`). */
  name: string;
  componentType: number;
  /** The SPFx manifest, as a JSON string. */
  manifest: string;
  manifestType: number;
  status: number;
}

function manifestOf(p: FirstPartyWebPart): string {
  return JSON.stringify({
    id: p.id, alias: p.alias, componentType: 'WebPart', version: '1.0.0', manifestVersion: 2,
    requiresCustomScript: false, supportedHosts: ['SharePointWebPart'],
    preconfiguredEntries: [{
      groupId: p.group.id, group: { default: p.group.name }, title: { default: p.title }, description: { default: p.description },
      officeFabricIconFontName: p.icon, properties: p.properties,
    }],
  });
}

/** Made once: the catalogue is the same for every web. */
const CATALOGUE: readonly ClientSideComponent[] = Object.freeze(FIRST_PARTY.map((p) => Object.freeze({
  id: p.id, name: p.id, componentType: WEB_PART_COMPONENT_TYPE, manifest: manifestOf(p), manifestType: 1, status: 0,
})));

/** The client-side web parts every web offers. */
export const clientSideWebParts = (): readonly ClientSideComponent[] => CATALOGUE;
