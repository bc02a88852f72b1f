// The keys that name a securable object's permission scope, as unique scopes, role assignments
// and sharing links store them: `web:<web id>`, `list:<list row id>`, `item:<list row id>:<item id>`.
// A list's items share the prefix `item:<list row id>:`, which is how a list's uniquely
// permissioned items are found among a site's scopes.

export const webScopeKey = (webId: string): string => `web:${webId}`;
export const listScopeKey = (listRowId: number): string => `list:${listRowId}`;
export const itemScopeKey = (listRowId: number, id: number): string => `${itemScopePrefix(listRowId)}${id}`;
/** What every item scope of the list starts with. */
export const itemScopePrefix = (listRowId: number): string => `item:${listRowId}:`;

/** The ids of the list's items with unique permissions, from a site's scopes (keyed as above). */
export function uniqueItemIds(scopes: ReadonlyMap<string, unknown>, listRowId: number): number[] {
  const prefix = itemScopePrefix(listRowId);
  const ids: number[] = [];
  for (const scope of scopes.keys()) if (scope.startsWith(prefix)) ids.push(Number(scope.slice(prefix.length)));
  return ids;
}
