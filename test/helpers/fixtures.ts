// Tenants shared by several test files.

import { minimalTenant } from './server.ts';

/** A list with one field of every kind, and a lookup target for its Lookup fields. */
export function kindsTenant(options: { body: string; moreItems: object[] }) {
  return minimalTenant({
    lists: [
      { title: 'Refs', url: 'Lists/Refs', items: [{ Title: 'R1' }, { Title: 'R2' }] },
      {
        title: 'Kinds', url: 'Lists/Kinds',
        fields: [
          { name: 'Num', type: 'Number' }, { name: 'Cur', type: 'Currency' }, { name: 'Int', type: 'Integer' },
          { name: 'Flag', type: 'Boolean' }, { name: 'When', type: 'DateTime' },
          { name: 'Pick', type: 'Choice', choices: ['a', 'b', 'c'] },
          { name: 'Tags', type: 'MultiChoice', choices: ['red', 'green', 'blue'] },
          { name: 'Link', type: 'URL' }, { name: 'Owner', type: 'User' }, { name: 'Watchers', type: 'UserMulti' },
          { name: 'Ref', type: 'Lookup', lookupList: 'Refs' }, { name: 'RefMulti', type: 'LookupMulti', lookupList: 'Refs' },
          { name: 'Key', type: 'Guid' }, { name: 'Body', type: 'Note' },
        ],
        items: [
          {
            Title: 'Full', Num: 3, Cur: 12.5, Int: 7, Flag: true, When: '2026-03-04T05:06:07Z', Pick: 'b', Tags: ['red', 'blue'],
            Link: { Url: 'https://contoso.com/x', Description: 'X site' }, Owner: 'olivia@fabrikam.onmicrosoft.com',
            Watchers: ['olivia@fabrikam.onmicrosoft.com', 'mark@fabrikam.onmicrosoft.com'], Ref: 2, RefMulti: [1, 2],
            Key: '0f8fad5b-d9cb-469f-a165-70867728950e', Body: options.body,
          },
          ...options.moreItems,
        ],
      },
    ],
  });
}

export const OLIVIA = 'olivia@fabrikam.onmicrosoft.com';
export const MARK = 'mark@fabrikam.onmicrosoft.com';

/**
 * Tasks whose User and Lookup fields point at people and at Refs (one lookup shows Refs' Code
 * rather than its Title): T1 has every reference, written by Mark and edited by Olivia; T2 a
 * few; T3 none.
 */
export function referencesTenant() {
  return minimalTenant({
    lists: [
      { title: 'Refs', url: 'Lists/Refs', fields: [{ name: 'Code', type: 'Text' }], items: [{ Title: 'R1', Code: 'C1' }, { Title: 'R2', Code: 'C2' }] },
      {
        title: 'Tasks', url: 'Lists/Tasks',
        fields: [
          { name: 'Owner', type: 'User' }, { name: 'Watchers', type: 'UserMulti' },
          { name: 'Ref', type: 'Lookup', lookupList: 'Refs' }, { name: 'RefCode', type: 'Lookup', lookupList: 'Refs', lookupField: 'Code' },
          { name: 'RefMulti', type: 'LookupMulti', lookupList: 'Refs' }, { name: 'Size', type: 'Number' },
        ],
        items: [
          { Title: 'T1', Owner: OLIVIA, Watchers: [OLIVIA, MARK], Ref: 2, RefCode: 1, RefMulti: [1, 2], Size: 3, author: MARK, editor: OLIVIA },
          { Title: 'T2', Owner: MARK, Ref: 1, author: MARK },
          { Title: 'T3' },
        ],
      },
    ],
  });
}
