// Modern (client-side) pages: what a page is in the Site Pages library (template 119). A page is
// an .aspx file whose list item carries the page: its canvas (CanvasContent1), its title area
// (LayoutWebpartsContent), its layout, its news state, its banner and byline. These are the
// library's fields, named as SharePoint names them; the SP.Publishing.SitePage entity reads them.

import type { NewField } from './model.ts';

/** SP.Publishing.PromotedState: a plain page 0, news once published 1, news 2. */
export const PROMOTED_STATE = { notPromoted: 0, promoteOnPublish: 1, promoted: 2 } as const;

/** The page layouts SharePoint's `sitepages/pages` takes (PnPjs's ClientsidePageLayoutType, and the home page's). */
export const PAGE_LAYOUT_TYPES: readonly string[] = ['Article', 'Home', 'SingleWebPartAppPage', 'RepostPage', 'HeaderlessSearchResults', 'Spaces', 'Topic'];

/** The SharePoint page application that renders modern pages (its id is the same in every tenant). */
export const CLIENT_SIDE_APPLICATION_ID = 'b6917cb1-93a0-4b97-a84d-7cf49975d4ec';

/** The Site Pages fields a page's entity reads and `savepage` writes, by internal name. */
export const PAGE_FIELD = {
  canvas: 'CanvasContent1',
  layoutParts: 'LayoutWebpartsContent',
  banner: 'BannerImageUrl',
  description: 'Description',
  promotedState: 'PromotedState',
  firstPublished: 'FirstPublishedDate',
  layoutType: 'PageLayoutType',
  applicationId: 'ClientSideApplicationId',
  authorByline: '_AuthorByline',
  topicHeader: '_TopicHeader',
  /** Per-page comment settings: '1' when the page's comments are turned off (SetCommentsDisabled). */
  commentFlags: '_CommentFlags',
} as const;

const field = (internalName: string, title: string, kind: NewField['kind'], hidden = false, options: NewField['options'] = {}): NewField =>
  ({ internalName, title, kind, required: false, indexed: false, hidden, options });

/** The fields a Site Pages library has beyond the built-in ones (docs/compatibility.md, "Modern pages"). */
export function sitePagesFields(): NewField[] {
  return [
    field(PAGE_FIELD.applicationId, 'Client side application Id', 'Guid', true),
    field(PAGE_FIELD.layoutType, 'Page Layout Type', 'Text', true),
    field(PAGE_FIELD.canvas, 'Authoring Canvas Content', 'Note', true),
    field(PAGE_FIELD.banner, 'Banner Image URL', 'URL'),
    field(PAGE_FIELD.description, 'Description', 'Note'),
    field(PAGE_FIELD.promotedState, 'Promoted State', 'Number'),
    field(PAGE_FIELD.firstPublished, 'First Published Date', 'DateTime'),
    field(PAGE_FIELD.layoutParts, 'Page Layout Content', 'Note', true),
    field(PAGE_FIELD.authorByline, 'Author Byline', 'UserMulti'),
    field(PAGE_FIELD.topicHeader, 'Topic Header', 'Text'),
    field(PAGE_FIELD.commentFlags, 'Comment settings', 'Text', true),
  ];
}

/** A new page's name before its first save gives it one from its title (`Untitled_1.aspx`, …). */
export const untitledPageName = (n: number): string => `Untitled_${n}.aspx`;
export const isUntitledPageName = (name: string): boolean => /^Untitled_\d+\.aspx$/i.test(name);

/**
 * The file name a page's title gives it on its first save: characters SharePoint refuses in a
 * name (and `#`, `%`, `&`) dropped, runs of spaces made one `-`, at most 128 characters, `.aspx`.
 * An empty result keeps the page's name as it was (undefined).
 */
export function pageFileNameFromTitle(title: string): string | undefined {
  const stem = title.replace(/\.aspx$/i, '').replace(/["*:<>?/\\|#%&{}~]/g, '').trim().replace(/\s+/g, '-')
    .replace(/^\.+|\.+$/g, '').slice(0, 128);
  return stem ? `${stem}.aspx` : undefined;
}

/** `stem.aspx`, then `stem1.aspx`, `stem2.aspx`, …: the n-th name tried when one is taken. */
export function numberedPageName(name: string, n: number): string {
  return n === 0 ? name : name.replace(/\.aspx$/i, `${n}.aspx`);
}

/** The page fields of a new site's Home.aspx: a published home page (its canvas left empty: spemu renders nothing). */
export function homePageValues(now: string): Record<string, string | number> {
  return {
    [PAGE_FIELD.layoutType]: 'Home', [PAGE_FIELD.promotedState]: PROMOTED_STATE.notPromoted,
    [PAGE_FIELD.applicationId]: CLIENT_SIDE_APPLICATION_ID, [PAGE_FIELD.firstPublished]: now,
  };
}
