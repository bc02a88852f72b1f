// The serializer contract and the choice of serializer per dialect.

import type { SpError } from './errors.ts';
import { type Dialect } from './dialect.ts';
import type { Payload } from './values.ts';
import { verboseSerializer } from './verbose.ts';
import { lightSerializer } from './light.ts';
import { lightDirect, verboseDirect, type DirectWriter } from './direct-json.ts';

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

/** The tree writers: an object per entity, then its text. The reference the direct writers are held to. */
export const REFERENCE_SERIALIZERS: Record<Dialect, Serializer> = {
  verbose: verboseSerializer,
  minimal: lightSerializer('v3', 'minimal'),
  nometadata: lightSerializer('v3', 'none'),
  'v4-minimal': lightSerializer('v4', 'minimal'),
  'v4-none': lightSerializer('v4', 'none'),
  'v4-full': lightSerializer('v4', 'full'),
};

const DIRECT: Record<Dialect, DirectWriter> = {
  verbose: verboseDirect(),
  minimal: lightDirect('v3', 'minimal'),
  nometadata: lightDirect('v3', 'none'),
  'v4-minimal': lightDirect('v4', 'minimal'),
  'v4-none': lightDirect('v4', 'none'),
  'v4-full': lightDirect('v4', 'full'),
};

/**
 * Payloads written by their own compiled writer where they carry one (`text`), else straight to
 * text (direct-json.ts); the few it leaves, and errors, by the tree writer.
 */
const SERIALIZERS = Object.fromEntries((Object.keys(REFERENCE_SERIALIZERS) as Dialect[]).map((dialect): [Dialect, Serializer] => {
  const reference = REFERENCE_SERIALIZERS[dialect];
  const direct = DIRECT[dialect];
  return [dialect, {
    write: (payload, ctx) => (payload.kind !== 'primitive' ? payload.text?.(dialect, ctx) : undefined) ?? direct(payload, ctx) ?? reference.write(payload, ctx),
    error: (err) => reference.error(err),
  }];
})) as Record<Dialect, Serializer>;

export const serializerFor = (dialect: Dialect): Serializer => SERIALIZERS[dialect];
