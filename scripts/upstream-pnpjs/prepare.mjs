// Prepares a checkout of pnp/pnpjs (v4 line) to run its own test suite against spemu,
// changing only its plumbing, never a test file:
//   - test/mocha-root-hooks.ts: PnPjs's SPDefault without MSAL, plus a behaviour that adds a bearer
//     token read from SPEMU_TOKEN on the `auth` moment, where MSAL's behaviour adds its token (so a
//     test that copies the "auth" observers to another instance, as spfx.ts does, gets it too);
//     the Graph setup is left unconfigured (test/sp only).
//   - settings.js: the spemu site URL, a test user and the local notification receiver.
//   - test/sp/assets/sample_file.jpg: any JPEG, when the checkout lacks the binary asset.
// Usage: node prepare.mjs <checkout> <site url> <test user login> <notification url>

import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const [checkout, siteUrl, testUser, notificationUrl] = process.argv.slice(2);
if (!checkout || !siteUrl || !testUser || !notificationUrl) {
  console.error('usage: node prepare.mjs <checkout> <site url> <test user login> <notification url>');
  process.exit(2);
}

// 1. The root hooks: the same hooks, authenticated with a bearer token instead of MSAL.
const hooksPath = path.join(checkout, 'test/mocha-root-hooks.ts');
let hooks = fs.readFileSync(hooksPath, 'utf8');
// The original MSAL setup, or the InjectHeaders form an earlier version of this script wrote.
const spDefault = /SPDefault\(\{\s*msal:\s*\{[^}]*\},\s*\}\)|SPDefault\(\), InjectHeaders\(\{ Authorization: `Bearer \$\{process\.env\.SPEMU_TOKEN\}` \}\)/;
if (!spDefault.test(hooks) && !hooks.includes('SpemuBearer()')) throw new Error('mocha-root-hooks.ts: SPDefault({ msal }) not found; the upstream plumbing changed');
hooks = hooks.replace(spDefault, 'SPDefault(), SpemuBearer()');
hooks = hooks.replace(/this\.pnp\._graph = graphfi\(\)\.using\(GraphDefault\(\{[\s\S]*?\}\), NodeFetch/, 'this.pnp._graph = graphfi().using(GraphDefault(), NodeFetch');
hooks = hooks.replace('import { InjectHeaders } from "@pnp/queryable";\n', '');
if (!hooks.includes('const SpemuBearer')) {
  hooks = `// spemu: MSAL's place on the auth moment, with a token from \`spemu token\`.
const SpemuBearer = () => (instance: any) => {
    instance.on.auth.replace(async function (url: URL, init: RequestInit) {
        init.headers = { ...(init.headers as Record<string, string>), Authorization: \`Bearer \${process.env.SPEMU_TOKEN}\` };
        return [url, init];
    });
    return instance;
};
${hooks}`;
}
fs.writeFileSync(hooksPath, hooks);

// 2. Settings (the "cmd" mode reads settings.js found upwards from the working directory).
const settings = { testing: { enableWebTests: true, testUser, sp: { url: siteUrl, notificationUrl } } };
fs.writeFileSync(path.join(checkout, 'settings.js'), `export const settings = ${JSON.stringify(settings, null, 2)};\n`);

// 3. A JPEG for the file tests, made with sharp from spemu's own dependencies.
const asset = path.join(checkout, 'test/sp/assets/sample_file.jpg');
if (!fs.existsSync(asset) || fs.statSync(asset).size === 0) {
  const require = createRequire(new URL('../../package.json', import.meta.url));
  const sharp = require('sharp');
  fs.mkdirSync(path.dirname(asset), { recursive: true });
  await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 30, g: 120, b: 200 } } }).jpeg().toFile(asset);
}
console.log(`prepared ${checkout} for ${siteUrl}`);
