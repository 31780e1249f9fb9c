// A response's head as the bench's ADS clients need it for every response: type URL, version, nonce, how many
// resources (and, Delta, how many removed names), without reading inside a resource. An xDS client ACKs with the
// version and nonce, and the bench counts resources; the resources' names and contents are read (bench/xdsWire.ts) only
// where the protocol needs them — the first CDS response (which clusters are EDS, to subscribe to them) and the first
// LDS response (the RDS names) — and in the sample bench/clientVerify.ts decodes in full. Until session 17 every
// resource's name was made a string and an object made per resource (3 million of each per 5× wave).
// Field numbers: envoy/service/discovery/v3/discovery.proto — DiscoveryResponse version_info 1, resources 2, type_url 4,
// nonce 5; DeltaDiscoveryResponse system_version_info 1, resources 2, type_url 4, nonce 5, removed_resources 6.
import { Fields } from './xdsWire';

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

/** The head of the DiscoveryResponse (`delta` false) or DeltaDiscoveryResponse in `b`. */
export function readHead(b: Uint8Array, delta: boolean): WireHead {
  const h: WireHead = { typeUrl: '', version: '', nonce: '', resources: 0, removed: 0 };
  const f = new Fields(b);
  while (f.next()) {
    if (f.wt !== 2) continue; // not length-delimited (wire type LEN)
    if (f.field === 1) h.version = f.str();
    else if (f.field === 2) h.resources++;
    else if (f.field === 4) h.typeUrl = f.str();
    else if (f.field === 5) h.nonce = f.str();
    else if (f.field === 6 && delta) h.removed++;
  }
  return h;
}
