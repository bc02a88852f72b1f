// `/_layouts/15/userphoto.aspx?size=S|M|L&accountname=<email, UPN or claims login>` (also
// `UserName=`, parameter names in any case, under any site's path): the user's profile photo
// resized to a 48, 72 or 240 pixel square, or a generated placeholder when the user has no
// photo. An unknown account gets the same kind of placeholder, drawn from the name asked for,
// so the answer never tells whether an account exists. Reference §4.6.

import { callerKey } from '../../pipeline/authenticate.ts';
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { loadSharp } from '../../identity/imaging.ts';
import { errors, isReportable, toSpError } from '../../wire/errors.ts';
import { accountAddress, findProfileUser } from '../../identity/profiles.ts';
import { CONTENT_TYPES, errorDialect } from '../../wire/dialect.ts';
import { serializerFor } from '../../wire/serializer.ts';
import type { FrontDeps } from '../../pipeline/deps.ts';
import type { SitePathFront } from '../../pipeline/site-paths.ts';
import { newRequestId, SHAREPOINT_BUILD } from '../../wire/headers.ts';
import { isNotModified } from '../../services/conditions.ts';
import { dropConnection, sendResponse } from '../../pipeline/send.ts';

const PATH = /\/_layouts\/15\/userphoto\.aspx$/i;

/** Pixel sizes of `size=S|M|L` (reference §4.6); S is the default. */
export const PHOTO_SIZES = { S: 48, M: 72, L: 240 } as const;
type SizeName = keyof typeof PHOTO_SIZES;

/** Browsers revalidate every time (cheap: ETag → 304), so a new photo shows at once. */
const CACHE_CONTROL = 'private, no-cache';

interface Rendered { contentType: string; bytes: Buffer; etag: string }

/** Resized photos and placeholders, least recently used dropped first. Keys carry the photo's time of change. */
class RenderCache {
  private readonly entries = new Map<string, Rendered>();
  constructor(private readonly capacity: number) {}

  async get(key: string, render: () => Promise<Rendered>): Promise<Rendered> {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit;
    }
    const value = await render();
    this.entries.set(key, value);
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    return value;
  }
}

const PALETTE = ['#0078d4', '#8764b8', '#038387', '#ca5010', '#498205', '#c239b3', '#986f0b', '#4f6bed', '#b146c2', '#005b70', '#a4262c', '#5c2e91'];

/** Up to two initials from the name asked for: `john.doe@contoso.com` → `JD`. */
export function initialsOf(name: string): string {
  const local = accountAddress(name).split('@')[0] ?? '';
  const parts = local.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  const initials = parts.slice(0, 2).map((p) => [...p][0]!.toUpperCase()).join('');
  return initials || '?';
}

const colourOf = (name: string) => PALETTE[createHash('sha256').update(accountAddress(name).toLowerCase()).digest()[0]! % PALETTE.length]!;

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

async function placeholder(name: string, px: number): Promise<Rendered> {
  const initials = initialsOf(name);
  const colour = colourOf(name);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${px}" height="${px}" viewBox="0 0 240 240">`
    + `<rect width="240" height="240" fill="${colour}"/>`
    + `<text x="120" y="120" dy="0.36em" text-anchor="middle" font-family="DejaVu Sans, Segoe UI, Arial, Helvetica, sans-serif" font-size="${initials.length > 1 ? 96 : 120}" fill="#ffffff">${xml(initials)}</text></svg>`;
  const sharp = await loadSharp();
  const bytes = await sharp(Buffer.from(svg)).png().toBuffer();
  return { contentType: 'image/png', bytes, etag: `"placeholder-${createHash('sha256').update(`${initials}\n${colour}`).digest('hex').slice(0, 16)}-${px}"` };
}

async function resized(photo: { contentType: string; bytes: Buffer }, px: number, etag: string): Promise<Rendered> {
  const sharp = await loadSharp();
  const image = sharp(photo.bytes).rotate().resize(px, px, { fit: 'cover', position: 'attention' });
  // JPEG stays JPEG; PNG (and whatever else a tenant file brought: GIF, WebP) becomes PNG.
  const bytes = photo.contentType === 'image/jpeg' ? await image.jpeg({ quality: 90 }).toBuffer() : await image.png().toBuffer();
  return { contentType: photo.contentType === 'image/jpeg' ? 'image/jpeg' : 'image/png', bytes, etag };
}

