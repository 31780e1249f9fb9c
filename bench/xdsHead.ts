// A response's head as the bench's ADS clients need it for every response: type URL, version, nonce, how many
// resources (and, Delta, how many removed names), read straight from the HTTP/2 DATA chunks the message arrived in,
// without joining them and without reading inside a resource. An xDS client ACKs with the version and nonce, and the
// bench counts resources; the resources' names and contents are read (bench/xdsWire.ts, on the joined bytes) only where
// the protocol needs them — the first CDS response (which clusters are EDS, to subscribe to them) and the first LDS
// response (the RDS names) — and in the sample bench/clientVerify.ts decodes in full. Until session 17 every response
// was joined into one buffer (a copy when it spanned chunks: at 5×, ~0.4 MB messages over ~25 chunks) and every
// resource's name made a string (3 million per 5× wave), ~40 % of the client process's main thread with its garbage.
// Field numbers: envoy/service/discovery/v3/discovery.proto — DiscoveryResponse version_info 1, resources 2, type_url 4,
// nonce 5; DeltaDiscoveryResponse system_version_info 1, resources 2, type_url 4, nonce 5, removed_resources 6.

/** What a client reads of every response. */
export interface WireHead {
  typeUrl: string;
  /** SotW version_info / Delta system_version_info. */
  version: string;
  nonce: string;
  /** How many `resources` (field 2) entries. */
  resources: number;
  /** Delta: how many removed_resources (field 6); SotW: 0. */
  removed: number;
}

/** A cursor over a message held as consecutive chunks (the message is their concatenation). */
class Parts {
  private i = 0;
  private pos = 0;
  /** Bytes left in the message. */
  left: number;

  constructor(private readonly parts: readonly Buffer[]) {
    let n = 0;
    for (const p of parts) n += p.length;
    this.left = n;
  }

  private byte(): number {
    if (this.left <= 0) throw new Error('truncated message');
    let p = this.parts[this.i]!;
    while (this.pos >= p.length) {
      p = this.parts[++this.i]!;
      this.pos = 0;
    }
    this.left--;
    return p[this.pos++]!;
  }

  /** A varint of up to 10 bytes (exact to 2^53, as xdsWire.ts reads them). */
  varint(): number {
    let x = this.byte();
    if (x < 0x80) return x;
    let n = x & 0x7f;
    for (let shift = 7; shift < 28; shift += 7) {
      x = this.byte();
      n |= (x & 0x7f) << shift;
      if (x < 0x80) return n;
    }
    for (let mul = 2 ** 28; ; mul *= 128) {
      if (mul > 2 ** 63) throw new Error('varint over 10 bytes');
      x = this.byte();
      n += (x & 0x7f) * mul;
      if (x < 0x80) return n;
    }
  }

  skip(n: number): void {
    if (n > this.left) throw new Error('truncated message');
    this.left -= n;
    let p = this.parts[this.i];
    while (p !== undefined && n > p.length - this.pos) {
      n -= p.length - this.pos;
      p = this.parts[++this.i];
      this.pos = 0;
    }
    this.pos += n;
  }

  /** The next `n` bytes as UTF-8 (copied out only when they straddle chunks). */
  str(n: number): string {
    if (n > this.left) throw new Error('truncated message');
    const p = this.parts[this.i];
    if (p !== undefined && this.pos + n <= p.length) {
      const s = p.toString('utf8', this.pos, this.pos + n);
      this.pos += n;
      this.left -= n;
      return s;
    }
    const out = Buffer.allocUnsafe(n);
    for (let k = 0; k < n; k++) out[k] = this.byte();
    return out.toString('utf8');
  }
}

/** The head of a DiscoveryResponse (`delta` false) or DeltaDiscoveryResponse held in `parts`. */
export function readHead(parts: readonly Buffer[], delta: boolean): WireHead {
  const h: WireHead = { typeUrl: '', version: '', nonce: '', resources: 0, removed: 0 };
  const c = new Parts(parts);
  while (c.left > 0) {
    const tag = c.varint();
    const field = Math.floor(tag / 8);
    const wt = tag & 7;
    if (wt === 0) c.varint();
    else if (wt === 1) c.skip(8);
    else if (wt === 5) c.skip(4);
    else if (wt !== 2) throw new Error(`wire type ${wt} of field ${field}`);
    else {
      const len = c.varint();
      if (field === 1) h.version = c.str(len);
      else if (field === 4) h.typeUrl = c.str(len);
      else if (field === 5) h.nonce = c.str(len);
      else {
        if (field === 2) h.resources++;
        else if (field === 6 && delta) h.removed++;
        c.skip(len);
      }
    }
  }
  return h;
}
