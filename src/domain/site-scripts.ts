// What a site script's JSON must be for SharePoint to store it (CreateSiteScript,
// UpdateSiteScript): an object whose `actions` is a non-empty array of actions, each naming a
// verb SharePoint knows, and each subaction of a list or content type one of theirs. Verbs are
// compared exactly, as SharePoint does ("SetDescription" is refused: sp-dev-docs #3087). The
// values an action carries are checked only when it runs, which spemu does not do.

import { fail } from './errors.ts';

/** The top-level verbs of the site template JSON schema (site-design-json-schema.md). */
const VERBS: ReadonlySet<string> = new Set([
  'addContentTypesFromHub', 'createSPList', 'createSiteColumn', 'createSiteColumnXml', 'createContentType', 'addNavLink',
  'removeNavLink', 'applyTheme', 'setSiteBranding', 'setSiteLogo', 'joinHubSite', 'installSolution', 'associateExtension',
  'activateSPFeature', 'triggerFlow', 'setRegionalSettings', 'addPrincipalToSPGroup', 'setSiteExternalSharingCapability',
]);

/** The subactions each verb that has them takes. */
const SUBACTIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  createSPList: new Set([
    'setDescription', 'addSPField', 'deleteSPField', 'addSPFieldXml', 'addSPLookupFieldXml', 'addSiteColumn', 'removeSiteColumn',
    'addSPView', 'removeSPView', 'addContentType', 'removeContentType', 'setSPFieldCustomFormatter', 'associateFieldCustomizer',
    'associateListViewCommandSet', 'setTitle',
  ]),
  createContentType: new Set(['addSiteColumn', 'removeSiteColumn']),
};

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The script's JSON as sent: refused (`siteScriptInvalid`) unless SharePoint would store it. */
export function checkSiteScript(text: string): void {
  let script: unknown;
  try {
    script = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw fail.siteScriptInvalid();
  }
  if (!isObject(script) || !Array.isArray(script.actions) || script.actions.length === 0) throw fail.siteScriptInvalid();
  for (const action of script.actions) {
    if (!isObject(action) || typeof action.verb !== 'string' || !VERBS.has(action.verb)) throw fail.siteScriptInvalid();
    if (action.subactions === undefined) continue;
    const allowed = SUBACTIONS[action.verb];
    if (!allowed || !Array.isArray(action.subactions)) throw fail.siteScriptInvalid();
    for (const sub of action.subactions) {
      if (!isObject(sub) || typeof sub.verb !== 'string' || !allowed.has(sub.verb)) throw fail.siteScriptInvalid();
    }
  }
}
