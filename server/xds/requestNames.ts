// SotW requests decoded with their resource_names shared: an Envoy ACKs every EDS response with the whole list of
// clusters it watches (~750 names at issue 24's 5× mesh), and the sidecars of one Sidecar scope watch the same list,
// so after a push the server decoded the same ~40 kB of names once per client (100 ACKs: ~75,000 strings, ~10–36 ms
// and their GC). A list seen before — the same bytes, compared with memcmp — is not decoded again: the request gets
// the array decoded the first time (frozen: shared by every request that named it). Everything else of the request
// is decoded by protobuf-es as before, and a request the walk below does not understand is decoded whole.
// Delta streams get the same for resource_names_subscribe (also field 3): each sidecar's first EDS request names
// its scope's clusters, the same list for every sidecar of the scope.
import { fromBinary, type Message } from '@bufbuild/protobuf';
import type { GenMessage } from '@bufbuild/protobuf/codegenv2';
import {
  type DeltaDiscoveryRequest,
  DeltaDiscoveryRequestSchema,
  type DiscoveryRequest,
  DiscoveryRequestSchema,
} from '../gen/envoy/service/discovery/v3/discovery_pb';

/** DiscoveryRequest.resource_names and DeltaDiscoveryRequest.resource_names_subscribe: the shared list's field. */
const RESOURCE_NAMES = 3;
/** Lists shorter than this are decoded as they come (cheap; not worth a compare). */
const MIN_LIST_BYTES = 1024;
/** The lists kept (most recently named first out last): per server, a few per Sidecar scope and type. */
const MAX_LISTS = 64;

interface KeptList {
  bytes: Buffer;
  names: readonly string[];
}

/** Where the request's resource_names entries are: one run of field 3 with nothing between, or undefined. */
function namesSpan(b: Uint8Array): { start: number; end: number } | undefined {
  let i = 0;
  let start = -1;
  let end = -1;
  const varint = (): number => {
    let v = 0;
    let shift = 0;
    for (;;) {
      if (i >= b.length || shift > 28) return -1;
      const x = b[i++]!;
      v += (x & 0x7f) * 2 ** shift;
      if (x < 0x80) return v;
      shift += 7;
    }
  };
  while (i < b.length) {
    const at = i;
    const tag = varint();
    if (tag < 0) return undefined;
    const field = Math.floor(tag / 8);
    const wire = tag & 7;
    if (wire === 2) {
      const len = varint();
      if (len < 0 || i + len > b.length) return undefined;
      i += len;
    } else if (wire === 0) {
      if (varint() < 0) return undefined;
    } else if (wire === 1) i += 8;
    else if (wire === 5) i += 4;
    else return undefined;
    if (field !== RESOURCE_NAMES) continue;
    if (wire !== 2) return undefined;
    if (start < 0) start = at;
    else if (at !== end) return undefined; // another field between two names: decoded whole
    end = i;
  }
  return start >= 0 && i === b.length ? { start, end } : undefined;
}

/** A request type whose repeated string field 3 is shared when it repeats: its schema, and that field. */
interface NamesField<T extends Message> {
  schema: GenMessage<T>;
  get(req: T): string[];
  set(req: T, names: string[]): void;
}

/** One per ADS server and stream type (service.ts): the name lists it decoded last, by their bytes. */
export class RequestNamesDecoder<T extends Message> {
  private kept: KeptList[] = [];
  /** Requests whose names were taken from a list decoded before (tests, stats). */
  reused = 0;

  constructor(private readonly field: NamesField<T>) {}

  decode(b: Uint8Array): T {
    const { schema } = this.field;
    const span = b.length >= MIN_LIST_BYTES ? namesSpan(b) : undefined;
    if (!span || span.end - span.start < MIN_LIST_BYTES) return fromBinary(schema, b);
    const bytes = b.subarray(span.start, span.end);
    const at = this.kept.findIndex((k) => k.bytes.length === bytes.length && k.bytes.equals(bytes));
    if (at < 0) {
      const req = fromBinary(schema, b);
      this.keep({ bytes: Buffer.from(bytes), names: Object.freeze(this.field.get(req)) });
      return req;
    }
    const list = this.kept[at]!;
    if (at !== this.kept.length - 1) {
      this.kept.splice(at, 1);
      this.kept.push(list);
    }
    this.reused++;
    const rest = new Uint8Array(b.length - bytes.length);
    rest.set(b.subarray(0, span.start), 0);
    rest.set(b.subarray(span.end), span.start);
    const req = fromBinary(schema, rest);
    this.field.set(req, list.names as string[]);
    return req;
  }

  private keep(list: KeptList): void {
    this.kept.push(list);
    if (this.kept.length > MAX_LISTS) this.kept.shift();
  }
}

/** SotW requests: resource_names shared (an EDS ACK repeats the whole list). */
export class SotwRequestDecoder extends RequestNamesDecoder<DiscoveryRequest> {
  constructor() {
    super({
      schema: DiscoveryRequestSchema,
      get: (r) => r.resourceNames,
      set: (r, names) => {
        r.resourceNames = names;
      },
    });
  }
}

/** Delta requests: resource_names_subscribe shared (a scope's sidecars subscribe to the same clusters). */
export class DeltaRequestDecoder extends RequestNamesDecoder<DeltaDiscoveryRequest> {
  constructor() {
    super({
      schema: DeltaDiscoveryRequestSchema,
      get: (r) => r.resourceNamesSubscribe,
      set: (r, names) => {
        r.resourceNamesSubscribe = names;
      },
    });
  }
}
