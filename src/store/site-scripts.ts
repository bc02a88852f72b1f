// Site scripts: tenant-wide (no site or web holds them), read and written whole by their own
// SiteScriptUtility calls only.

export interface SiteScript {
  id: string;
  title: string;
  /** null when none was given at creation. */
  description: string | null;
  /** The script's JSON, as the text it was sent as. */
  content: string;
  version: number;
  created: string;
  modified: string;
}

export type SiteScriptPatch = Partial<Pick<SiteScript, 'title' | 'description' | 'content' | 'version'>> & { modified: string };

export interface SiteScriptRepository {
  /** Every script, in the order they were made. */
  all(): Promise<SiteScript[]>;
  get(id: string): Promise<SiteScript | undefined>;
  add(script: SiteScript): Promise<void>;
  /** The script as changed; undefined if there is none. */
  update(id: string, patch: SiteScriptPatch): Promise<SiteScript | undefined>;
  delete(id: string): Promise<boolean>;
}
