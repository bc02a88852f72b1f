// The device authorization grant (RFC 8628) as Entra runs it: a client asks for a code pair, the
// user enters the short user code in a browser where they are signed in and approves, the
// client polls the token endpoint with the long device code until then. A pending request is
// one workspace setting (`identity.device.<user code>`), so any instance sharing the database
// can approve or redeem it; the device code is the user code with an HMAC of it, so nothing
// else is stored to recognise one. Redeemed once: the record is marked and later polls fail.

import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { Store } from '../store/store.ts';

/** Entra's device codes last 15 minutes; clients poll every 5 seconds. */
export const DEVICE_CODE_SECONDS = 900;
export const DEVICE_POLL_SECONDS = 5;

export type DeviceState = 'pending' | 'approved' | 'declined' | 'redeemed';

export interface DeviceRequest {
  userCode: string;
  clientId: string;
  appDisplayName: string;
  /** Scope names (without the resource) and the OpenID scopes asked for. */
  scopes: string[];
  oidc: string[];
  resource: string;
  expires: string;
  state: DeviceState;
  /** Who approved (or declined). */
  upn?: string;
}

/** Upper-case letters and digits without look-alikes (0/O, 1/I). */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const keyOf = (userCode: string) => `identity.device.${userCode}`;
const deviceKey = (secret: Uint8Array) => createHmac('sha256', secret).update('spemu device codes v1').digest();
const mac = (secret: Uint8Array, userCode: string) => createHmac('sha256', deviceKey(secret)).update(userCode).digest('base64url');

export function normaliseUserCode(text: string): string {
  return text.replace(/[\s-]/g, '').toUpperCase();
}

/** A new pending request; returns it with its device code. */
export async function startDeviceRequest(store: Pick<Store, 'settings'>, secret: Uint8Array, request: Omit<DeviceRequest, 'userCode' | 'expires' | 'state'>, now: Date): Promise<{ request: DeviceRequest; deviceCode: string }> {
  const userCode = Array.from({ length: 9 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  const record: DeviceRequest = { ...request, userCode, expires: new Date(now.getTime() + DEVICE_CODE_SECONDS * 1000).toISOString(), state: 'pending' };
  await store.settings.set(keyOf(userCode), JSON.stringify(record));
  return { request: record, deviceCode: `${userCode}.${mac(secret, userCode)}` };
}

/** The request a user code names, if any (expired ones too: the caller says so). */
export async function findDeviceRequest(store: Pick<Store, 'settings'>, userCode: string): Promise<DeviceRequest | undefined> {
  const code = normaliseUserCode(userCode);
  if (!/^[A-Z0-9]{9}$/.test(code)) return undefined;
  const text = await store.settings.get(keyOf(code));
  return text ? JSON.parse(text) as DeviceRequest : undefined;
}

/** The request a device code names; undefined for one spemu did not make. */
export async function requestOfDeviceCode(store: Pick<Store, 'settings'>, secret: Uint8Array, deviceCode: string): Promise<DeviceRequest | undefined> {
  const [userCode = '', tag = ''] = deviceCode.split('.');
  const expected = Buffer.from(mac(secret, userCode));
  const given = Buffer.from(tag);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  return findDeviceRequest(store, userCode);
}

export const isExpired = (request: DeviceRequest, now: Date) => new Date(request.expires).getTime() <= now.getTime();

/** Records the user's answer, or the redemption. */
export async function setDeviceState(store: Pick<Store, 'settings'>, request: DeviceRequest, state: DeviceState, upn?: string): Promise<void> {
  await store.settings.set(keyOf(request.userCode), JSON.stringify({ ...request, state, ...(upn ? { upn } : {}) }));
}
