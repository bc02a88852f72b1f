// `GET|HEAD {server-relative URL of a file}`: the file's bytes, the URL matched in any letter
// case and percent-decoded (`+` stays a plus: it is a path, not a form). The web is the
// deepest one whose URL is a prefix of the path (a subweb's files are below its URL). Shown inline (active content excepted, see
// pipeline/media-types.ts); `?download=1` asks for an attachment, as on SharePoint Online. A
// library's Forms folder files (`Lib/Forms/client_LocationBasedDefaults.html`) are served too.

import type { FastifyReply, FastifyRequest } from 'fastify';
import { fail } from '../../domain/errors.ts';
import type { FrontDeps } from '../../pipeline/deps.ts';
import { serveFile } from '../../pipeline/file-download.ts';
import type { SitePathFront } from '../../pipeline/site-paths.ts';
import { fileAt, webAt } from '../../services/document-paths.ts';
import { formsFileAt } from '../../services/forms-files.ts';

/** Paths the other fronts, or SharePoint REST, answer: `/_api`, `/_vti_bin`, `/_layouts` below any site, and spemu's own. */
const NOT_FILES = /\/(_api|_vti_bin|_layouts)(\/|$)|^\/_spemu(\/|$)/i;

export function fileUrlFront(deps: FrontDeps): SitePathFront {
  return {
    name: 'files',
    claims: (pathname, method) => (method === 'GET' || method === 'HEAD') && !NOT_FILES.test(pathname),
    handle: (req, reply) => serve(req, reply, deps),
  };
}

async function serve(req: FastifyRequest, reply: FastifyReply, deps: FrontDeps): Promise<void> {
  const [raw = '', query = ''] = req.url.split(/\?(.*)/s);
  const path = decoded(raw);
  await serveFile(req, reply, deps, {
    web: async (store) => (path === undefined ? undefined : webAt(store, path, { deepest: true })),
    // A document, else a file of a library's Forms folder (its column defaults), which is no item.
    file: async (store, web) => (await fileAt(store, web, path!)) ?? formsFileAt(store, web, path!),
    notFound: () => fail.fileNotFound(path ?? raw),
    disposition: downloadAsked(new URLSearchParams(query)) ? 'attachment' : 'inline',
  });
}

/** The path percent-decoded; undefined when it cannot be (a `%` that is no escape names no file). */
function decoded(path: string): string | undefined {
  try {
    return decodeURIComponent(path);
  } catch {
    return undefined;
  }
}

/** `?download=1` (any case; `true` too). */
function downloadAsked(query: URLSearchParams): boolean {
  for (const [name, value] of query) if (name.toLowerCase() === 'download' && /^(1|true)$/i.test(value.trim())) return true;
  return false;
}
