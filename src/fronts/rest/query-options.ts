// Turns the raw query string into parsed OData options, mapping grammar errors onto
// SharePoint's "The expression … is not valid." (400).

import { ODataSyntaxError } from '../../odata/errors.ts';
import { parseFilter } from '../../odata/filter/parser.ts';
import {
  parseExpand, parseOrderBy, parseQueryString, parseSelect, parseSkip, parseSkipToken, parseTop,
} from '../../odata/query.ts';
import { errors } from '../../wire/errors.ts';
import type { QueryOptions } from './api/context.ts';

export interface ParsedRequestQuery {
  options: QueryOptions;
  aliases: Map<string, string>;
}

export function parseRequestQuery(rawQuery: string): ParsedRequestQuery {
  try {
    const { options: raw, aliases } = parseQueryString(rawQuery);
    const get = (name: string) => raw.get(name);
    // An empty `$select=` (CLI for Microsoft 365 sends one) is no `$select`, as SharePoint takes it.
    const select = get('$select')?.trim() === '' ? undefined : get('$select');
    const filter = get('$filter');
    const options: QueryOptions = {
      select: select !== undefined ? parseSelect(select) : undefined,
      selectText: select,
      expand: get('$expand') !== undefined ? parseExpand(get('$expand')!) : [],
      filter: filter !== undefined ? parseFilter(filter) : undefined,
      filterText: filter,
      orderBy: get('$orderby') !== undefined ? parseOrderBy(get('$orderby')!) : [],
      top: get('$top') !== undefined ? parseTop(get('$top')!) : undefined,
      skip: get('$skip') !== undefined ? parseSkip(get('$skip')!) : undefined,
      skipToken: get('$skiptoken') !== undefined ? parseSkipToken(get('$skiptoken')!) : undefined,
    };
    return { options, aliases };
  } catch (e) {
    if (e instanceof ODataSyntaxError) throw errors.invalidExpression(e.expression);
    throw e;
  }
}
