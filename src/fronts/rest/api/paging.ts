// Server-driven paging: `$top` limits, `$skiptoken=Paged=TRUE&p_ID=N` positions, and the
// absolute `__next` / `odata.nextLink` that carries the original options (reference §2).

import { valueKind } from '../../../domain/field-kinds.ts';
import { storedValue } from '../../../domain/items.ts';
import type { Field, Item, StoredValue } from '../../../domain/model.ts';
import type { SortKey } from '../../../store/store.ts';
import { errors } from '../../../wire/errors.ts';
import type { ApiContext } from './context.ts';

export function pageSize(ctx: ApiContext): number {
  const top = ctx.query.top ?? ctx.settings.defaultPageSize;
  return Math.min(top, ctx.settings.maxPageSize);
}

/** The keyset position a `$skiptoken` names, for these sort keys. */
export function positionFromSkipToken(ctx: ApiContext, keys: SortKey[]): { id: number; values: StoredValue[] } | undefined {
  const token = ctx.query.skipToken;
  if (!token) return undefined;
  const id = [...token.values].find(([k]) => k.toLowerCase() === 'p_id')?.[1];
  if (id === undefined || !/^\d+$/.test(id)) throw errors.invalidExpression(ctx.requestUrl.searchParams.get('$skiptoken') ?? '');
  const values = keys.map((k) => {
    const raw = [...token.values].find(([name]) => name === `p_${k.field.internalName}`)?.[1];
    return raw === undefined || raw === '' ? null : storedFromToken(k.field, raw);
  });
  return { id: Number(id), values };
}

export function storedFromToken(field: Field, raw: string): StoredValue {
  if (['Number', 'Currency', 'Integer', 'Counter', 'User', 'Lookup', 'Boolean'].includes(valueKind(field))) {
    const n = Number(raw);
    return Number.isFinite(n) ? n : null;
  }
  return raw;
}

/** ASP.NET's UrlEncode, as SharePoint writes its links: lower-case hex, `+` for spaces. */
export function urlEncode(text: string): string {
  return encodeURIComponent(text)
    .replace(/%20/g, '+')
    .replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
}

/** The absolute link to the page after `last`, keeping every other query option. */
export function nextLink(ctx: ApiContext, keys: SortKey[], last: Item): string {
  const prev = ctx.query.skipToken?.pagedPrev ? '&PagedPrev=TRUE' : '';
  // p_ID always ends the token, so an explicit `$orderby=ID desc` key must not repeat it.
  const parts = keys.filter((k) => k.field.internalName !== 'ID').map((k) => {
    const v = storedValue(k.field, last);
    return `&p_${k.field.internalName}=${v === null ? '' : encodeURIComponent(String(v))}`;
  });
  const token = `Paged=TRUE${prev}${parts.join('')}&p_ID=${last.id}`;
  const rest: string[] = [];
  for (const [key, value] of ctx.requestUrl.searchParams) {
    // Skiptoken parts that arrived unencoded (`&p_ID=5`) were folded into the token: drop them here.
    const lower = key.toLowerCase();
    if (lower === '$skiptoken' || lower.startsWith('p_') || lower === 'pagedprev') continue;
    rest.push(`${urlEncode(key)}=${urlEncode(value)}`);
  }
  const { origin, pathname } = ctx.requestUrl;
  return `${origin}${pathname}?${urlEncode('$skiptoken')}=${urlEncode(token)}${rest.length ? `&${rest.join('&')}` : ''}`;
}
