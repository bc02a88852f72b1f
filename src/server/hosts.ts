// Host-named tenants: a tenant file that names its hosts (`tenant.hosts`) is answered only
// under those names, as SharePoint answers only the host names its IIS bindings (or, online,
// its front door) know. The loopback names and the address spemu listens on stay allowed, so
// `curl http://127.0.0.1:8080/…`, health checks and tests keep working without a hosts file.

import type { FastifyReply, FastifyRequest } from 'fastify';
import { hostNameOf } from '../pipeline/origin.ts';

/** Always answered, whatever the tenant names. */
export const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '::1'];

/** Addresses that mean "every interface": not a name a client can send. */
const WILDCARDS = new Set(['0.0.0.0', '::', '']);

/**
 * The host names requests may carry, or undefined when the tenant names none (every Host is
 * answered, as before host-named tenants). `bindHost` is `--host`.
 */
export function allowedHostNames(tenantHosts: readonly string[], bindHost: string): Set<string> | undefined {
  if (tenantHosts.length === 0) return undefined;
  const bound = boundName(bindHost);
  return new Set([...tenantHosts, ...LOOPBACK_NAMES, ...(bound ? [bound] : [])].map((n) => n.toLowerCase()));
}

/** `--host` as a name clients can address (a certificate covers it too); undefined for 0.0.0.0 and ::. */
export function boundName(bindHost: string): string | undefined {
  const bound = bindHost.replace(/^\[(.*)\]$/, '$1');
  return WILDCARDS.has(bound) ? undefined : bound;
}

/**
 * HTTP.sys's answer when no binding takes the Host (IIS, and so SharePoint Server, in front of
 * every site): 400 with this exact page. Sent before any front runs, so no SharePoint headers.
 */
const INVALID_HOSTNAME_PAGE = '<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01//EN""http://www.w3.org/TR/html4/strict.dtd">\r\n'
  + '<HTML><HEAD><TITLE>Bad Request</TITLE>\r\n'
  + '<META HTTP-EQUIV="Content-Type" Content="text/html; charset=us-ascii"></HEAD>\r\n'
  + '<BODY><h2>Bad Request - Invalid Hostname</h2>\r\n'
  + '<hr><p>HTTP Error 400. The request hostname is invalid.</p>\r\n'
  + '</BODY></HTML>\r\n';

/**
 * Whether the request may go on; if not, the 400 has been sent. The host checked is the one
 * the client used (`publicOrigin`: a trusted proxy's forwarded host counts). spemu's own
 * health check answers any host: probes often address a container by its IP.
 */
export function checkHost(req: FastifyRequest, reply: FastifyReply, allowed: Set<string> | undefined): boolean {
  if (!allowed || req.url.startsWith('/_spemu/health')) return true;
  if (req.headers.host !== undefined && allowed.has(hostNameOf(req.publicOrigin))) return true;
  reply.code(400).header('Content-Type', 'text/html; charset=us-ascii').header('Connection', 'close').send(INVALID_HOSTNAME_PAGE);
  return false;
}
