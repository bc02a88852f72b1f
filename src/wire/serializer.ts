// The serializer contract and the choice of serializer per dialect.

import type { SpError } from './errors.ts';
import { type Dialect } from './dialect.ts';
import type { Payload } from './values.ts';
import { verboseSerializer } from './verbose.ts';
import { lightSerializer } from './light.ts';

export interface SerializeContext {
  /** Absolute URL of the site's API root, ending in `/_api/`. */
  apiUrl: string;
  /** `$select` as the client wrote it: JSON light repeats it in `odata.metadata`. */
  select?: string | undefined;
}

export interface Serializer {
  write(payload: Payload, ctx: SerializeContext): string;
  error(err: SpError): string;
}

const SERIALIZERS: Record<Dialect, Serializer> = {
  verbose: verboseSerializer,
  minimal: lightSerializer('v3', 'minimal'),
  nometadata: lightSerializer('v3', 'none'),
  'v4-minimal': lightSerializer('v4', 'minimal'),
  'v4-none': lightSerializer('v4', 'none'),
  'v4-full': lightSerializer('v4', 'full'),
};

export const serializerFor = (dialect: Dialect): Serializer => SERIALIZERS[dialect];
