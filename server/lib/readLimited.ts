// Reading a body stream under a byte limit, counted while it streams (never buffered past it): request bodies
// (server/api/http.ts) and answers meshscope fetches (server/prometheus/client.ts).

export type LimitedBody = { bytes: Uint8Array; tooLarge?: undefined } | { tooLarge: true; bytes?: undefined };

/**
 * Reads a body stream, stopping (and cancelling the stream) as soon as more than `limit` bytes have
 * arrived: memory never exceeds `limit` plus one chunk, whatever the client sends.
 */
export async function readLimited(body: ReadableStream<Uint8Array> | null, limit: number): Promise<LimitedBody> {
  if (!body) return { bytes: new Uint8Array(0) };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return { tooLarge: true };
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return { bytes: out };
}
