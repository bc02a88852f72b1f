// The resource model as data. A request path is walked segment by segment: each resource
// type says which navigation properties, keys and methods it has, and which HTTP verbs it
// answers. Adding an endpoint means adding an entry here, not a route.

import type { Field, List, Web } from '../domain/model.ts';
import type { Argument } from '../odata/path.ts';
import type { ApiContext } from './context.ts';
import type { Outcome } from './outcome.ts';

export type Resource =
  | { kind: 'site' }
  | { kind: 'web'; web: Web }
  | { kind: 'lists'; web: Web }
  | { kind: 'list'; list: List }
  | { kind: 'rootFolder'; list: List }
  | { kind: 'fields'; list: List }
  | { kind: 'field'; list: List; field: Field }
  | { kind: 'items'; list: List }
  | { kind: 'item'; list: List; id: number }
  | { kind: 'itemFieldValues'; list: List; id: number; as: 'text' | 'html' | 'edit' };

export type ResourceOf<K extends Resource['kind']> = Extract<Resource, { kind: K }>;

export interface MethodDef<R extends Resource> {
  /** Functions can be read with GET and navigated through; actions need POST and end the path. */
  kind: 'function' | 'action';
  invoke(resource: R, args: Argument[], ctx: ApiContext): Promise<Resource | Outcome>;
}

export interface ResourceType<R extends Resource> {
  navigation?: Record<string, (resource: R, ctx: ApiContext) => Promise<Resource>>;
  /** `items(5)`, `lists(guid'…')`: addressing an element of a collection. */
  key?: (resource: R, args: Argument[], ctx: ApiContext) => Promise<Resource>;
  /** Method names in lower case. */
  methods?: Record<string, MethodDef<R>>;
  get?: (resource: R, ctx: ApiContext) => Promise<Outcome>;
  /** POST to a collection: create. */
  create?: (resource: R, ctx: ApiContext) => Promise<Outcome>;
  /** MERGE / PATCH / PUT, with the etag from If-Match (undefined: header absent). */
  update?: (resource: R, ctx: ApiContext, ifMatch: string | undefined) => Promise<Outcome>;
  delete?: (resource: R, ctx: ApiContext, ifMatch: string | undefined) => Promise<Outcome>;
}

export type ResourceTypes = { [K in Resource['kind']]: ResourceType<ResourceOf<K>> };
