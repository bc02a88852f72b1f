// Reading the change log as SharePoint's ChangeQuery asks: its flags say which kinds of
// object and which change types; ChangeTokenStart (exclusive) and ChangeTokenEnd (inclusive)
// bound it by change number, or by time where a token names none (-1); FetchLimit pages it.
// A token that does not parse, or that is older than the log keeps, is refused.

import { formatToken, parseToken, type Change, type ChangeObjectKind, type TokenScopeName } from '../domain/change-tokens.ts';
import { ChangeType } from '../domain/change-tokens.ts';
import { fail } from '../domain/errors.ts';
import type { ChangeQuery, ChangeRepository } from '../store/changes.ts';

/** SharePoint keeps 60 days of changes (SharePoint Online; the on-premises default too). */
export const DEFAULT_CHANGE_RETENTION_DAYS = 60;
/** Changes one call returns when FetchLimit is not given, and at most (inference: docs/compatibility.md). */
export const DEFAULT_FETCH_LIMIT = 1000;
export const MAX_FETCH_LIMIT = 2000;

/** SP.ChangeQuery's object flags: the kinds each selects. */
const KIND_FLAGS: Record<string, readonly ChangeObjectKind[]> = {
  Item: ['item', 'file', 'folder'], File: ['file'], Folder: ['folder'], List: ['list'], Web: ['web'], Site: ['site'],
  Field: ['field'], View: ['view'], ContentType: ['contentType'], Group: ['group'], User: ['user'],
};
/** SP.ChangeQuery's change-type flags: the SP.ChangeType numbers each selects. */
const TYPE_FLAGS: Record<string, readonly number[]> = {
  Add: [ChangeType.Add], Update: [ChangeType.Update], DeleteObject: [ChangeType.DeleteObject], Rename: [ChangeType.Rename],
  Move: [ChangeType.MoveAway, ChangeType.MoveInto], Restore: [ChangeType.Restore], SystemUpdate: [ChangeType.SystemUpdate],
  Navigation: [ChangeType.Navigation], RoleDefinitionAdd: [ChangeType.RoleAdd], RoleDefinitionDelete: [ChangeType.RoleDelete],
  RoleDefinitionUpdate: [ChangeType.RoleUpdate], RoleAssignmentAdd: [ChangeType.AssignmentAdd],
  RoleAssignmentDelete: [ChangeType.AssignmentDelete], GroupMembershipAdd: [ChangeType.MemberAdd],
  GroupMembershipDelete: [ChangeType.MemberDelete], SecurityPolicy: [ChangeType.ScopeAdd, ChangeType.ScopeDelete],
};
/** Flags read and honoured otherwise, or accepted and ignored (Alert: spemu has no alerts). */
const OTHER_FLAGS = new Set(['ChangeTokenStart', 'ChangeTokenEnd', 'FetchLimit', 'LatestFirst', 'RecursiveAll', 'IgnoreStartTokenNotFoundError', 'RequireSecurityTrim', 'Alert', 'Activity']);

/** Is `name` a property of SP.ChangeQuery? */
export const isChangeQueryProperty = (name: string): boolean => name in KIND_FLAGS || name in TYPE_FLAGS || OTHER_FLAGS.has(name) || name === '__metadata';

/** A ChangeQuery as the front read it from the body. */
export interface ChangeQueryInput {
  flags: Record<string, boolean>;
  start?: string | undefined;
  end?: string | undefined;
  fetchLimit?: number | undefined;
  latestFirst?: boolean | undefined;
}

export interface ChangeScope {
  siteId: string;
  scope: ChangeQuery['scope'];
}

export interface ChangeLogOptions {
  /** How long changes are kept: an older token is refused. */
  retentionDays: number;
  now: Date;
}

