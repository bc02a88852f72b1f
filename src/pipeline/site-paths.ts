// SharePoint addresses most protocols below any site's path, in any letter case:
// `/sites/dev/_api/…`, `/teams/x/_layouts/15/userphoto.aspx`, `/_vti_bin/…`. fastify's router
// cannot match a case-insensitive segment after a site path of any depth, so the fronts that
// live there claim requests through this table instead of routes: the server's one catch-all
// route asks each front in the order they registered, and the last one (SharePoint REST)
// takes whatever nobody else claimed.

import type { FastifyReply, FastifyRequest } from 'fastify';

export interface SitePathFront {
  /** For logs and errors: `rest`, `projectdata`, `layouts`, … */
  name: string;
  /** Whether this front serves the request (path decoded only as far as the front needs). */
  claims(pathname: string, method: string): boolean;
  handle(req: FastifyRequest, reply: FastifyReply): Promise<void>;
}

export class SitePathRouter {
  private readonly fronts: SitePathFront[] = [];
  private fallback: SitePathFront | undefined;

  /** Adds a front; `fallback` makes it the one that takes every request no other front claims. */
  add(front: SitePathFront, options: { fallback?: boolean } = {}): void {
    if (options.fallback) {
      if (this.fallback) throw new Error(`two fallback fronts: ${this.fallback.name} and ${front.name}`);
      this.fallback = front;
    } else {
      this.fronts.push(front);
    }
  }

  dispatch(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    const pathname = req.url.split('?', 1)[0]!;
    const front = this.fronts.find((f) => f.claims(pathname, req.method)) ?? this.fallback;
    if (!front) throw new Error('no front serves this request and none is the fallback');
    return front.handle(req, reply);
  }
}
