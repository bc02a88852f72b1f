// The `$batch` request as a whole, before it is read: which URLs are a batch, so that a body
// over the request body limit gets the batch's answer (400 with SharePoint's error body, as
// for every other batch that cannot be read) rather than the 413 other requests get.

/** Whether a request URL (path and query as sent) addresses a site's `…/_api/$batch` (any case, `$` %-encoded or not). */
export function isBatchUrl(url: string): boolean {
  const path = url.split('?')[0] ?? '';
  return /\/_api\/(?:\$|%24)batch\/?$/i.test(path);
}
