// Type-level only, as pnp-types.ts: @pnp/sp's site scripts augment `../fi`, `../lists/types` and
// `../webs/types` (extensionless paths nodenext cannot resolve).

import type { ISiteScripts, ISiteScriptSerializationInfo, ISiteScriptSerializationResult } from '@pnp/sp/site-scripts/types.js';

declare module '@pnp/sp/fi.js' {
  interface SPFI { readonly siteScripts: ISiteScripts }
}
declare module '@pnp/sp/lists/types.js' {
  interface IList { getSiteScript(): Promise<string> }
}
declare module '@pnp/sp/webs/types.js' {
  interface IWeb { getSiteScript(extractInfo?: ISiteScriptSerializationInfo): Promise<ISiteScriptSerializationResult> }
}

export {};
