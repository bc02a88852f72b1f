#!/usr/bin/env node
// Runs the compiled CLI when the package is built (npm install runs `prepare`), else the
// TypeScript source through tsx, so a git checkout works either way.
import { existsSync } from 'node:fs';

const compiled = new URL('../dist/cli/main.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/cli/main.ts', import.meta.url).href);
}
