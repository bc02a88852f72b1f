// User profiles (SharePoint's User Profile Service): the properties of a directory user as
// `SP.UserProfiles.PeopleManager` reports them, and profile photos. The photo is the
// directory's (bytes, content type, time of change); it is served by userphoto.aspx
// (src/server/userphoto.ts), and every site's User Information List row points there.

import { createHash } from 'node:crypto';
import { loadSharp } from './imaging.ts';
import type { Store, StoreReader } from '../store/store.ts';
import type { DirectoryUser, Photo } from '../store/directory.ts';
import { toStoredValue } from '../domain/values.ts';
import { findSiteUser, SYSTEM_ACCOUNT_ID, userInfoList, userLogin, userPhotoUrl } from './site-users.ts';

/** SetMyProfilePicture's limit: "Pictures in BMP, JPEG, and PNG formats of up to 5 million bytes" (reference §4.1). */
export const MAX_PICTURE_BYTES = 5_000_000;

const MEMBERSHIP_CLAIM = /^i:0#\.f\|membership\|(.+)$/i;

/** The UPN or email an account name carries: `i:0#.f|membership|<upn>`, or the bare UPN or email. */
export function accountAddress(accountName: string): string {
  const text = accountName.trim();
  return MEMBERSHIP_CLAIM.exec(text)?.[1] ?? text;
}

/** The directory user an account name (claims login, UPN or email, any case) names. */
export async function findProfileUser(store: StoreReader, accountName: string): Promise<DirectoryUser | undefined> {
  const address = accountAddress(accountName);
  return address ? store.directory.findUser(address) : undefined;
}

/** `https://host:port` of a request, from the site's API URL. */
export const originOf = (apiUrl: string) => new URL(apiUrl).origin;

/** The absolute userphoto.aspx URL of a user's photo on this server. */
export const absolutePhotoUrl = (origin: string, user: DirectoryUser, size: 'S' | 'M' | 'L' = 'L') => origin + userPhotoUrl(user, size);

/**
 * `Person.aspx?accountname=…` as SharePoint Online writes it: every character but letters and
 * digits percent-encoded with upper-case hex, `.` included (`i%3A0%23%2Ef%7Cmembership%7C…`).
 */
