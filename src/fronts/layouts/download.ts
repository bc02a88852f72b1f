// `GET|HEAD {site}/_layouts/15/download.aspx?SourceUrl=<URL>` or `?UniqueId=<GUID>` (parameter
// names in any case): a file's bytes as an attachment, as SharePoint's download links (and
// Microsoft Graph's downloadUrl) fetch them. SourceUrl may be server-relative, relative to
// the web or absolute, and may name a past version (`_vti_history/512/Shared Documents/a.txt`,
// an SP.FileVersion's Url, as PnP Core SDK's FileVersion.GetContent sends it). The query is
// read as a form (`+` is a space), as ASP.NET reads it.

import type { FastifyReply, FastifyRequest } from 'fastify';
import { fail } from '../../domain/errors.ts';
import type { FrontDeps } from '../../pipeline/deps.ts';
import { serveFile } from '../../pipeline/file-download.ts';
import type { SitePathFront } from '../../pipeline/site-paths.ts';
import { documentById, fileAt, webAt } from '../../services/document-paths.ts';
import { formsFileAt } from '../../services/forms-files.ts';

const PATH = /\/_layouts\/15\/download\.aspx$/i;

export function downloadFront(deps: FrontDeps): SitePathFront {
  return {
    name: 'layouts',
    claims: (pathname, method) => (method === 'GET' || method === 'HEAD') && PATH.test(pathname),
    handle: (req, reply) => serve(req, reply, deps),
  };
}

async function serve(req: FastifyRequest, reply: FastifyReply, deps: FrontDeps): Promise<void> {
  const [pathname = '', query = ''] = req.url.split(/\?(.*)/s);
  const params = new URLSearchParams(query);
  const sourceUrl = parameter(params, 'sourceurl');
  const uniqueId = parameter(params, 'uniqueid');
  const sitePath = decoded(pathname.slice(0, pathname.search(PATH))) || '/';
  await serveFile(req, reply, deps, {
    web: (store) => webAt(store, sitePath),
    async file(store, web) {
      if (uniqueId !== undefined) {
        const id = guidOf(uniqueId);
        const found = id ? await documentById(store, web, id) : undefined;
        return found && !found.item.place.folder ? found : undefined;
      }
      // By SourceUrl a Forms folder file too (no item, so no UniqueId finds it).
      if (sourceUrl !== undefined) return (await fileAt(store, web, pathOf(sourceUrl))) ?? formsFileAt(store, web, pathOf(sourceUrl));
      throw fail.badArgument('download.aspx needs a SourceUrl or a UniqueId.');
    },
    notFound: () => (uniqueId !== undefined ? fail.fileNotFoundById() : fail.fileNotFound(sourceUrl ?? sitePath)),
    disposition: 'attachment',
  });
}

/** The query parameter `name` in any case, if given and not blank. */
function parameter(query: URLSearchParams, name: string): string | undefined {
  for (const [k, v] of query) if (k.toLowerCase() === name && v.trim() !== '') return v.trim();
  return undefined;
}

/** A GUID as the store keeps it (lower case, hyphens), from any form .NET parses: braces or not, hyphens or not. */
function guidOf(text: string): string | undefined {
  const hex = text.replace(/^\{(.*)\}$/, '$1').replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) return undefined;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** An absolute SourceUrl is a URL: its path is percent-decoded. Any other is the path itself, as given. */
function pathOf(sourceUrl: string): string {
  if (!/^https?:\/\//i.test(sourceUrl)) return sourceUrl;
  const path = URL.canParse(sourceUrl) ? new URL(sourceUrl).pathname : sourceUrl.replace(/^https?:\/\/[^/]*/i, '');
  return decoded(path) ?? path;
}

function decoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}
