// Byte buffers the caller fills completely, without the zero fill. `new Uint8Array(n)` asks the allocator for
// zeroed memory (calloc); for the large responses the ADS server assembles per stream that is costly under
// jemalloc (what `meshscope serve` runs on): jemalloc 5.3 zeroes a reused large extent by madvise(MADV_DONTNEED),
// so every response's pages are faulted in again by the kernel. Measured on a connect wave of 1,000 clients
// (~300 kB each): 2.3–3.5 s of CPU under jemalloc, 0.3–0.5 s under glibc, for the same copies.

/** Below this a zeroed allocation is cheap (small size classes, no page work) and unpooled memory is not worth it. */
const UNZEROED_FROM = 4096;

/**
 * `n` bytes of unspecified content, which the caller must overwrite entirely: a plain Uint8Array (not a Buffer,
 * so `slice` still copies) over its own ArrayBuffer, never a slice of Node's shared pool.
 */
export function uninitializedBytes(n: number): Uint8Array {
  if (n < UNZEROED_FROM) return new Uint8Array(n);
  return new Uint8Array(Buffer.allocUnsafeSlow(n).buffer, 0, n);
}

/** The parts laid end to end in one new array (a resource assembled from separately encoded fields). */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  let n = 0;
  for (const p of parts) n += p.length;
  const bytes = new Uint8Array(n);
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return bytes;
}
