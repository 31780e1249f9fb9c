// A direct proto3 binary writer for the WDS resources (istio.workload.Address, istio.security.Authorization), from
// the proto3 JSON the ztunnel translator builds, without protobuf-es' fromJson → message → toBinary round (the
// from-scratch view is 12,000 such messages; the round and its garbage were most of its cost). Field numbers,
// types and presence are those of proto/ambient/istio/{workload/workload,security/authorization}.proto; the output
// is what protobuf-es writes for the same JSON, byte for byte (fields in number order, implicit-presence zero
// values left out, packed repeated scalars, map entries in key order: wire.test.ts checks it on every case).
// Anything this writer does not know exactly (an unknown or snake_case key, an enum by number, an Extension's Any,
// null, bytes not in canonical base64, a value of the wrong type) makes it answer `undefined`: the caller then
// encodes with protobuf-es, which also gives the located error for JSON that does not fit the schema. Pure; a
// WireWriter owns its scratch buffer (one per encoding pass, never module state).
import {
  ADDRESS_KEYS,
  APP_PROTOCOL,
  APP_TUNNEL_KEYS,
  AUTHZ_ACTION,
  AUTHZ_ADDRESS_KEYS,
  AUTHZ_KEYS,
  AUTHZ_SCOPE,
  B64,
  base64Length,
  enumOf,
  GATEWAY_KEYS,
  GROUP_KEYS,
  hasOwn,
  IP_FAMILIES,
  LB_HEALTH,
  LB_KEYS,
  LB_MODE,
  LB_SCOPE,
  LEN,
  LOCALITY_KEYS,
  MATCH_KEYS,
  NAMESPACED_HOSTNAME_KEYS,
  NETWORK_ADDRESS_KEYS,
  NETWORK_MODE,
  NO_KEYS,
  object,
  PORT_KEYS,
  PORT_LIST_KEYS,
  RULES_KEYS,
  SA_MATCH_KEYS,
  SERVICE_KEYS,
  STRING_MATCH_KEYS,
  TUNNEL_APP_PROTOCOL,
  TUNNEL_PROTOCOL,
  uint32Of,
  UNSUPPORTED,
  VARINT,
  varintSize,
  VISIBILITY,
  WEIGHTED_KEYS,
  WORKLOAD_KEYS,
  WORKLOAD_STATUS,
  WORKLOAD_TYPE,
  type Json,
} from './wireSchema';

/** Writes the WDS messages into one growing scratch buffer; each call returns a fresh copy of its bytes. */
export class WireWriter {
  private buf = new Uint8Array(16 * 1024);
  private pos = 0;
  private readonly utf8 = new TextEncoder();

  /** istio.workload.Address (`{workload}` or `{service}`) → bytes; undefined when protobuf-es must encode it. */
  address(json: unknown): Uint8Array | undefined {
    return this.run(json, this.addressBody);
  }

  /** istio.security.Authorization → bytes; undefined when protobuf-es must encode it. */
  authorization(json: unknown): Uint8Array | undefined {
    return this.run(json, this.authorizationBody);
  }

  private run(json: unknown, body: (v: unknown) => void): Uint8Array | undefined {
    this.pos = 0;
    try {
      body(json);
    } catch (e) {
      if (e === UNSUPPORTED) return undefined;
      throw e;
    }
    return this.buf.slice(0, this.pos);
  }

  private readonly addressBody = (v: unknown) => {
    const a = object(v, ADDRESS_KEYS);
    // The oneof `type`: exactly one member (protobuf-es rejects two).
    if (a['workload'] !== undefined && a['service'] === undefined) this.message(1, a['workload'], this.workloadBody);
    else if (a['service'] !== undefined && a['workload'] === undefined) this.message(2, a['service'], this.serviceBody);
    else throw UNSUPPORTED;
  };

  private readonly authorizationBody = (v: unknown) => {
    const p = object(v, AUTHZ_KEYS);
    this.str(1, p['name']);
    this.str(2, p['namespace']);
    this.enumeration(3, p['scope'], AUTHZ_SCOPE);
    this.enumeration(4, p['action'], AUTHZ_ACTION);
    this.repeated(5, p['groups'], this.groupBody);
    this.bool(6, p['dryRun']);
  };

  // ---- istio.workload ----

