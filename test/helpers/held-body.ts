// A request body whose last bytes wait for a signal: sent together, several saves with one
// etag all pass the check made before a byte is stored, so only the check inside the write
// can tell them apart (the concurrency tests of `PUT …/$value`).

/** `text`'s first three bytes at once, the rest once `held` settles. */
export function bodyHeldUntil(text: string, held: Promise<void>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(new TextEncoder().encode(text.slice(0, 3)));
      await held;
      controller.enqueue(new TextEncoder().encode(text.slice(3)));
      controller.close();
    },
  });
}
