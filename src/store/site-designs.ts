// Site designs: tenant-wide (as site scripts are), who may see each, and what applying one to a
// web did (its runs, each with its actions' outcomes). Read and written by their own
// SiteScriptUtility calls only.

export interface SiteDesign {
  id: string;
  title: string;
  /** "64" (team site), "68" (communication site), "1" (team site without a group). */
  webTemplate: string;
  /** The site scripts it runs, in order. */
  siteScriptIds: string[];
  description: string | null;
  previewImageUrl: string | null;
  previewImageAltText: string | null;
  thumbnailUrl: string | null;
  isDefault: boolean;
  designPackageId: string;
  version: number;
  created: string;
  modified: string;
}

export type SiteDesignPatch = Partial<Omit<SiteDesign, 'id' | 'created' | 'modified'>> & { modified: string };

/** A principal granted a right on a design (SiteDesignPrincipal). */
export interface SiteDesignPrincipal {
  /** The claims login name: `i:0#.f|membership|<upn>` or `c:0t.c|tenant|<group id>`, lower-cased. */
  principalName: string;
  displayName: string;
  /** 1: View, the one right SharePoint grants. */
  rights: number;
}

/** One action's outcome in a run (SiteScriptActionStatus; SiteScriptActionResult on ApplySiteDesign). */
export interface ActionOutcome {
  siteScriptId: string;
  siteScriptTitle: string;
  siteScriptIndex: number;
  actionIndex: number;
  title: string;
  /** 0 success, 1 failure. */
  outcome: number;
  outcomeText: string | null;
  /** Milliseconds since 1970. */
  lastModified: string;
}

export interface SiteDesignRun {
  id: string;
  designId: string;
  designTitle: string;
  designVersion: number;
  siteId: string;
  webId: string;
  /** The display name of who applied it. */
  invokedBy: string;
  /** Milliseconds since 1970. */
  startTime: string;
  actions: ActionOutcome[];
}

export interface SiteDesignRepository {
  /** Every design, in the order they were made. */
  all(): Promise<SiteDesign[]>;
  get(id: string): Promise<SiteDesign | undefined>;
  add(design: SiteDesign): Promise<void>;
  update(id: string, patch: SiteDesignPatch): Promise<SiteDesign | undefined>;
  /** The design and its rights; false when there is none. */
  delete(id: string): Promise<boolean>;
  rights(id: string): Promise<SiteDesignPrincipal[]>;
  /** Grants (or re-grants) each principal; one transaction. */
  grant(id: string, principals: SiteDesignPrincipal[]): Promise<void>;
  /** Revokes each principal name; one transaction. */
  revoke(id: string, principalNames: string[]): Promise<void>;
  addRun(run: SiteDesignRun): Promise<void>;
  /** A web's runs, newest first; of one design only when `designId` is given. */
  runs(webId: string, designId?: string): Promise<SiteDesignRun[]>;
  run(id: string): Promise<SiteDesignRun | undefined>;
}
