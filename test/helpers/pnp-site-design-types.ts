// Type-level only, as pnp-types.ts: @pnp/sp's site designs augment `../fi` and `../webs/types`
// (extensionless paths nodenext cannot resolve).

import type { ISiteDesignRun, ISiteDesigns, ISiteDesignTask, ISiteScriptActionStatus } from '@pnp/sp/site-designs/types.js';

declare module '@pnp/sp/fi.js' {
  interface SPFI { readonly siteDesigns: ISiteDesigns }
}
declare module '@pnp/sp/webs/types.js' {
  interface IWeb {
    getSiteDesignRuns(siteDesignId?: string): Promise<ISiteDesignRun[]>;
    addSiteDesignTask(siteDesignId: string): Promise<ISiteDesignTask>;
    getSiteDesignRunStatus(runId: string): Promise<ISiteScriptActionStatus[]>;
  }
}

export {};
