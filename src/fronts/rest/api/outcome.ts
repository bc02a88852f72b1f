// What executing a request produces: a status, optional payload and headers.

import type { Payload } from '../../../wire/values.ts';

export interface Outcome {
  status: number;
  payload?: Payload | undefined;
  headers?: Record<string, string> | undefined;
}

export const ok = (payload: Payload, headers?: Record<string, string>): Outcome => ({ status: 200, payload, headers });
export const noContent = (headers?: Record<string, string>): Outcome => ({ status: 204, headers });
