// SP.UserProfiles.PeopleManager: profile properties (GetPropertiesFor, GetMyProperties,
// GetUserProfilePropertyFor), writing them (SetSingleValueProfileProperty,
// SetMultiValuedProfileProperty) and the caller's photo (SetMyProfilePicture). Reference §4.

import { randomUUID } from 'node:crypto';
import { argumentLiteral, type Argument } from '../../../../odata/path.ts';
import { SpError } from '../../../../wire/errors.ts';
import type { DirectoryUser } from '../../../../store/directory.ts';
import type { Entity, Value } from '../../../../wire/values.ts';
import { hasPermission } from '../../../../identity/permissions.ts';
import { userLogin } from '../../../../identity/site-users.ts';
import {
  absolutePhotoUrl, findProfileUser, MAX_PICTURE_BYTES, originOf, personalUrl, personUrl, profileProperties,
  READ_ONLY_PROPERTIES, storablePicture,
} from '../../../../identity/profiles.ts';
import type { ApiContext } from '../context.ts';
import type { ResourceType } from '../resource.ts';
import { ok, type Outcome, voidResult } from '../outcome.ts';
import { singleEntity } from './shared.ts';

const PERSON_PROPERTIES = 'SP.UserProfiles.PersonProperties';
const CLIENT_QUERY = 'Microsoft.SharePoint.Client.InvalidClientQueryException';

/** Errors of the user profile service (spemu's choices where the reference is silent; docs/compatibility.md). */
const profileErrors = {
  missingParameter: (name: string, method: string) =>
    new SpError(400, `-1, ${CLIENT_QUERY}`, `The parameter ${name} is missing or is not a string in method ${method}.`),
  userNotFound: () =>
    new SpError(500, '-1, Microsoft.Office.Server.UserProfiles.UserNotFoundException',
      'User Profile Error 1000: User Not Found: Could not load profile data from the database.'),
  readOnlyProperty: (name: string) =>
    new SpError(400, '-2147024809, System.ArgumentException', `Property '${name}' cannot be changed: spemu computes it from the directory and the photo.`),
  invalidPicture: () =>
    new SpError(400, '-2147024809, System.ArgumentException',
      'The picture is not valid. Pictures in BMP, JPEG, and PNG formats of up to 5 million bytes are supported.'),
  pictureTooLarge: (size: number) =>
    new SpError(400, '-2147024809, System.ArgumentException',
      `The picture is ${size} bytes. Pictures in BMP, JPEG, and PNG formats of up to 5 million bytes are supported.`),
  noProfile: () =>
    new SpError(403, '-2147024891, System.UnauthorizedAccessException',
      'Access denied. You do not have permission to perform this action or access this resource.'),
};

/** A string parameter by name (any case) or, when all arguments are positional, by position. */
function stringParameter(args: Argument[], position: number, name: string, method: string): string {
  const arg = args.every((a) => a.name === undefined)
    ? args[position]
    : args.find((a) => a.name !== undefined && a.name.toLowerCase() === name.toLowerCase());
  const literal = argumentLiteral(arg?.value);
  if (!literal || literal.type !== 'string') throw profileErrors.missingParameter(name, method);
  return literal.value;
}

/** A body property by name, ignoring case (clients send `accountName`, `AccountName`, …). */
function bodyProperty(ctx: ApiContext, name: string): unknown {
  const body = ctx.body;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const entry = Object.entries(body as Record<string, unknown>).find(([k]) => k.toLowerCase() === name.toLowerCase());
  return entry?.[1];
}

function bodyString(ctx: ApiContext, name: string, method: string): string {
  const v = bodyProperty(ctx, name);
  if (typeof v !== 'string') throw profileErrors.missingParameter(name, method);
  return v;
}

const strings = (items: string[]): Value => ({ kind: 'collection', elementType: 'Edm.String', items, untyped: true });

/** SP.UserProfiles.PersonProperties for a user (reference §4.2). */
async function personProperties(user: DirectoryUser, ctx: ApiContext): Promise<Entity> {
  const origin = originOf(ctx.apiUrl);
  const photo = await ctx.store.directory.getPhoto(user.upn);
  const properties = profileProperties(user, photo, origin);
  const property = (key: string) => properties.find(([k]) => k === key)?.[1] ?? '';
  const login = userLogin(user.upn);
  const editLink = `${PERSON_PROPERTIES}${randomUUID()}`;
  return {
    type: PERSON_PROPERTIES, id: `${ctx.apiUrl}${editLink}`, editLink,
    props: [
      ['AccountName', login],
      ['DirectReports', strings([])],
      ['DisplayName', user.displayName],
      ['Email', user.email],
      ['ExtendedManagers', strings([])],
      ['ExtendedReports', strings([login])],
      ['IsFollowed', false],
      ['LatestPost', null],
      ['Peers', strings([])],
      ['PersonalSiteHostUrl', `${origin}/`],
      ['PersonalUrl', personalUrl(origin, user)],
      ['PictureUrl', photo ? absolutePhotoUrl(origin, user) : null],
      ['Title', property('Title') || null],
      ['UserProfileProperties', {
        kind: 'collection', elementType: 'SP.KeyValue',
        items: properties.map(([k, v]) => ({ kind: 'complex', type: 'SP.KeyValue', props: [['Key', k], ['Value', v], ['ValueType', 'Edm.String']] })),
      }],
      ['UserUrl', personUrl(origin, login)],
    ],
  };
}


