// A request over HTTP or HTTPS with node's own client, for what fetch cannot be told in Node
// 20 without undici: the CA to trust, the TLS server name, a Host header of our choosing, and a
// resolver that maps a tenant's host name to 127.0.0.1 as a hosts file would.

import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';

export interface TlsRequestOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** PEM of the certificate authorities to trust (instead of the system's). */
  ca?: string | Buffer;
  /** Host names resolved to 127.0.0.1, as a hosts file entry would. */
  resolveToLoopback?: string[];
}

export interface TlsResponse { status: number; headers: IncomingHttpHeaders; text: string; json<T = any>(): T }

export function loopbackLookup(names: string[]): LookupFunction {
  return ((hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (!names.includes(hostname)) { callback(Object.assign(new Error(`not mapped: ${hostname}`), { code: 'ENOTFOUND' })); return; }
    if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
  }) as LookupFunction;
}

export function tlsRequest(url: string, options: TlsRequestOptions = {}): Promise<TlsResponse> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(target, {
      method: options.method ?? 'GET',
      headers: { Accept: 'application/json;odata=nometadata', ...options.headers },
      // A fresh connection each time: no agent reuses a socket verified against another CA.
      agent: false,
      ...(options.ca ? { ca: options.ca } : {}),
      ...(options.resolveToLoopback ? { lookup: loopbackLookup(options.resolveToLoopback) } : {}),
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode!, headers: res.headers, text, json: () => JSON.parse(text) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}
