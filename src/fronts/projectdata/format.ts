// Which format a ProjectData response is written in, as WCF Data Services V3 chooses it:
// `$format` wins over `Accept`; JSON verbose or light by the `odata=` parameter; Atom (XML)
// for `application/atom+xml`, `application/xml`, `*/*` or no Accept at all.

import type { JsonFormat } from './json.ts';
import { PdError } from './errors.ts';

export type PdFormat = JsonFormat | 'atom';

export const PD_CONTENT_TYPES = {
  verbose: 'application/json;odata=verbose;charset=utf-8',
  light: 'application/json;odata=minimalmetadata;streaming=true;charset=utf-8',
  'light-nometadata': 'application/json;odata=nometadata;streaming=true;charset=utf-8',
  feed: 'application/atom+xml;type=feed;charset=utf-8',
  entry: 'application/atom+xml;type=entry;charset=utf-8',
  xml: 'application/xml;charset=utf-8',
  service: 'application/atomsvc+xml;charset=utf-8',
  text: 'text/plain;charset=utf-8',
} as const;

/** One media range → a format, or undefined when it names nothing ProjectData writes. */
function formatOf(range: string): PdFormat | undefined {
  const [type = '', ...params] = range.split(';').map((p) => p.trim().toLowerCase());
  const odata = params.find((p) => p.startsWith('odata='))?.slice('odata='.length);
  if (type === 'application/json') {
    if (odata === 'verbose') return 'verbose';
    return odata === 'nometadata' ? 'light-nometadata' : 'light';
  }
  if (type === 'application/atom+xml' || type === 'application/xml' || type === 'text/xml' || type === 'application/*' || type === '*/*') return 'atom';
  return undefined;
}

/**
 * `$format=json` gives JSON light, as `Accept: application/json` does (Microsoft's ProjectData
 * best-practices page; the wire reference had guessed verbose), `atom` and `xml` Atom, and a
 * media type is read like an Accept range. Otherwise the Accept range
 * with the highest q that ProjectData can write; none of them → 415, as WCF DS answers.
 */
export function negotiateFormat(accept: string | undefined, format: string | undefined): PdFormat {
  if (format !== undefined) {
    const lower = format.trim().toLowerCase();
    if (lower === 'json') return 'light';
    if (lower === 'atom' || lower === 'xml') return 'atom';
    const chosen = formatOf(lower);
    if (!chosen) throw PdError.unsupportedMediaType();
    return chosen;
  }
  const ranges = (accept ?? '').split(',').map((r) => r.trim()).filter(Boolean)
    .map((range, index) => ({ range, index, q: Number(/;\s*q=([0-9.]+)/i.exec(range)?.[1] ?? 1) }))
    .filter((r) => r.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  if (ranges.length === 0) return 'atom';
  for (const { range } of ranges) {
    const chosen = formatOf(range);
    if (chosen) return chosen;
  }
  throw PdError.unsupportedMediaType();
}

/**
 * The format an error is written in before (or when) negotiation fails: `$format` when it names
 * one, else JSON if JSON was asked for at all.
 */
export function errorFormat(accept: string | undefined, format?: string): PdFormat {
  const lower = (accept ?? '').toLowerCase();
  if (format !== undefined) {
    try {
      return negotiateFormat(undefined, format);
    } catch {
      // an unusable $format: Accept decides
    }
  }
  if (lower.includes('odata=verbose')) return 'verbose';
  return lower.includes('application/json') ? 'light' : 'atom';
}
