// Request digests (X-RequestDigest): `0x` + 128 upper-case hex digits + `,dd Mon yyyy
// HH:mm:ss -0000`, as SharePoint writes them (reference §6). The hex is an HMAC-SHA512 with
// the workspace secret over the user, the site and the issue time written after the comma,
// so a digest is checked without any state: any instance sharing the secret accepts it.

import { createHmac, timingSafeEqual } from 'node:crypto';

/** SharePoint's default lifetime: 30 minutes. */
export const DEFAULT_DIGEST_TIMEOUT_SECONDS = 1800;
/** A digest issued this far in the future (another instance's clock) still counts. */
const CLOCK_SKEW_SECONDS = 300;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const pad = (n: number) => String(n).padStart(2, '0');

function formatDigestTime(seconds: number): string {
  const d = new Date(seconds * 1000);
  return `${pad(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} -0000`;
}

const mac = (secret: Uint8Array, loginName: string, siteId: string, issuedSeconds: number) =>
  createHmac('sha512', secret).update(`spemu-digest\n${loginName.toLowerCase()}\n${siteId.toLowerCase()}\n${issuedSeconds}`).digest();

export function issueDigest(secret: Uint8Array, loginName: string, siteId: string, now: Date): string {
  const issued = Math.floor(now.getTime() / 1000);
  return `0x${mac(secret, loginName, siteId, issued).toString('hex').toUpperCase()},${formatDigestTime(issued)}`;
}

const DIGEST = /^0x([0-9A-F]{128}),(\d{2}) ([A-Z][a-z]{2}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) -0000$/i;

export type DigestCheck = 'valid' | 'invalid' | 'expired';

/** Whether `value` is a digest this user got for this site, and still within its lifetime. */
export function checkDigest(secret: Uint8Array, value: string, loginName: string, siteId: string, now: Date, timeoutSeconds: number): DigestCheck {
  const m = DIGEST.exec(value.trim());
  if (!m) return 'invalid';
  const month = MONTHS.findIndex((name) => name.toLowerCase() === m[3]!.toLowerCase());
  if (month < 0) return 'invalid';
  const issuedMs = Date.UTC(Number(m[4]), month, Number(m[2]), Number(m[5]), Number(m[6]), Number(m[7]));
  if (Number.isNaN(issuedMs) || formatDigestTime(issuedMs / 1000).toLowerCase() !== value.trim().slice(value.trim().indexOf(',') + 1).toLowerCase()) return 'invalid';
  const sent = Buffer.from(m[1]!, 'hex');
  const expected = mac(secret, loginName, siteId, issuedMs / 1000);
  if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) return 'invalid';
  const age = (now.getTime() - issuedMs) / 1000;
  if (age < -CLOCK_SKEW_SECONDS) return 'invalid';
  return age > timeoutSeconds ? 'expired' : 'valid';
}