  private workload(v: unknown): void {
    const w = object(v, WORKLOAD_KEYS);
    this.str(1, w['name']);
    this.str(2, w['namespace']);
    const addresses = w['addresses'];
    if (addresses !== undefined) {
      if (!Array.isArray(addresses)) throw UNSUPPORTED;
      // repeated bytes: every element, empty ones too.
      for (const a of addresses) this.bytesValue(3, a, true);
    }
    this.str(4, w['network']);
    this.enumeration(5, w['tunnelProtocol'], TUNNEL_PROTOCOL);
    this.str(6, w['trustDomain']);
    this.str(7, w['serviceAccount']);
    this.optionalMessage(8, w['waypoint'], this.gatewayBody);
    this.str(9, w['node']);
    this.str(10, w['canonicalName']);
    this.str(11, w['canonicalRevision']);
    this.enumeration(12, w['workloadType'], WORKLOAD_TYPE);
    this.str(13, w['workloadName']);
    this.bool(14, w['nativeTunnel']);
    this.strings(16, w['authorizationPolicies']);
    this.enumeration(17, w['status'], WORKLOAD_STATUS);
    this.str(18, w['clusterId']);
    this.optionalMessage(19, w['networkGateway'], this.gatewayBody);
    this.str(20, w['uid']);
    this.str(21, w['hostname']);
    const services = w['services'];
    if (services !== undefined) {
      if (typeof services !== 'object' || services === null || Array.isArray(services)) throw UNSUPPORTED;
      // map<string, PortList>: one entry per key in the object's order; key (1) and value (2) always written.
      for (const k in services) {
        if (!hasOwn(services, k)) throw UNSUPPORTED;
        const start = this.open(22);
        this.tag(1, LEN);
        this.utf8Value(k);
        this.message(2, (services as Json)[k], this.portListBody);
        this.close(start);
      }
    }
    this.optionalMessage(23, w['applicationTunnel'], this.applicationTunnelBody);
    this.optionalMessage(24, w['locality'], this.localityBody);
    this.enumeration(25, w['networkMode'], NETWORK_MODE);
    // google.protobuf.UInt32Value: a bare number in JSON, a message (present even for 0) on the wire.
    const capacity = w['capacity'];
    if (capacity !== undefined) this.message(27, capacity, this.uint32ValueBody);
  }

  private service(v: unknown): void {
    const s = object(v, SERVICE_KEYS);
    this.str(1, s['name']);
    this.str(2, s['namespace']);
    this.str(3, s['hostname']);
    this.repeated(4, s['addresses'], this.networkAddressBody);
    this.repeated(5, s['ports'], this.portBody);
    this.strings(6, s['subjectAltNames']);
    this.optionalMessage(7, s['waypoint'], this.gatewayBody);
    this.optionalMessage(8, s['loadBalancing'], this.loadBalancingBody);
    this.enumeration(9, s['ipFamilies'], IP_FAMILIES);
    this.bool(11, s['canonical']);
    this.bool(12, s['ingressUseWaypoint']);
    this.repeated(13, s['weightedWaypoints'], this.weightedWaypointBody);
    this.enumeration(14, s['visibility'], VISIBILITY);
  }

  private gatewayAddress(v: unknown): void {
    const g = object(v, GATEWAY_KEYS);
    // The oneof `destination`: at most one member.
    if (g['hostname'] !== undefined && g['address'] !== undefined) throw UNSUPPORTED;
    this.optionalMessage(1, g['hostname'], this.namespacedHostnameBody);
    this.optionalMessage(2, g['address'], this.networkAddressBody);
    this.uint32(3, g['hboneMtlsPort']);
  }

  private networkAddress(v: unknown): void {
    const a = object(v, NETWORK_ADDRESS_KEYS);
    this.str(1, a['network']);
    this.bytesValue(2, a['address'], false);
    // `optional uint32 length`: explicit presence, written when set, 0 included.
    const length = a['length'];
    if (length !== undefined) {
      this.tag(3, VARINT);
      this.varint(uint32Of(length));
    }
  }

  private port(v: unknown): void {
    const p = object(v, PORT_KEYS);
    this.uint32(1, p['servicePort']);
    this.uint32(2, p['targetPort']);
    this.enumeration(3, p['appProtocol'], APP_PROTOCOL);
  }

  // ---- istio.security ----

  private match(v: unknown): void {
    const m = object(v, MATCH_KEYS);
    this.repeated(1, m['namespaces'], this.stringMatchBody);
    this.repeated(2, m['notNamespaces'], this.stringMatchBody);
    this.repeated(3, m['principals'], this.stringMatchBody);
    this.repeated(4, m['notPrincipals'], this.stringMatchBody);
    this.repeated(5, m['sourceIps'], this.authzAddressBody);
    this.repeated(6, m['notSourceIps'], this.authzAddressBody);
    this.repeated(7, m['destinationIps'], this.authzAddressBody);
    this.repeated(8, m['notDestinationIps'], this.authzAddressBody);
    this.packedUint32(9, m['destinationPorts']);
    this.packedUint32(10, m['notDestinationPorts']);
    this.repeated(11, m['serviceAccounts'], this.serviceAccountBody);
    this.repeated(12, m['notServiceAccounts'], this.serviceAccountBody);
  }