async function propertiesOutcome(user: DirectoryUser | undefined, methodName: string, ctx: ApiContext): Promise<Outcome> {
  if (!user) return voidResult(methodName);
  return singleEntity(await personProperties(user, ctx), PERSON_PROPERTIES, ctx);
}

/** Who may write `user`'s profile: the user, or an owner of the site the request addresses. */
function requireProfileWriter(user: DirectoryUser, ctx: ApiContext): void {
  const own = ctx.principal.upn !== null && ctx.principal.upn.toLowerCase() === user.upn.toLowerCase();
  if (!own && !hasPermission(ctx.principal, 'ManageWeb')) throw profileErrors.noProfile();
}

/** The name a property is stored under: the spelling already in use (any case), else as sent. */
function canonicalName(user: DirectoryUser, name: string, ctx: ApiContext): string {
  const known = [...profileProperties(user, undefined, originOf(ctx.apiUrl)).map(([k]) => k), ...Object.keys(user.profile)];
  return known.find((k) => k.toLowerCase() === name.toLowerCase()) ?? name;
}

async function setProperty(ctx: ApiContext, method: string, multi: boolean): Promise<Outcome> {
  const account = bodyString(ctx, 'accountName', method);
  const name = bodyString(ctx, 'propertyName', method).trim();
  if (!name) throw profileErrors.missingParameter('propertyName', method);
  let value: string | string[];
  if (multi) {
    const raw = bodyProperty(ctx, 'propertyValues');
    // Verbose bodies may wrap the array as {"results":[…]}.
    const list = Array.isArray(raw) ? raw : raw && typeof raw === 'object' && Array.isArray((raw as { results?: unknown }).results) ? (raw as { results: unknown[] }).results : undefined;
    if (!list || list.some((v) => typeof v !== 'string')) throw profileErrors.missingParameter('propertyValues', method);
    value = list as string[];
  } else {
    value = bodyString(ctx, 'propertyValue', method);
  }
  const user = await findProfileUser(ctx.store, account);
  if (!user) throw profileErrors.userNotFound();
  requireProfileWriter(user, ctx);
  if (READ_ONLY_PROPERTIES.has(name.toLowerCase())) throw profileErrors.readOnlyProperty(name);
  await ctx.services.profiles.setProperty(user, canonicalName(user, name, ctx), value);
  return voidResult(method);
}

export const peopleManagerType: ResourceType<{ kind: 'peopleManager' }> = {
  methods: {
    getpropertiesfor: {
      kind: 'function',
      async invoke(_r, args, ctx) {
        const account = stringParameter(args, 0, 'accountName', 'GetPropertiesFor');
        return propertiesOutcome(await findProfileUser(ctx.store, account), 'GetPropertiesFor', ctx);
      },
    },
    // A function, so GET and POST both work (gosip POSTs it, reference §4.1).
    getmyproperties: {
      kind: 'function',
      async invoke(_r, _args, ctx) {
        const user = ctx.principal.upn ? await ctx.store.directory.findUser(ctx.principal.upn) : undefined;
        return propertiesOutcome(user, 'GetMyProperties', ctx);
      },
    },
    getuserprofilepropertyfor: {
      kind: 'function',
      async invoke(_r, args, ctx) {
        const account = stringParameter(args, 0, 'accountName', 'GetUserProfilePropertyFor');
        const name = stringParameter(args, 1, 'propertyName', 'GetUserProfilePropertyFor');
        const user = await findProfileUser(ctx.store, account);
        if (!user) return voidResult('GetUserProfilePropertyFor');
        const photo = await ctx.store.directory.getPhoto(user.upn);
        const properties = profileProperties(user, photo, originOf(ctx.apiUrl));
        const found = properties.find(([k]) => k === name) ?? properties.find(([k]) => k.toLowerCase() === name.toLowerCase());
        return ok({ kind: 'primitive', methodName: 'GetUserProfilePropertyFor', edmType: 'Edm.String', value: found?.[1] ?? '' });
      },
    },
    setsinglevalueprofileproperty: {
      // The site is not written: profileWriter/own-photo checks decide who may change a profile (visitors included).
      kind: 'action', permission: 'Open',
      invoke: (_r, _args, ctx) => setProperty(ctx, 'SetSingleValueProfileProperty', false),
    },
    setmultivaluedprofileproperty: {
      // The site is not written: profileWriter/own-photo checks decide who may change a profile (visitors included).
      kind: 'action', permission: 'Open',
      invoke: (_r, _args, ctx) => setProperty(ctx, 'SetMultiValuedProfileProperty', true),
    },
    setmyprofilepicture: {
      // The site is not written: profileWriter/own-photo checks decide who may change a profile (visitors included).
      // The body is the image itself (PnPjs labels it `application/json`): raw, never parsed.
      kind: 'action', permission: 'Open', body: 'raw',
      async invoke(_r, _args, ctx) {
        // "Users can only upload a picture to their own profile" (reference §4.1).
        const user = ctx.principal.upn ? await ctx.store.directory.findUser(ctx.principal.upn) : undefined;
        if (!user) throw profileErrors.noProfile();
        const bytes = ctx.rawBody ?? Buffer.alloc(0);
        if (bytes.length > MAX_PICTURE_BYTES) throw profileErrors.pictureTooLarge(bytes.length);
        const picture = await storablePicture(bytes);
        if (!picture) throw profileErrors.invalidPicture();
        await ctx.services.profiles.setPhoto(user, picture);
        return voidResult('SetMyProfilePicture');
      },
    },
  },
};
