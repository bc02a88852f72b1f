// Helpers for the user profile and photo tests: the demo tenant's people, Basic credentials
// with a request digest (as a script that signs in with a password does), plain fetch calls.

import sharp from 'sharp';

/** Demo tenant users (demo/tenant.json): Alice owns /sites/dev, Bob is a member, Dave a visitor without a photo. */
export const DEMO: Record<'alice' | 'bob' | 'dave', DemoUser> = {
  alice: { upn: 'alice@contoso.onmicrosoft.com', email: 'alice@contoso.com', password: 'alice-demo-pass' },
  bob: { upn: 'bob@contoso.onmicrosoft.com', email: 'bob@contoso.com', password: 'bob-demo-pass' },
  dave: { upn: 'dave@contoso.onmicrosoft.com', email: 'dave@contoso.com', password: 'dave-demo-pass' },
};
export interface DemoUser { upn: string; email: string; password: string }

export const login = (upn: string) => `i:0#.f|membership|${upn}`;
export const basic = (user: DemoUser) => `Basic ${Buffer.from(`${user.upn}:${user.password}`).toString('base64')}`;

export interface Res { status: number; headers: Headers; text: string; json: any; bytes: Buffer }

export interface CallInit {
  as?: DemoUser;
  accept?: string;
  v4?: boolean;
  method?: string;
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

/** A request digest for the user on the site, from contextinfo (writes with Basic credentials need one). */
export async function digestFor(site: string, user: DemoUser): Promise<string | undefined> {
  const r = await fetch(`${site}/_api/contextinfo`, {
    method: 'POST', headers: { Accept: 'application/json;odata=nometadata', Authorization: basic(user) },
  });
  if (r.status !== 200) return undefined;
  return ((await r.json()) as { FormDigestValue?: string }).FormDigestValue;
}

/** fetch as a demo user (Alice by default); POSTs carry a fresh request digest for the site in the URL. */
export async function call(url: string, init: CallInit = {}): Promise<Res> {
  const user = init.as ?? DEMO.alice;
  const headers: Record<string, string> = { Authorization: basic(user), ...(init.headers ?? {}) };
  if (init.accept !== undefined) headers.Accept = init.accept;
  if (init.v4) headers['OData-Version'] = '4.0';
  const method = init.method ?? 'GET';
  if (method !== 'GET' && !('X-RequestDigest' in headers)) {
    const site = url.slice(0, url.search(/\/_api\//i));
    const digest = await digestFor(site, user);
    if (digest) headers['X-RequestDigest'] = digest;
  }
  let body: string | Uint8Array | undefined;
  if (init.body !== undefined) {
    headers['Content-Type'] = init.contentType ?? 'application/json;charset=utf-8';
    body = Buffer.isBuffer(init.body) ? new Uint8Array(init.body) : typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
  }
  const r = await fetch(url, { method, headers, body });
  const bytes = Buffer.from(await r.arrayBuffer());
  const text = bytes.toString('utf8');
  let json: any;
  try { json = text ? JSON.parse(text) : undefined; } catch { json = undefined; }
  return { status: r.status, headers: r.headers, text, json, bytes };
}

export const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A solid-colour picture made with sharp. */
export function picture(format: 'png' | 'jpeg', width: number, height: number, colour: { r: number; g: number; b: number }): Promise<Buffer> {
  const image = sharp({ create: { width, height, channels: 3, background: colour } });
  return (format === 'png' ? image.png() : image.jpeg()).toBuffer();
}

/** A 24-bit bottom-up Windows bitmap of one colour. */
export function bmp(width: number, height: number, colour: { r: number; g: number; b: number }): Buffer {
  const stride = Math.ceil((width * 3) / 4) * 4;
  const size = 54 + stride * height;
  const b = Buffer.alloc(size);
  b.write('BM', 0, 'latin1');
  b.writeUInt32LE(size, 2);
  b.writeUInt32LE(54, 10);
  b.writeUInt32LE(40, 14);
  b.writeInt32LE(width, 18);
  b.writeInt32LE(height, 22);
  b.writeUInt16LE(1, 26);
  b.writeUInt16LE(24, 28);
  b.writeUInt32LE(0, 30);
  b.writeUInt32LE(stride * height, 34);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = 54 + y * stride + x * 3;
      b[at] = colour.b; b[at + 1] = colour.g; b[at + 2] = colour.r;
    }
  }
  return b;
}

/** Width, height, format and the mean colour of an image. */
export async function describeImage(bytes: Buffer): Promise<{ width: number; height: number; format: string; mean: number[] }> {
  const meta = await sharp(bytes).metadata();
  const stats = await sharp(bytes).stats();
  return { width: meta.width!, height: meta.height!, format: meta.format!, mean: stats.channels.slice(0, 3).map((c) => Math.round(c.mean)) };
}
