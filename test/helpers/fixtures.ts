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