export function personUrl(origin: string, accountName: string): string {
  const encoded = [...Buffer.from(accountName, 'utf8')]
    .map((b) => (/[A-Za-z0-9]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`))
    .join('');
  return `${origin}/Person.aspx?accountname=${encoded}`;
}

/** Where the user's OneDrive would be: `<origin>/personal/<upn with . and @ as _>/` (it is not served). */
export const personalUrl = (origin: string, user: DirectoryUser) => `${origin}/personal/${user.upn.toLowerCase().replace(/[^a-z0-9]/g, '_')}/`;

/** Seconds since 0001-01-01 (.NET ticks / 10^7), as `SPS-PictureTimestamp` holds them. */
export const dotNetSeconds = (iso: string) => String(Math.floor(Date.parse(iso) / 1000) + 62_135_596_800);

/** A stable GUID derived from text (for UserProfile_GUID). */
function derivedGuid(text: string): string {
  const h = createHash('sha256').update(text).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** Properties spemu computes from the directory and the photo; SetSingleValueProfileProperty refuses these. */
export const READ_ONLY_PROPERTIES: ReadonlySet<string> = new Set([
  'userprofile_guid', 'sid', 'adguid', 'accountname', 'username', 'sps-userprincipalname', 'msonline-objectid',
  'pictureurl', 'sps-picturetimestamp', 'sps-pictureplaceholderstate', 'sps-pictureexchangesyncstate',
]);

/** A multi-valued property as SharePoint writes it in UserProfileProperties: values joined with `|`. */
const propertyText = (v: string | string[]) => (Array.isArray(v) ? v.join('|') : v);

/**
 * UserProfileProperties in SharePoint Online's order (reference §4.2): defaults from the
 * directory user and the photo, overridden by the user's profile (the tenant file's `profile`
 * and what SetSingleValueProfileProperty wrote); profile keys SharePoint does not list by
 * default follow at the end.
 */
export function profileProperties(user: DirectoryUser, photo: Photo | undefined, origin: string): Array<[string, string]> {
  const login = userLogin(user.upn);
  const computed: Array<[string, string]> = [
    ['UserProfile_GUID', derivedGuid(`profile\n${user.objectId}`)],
    ['SID', `i:0h.f|membership|${user.puid}@live.com`],
    ['ADGuid', 'System.Byte[]'],
    ['AccountName', login],
    ['FirstName', user.firstName ?? ''],
    ['LastName', user.lastName ?? ''],
    ['PreferredName', user.displayName],
    ['WorkPhone', ''],
    ['Department', user.department ?? ''],
    ['Title', user.jobTitle ?? ''],
    ['Manager', ''],
    ['AboutMe', ''],
    ['PictureURL', photo ? absolutePhotoUrl(origin, user) : ''],
    ['UserName', user.upn],
    ['SPS-SipAddress', user.upn],
    ['WorkEmail', user.email ?? ''],
    ['SPS-UserPrincipalName', user.upn],
    ['SPS-PictureTimestamp', photo ? dotNetSeconds(photo.updated) : ''],
    ['SPS-PicturePlaceholderState', photo ? '0' : '1'],
    ['SPS-PictureExchangeSyncState', '0'],
    ['msOnline-ObjectId', user.objectId],
  ];
  const profile = new Map(Object.entries(user.profile).map(([k, v]) => [k.toLowerCase(), { key: k, value: propertyText(v) }]));
  const out = computed.map(([k, v]): [string, string] => {
    const own = READ_ONLY_PROPERTIES.has(k.toLowerCase()) ? undefined : profile.get(k.toLowerCase());
    return [k, own ? own.value : v];
  });
  const known = new Set(computed.map(([k]) => k.toLowerCase()));
  for (const [lower, { key, value }] of profile) if (!known.has(lower)) out.push([key, value]);
  return out;
}

/** The image type the bytes are, from their magic numbers; undefined for anything else. */
export function imageType(bytes: Buffer): 'image/png' | 'image/jpeg' | 'image/bmp' | undefined {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 26 && bytes[0] === 0x42 && bytes[1] === 0x4d) return 'image/bmp';
  return undefined;
}

/**
 * An uncompressed Windows bitmap (24 or 32 bits per pixel, bottom-up or top-down) as raw RGB
 * pixels. libvips (sharp) has no BMP reader; undefined for any other kind of BMP.
 */
export function decodeBmp(bytes: Buffer): { width: number; height: number; pixels: Buffer } | undefined {
  if (bytes.length < 54) return undefined;
  const dataOffset = bytes.readUInt32LE(10);
  const headerSize = bytes.readUInt32LE(14);
  if (headerSize < 40) return undefined;
  const width = bytes.readInt32LE(18);
  const rawHeight = bytes.readInt32LE(22);
  const bpp = bytes.readUInt16LE(28);
  const compression = bytes.readUInt32LE(30);
  const height = Math.abs(rawHeight);
  if (width <= 0 || height === 0 || width > 10_000 || height > 10_000) return undefined;
  if ((bpp !== 24 && bpp !== 32) || (compression !== 0 && !(compression === 3 && bpp === 32))) return undefined;
  const bytesPerPixel = bpp / 8;
  const stride = Math.ceil((width * bytesPerPixel) / 4) * 4;
  if (dataOffset + stride * height > bytes.length) return undefined;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    const row = dataOffset + (rawHeight > 0 ? height - 1 - y : y) * stride;
    for (let x = 0; x < width; x++) {
      const src = row + x * bytesPerPixel;
      const dst = (y * width + x) * 3;
      pixels[dst] = bytes[src + 2]!; // stored as B, G, R
      pixels[dst + 1] = bytes[src + 1]!;
      pixels[dst + 2] = bytes[src]!;
    }
  }
  return { width, height, pixels };
}

/**
 * Checks an uploaded picture and gives what is stored: PNG and JPEG as sent (once sharp has
 * read them), BMP converted to PNG. Undefined when the bytes are not a readable picture.
 */
export async function storablePicture(bytes: Buffer): Promise<{ contentType: string; bytes: Buffer } | undefined> {
  const type = imageType(bytes);
  if (!type) return undefined;
  const sharp = await loadSharp();
  if (type === 'image/bmp') {
    const bmp = decodeBmp(bytes);
    if (!bmp) return undefined;
    const png = await sharp(bmp.pixels, { raw: { width: bmp.width, height: bmp.height, channels: 3 } }).png().toBuffer();
    return { contentType: 'image/png', bytes: png };
  }
  try {
    const meta = await sharp(bytes).metadata();
    const expected = type === 'image/png' ? 'png' : 'jpeg';
    if (meta.format !== expected || !meta.width || !meta.height) return undefined;
    // Decode fully: a truncated file reads its header but fails here.
    await sharp(bytes).resize(8, 8).toBuffer();
  } catch {
    return undefined;
  }
  return { contentType: type, bytes };
}

/**
 * Stores a user's new photo and points the user's row in every site's User Information List
 * at it (setting `Picture` where it was empty), in one transaction. The time of change always
 * moves forward, so the photo's ETag and SPS-PictureTimestamp change on every upload.
 */
export async function setUserPhoto(store: Store, user: DirectoryUser, picture: { contentType: string; bytes: Buffer }, now: string): Promise<Photo> {
  return store.transaction(async (tx) => {
    const previous = await tx.directory.getPhoto(user.upn);
    let updated = now;
    if (previous && Date.parse(previous.updated) >= Date.parse(now)) {
      updated = new Date(Date.parse(previous.updated) + 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    }
    const photo: Photo = { contentType: picture.contentType, bytes: picture.bytes, updated };
    await tx.directory.setPhoto(user.upn, photo);
    const url = userPhotoUrl(user);
    for (const site of await tx.sites.all()) {
      const row = await findSiteUser(tx, site, userLogin(user.upn));
      if (!row) continue;
      const { list, fields } = await userInfoList(tx, site);
      const field = fields.find((f) => f.internalName === 'Picture');
      if (!field) continue;
      const value = toStoredValue(field, { Url: url, Description: url });
      if (row.values.Picture === value) continue;
      await tx.items.update(list, fields, row.id, { values: { Picture: value }, actorId: SYSTEM_ACCOUNT_ID, now: updated }, null);
    }
    return photo;
  });
}
