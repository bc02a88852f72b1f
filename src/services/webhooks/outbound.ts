// One outbound POST to a webhook receiver, made safe to point anywhere: redirects are never
// followed (a 3xx is a failed call, so a receiver cannot bounce spemu to another host), the
// whole call (connect, headers, body) has a deadline, and at most `maxBytes` of the answer are
// read. Nothing here logs: callers log the URL without its query (url-policy.ts loggableUrl).

export interface OutboundAnswer { status: number; contentType: string; text: string }

export class OutboundError extends Error {}

export async function postOutbound(url: URL, body: string | undefined, limits: { timeoutMs: number; maxBytes: number }): Promise<OutboundAnswer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new OutboundError(`no complete answer within ${limits.timeoutMs} ms`)), limits.timeoutMs);
  try {
    const response = await fetch(url, {
      method: 'POST', redirect: 'manual', signal: controller.signal,
      headers: body === undefined ? { 'Content-Length': '0' } : { 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body }),
    });
    const text = await readCapped(response, limits.maxBytes, controller);
    return { status: response.status, contentType: response.headers.get('content-type') ?? '', text };
  } catch (e) {
    if (e instanceof OutboundError) throw e;
    if (controller.signal.aborted && controller.signal.reason instanceof OutboundError) throw controller.signal.reason;
    throw new OutboundError(`the call failed: ${(e as Error).message}`);
  } finally {
    clearTimeout(timer);
  }
}

async function readCapped(response: Response, maxBytes: number, controller: AbortController): Promise<string> {
  if (!response.body) return '';
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > maxBytes) {
    controller.abort(new OutboundError(`an answer of ${declared} bytes, over the ${maxBytes}-byte limit`));
    throw controller.signal.reason;
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      const error = new OutboundError(`an answer over the ${maxBytes}-byte limit`);
      controller.abort(error);
      throw error;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
