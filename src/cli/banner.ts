// What `spemu` prints once it listens: where it is, what it serves, and commands to try.

import { resolve } from 'node:path';
import type { RunningServer } from '../index.ts';
import type { TenantFile } from '../tenant/types.ts';
import { urlPrefix } from '../domain/names.ts';

type Served = Pick<RunningServer, 'url' | 'tenant'> & Partial<Pick<RunningServer, 'httpsUrl' | 'caPath' | 'hostNames'>>
  & { managedIdentity?: { name: string; endpoint: string } | undefined };

export function banner(server: Served, demo: TenantFile | undefined, workers = 1): string {
  const also = server.httpsUrl && server.httpsUrl !== server.url ? ` and ${server.httpsUrl}` : '';
  const lines = [`spemu is serving tenant '${server.tenant.name}' at ${server.url}${also}${workers > 1 ? ` (${workers} workers)` : ''}`, '', 'Sites:'];
  for (const site of server.tenant.sites) lines.push(`  ${server.url}${urlPrefix(site.url)}  (${site.title})`);
  lines.push(...hostLines(server), ...trustLines(server), ...identityLines(server));
  if (demo) {
    // Only the bundled demo tenant's throw-away passwords are ever printed.
    lines.push('', 'Demo users (user / password):');
    for (const u of demo.users) lines.push(`  ${u.upn.padEnd(34)} ${u.password ?? '(no password)'}`);
    const alice = demo.users[0]!;
    // Over HTTPS with spemu's own CA, curl must be told to trust it.
    const cacert = server.caPath && server.url.startsWith('https:') ? `--cacert '${resolve(server.caPath)}' ` : '';
    const auth = `${cacert}-u '${alice.upn}:${alice.password ?? ''}'`;
    const dev = `${server.url}/sites/dev/_api`;
    lines.push('', 'Try the three reads of the original spec:',
      `  curl -s ${auth} -H 'Accept: application/json' "${dev}/web/lists/getbytitle('Tasks')/items(1)?%24select=Title,Author/ID,Author/Title,Author/LastName,Editor/ID,Editor/Title,Editor/LastName&%24expand=Author,Editor"`,
      `  curl -s ${auth} -H 'Accept: application/json' "${dev}/Web/Lists/getByTitle('User%20Information%20List')/items?%24filter=Id%20eq%201&%24select=Picture"`,
      `  curl -s ${auth} -H 'Accept: application/json' "${dev}/SP.UserProfiles.PeopleManager/GetPropertiesFor(accountName=@v)?@v='i%3A0%23.f%7Cmembership%7C${encodeURIComponent(alice.upn)}'&%24select=PictureUrl"`);
    if (demo.projectData?.['/sites/pwa']) {
      lines.push('', "And Project's reporting feed, with Project Online's \\/Date(ms)\\/ dates:",
        `  curl -s ${auth} -H 'Accept: application/json' "${server.url}/sites/pwa/_api/ProjectData/Tasks?%24filter=TaskName%20eq%20'Design'&%24select=TaskName,TaskFinishDate,TaskBaselineFinishDate"`);
    }
  }
  lines.push('', 'Press Ctrl+C to stop.');
  return lines.join('\n');
}

/** A host-named tenant: its names, how clients reach them, and what other names get. */
function hostLines(server: Served): string[] {
  const names = server.hostNames ?? [];
  if (names.length === 0) return [];
  const base = server.httpsUrl ?? server.url;
  const port = new URL(base).port;
  return ['', `Host names (only these, localhost, 127.0.0.1 and ::1 are answered; any other host gets 400):`,
    ...names.map((n) => `  ${new URL(base).protocol}//${n}${port ? `:${port}` : ''}/`),
    '  Map them to this machine in your hosts file (e.g. "127.0.0.1 ' + names.join(' ') + '") or your client\'s resolver setting.'];
}

/** `--managed-identity`: what to export for clients that log in as a managed identity. Never the header's value. */
function identityLines(server: Served): string[] {
  const identity = server.managedIdentity;
  if (!identity) return [];
  return ['', `Managed identity: tokens for ${identity.name}, as Azure App Service gives them. In the client's shell:`,
    `  export IDENTITY_ENDPOINT=${identity.endpoint}`,
    '  export IDENTITY_HEADER=$(spemu identity-header)   # with this server\'s --data / --token-secret, if it has them',
    ...(server.caPath ? [`  export NODE_EXTRA_CA_CERTS=${resolve(server.caPath)}`] : [])];
}

/** HTTPS with the certificate spemu made: where its CA is and how to trust it. Never a key. */
function trustLines(server: Served): string[] {
  if (!server.caPath) return [];
  const ca = resolve(server.caPath);
  return ['', `HTTPS uses a certificate signed by spemu's local CA, ${ca}. Trust that CA:`,
    `  Node.js:  NODE_EXTRA_CA_CERTS=${ca} node your-app.js`,
    `  curl:     curl --cacert ${ca} ${server.httpsUrl ?? server.url}/_spemu/health`,
    '  Browsers: import it as a trusted root authority (Windows: certutil -user -addstore Root ca.pem; macOS: add it to the',
    '            login keychain and set it to Always Trust; Firefox: Settings > Certificates > Authorities > Import).'];
}
