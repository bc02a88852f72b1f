// Runs the requests of a `$batch` in order, each through the same pipeline as a request sent
// alone (app.ts `respond`), as the batch's authenticated user. A failing part does not stop
// the ones after it, and changesets are not transactional (DOC-BATCH): each request is
// atomic on its own, and a write is visible to every later part.

import { errors, SpError } from '../../../wire/errors.ts';
import { BatchParseError, MAX_BATCH_REQUESTS, parseBatch, type BatchRequest } from './parse.ts';
import type { PartResponse } from './write.ts';
import { urlPrefix } from '../../../domain/names.ts';
import { RequestBody } from '../../../pipeline/body.ts';
import type { ApiRequest } from '../../../pipeline/request.ts';

export interface BatchEnvelope {
  body: Buffer | undefined;
  contentType: string | undefined;
  /** Origin of the `$batch` request (`http://host:port`), for parts with relative URLs. */
  origin: string;
  /** Server-relative URL of the site collection the batch was sent to (`/sites/dev`, `/`): parts may address any of its webs. */
  siteUrl: string;
  /** Server-relative URL of the web the batch was sent to, for parts relative to its `_api/`. */
  webUrl: string;
}

export interface BatchRunner {
  /** The pipeline after authentication, for one part. Never throws: errors come back as responses. */
  run(part: ApiRequest): Promise<PartResponse>;
  /** The error response for a part that never reached the pipeline, in the dialect of its own Accept. */
  fail(error: SpError, headers: Record<string, string | undefined>): PartResponse;
}

/** Parses the batch (400 for the whole batch when it cannot be read), then runs its parts one by one. */
export async function executeBatch(envelope: BatchEnvelope, runner: BatchRunner): Promise<PartResponse[]> {
  let parts;
  try {
    parts = parseBatch(envelope.body, envelope.contentType, { maxRequests: MAX_BATCH_REQUESTS });
  } catch (e) {
    if (e instanceof BatchParseError) throw errors.invalidBatch(e.message);
    throw e;
  }
  const responses: PartResponse[] = [];
  for (const part of parts) {
    if (part.kind === 'bad') {
      responses.push(runner.fail(errors.invalidBatch(part.message), part.headers));
      continue;
    }
    const request = toPartRequest(part, envelope);
    const refusal = checkTarget(request, envelope.siteUrl, part.target);
    responses.push(refusal ? runner.fail(refusal, part.headers) : await runner.run(request));
  }
  return responses;
}

/** Absolute (`https://host/sites/s/_api/web`), origin-relative (`/sites/s/_api/web`) or relative to the site's `_api/` (`web`). */
function toPartRequest(part: BatchRequest, envelope: BatchEnvelope): ApiRequest {
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(part.target);
  const base = urlPrefix(envelope.webUrl);
  const [origin, url] = absolute ? [absolute[0], part.target.slice(absolute[0].length) || '/']
    : part.target.startsWith('/') ? [envelope.origin, part.target]
    : [envelope.origin, `${base}/_api/${part.target}`];
  return { method: part.method, url, origin, headers: part.headers, body: RequestBody.of(part.body) };
}

/** A part must address the batch's own site collection (any of its webs), and may not be a `$batch` itself. */
function checkTarget(request: ApiRequest, siteUrl: string, target: string): SpError | undefined {
  const path = request.url.split('?')[0]!;
  const m = /^(.*?)\/_api(?:\/(.*))?$/i.exec(path);
  let sitePath: string | undefined;
  try {
    sitePath = m ? decodeURIComponent(m[1]!) || '/' : undefined;
  } catch {
    sitePath = undefined;
  }
  const normalise = (p: string) => p.replace(/\/+$/, '').toLowerCase() || '/';
  const site = normalise(siteUrl);
  const inSite = sitePath !== undefined && (site === '/' || normalise(sitePath) === site || normalise(sitePath).startsWith(`${site}/`));
  if (!inSite) return errors.batchOtherSite(target, siteUrl);
  if (/^\$batch\/?$/i.test(m![2] ?? '')) return errors.invalidBatch('A batch part may not be a $batch request itself.');
  return undefined;
}
