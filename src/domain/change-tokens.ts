// The change log's vocabulary: what a change is (SP.ChangeType, the kind of object), and
// SharePoint's change tokens, `1;<scope>;<guid>;<ticks>;<number>` — version 1, the scope (1 site
// collection, 2 web, 3 list), the scope object's id, the time as .NET ticks (100 ns since
// 0001-01-01 UTC) and the change number, -1 when the token names only a time (PnPjs's
// createChangeToken, the webhook samples).

import { fail } from './errors.ts';

/** SP.ChangeType, as CSOM and REST number it. */
export const ChangeType = {
  NoChange: 0, Add: 1, Update: 2, DeleteObject: 3, Rename: 4, MoveAway: 5, MoveInto: 6, Restore: 7,
  RoleAdd: 8, RoleDelete: 9, RoleUpdate: 10, AssignmentAdd: 11, AssignmentDelete: 12, MemberAdd: 13,
  MemberDelete: 14, SystemUpdate: 15, Navigation: 16, ScopeAdd: 17, ScopeDelete: 18,
  ListContentTypeAdd: 19, ListContentTypeDelete: 20,
} as const;
export type ChangeTypeNumber = (typeof ChangeType)[keyof typeof ChangeType];

/** What changed: each kind answers as its own SP.Change* entity. */
/** `item` a list item, `file` and `folder` items of a library (each also an item to the Item flag). */
export type ChangeObjectKind = 'item' | 'file' | 'folder' | 'list' | 'field' | 'view' | 'web' | 'site' | 'contentType' | 'group' | 'user' | 'securityPolicy' | 'roleDefinition';

/**
 * A change as a write describes it, before the unit of work numbers and times it. The site
 * collection may be left out where the web names it (the unit of work looks it up).
 */
export interface ChangeDraft {
  kind: ChangeObjectKind;
  type: ChangeTypeNumber;
  siteId?: string | undefined;
  /** '' for a change to the site collection itself. */
  webId: string;
  listId?: string | undefined;
  itemId?: number | undefined;
  uniqueId?: string | undefined;
  /** What the change's entity shows besides its ids (title, URL, editor's id, …). */
  details?: Record<string, string | number | boolean | null> | undefined;
}

/** A change as the log holds it. */
export interface Change extends ChangeDraft {
  siteId: string;
  /** Monotonically increasing per site collection, in commit order. */
  number: number;
  /** ISO 8601 UTC with milliseconds. */
  time: string;
}

export const TokenScope = { site: 1, web: 2, list: 3 } as const;
export type TokenScopeName = keyof typeof TokenScope;

export interface ChangeToken {
  scope: number;
  id: string;
  /** Milliseconds since 1970, from the ticks. */
  timeMs: number;
  /** The change number, or -1 (a token naming a time only). */
  number: number;
}

/** .NET ticks at the Unix epoch. */
const EPOCH_TICKS = 621_355_968_000_000_000n;

export function ticksOf(timeMs: number): string {
  return String(BigInt(Math.round(timeMs)) * 10_000n + EPOCH_TICKS);
}

export function formatToken(scope: TokenScopeName, id: string, timeMs: number, number: number): string {
  return `1;${TokenScope[scope]};${id};${ticksOf(timeMs)};${number}`;
}

const GUID = /^\{?([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\}?$/i;

/**
 * Reads a token's StringValue; a malformed one is refused with SharePoint's error. Ticks may
 * come as JavaScript wrote a number past 2^53 (`638399664141230000`, even `6.3e+17`).
 */
export function parseToken(text: string): ChangeToken {
  const parts = text.split(';');
  if (parts.length !== 5 || parts[0] !== '1') throw fail.invalidChangeToken();
  const [, scopeText, idText, ticksText, numberText] = parts as [string, string, string, string, string];
  const scope = Number(scopeText);
  const guid = GUID.exec(idText.trim());
  const ticks = Number(ticksText);
  const number = Number(numberText);
  if (![0, 1, 2, 3].includes(scope) || !guid || !Number.isFinite(ticks) || ticks < 0 || !Number.isInteger(number) || number < -1) {
    throw fail.invalidChangeToken();
  }
  return { scope, id: guid[1]!.toLowerCase(), timeMs: (ticks - Number(EPOCH_TICKS)) / 10_000, number };
}