  // ---- message bodies, made once per writer (no closure per message written) ----

  private readonly workloadBody = (v: unknown) => this.workload(v);
  private readonly serviceBody = (v: unknown) => this.service(v);
  private readonly gatewayBody = (v: unknown) => this.gatewayAddress(v);
  private readonly networkAddressBody = (v: unknown) => this.networkAddress(v);
  private readonly portBody = (v: unknown) => this.port(v);
  private readonly portListBody = (v: unknown) => this.repeated(1, object(v, PORT_LIST_KEYS)['ports'], this.portBody);
  private readonly uint32ValueBody = (v: unknown) => this.uint32(1, v);
  private readonly namespacedHostnameBody = (v: unknown) => {
    const nh = object(v, NAMESPACED_HOSTNAME_KEYS);
    this.str(1, nh['namespace']);
    this.str(2, nh['hostname']);
  };
  private readonly applicationTunnelBody = (v: unknown) => {
    const at = object(v, APP_TUNNEL_KEYS);
    this.enumeration(1, at['protocol'], TUNNEL_APP_PROTOCOL);
    this.uint32(2, at['port']);
  };
  private readonly localityBody = (v: unknown) => {
    const loc = object(v, LOCALITY_KEYS);
    this.str(1, loc['region']);
    this.str(2, loc['zone']);
    this.str(3, loc['subzone']);
  };
  private readonly loadBalancingBody = (v: unknown) => {
    const lb = object(v, LB_KEYS);
    this.packedEnums(1, lb['routingPreference'], LB_SCOPE);
    this.enumeration(2, lb['mode'], LB_MODE);
    this.enumeration(3, lb['healthPolicy'], LB_HEALTH);
  };
  private readonly weightedWaypointBody = (v: unknown) => {
    const ww = object(v, WEIGHTED_KEYS);
    this.optionalMessage(1, ww['destination'], this.gatewayBody);
    this.uint32(2, ww['weight']);
  };
  private readonly groupBody = (v: unknown) => this.repeated(1, object(v, GROUP_KEYS)['rules'], this.rulesBody);
  private readonly rulesBody = (v: unknown) => this.repeated(2, object(v, RULES_KEYS)['matches'], this.matchBody);
  private readonly matchBody = (v: unknown) => this.match(v);
  private readonly stringMatchBody = (v: unknown) => {
    const sm = object(v, STRING_MATCH_KEYS);
    let n = 0;
    for (const _ in sm) n++;
    // The oneof `match_type`: exactly one member; strings are written even when empty (a set oneof).
    if (n !== 1) throw UNSUPPORTED;
    if (sm['exact'] !== undefined) this.oneofString(1, sm['exact']);
    else if (sm['prefix'] !== undefined) this.oneofString(2, sm['prefix']);
    else if (sm['suffix'] !== undefined) this.oneofString(3, sm['suffix']);
    else this.message(4, sm['presence'], this.emptyBody);
  };
  private readonly emptyBody = (v: unknown) => {
    object(v, NO_KEYS);
  };
  private readonly authzAddressBody = (v: unknown) => {
    const a = object(v, AUTHZ_ADDRESS_KEYS);
    this.bytesValue(1, a['address'], false);
    this.uint32(2, a['length']);
  };
  private readonly serviceAccountBody = (v: unknown) => {
    const sa = object(v, SA_MATCH_KEYS);
    this.str(1, sa['namespace']);
    this.str(2, sa['serviceAccount']);
  };

  // ---- fields ----

  /** A singular string with implicit presence (left out when empty). */
  private str(field: number, v: unknown): void {
    if (v === undefined) return;
    if (typeof v !== 'string') throw UNSUPPORTED;
    if (v === '') return;
    this.tag(field, LEN);
    this.utf8Value(v);
  }

  private oneofString(field: number, v: unknown): void {
    if (typeof v !== 'string') throw UNSUPPORTED;
    this.tag(field, LEN);
    this.utf8Value(v);
  }

  private strings(field: number, v: unknown): void {
    if (v === undefined) return;
    if (!Array.isArray(v)) throw UNSUPPORTED;
    for (const s of v) this.oneofString(field, s);
  }

  private bool(field: number, v: unknown): void {
    if (v === undefined) return;
    if (typeof v !== 'boolean') throw UNSUPPORTED;
    if (!v) return;
    this.tag(field, VARINT);
    this.varint(1);
  }

  private uint32(field: number, v: unknown): void {
    if (v === undefined) return;
    const n = uint32Of(v);
    if (n === 0) return;
    this.tag(field, VARINT);
    this.varint(n);
  }

