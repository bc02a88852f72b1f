// HTTP byte ranges (RFC 9110 §14): the one range of a `Range: bytes=…` header a download
// answers with 206 and Content-Range. Several ranges, or a header that is not a byte range,
// are answered with the whole content (the RFC lets a server ignore Range); a range wholly past
// the end is 416.

export interface ByteRange {
  /** First byte, from 0. */
  start: number;
  /** Last byte, inclusive. */
  end: number;
}

/** The range `header` asks of `size` bytes: a range, 'unsatisfiable' (416), or undefined (send it all). */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | undefined {
  if (header === undefined) return undefined;
  const m = /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header);
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    // bytes=-N: the last N bytes.
    const suffix = Number(m[2]);
    if (suffix === 0) return 'unsatisfiable';
    return size === 0 ? 'unsatisfiable' : { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return undefined;
  return { start, end };
}

// Content-Range of a 206 ("bytes 0-99/1234"), or of a 416 with no range ("bytes", a star, "/1234").
export const contentRange = (range: ByteRange | undefined, size: number): string =>
  range ? `bytes ${range.start}-${range.end}/${size}` : `bytes */${size}`;
