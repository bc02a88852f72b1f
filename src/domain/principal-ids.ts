// A site collection's principals — site users (rows of its User Information List) and its
// SharePoint groups — share one id space, as in SharePoint: a role assignment's PrincipalId
// names one or the other, never both. The groups a site is created with hold 3, 4 and 5
// (Owners, Visitors, Members); the User Information List's id counter hands out every other
// id, to users and to the site's own groups alike, so the numbers never meet.

/** Owners, Visitors and Members, in that order. */
export const DEFAULT_GROUP_IDS = [3, 4, 5] as const;

/** The ids the default groups span, which the User Information List's counter steps over. */
export const DEFAULT_GROUP_RANGE = { first: 3, last: 5 } as const;
