// The WDS wire writer's tables (server/translate/ztunnel/wire.ts): the enum values and the known JSON keys of each
// message of proto/ambient/istio/{workload/workload,security/authorization}.proto, and the small checks the writer
// makes of a JSON value before it writes it. Anything not known exactly throws Unsupported (the caller then encodes
// with protobuf-es). Constants only: no state.

export type Json = Record<string, unknown>;

/** A failure inside a writer: the whole message falls back to protobuf-es. */
export class Unsupported extends Error {}
export const UNSUPPORTED = new Unsupported('not handled by the WDS wire writer');

// Wire types.
export const VARINT = 0;
export const LEN = 2;

export const TUNNEL_PROTOCOL: Readonly<Record<string, number>> = { NONE: 0, HBONE: 1, LEGACY_ISTIO_MTLS: 2 };
export const WORKLOAD_TYPE: Readonly<Record<string, number>> = { DEPLOYMENT: 0, CRONJOB: 1, POD: 2, JOB: 3 };
export const WORKLOAD_STATUS: Readonly<Record<string, number>> = { HEALTHY: 0, UNHEALTHY: 1 };
export const NETWORK_MODE: Readonly<Record<string, number>> = { STANDARD: 0, HOST_NETWORK: 1 };
export const APP_PROTOCOL: Readonly<Record<string, number>> = { UNKNOWN: 0, HTTP11: 1, HTTP2: 2, GRPC: 3, TCP: 4, TLS: 5 };
export const TUNNEL_APP_PROTOCOL: Readonly<Record<string, number>> = { NONE: 0, PROXY: 1 };
export const IP_FAMILIES: Readonly<Record<string, number>> = { AUTOMATIC: 0, IPV4_ONLY: 1, IPV6_ONLY: 2, DUAL: 3 };
export const VISIBILITY: Readonly<Record<string, number>> = { PUBLIC: 0, NAMESPACE: 1 };
export const LB_SCOPE: Readonly<Record<string, number>> = {
  UNSPECIFIED_SCOPE: 0,
  REGION: 1,
  ZONE: 2,
  SUBZONE: 3,
  NODE: 4,
  CLUSTER: 5,
  NETWORK: 6,
};
export const LB_MODE: Readonly<Record<string, number>> = { UNSPECIFIED_MODE: 0, STRICT: 1, FAILOVER: 2, PASSTHROUGH: 3 };
export const LB_HEALTH: Readonly<Record<string, number>> = { ONLY_HEALTHY: 0, ALLOW_ALL: 1 };
export const AUTHZ_SCOPE: Readonly<Record<string, number>> = { GLOBAL: 0, NAMESPACE: 1, WORKLOAD_SELECTOR: 2 };
export const AUTHZ_ACTION: Readonly<Record<string, number>> = { ALLOW: 0, DENY: 1 };

export const B64: Int8Array = (() => {
  const t = new Int8Array(128).fill(-1);
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  for (let i = 0; i < 64; i++) t[alphabet.charCodeAt(i)] = i;
  return t;
})();

export const hasOwn = (o: object, k: string) => Object.hasOwn(o, k);

/** The plain JSON object `v` with only keys from `known` (each with a defined, non-null value), else Unsupported. */
export function object(v: unknown, known: ReadonlySet<string>): Json {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw UNSUPPORTED;
  const o = v as Json;
  for (const k in o) {
    if (!known.has(k) || !hasOwn(o, k)) throw UNSUPPORTED;
    const x = o[k];
    if (x === undefined || x === null) throw UNSUPPORTED;
  }
  return o;
}

export const keys = (...ks: string[]): ReadonlySet<string> => new Set(ks);
export const ADDRESS_KEYS = keys('workload', 'service');
export const WORKLOAD_KEYS = keys(
  'name',
  'namespace',
  'addresses',
  'network',
  'tunnelProtocol',
  'trustDomain',
  'serviceAccount',
  'waypoint',
  'node',
  'canonicalName',
  'canonicalRevision',
  'workloadType',
  'workloadName',
  'nativeTunnel',
  'authorizationPolicies',
  'status',
  'clusterId',
  'networkGateway',
  'uid',
  'hostname',
  'services',
  'applicationTunnel',
  'locality',
  'networkMode',
  'capacity',
);
export const SERVICE_KEYS = keys(
  'name',
  'namespace',
  'hostname',
  'addresses',
  'ports',
  'subjectAltNames',
  'waypoint',
  'loadBalancing',
  'ipFamilies',
  'canonical',
  'ingressUseWaypoint',
  'weightedWaypoints',
  'visibility',
);
export const GATEWAY_KEYS = keys('hostname', 'address', 'hboneMtlsPort');
export const NETWORK_ADDRESS_KEYS = keys('network', 'address', 'length');
export const NAMESPACED_HOSTNAME_KEYS = keys('namespace', 'hostname');
export const PORT_KEYS = keys('servicePort', 'targetPort', 'appProtocol');
export const PORT_LIST_KEYS = keys('ports');
export const LOCALITY_KEYS = keys('region', 'zone', 'subzone');
export const APP_TUNNEL_KEYS = keys('protocol', 'port');
export const LB_KEYS = keys('routingPreference', 'mode', 'healthPolicy');
export const WEIGHTED_KEYS = keys('destination', 'weight');
export const AUTHZ_KEYS = keys('name', 'namespace', 'scope', 'action', 'groups', 'dryRun');
export const GROUP_KEYS = keys('rules');
export const RULES_KEYS = keys('matches');
export const MATCH_KEYS = keys(
  'namespaces',
  'notNamespaces',
  'principals',
  'notPrincipals',
  'sourceIps',
  'notSourceIps',
  'destinationIps',
  'notDestinationIps',
  'destinationPorts',
  'notDestinationPorts',
  'serviceAccounts',
  'notServiceAccounts',
);
export const STRING_MATCH_KEYS = keys('exact', 'prefix', 'suffix', 'presence');
export const AUTHZ_ADDRESS_KEYS = keys('address', 'length');
export const SA_MATCH_KEYS = keys('namespace', 'serviceAccount');
export const NO_KEYS = keys();

export const varintSize = (n: number): number => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5);

export function uint32Of(v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0 || v > 0xffffffff) throw UNSUPPORTED;
  return v;
}

export function enumOf(v: unknown, values: Readonly<Record<string, number>>): number {
  if (typeof v !== 'string' || !hasOwn(values, v)) throw UNSUPPORTED;
  return values[v]!;
}

/** The decoded length of canonical, padded standard base64; Unsupported for anything else. */
export function base64Length(s: string): number {
  const n = s.length;
  if (n % 4 !== 0) throw UNSUPPORTED;
  if (n === 0) return 0;
  let pad = 0;
  if (s.charCodeAt(n - 1) === 61) pad = s.charCodeAt(n - 2) === 61 ? 2 : 1;
  for (let i = 0; i < n - pad; i++) {
    const c = s.charCodeAt(i);
    if (c >= 128 || B64[c]! < 0) throw UNSUPPORTED;
  }
  // Canonical: the bits a padded group leaves over are zero (protobuf-es would drop them; such text is not ours).
  if (pad === 1 && (B64[s.charCodeAt(n - 2)]! & 0x3) !== 0) throw UNSUPPORTED;
  if (pad === 2 && (B64[s.charCodeAt(n - 3)]! & 0xf) !== 0) throw UNSUPPORTED;
  return (n / 4) * 3 - pad;
}
