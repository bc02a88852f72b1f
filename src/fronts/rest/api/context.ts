// What an API operation knows about the request it serves: the store to read, the services to
// change things through, the site and web it addresses, who is acting, the request's
// conditions, the parsed query options and the body. Nothing here is HTTP.

import type { Readable } from 'node:stream';
import type { Principal, Site, Web } from '../../../domain/model.ts';
import type { StoreReader } from '../../../store/store.ts';
import type { Conditions } from '../../../services/conditions.ts';
import type { Services } from '../../../services/services.ts';
import type { Expression } from '../../../query/ast.ts';
import type { OrderByItem, SkipToken } from '../../../odata/query.ts';

export interface QueryOptions {
  select?: string[][] | undefined;
  /** `$select` as sent, for JSON light's `odata.metadata`. */
  selectText?: string | undefined;
  expand: string[][];
  filter?: Expression | undefined;
  filterText?: string | undefined;
  orderBy: OrderByItem[];
  top?: number | undefined;
  skip?: number | undefined;
  skipToken?: SkipToken | undefined;
}

export interface ApiSettings {
  /** Items a list may hold before unindexed queries are refused; 0 turns the check off. */
  listViewThreshold: number;
  /** Page size when `$top` is absent. */
  defaultPageSize: number;
  /** Largest `$top` honoured. */
  maxPageSize: number;
  /** Days the change log keeps changes (default 60): an older change token is refused. */
  changeRetentionDays?: number | undefined;
}

export interface ApiContext {
  /** Storage, to read: writes go through `services`. */
  store: StoreReader;
  /** The domain operations, acting as `principal`, stamped with `now()`. */
  services: Services;
  /** The request's If-Match, If-None-Match and If-Modified-Since. */
  conditions: Conditions;
  site: Site;
  web: Web;
  principal: Principal;
  /** The current time as `YYYY-MM-DDTHH:MM:SSZ`; injectable for tests. */
  now(): string;
  /** Absolute URL of the site's API root, ending in `/_api/`. */
  apiUrl: string;
  /** Absolute URL of the request as sent, for `__next` links. */
  requestUrl: URL;
  query: QueryOptions;
  settings: ApiSettings;
  /**
   * The request body, as the handler's declared kind (resource.ts `BodyKind`) had it read: set
   * only for the handler that ends the path, never while the path is resolved. `body`: parsed
   * JSON (undefined when there is none), `verboseBody` whether it came as verbose JSON.
   */
  body: unknown;
  verboseBody: boolean;
  /** A `raw` handler's body: the bytes as sent (undefined when there is none), e.g. SetMyProfilePicture's image. */
  rawBody?: Buffer | undefined;
  /** A `stream` handler's body. */
  bodyStream?: Readable | undefined;
  /** Issues a request digest for a user on a site (contextinfo's FormDigestValue: the acting user, this site); the server's, not the request's. */
  formDigest?: ((site: Site, principal: Principal) => { value: string; timeoutSeconds: number }) | undefined;
}
