// Serialised API responses kept per snapshot: a large body (a 10,000-cluster proxy's config dump is ~30 MB of
// JSON) is serialised once per (snapshot, key) instead of on every request. Bounded by bytes (an LRU like the
// translation cache, server/pipeline/sharedResources.ts); a new snapshot empties it (its entries can never be
// served again). The bytes are exactly what toResponse sends: same JSON, status and headers.
// Compression: Next.js gzips every response itself (next.config `compress`, on by default) and drops a
// Content-Encoding set by a route (next/dist/server/send-response.js FORBIDDEN_HEADERS), so a route cannot
// send bytes it compressed once. When the server listens on loopback only (the default), compressing a big
// body is pure cost — ~0.4 s of CPU per request for 30 MB, and the browser's to undo it, for a copy across
// the same machine — so big bodies say `Cache-Control: no-transform` (RFC 9111 §5.2.2.6), which Next's
// compression honours; on any other address they are compressed as before.
import type { MeshSnapshot } from '../model/mesh';
import { createSizedCache, type SizedCache } from '../pipeline/cache';
import { toResponse } from './http';
import type { ApiResult } from './types';

/** Bodies from this size on are sent uncompressed when the server is on loopback (`compressBig: false`). */
export const UNCOMPRESSED_MIN_BYTES = 1024 * 1024;
/** Default bound of the cached bytes. */
export const RESPONSE_CACHE_MAX_BYTES = 256 * 1024 * 1024;

interface Entry {
  json: Buffer;
}

/** Whether an HTTP bind address is loopback only (then compressing responses only costs CPU). */
export const isLoopbackAddress = (address: string): boolean =>
  /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address) || address === '::1' || address === 'localhost';

/** The bytes as a body, without a copy of our own (the Response takes its own). */
const view = (b: Buffer): Uint8Array<ArrayBuffer> => new Uint8Array(b.buffer as ArrayBuffer, b.byteOffset, b.length);

export class ResponseCache {
  private readonly entries: SizedCache<Entry>;
  private snapshot: MeshSnapshot | undefined;
  private readonly compressBig: boolean;
  /** How many bodies were serialised (tests read it to see the cache work). */
  readonly stats = { serialised: 0 };

  /** `compressBig`: let the HTTP server compress big bodies (false when it listens on loopback only). */
  constructor(opts: { maxBytes?: number; compressBig?: boolean } = {}) {
    this.entries = createSizedCache<Entry>(opts.maxBytes ?? RESPONSE_CACHE_MAX_BYTES, (e) => e.json.length + 256);
    this.compressBig = opts.compressBig ?? true;
  }

  clear(): void {
    this.entries.clear();
  }

  /**
   * The response of `produce()` for `key` of `snapshot`: served from the cache when this snapshot's body is
   * held. Only 200s are cached (an error is cheap and may depend on more than the snapshot).
   */
  respond(req: Request, snapshot: MeshSnapshot, key: string, produce: () => ApiResult): Response {
    if (snapshot !== this.snapshot) {
      this.clear();
      this.snapshot = snapshot;
    }
    const pretty = new URL(req.url, 'http://x').searchParams.has('pretty');
    const cacheKey = pretty ? `${key}\u0000pretty` : key; // the body's formatting is part of what is cached
    let entry = this.entries.get(cacheKey);
    if (!entry) {
      const result = produce();
      if (result.status !== 200) return toResponse(result, req.url);
      entry = { json: Buffer.from(JSON.stringify(result.body, null, pretty ? 2 : undefined)) };
      this.stats.serialised++;
      this.entries.set(cacheKey, entry);
    }
    const big = entry.json.length >= UNCOMPRESSED_MIN_BYTES && !this.compressBig;
    return new Response(view(entry.json), {
      status: 200,
      headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': big ? 'no-store, no-transform' : 'no-store' },
    });
  }
}