/** The query parameter `name` in any case (`AccountName`, `accountname`, …). */
function parameter(query: URLSearchParams, ...names: string[]): string | undefined {
  for (const [k, v] of query) if (names.includes(k.toLowerCase()) && v.trim() !== '') return v.trim();
  return undefined;
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/** The photo path's front: GET/HEAD of `…/_layouts/15/userphoto.aspx` below any site, in any case. */
export function userPhotoFront(options: FrontDeps): SitePathFront {
  const cache = new RenderCache(512);
  return {
    name: 'layouts',
    claims: (pathname, method) => (method === 'GET' || method === 'HEAD') && PATH.test(pathname),
    handle: (req, reply) => servePhoto(req, reply, options, cache),
  };
}

function flatHeaders(req: FastifyRequest): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, first(value)]));
}

async function servePhoto(req: FastifyRequest, reply: FastifyReply, options: FrontDeps, cache: RenderCache): Promise<void> {
  const url = new URL(req.url, 'http://localhost');
  const requestId = newRequestId();
  const headers = {
    SPRequestGuid: requestId, 'request-id': requestId, 'X-Content-Type-Options': 'nosniff',
    MicrosoftSharePointTeamServices: `16.0.0.${SHAREPOINT_BUILD}`,
  };
  try {
    // The same authentication as the /_api pipeline (401 with SharePoint's challenge), without a
    // site role: any user who can sign in sees photos, whichever site's path they come through.
    const identity = await options.authenticator.identify({ authorization: first(req.headers.authorization), cookie: first(req.headers.cookie), origin: req.publicOrigin });
    // The throttling-and-faults stage (a photo costs 1 resource unit, as a download).
    const admission = options.gate?.active
      ? await options.gate.admit({ method: req.method, url: req.url, headers: flatHeaders(req), upn: callerKey(identity), inBatch: false }, req.log) : undefined;
    if (admission?.dropNow) return dropConnection(req, reply);
    if (admission?.refusal) throw admission.refusal;
    Object.assign(headers, admission?.headers);

    const sizeText = (parameter(url.searchParams, 'size') ?? 'S').toUpperCase();
    const size: SizeName = sizeText in PHOTO_SIZES ? (sizeText as SizeName) : 'S';
    const px = PHOTO_SIZES[size];
    const name = parameter(url.searchParams, 'accountname', 'username') ?? '';
    const user = name ? await findProfileUser(options.store, name) : undefined;
    const photo = user ? await options.store.directory.getPhoto(user.upn) : undefined;
    let rendered: Rendered;
    if (user && photo) {
      const version = `${Date.parse(photo.updated)}-${photo.bytes.length}`;
      const etag = `"${version}-${size}"`;
      try {
        rendered = await cache.get(`photo|${user.upn.toLowerCase()}|${size}|${version}`, () => resized(photo, px, etag));
      } catch (e) {
        // A stored picture sharp cannot read: the placeholder, and a line in the log.
        req.log.warn({ err: e, requestId, upn: user.upn }, 'profile photo could not be resized');
        rendered = await cache.get(`placeholder|${name.toLowerCase()}|${size}`, () => placeholder(name, px));
      }
    } else {
      rendered = await cache.get(`placeholder|${accountAddress(name).toLowerCase()}|${size}`, () => placeholder(name, px));
    }
    reply.headers({ ...headers, ETag: rendered.etag, 'Cache-Control': CACHE_CONTROL });
    if (isNotModified({ ifNoneMatch: first(req.headers['if-none-match']) }, rendered.etag)) {
      reply.code(304).send();
    } else if (admission?.delivery) {
      // A fault rule drops or cuts this answer (pipeline/send.ts does both).
      sendResponse(req, reply, { status: 200, headers: { ...headers, ETag: rendered.etag, 'Cache-Control': CACHE_CONTROL, 'Content-Type': rendered.contentType }, body: rendered.bytes, requestId, delivery: admission.delivery }, process.hrtime.bigint());
    } else {
      reply.code(200).header('Content-Type', rendered.contentType).header('Content-Length', String(rendered.bytes.length)).send(rendered.bytes);
    }
  } catch (e) {
    const err = isReportable(e) ? toSpError(e) : errors.internal(requestId);
    if (!isReportable(e)) req.log.error({ err: e, requestId, url: req.url }, 'unhandled error');
    const dialect = errorDialect(first(req.headers.accept), first(req.headers['odata-version']));
    reply.code(err.status).headers({ ...headers, ...err.headers, 'Content-Type': CONTENT_TYPES[dialect] }).send(serializerFor(dialect).error(err));
  }
}
