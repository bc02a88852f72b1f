// User custom actions (scripts, ribbon and SPFx extensions registered on a site, web or list).

export type CustomActionHolder = { kind: 'site'; siteId: string } | { kind: 'web'; webId: string } | { kind: 'list'; listRowId: number };

export interface StoredCustomAction {
  id: string;
  /** The settable SP.UserCustomAction properties as sent (Title, Location, ScriptSrc, …). */
  props: Record<string, unknown>;
}

export interface CustomActionRepository {
  of(holder: CustomActionHolder): Promise<StoredCustomAction[]>;
  add(holder: CustomActionHolder, action: StoredCustomAction): Promise<void>;
  /** Merges `props` into the action's; false if there is none. */
  update(holder: CustomActionHolder, id: string, props: Record<string, unknown>): Promise<boolean>;
  delete(holder: CustomActionHolder, id: string): Promise<boolean>;
  clear(holder: CustomActionHolder): Promise<void>;
}
