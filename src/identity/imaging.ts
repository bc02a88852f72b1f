// sharp (libvips) loads a native library, ~70 ms at start-up; photos are rarely the first
// thing a server needs, so it is loaded on first use.

import type SharpModule from 'sharp';

let loading: Promise<typeof SharpModule> | undefined;

export function loadSharp(): Promise<typeof SharpModule> {
  loading ??= import('sharp').then((m) => m.default);
  return loading;
}
