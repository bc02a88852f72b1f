// What `spemu` prints once it listens: where it is, what it serves, and commands to try.

import type { RunningServer } from '../index.ts';
import type { TenantFile } from '../tenant/types.ts';
import { urlPrefix } from '../domain/names.ts';

export function banner(server: Pick<RunningServer, 'url' | 'tenant'>, demo: TenantFile | undefined, workers = 1): string {
  const lines = [`spemu is serving tenant '${server.tenant.name}' at ${server.url}${workers > 1 ? ` (${workers} workers)` : ''}`, '', 'Sites:'];
  for (const site of server.tenant.sites) lines.push(`  ${server.url}${urlPrefix(site.url)}  (${site.title})`);
  if (demo) {
    // Only the bundled demo tenant's throw-away passwords are ever printed.
    lines.push('', 'Demo users (user / password):');
    for (const u of demo.users) lines.push(`  ${u.upn.padEnd(34)} ${u.password ?? '(no password)'}`);
    const alice = demo.users[0]!;
    const auth = `-u '${alice.upn}:${alice.password ?? ''}'`;
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