/** Which kinds a query's flags select (the membership flags also select groups, the RoleDefinition flags permission levels). */
function kindsOf(flags: Record<string, boolean>): ChangeObjectKind[] {
  const kinds = new Set<ChangeObjectKind>();
  for (const [flag, on] of Object.entries(flags)) if (on) for (const k of KIND_FLAGS[flag] ?? []) kinds.add(k);
  if (flags.GroupMembershipAdd || flags.GroupMembershipDelete) kinds.add('group');
  // Permission levels have no object flag of their own: their change flags select them.
  if (flags.RoleDefinitionAdd || flags.RoleDefinitionUpdate || flags.RoleDefinitionDelete) kinds.add('roleDefinition');
  return [...kinds];
}

function typesOf(flags: Record<string, boolean>): number[] {
  const types = new Set<number>();
  for (const [flag, on] of Object.entries(flags)) if (on) for (const t of TYPE_FLAGS[flag] ?? []) types.add(t);
  return [...types];
}

/** Where a token stands in the log: after a number, or after a time; refused when older than the log keeps. */
function position(text: string, options: ChangeLogOptions): { number: number } | { time: string } {
  const token = parseToken(text);
  if (token.timeMs < options.now.getTime() - options.retentionDays * 86_400_000) throw fail.changeTokenTooOld();
  return token.number >= 0 ? { number: token.number } : { time: new Date(Math.max(0, token.timeMs)).toISOString() };
}

/** Whether the caller may see a change; `page`, when given, is told each page of changes first (to read what it needs of them at once). */
export interface ChangeVisibility {
  (change: Change): Promise<boolean>;
  page?(changes: readonly Change[]): Promise<void>;
}

/** Rounds of reading past changes the caller may not see before an answer is given as it is. */
const TRIM_ROUNDS = 20;

/**
 * The changes a ChangeQuery selects in `scope`, oldest first (or latest first). With `visible`
 * (unique permissions in the site collection), changes the caller may not see are left out and
 * the page is filled from the changes after them, so that paging on the last change's token
 * never stops early nor loops on changes it cannot show.
 */
export async function readChanges(
  changes: Pick<ChangeRepository, 'query'>, scope: ChangeScope, input: ChangeQueryInput, options: ChangeLogOptions,
  visible?: ChangeVisibility,
): Promise<Change[]> {
  const limit = Math.min(MAX_FETCH_LIMIT, input.fetchLimit && input.fetchLimit > 0 ? input.fetchLimit : DEFAULT_FETCH_LIMIT);
  const latestFirst = input.latestFirst ?? false;
  const query: ChangeQuery = {
    siteId: scope.siteId, scope: scope.scope, kinds: kindsOf(input.flags), types: typesOf(input.flags),
    after: input.start ? position(input.start, options) : undefined,
    upTo: input.end ? position(input.end, options) : undefined,
    limit, latestFirst,
  };
  if (!visible) return changes.query(query);
  const shown: Change[] = [];
  for (let round = 0; round < TRIM_ROUNDS; round++) {
    const page = await changes.query(query);
    await visible.page?.(page);
    for (const change of page) {
      if (await visible(change)) shown.push(change);
      if (shown.length === limit) return shown;
    }
    if (page.length < limit) break;
    const last = page[page.length - 1]!.number;
    // Continue past the last change read (a number bound replaces a time bound on that side).
    if (latestFirst) query.upTo = { number: last - 1 };
    else query.after = { number: last };
  }
  return shown;
}

/** A scope's CurrentChangeToken: the site collection's last change number, now. */
export async function currentChangeToken(changes: Pick<ChangeRepository, 'latest'>, siteId: string, scope: TokenScopeName, id: string, now: Date): Promise<string> {
  return formatToken(scope, id, now.getTime(), await changes.latest(siteId));
}

/** The token a change answers with: its scope object, its time and its number. */
export function tokenOfChange(change: Change, scope: TokenScopeName, id: string): string {
  return formatToken(scope, id, Date.parse(change.time), change.number);
}
