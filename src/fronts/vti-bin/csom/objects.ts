// CSOM objects as spemu serves them: each knows its type name, its identity, the properties a
// Query may read, the methods it has and the changes SetProperty stages until its Update.
// What an object does not know is CSOM's "not implemented" answer, never a made-up value.

import type { Principal, Site, Web } from '../../../domain/model.ts';
import type { Services } from '../../../services/services.ts';
import type { StoreReader } from '../../../store/store.ts';

/** What every object reads and acts with: the web ProcessQuery was sent to, and who asks. */
export interface CsomContext {
  store: StoreReader;
  services: Services;
  site: Site;
  web: Web;
  principal: Principal;
  /** The request's correlation id: an object identity's prefix, as SharePoint's are. */
  requestId: string;
  /** The public origin the request came in on (`https://host:port`), for absolute URLs in messages. */
  origin: string;
  /**
   * The objects this request has reached, by what they are (`web:<id>`, `web:<id>:contenttype:<id>`, …):
   * one object per thing however many paths reach it, so a change staged through one path
   * (a field link's SetProperty) is the one its Update (through another) writes.
   */
  objects: Map<string, CsomObject>;
}

/** The request's one object for `key`, made the first time. */
export function remember<T extends CsomObject>(ctx: CsomContext, key: string, make: () => T): T {
  const known = ctx.objects.get(key.toLowerCase());
  if (known) return known as T;
  const made = make();
  ctx.objects.set(key.toLowerCase(), made);
  return made;
}

/** A parameter as a method receives it: a scalar, an object another path gave, or a structure of those. */
export type Argument = string | number | boolean | null | CsomObject | { [name: string]: Argument };

/** A property's value on the wire: JSON, or an object (written with its own query). */
export type PropertyValue = string | number | boolean | null | Record<string, unknown> | CsomObject;

export abstract class CsomObject {
  abstract readonly typeName: string;
  /** `_ObjectIdentity_`, for objects SharePoint gives one. */
  identity(_ctx: CsomContext): string | undefined { return undefined; }
  /** The properties SelectAllProperties="true" writes. */
  defaultProperties(): readonly string[] { return []; }
  /** A property's value; undefined when spemu does not serve it. */
  async get(_name: string, _ctx: CsomContext): Promise<PropertyValue | undefined> { return undefined; }
  /** A method (an object path or an action): its result (an object, a scalar, nothing); NOT_SERVED when spemu has none. */
  async call(_name: string, _args: Argument[], _ctx: CsomContext): Promise<CsomObject | PropertyValue | undefined | typeof NOT_SERVED> { return NOT_SERVED; }
  /** Stages a SetProperty until Update; false when spemu does not serve that property's change. */
  set(_name: string, _value: Argument): boolean { return false; }
  /** Every property written (SelectAll on a property bag): its own fields, besides the named ones. */
  allFields(_ctx: CsomContext): Promise<Record<string, unknown>> | undefined { return undefined; }
}

export const NOT_SERVED = Symbol('not served');

/** SharePoint's object identities: `<correlation>|740c6a0b-…:site:<id>:web:<id>[:…]`. */
const IDENTITY_ROOT = '740c6a0b-85e2-48a0-a494-e0f1759d4aa7';
export const webIdentity = (ctx: CsomContext, web: Web) => `${ctx.requestId}|${IDENTITY_ROOT}:site:${ctx.site.id}:web:${web.id}`;

/** An identity's parts after the `|`: `site`, `web`, then what it goes on to name (`contenttype`, `list`, `field`, …) in order. */
export function parseIdentity(name: string): Array<[string, string]> | undefined {
  const body = name.slice(name.indexOf('|') + 1);
  if (!body.startsWith(`${IDENTITY_ROOT}:`)) return undefined;
  const parts = body.slice(IDENTITY_ROOT.length + 1).split(':');
  if (parts.length % 2 !== 0) return undefined;
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i < parts.length; i += 2) pairs.push([parts[i]!.toLowerCase(), parts[i + 1]!]);
  return pairs;
}

/** A CSOM Guid on the wire (`/Guid(…)/`, as JSON.parse gives SharePoint's `\/Guid(…)\/`). */
export const guidValue = (id: string) => `/Guid(${id.toLowerCase()})/`;

/** A CSOM DateTime on the wire: `/Date(y,m,d,h,min,s,ms)/`, month from 0, UTC. */
export function dateValue(iso: string): string {
  const d = new Date(iso);
  return `/Date(${d.getUTCFullYear()},${d.getUTCMonth()},${d.getUTCDate()},${d.getUTCHours()},${d.getUTCMinutes()},${d.getUTCSeconds()},${d.getUTCMilliseconds()})/`;
}
