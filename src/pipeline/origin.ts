// The scheme and host a client used to reach spemu: what every absolute URL in a response
// (odata.id, __next, PictureUrl, SiteFullUrl, EncodedAbsUrl…) starts with. Directly, that is
// the socket (TLS or not) and the Host header. Behind a reverse proxy or TLS terminator, the
// proxy says so in `Forwarded` (RFC 7239) or `X-Forwarded-Proto`/`X-Forwarded-Host` — believed
// only from the peers `--trust-proxy` names, since anyone else could send them to make spemu
// write links to a host of their choosing.

import { BlockList, isIP } from 'node:net';
import type { FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** `https://contoso.sharepoint.com:8443`: the scheme and host the client used (set for every request by server/app.ts). */
    publicOrigin: string;
  }
}

/** Whether a connecting address is a proxy whose forwarding headers are believed. */
export type PeerTrust = (address: string | undefined) => boolean;

/** Names proxy-addr (fastify's) also accepts for common ranges. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/**
 * `--trust-proxy` entries (addresses, CIDR ranges, or loopback/linklocal/uniquelocal) as a
 * test of a peer's address; throws an Error naming the first entry it cannot read.
 */
export function peerTrust(entries: readonly string[]): PeerTrust {
  const list = new BlockList();
  for (const entry of entries.flatMap((e) => NAMED_RANGES[e.toLowerCase()] ?? [e])) {
    const [address = '', prefix, extra] = entry.split('/');
    const family = isIP(address);
    const bits = prefix === undefined ? undefined : /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
    const max = family === 6 ? 128 : 32;
    if (family === 0 || extra !== undefined || (bits !== undefined && !(bits >= 0 && bits <= max))) {
      throw new Error(`'${entry}' is not an IP address, a CIDR range (10.0.0.0/8) or one of loopback, linklocal, uniquelocal`);
    }
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, bits, type);
  }
  return (address) => {
    if (!address) return false;
    // A dual-stack socket reports IPv4 peers as ::ffff:a.b.c.d.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    if (mapped && list.check(mapped, 'ipv4')) return true;
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/** The last of a comma-separated header's values: the one the nearest (trusted) proxy added. */
const lastEntry = (value: string | string[] | undefined): string | undefined => {
  const joined = Array.isArray(value) ? value.join(',') : value;
  const last = joined?.split(',').pop()?.trim();
  return last || undefined;
};

/** `proto` and `host` of a `Forwarded` element (`for=…;proto=https;host="a.b"`). */
function forwardedPairs(element: string): { proto?: string; host?: string } {
  const out: { proto?: string; host?: string } = {};
  for (const pair of element.split(';')) {
    const at = pair.indexOf('=');
    if (at < 0) continue;
    const name = pair.slice(0, at).trim().toLowerCase();
    const value = pair.slice(at + 1).trim().replace(/^"(.*)"$/, '$1');
    if (name === 'proto' || name === 'host') out[name] = value;
  }
  return out;
}

/** A host[:port] as a URL may carry it; anything else (spaces, slashes, @) is not believed. */
const HOST_SYNTAX = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i;

/**
 * The origin the client used. Forwarding headers count only when the immediate peer is
 * trusted; of several proxies' values, the last (the trusted one's own) is taken, as fastify
 * does for `X-Forwarded-*`. `Forwarded` is read first, `X-Forwarded-*` fill what it lacks.
 */
export function requestOrigin(req: FastifyRequest, trusted: PeerTrust | undefined): string {
  const direct = { proto: (req.raw.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http', host: req.headers.host ?? 'localhost' };
  if (!trusted?.(req.raw.socket.remoteAddress)) return `${direct.proto}://${direct.host}`;
  const forwarded = forwardedPairs(lastEntry(req.headers.forwarded) ?? '');
  const proto = (forwarded.proto ?? lastEntry(req.headers['x-forwarded-proto']))?.toLowerCase();
  const host = forwarded.host ?? lastEntry(req.headers['x-forwarded-host']);
  return `${proto === 'https' || proto === 'http' ? proto : direct.proto}://${host && HOST_SYNTAX.test(host) ? host : direct.host}`;
}

/** The host name of an origin, without port or IPv6 brackets, in lower case: what host checks compare. */
export function hostNameOf(origin: string): string {
  const host = origin.replace(/^[a-z]+:\/\//i, '');
  const name = host.startsWith('[') ? host.slice(1, host.indexOf(']')) : host.replace(/:\d*$/, '');
  return name.toLowerCase();
}
