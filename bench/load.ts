// One timed load run with autocannon's programmatic API, reduced to the figures we report.

import autocannon, { type Request, type RequestParams } from 'autocannon';

export interface LoadOptions {
  /** The server's base URL; several share the connections (instances behind a load balancer). */
  url: string | string[];
  /** Requested every time unless `nextPath` is given. */
  path?: string;
  connections: number;
  durationSeconds: number;
  headers?: Record<string, string>;
  /** Varies each request (e.g. a random filter value); otherwise `url` is requested every time. */
  nextPath?: () => string;
  /** Varies method, path and body (a mix of reads and writes); beats `nextPath`. */
  nextRequest?: () => RequestParams;
}

export interface LoadFigures {
  requestsPerSecond: number;
  /** Requests completed in the run. */
  requests: number;
  p50Ms: number;
  p99Ms: number;
  /** Responses other than 2xx, errors and timeouts: a valid run has none. */
  failures: number;
}

export async function runLoad(options: LoadOptions): Promise<LoadFigures> {
  const { nextPath, nextRequest } = options;
  const requests: Request[] | undefined = nextRequest ? [{ setupRequest: (request) => ({ ...request, ...nextRequest() }) }]
    : nextPath ? [{ setupRequest: (request) => ({ ...request, path: nextPath() }) }] : undefined;
  const urls = (Array.isArray(options.url) ? options.url : [options.url]).map((u) => `${u}${options.path ?? '/'}`);
  const result = await autocannon({
    url: urls.length === 1 ? urls[0]! : urls,
    connections: options.connections,
    duration: options.durationSeconds,
    timeout: 10,
    headers: options.headers ?? {},
    ...(requests ? { requests } : {}),
  });
  const failures = result.non2xx + result.errors + result.timeouts;
  // A run that errors measures the error path, not the endpoint: refuse to report it.
  if (failures > 0) {
    throw new Error(`load on ${options.url}${options.path ?? ''}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return {
    requestsPerSecond: result.requests.total / result.duration,
    requests: result.requests.total,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    failures,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
