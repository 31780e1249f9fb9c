// Serialised API responses kept per snapshot: a large body (a 10,000-cluster proxy's config dump is ~40 MB of
// JSON) is serialised once per (snapshot, key) and, when big, gzip-compressed once too, instead of on every
// request. Bounded by bytes (an LRU like the translation cache, server/pipeline/sharedResources.ts); a new
// snapshot empties it (its entries can never be served again). The bytes are exactly what toResponse sends:
// same JSON, same status and headers; big bodies come gzip-encoded when the client accepts gzip (Next.js's
// own compression leaves a response that already has a Content-Encoding alone), identity otherwise.
import { constants, gzip } from 'node:zlib';
import type { MeshSnapshot } from '../model/mesh';
import { createSizedCache, type SizedCache } from '../pipeline/cache';
import { toResponse } from './http';
import type { ApiResult } from './types';

/** Bodies from this size on are compressed here (once) rather than by the HTTP server on every request. */
export const SELF_COMPRESS_MIN_BYTES = 1024 * 1024;
/** Default bound of the cached bytes (JSON + gzip). */
export const RESPONSE_CACHE_MAX_BYTES = 256 * 1024 * 1024;

interface Entry {
  json: Buffer;
  /** Started on the first request that accepts gzip; shared by the ones that follow. */
  gzip?: Promise<Buffer>;
}

/** Whether an Accept-Encoding header allows gzip (RFC 9110 §12.5.3: a `q=0` refuses it; `*` allows it). */
export function acceptsGzip(header: string | null): boolean {
  if (!header) return false;
  let star: boolean | undefined;
  for (const part of header.split(',')) {
    const [coding = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const allowed = q === undefined || Number(q.slice(2)) > 0;
    if (coding.trim() === 'gzip' || coding.trim() === 'x-gzip') return allowed;
    if (coding.trim() === '*') star = allowed;
  }
  return star === true;
}

const gzipOnce = (bytes: Buffer): Promise<Buffer> =>
  new Promise((ok, fail) =>
    // Fastest level: on a 40 MB dump it takes a fraction of the default's time for a slightly larger body.
    gzip(bytes, { level: constants.Z_BEST_SPEED }, (e, out) => (e ? fail(e) : ok(out))),
  );

/** The bytes as a body, without a copy of our own (the Response takes its own). */
const view = (b: Buffer): Uint8Array<ArrayBuffer> => new Uint8Array(b.buffer as ArrayBuffer, b.byteOffset, b.length);

export class ResponseCache {
  private readonly entries: SizedCache<Entry>;
  private snapshot: MeshSnapshot | undefined;
  /** How many bodies were serialised and compressed (tests read these to see the cache work). */
  readonly stats = { serialised: 0, compressed: 0 };

  constructor(maxBytes = RESPONSE_CACHE_MAX_BYTES) {
    // JSON plus room for its gzip (JSON compresses to well under a fifth).
    this.entries = createSizedCache<Entry>(maxBytes, (e) => Math.ceil(e.json.length * 1.25) + 256);
  }

  clear(): void {
    this.entries.clear();
  }

  /**
   * The response of `produce()` for `key` of `snapshot`: served from the cache when this snapshot's body is
   * held. Only 200s are cached (an error is cheap and may depend on more than the snapshot).
   */
  async respond(req: Request, snapshot: MeshSnapshot, key: string, produce: () => ApiResult): Promise<Response> {
    if (snapshot !== this.snapshot) {
      this.clear();
      this.snapshot = snapshot;
    }
    let entry = this.entries.get(key);
    if (!entry) {
      const result = produce();
      if (result.status !== 200) return toResponse(result, req.url);
      const pretty = new URL(req.url, 'http://x').searchParams.has('pretty');
      entry = { json: Buffer.from(JSON.stringify(result.body, null, pretty ? 2 : undefined)) };
      this.stats.serialised++;
      this.entries.set(key, entry);
    }
    const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };
    if (entry.json.length < SELF_COMPRESS_MIN_BYTES) return new Response(view(entry.json), { status: 200, headers });
    headers.vary = 'Accept-Encoding';
    if (!acceptsGzip(req.headers.get('accept-encoding'))) return new Response(view(entry.json), { status: 200, headers });
    if (!entry.gzip) {
      entry.gzip = gzipOnce(entry.json);
      this.stats.compressed++;
    }
    const body = await entry.gzip;
    return new Response(view(body), {
      status: 200,
      headers: { ...headers, 'content-encoding': 'gzip', 'content-length': String(body.length) },
    });
  }
}
