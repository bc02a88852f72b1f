// A web's property bag (SP.Web.AllProperties): the `vti_` entries SharePoint keeps for every
// web, which spemu derives from the web (its associated groups, its language), then the
// entries set on it (CSOM's AllProperties.SetFieldValue, stored with the web), a stored one
// read in place of a derived one of the same key. Shared by the REST and CSOM fronts.

import type { Site, Web } from '../domain/model.ts';
import { siteGroupOfRole } from '../identity/site-groups.ts';

/** `extenderVersion`: vti_extenderversion, the server's library version (wire/headers.ts). */
export function webPropertyBag(site: Site, web: Web, extenderVersion: string): Array<[string, string]> {
  const group = (role: 'owner' | 'member' | 'visitor') => String(siteGroupOfRole(site, role).id);
  const language = web.language === 1033 ? 'en-us' : String(web.language);
  const derived: Array<[string, string]> = [
    ['vti_approvallevels', 'Approved Rejected Pending\\ Review'],
    ['vti_associategroups', `${group('member')};${group('visitor')};${group('owner')}`],
    ['vti_associatemembergroup', group('member')],
    ['vti_associateownergroup', group('owner')],
    ['vti_associatevisitorgroup', group('visitor')],
    ['vti_categories', 'Business Competition Expense\\ Report Goals/Objectives Ideas In\\ Process Miscellaneous Planning Schedule Travel VIP Waiting'],
    ['vti_createdassociategroups', `${group('owner')};${group('visitor')};${group('member')}`],
    ['vti_defaultlanguage', language],
    ['vti_extenderversion', extenderVersion],
  ];
  const stored = web.properties;
  return [...derived.filter(([k]) => !Object.hasOwn(stored, k)), ...Object.entries(stored)];
}