  /** An enum given by its value name (a number, as proto3 JSON also allows, is left to protobuf-es). */
  private enumeration(field: number, v: unknown, values: Readonly<Record<string, number>>): void {
    if (v === undefined) return;
    const n = enumOf(v, values);
    if (n === 0) return;
    this.tag(field, VARINT);
    this.varint(n);
  }

  private packedEnums(field: number, v: unknown, values: Readonly<Record<string, number>>): void {
    if (v === undefined) return;
    if (!Array.isArray(v)) throw UNSUPPORTED;
    if (v.length === 0) return;
    const start = this.open(field);
    for (const x of v) this.varint(enumOf(x, values));
    this.close(start);
  }

  private packedUint32(field: number, v: unknown): void {
    if (v === undefined) return;
    if (!Array.isArray(v)) throw UNSUPPORTED;
    if (v.length === 0) return;
    const start = this.open(field);
    for (const x of v) this.varint(uint32Of(x));
    this.close(start);
  }

  /** Bytes given as canonical base64; `always`: written even when empty (a repeated element). */
  private bytesValue(field: number, v: unknown, always: boolean): void {
    if (v === undefined) return;
    if (typeof v !== 'string') throw UNSUPPORTED;
    const len = base64Length(v);
    if (len === 0 && !always) return;
    this.tag(field, LEN);
    this.varint(len);
    this.ensure(len);
    let o = this.pos;
    const b = this.buf;
    for (let i = 0; i < v.length; i += 4) {
      const c0 = B64[v.charCodeAt(i)]!;
      const c1 = B64[v.charCodeAt(i + 1)]!;
      const p2 = v.charCodeAt(i + 2) === 61;
      const p3 = v.charCodeAt(i + 3) === 61;
      const c2 = p2 ? 0 : B64[v.charCodeAt(i + 2)]!;
      const c3 = p3 ? 0 : B64[v.charCodeAt(i + 3)]!;
      const n = (c0 << 18) | (c1 << 12) | (c2 << 6) | c3;
      b[o++] = n >> 16;
      if (!p2) b[o++] = (n >> 8) & 0xff;
      if (!p3) b[o++] = n & 0xff;
    }
    this.pos = o;
  }

  /** A message field that is present when given (an empty object included). */
  private optionalMessage(field: number, v: unknown, body: (v: unknown) => void): void {
    if (v === undefined) return;
    this.message(field, v, body);
  }

  private message(field: number, v: unknown, body: (v: unknown) => void): void {
    const start = this.open(field);
    body(v);
    this.close(start);
  }

  private repeated(field: number, v: unknown, body: (v: unknown) => void): void {
    if (v === undefined) return;
    if (!Array.isArray(v)) throw UNSUPPORTED;
    for (const x of v) this.message(field, x, body);
  }

  // ---- primitives ----

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let len = this.buf.length * 2;
    while (len < this.pos + n) len *= 2;
    const next = new Uint8Array(len);
    next.set(this.buf.subarray(0, this.pos));
    this.buf = next;
  }

  private tag(field: number, wire: number): void {
    this.varint((field << 3) | wire);
  }

  private varint(n: number): void {
    this.ensure(5);
    const b = this.buf;
    let o = this.pos;
    while (n > 0x7f) {
      b[o++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    b[o++] = n;
    this.pos = o;
  }

  /** Starts a length-delimited field: its tag and one byte reserved for the length. */
  private open(field: number): number {
    this.tag(field, LEN);
    this.ensure(1);
    return ++this.pos;
  }

  /** Ends it: the length written before the body (moved up when it needs more than one byte). */
  private close(start: number): void {
    const len = this.pos - start;
    if (len < 0x80) {
      this.buf[start - 1] = len;
      return;
    }
    const extra = varintSize(len) - 1;
    this.ensure(extra);
    const b = this.buf;
    b.copyWithin(start + extra, start, this.pos);
    let o = start - 1;
    let n = len;
    while (n > 0x7f) {
      b[o++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    b[o] = n;
    this.pos += extra;
  }

  /** A string's UTF-8 length and bytes (ASCII directly; anything else as TextEncoder writes it, as protobuf-es). */
  private utf8Value(s: string): void {
    const n = s.length;
    let ascii = true;
    for (let i = 0; i < n; i++)
      if (s.charCodeAt(i) > 0x7f) {
        ascii = false;
        break;
      }
    if (ascii) {
      this.varint(n);
      this.ensure(n);
      const b = this.buf;
      let o = this.pos;
      for (let i = 0; i < n; i++) b[o++] = s.charCodeAt(i);
      this.pos = o;
      return;
    }
    const bytes = this.utf8.encode(s);
    this.varint(bytes.length);
    this.ensure(bytes.length);
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
  }
}
