// What istiod sends ztunnel, as `meshscope ztunnel-config -o json` and GET /api/ztunnel print it (issue #20 §3):
// `{"workloads": [...], "services": [...], "policies": [...]}`, each element the proto3 JSON of the
// istio.workload.Workload / istio.workload.Service / istio.security.Authorization ztunnel is served (decoded from
// the encoded bytes), except that IP bytes are text: Workload.addresses a list of IPs, a NetworkAddress
// `<network>/<ip>`, a GatewayAddress `{"hostname": {...}, "hboneMtlsPort"}` or `{"address": "<network>/<ip>",
// "hboneMtlsPort"}`, an authorization Address `{"address": "<ip>", "length"}`.
import type { JsonValue } from '@bufbuild/protobuf';
import { protoJson } from '../envoy/protoJson';
import type { LoadError, MeshSnapshot, ProxyModel, TranslateOptions } from '../model/mesh';
import { optionsOf } from '../model/mesh';
import { fromBase64, ipText } from '../translate/ztunnel/ip';
import { encodeTable, translateSafely } from './encodeTable';
import { buildProxyTable } from './stages';

type Obj = { [k: string]: JsonValue };

export interface ZtunnelConfig {
  workloads: Obj[];
  services: Obj[];
  policies: Obj[];
}

export const ZTUNNEL_SECTIONS = ['all', 'workloads', 'services', 'policies'] as const;
export type ZtunnelSection = (typeof ZTUNNEL_SECTIONS)[number];

/** A ztunnel as istiod sees one connect (its translation reads nothing of it: proxyKinds perProxy false). */
export const ZTUNNEL_PROXY: ProxyModel = Object.freeze({
  id: 'ztunnel',
  type: 'ztunnel',
  name: 'ztunnel',
  namespace: 'istio-system',
  labels: {},
  ips: [],
  locality: { region: '', zone: '', subzone: '' },
});

const ip = (b64: JsonValue | undefined): string => (typeof b64 === 'string' ? ipText(fromBase64(b64) ?? new Uint8Array()) : '');

/** A NetworkAddress → `<network>/<ip>` (`/10.96.0.5` with no network). */
const networkAddress = (a: JsonValue): string => {
  const o = (a ?? {}) as Obj;
  return `${typeof o['network'] === 'string' ? o['network'] : ''}/${ip(o['address'])}`;
};

function gatewayAddress(g: JsonValue): JsonValue {
  const o = { ...((g ?? {}) as Obj) };
  if (o['address'] !== undefined) o['address'] = networkAddress(o['address']);
  return o;
}

function workloadText(w: Obj): Obj {
  const o = { ...w };
  if (Array.isArray(o['addresses'])) o['addresses'] = o['addresses'].map(ip);
  for (const k of ['waypoint', 'networkGateway']) if (o[k] !== undefined) o[k] = gatewayAddress(o[k]);
  return o;
}

function serviceText(s: Obj): Obj {
  const o = { ...s };
  if (Array.isArray(o['addresses'])) o['addresses'] = o['addresses'].map(networkAddress);
  if (o['waypoint'] !== undefined) o['waypoint'] = gatewayAddress(o['waypoint']);
  if (Array.isArray(o['weightedWaypoints']))
    o['weightedWaypoints'] = o['weightedWaypoints'].map((w) => {
      const x = { ...((w ?? {}) as Obj) };
      if (x['destination'] !== undefined) x['destination'] = gatewayAddress(x['destination']);
      return x;
    });
  return o;
}

const IP_MATCH_FIELDS = ['sourceIps', 'notSourceIps', 'destinationIps', 'notDestinationIps'];

function policyText(p: Obj): Obj {
  const o = { ...p };
  if (!Array.isArray(o['groups'])) return o;
  o['groups'] = o['groups'].map((g) => {
    const group = { ...((g ?? {}) as Obj) };
    if (Array.isArray(group['rules']))
      group['rules'] = group['rules'].map((r) => {
        const rule = { ...((r ?? {}) as Obj) };
        if (Array.isArray(rule['matches']))
          rule['matches'] = rule['matches'].map((m) => {
            const match = { ...((m ?? {}) as Obj) };
            for (const k of IP_MATCH_FIELDS)
              if (Array.isArray(match[k])) match[k] = match[k].map((a) => ({ ...((a ?? {}) as Obj), address: ip((a as Obj)['address']) }));
            return match;
          });
        return rule;
      });
    return group;
  });
  return o;
}

/** The ztunnel view of a snapshot as the §3 JSON, with the translation's problems. */
export function ztunnelConfig(
  snapshot: MeshSnapshot,
  options: TranslateOptions = optionsOf(snapshot),
): { config: ZtunnelConfig; errors: LoadError[] } {
  const proxy = ZTUNNEL_PROXY;
  const r = encodeTable(
    proxy,
    snapshot.version,
    translateSafely(proxy, () => buildProxyTable(snapshot, proxy, options)),
  );
  const config: ZtunnelConfig = { workloads: [], services: [], policies: [] };
  for (const a of r.addresses ?? []) {
    const addr = protoJson(a) as Obj;
    if (addr['workload'] !== undefined) config.workloads.push(workloadText(addr['workload'] as Obj));
    else if (addr['service'] !== undefined) config.services.push(serviceText(addr['service'] as Obj));
  }
  for (const p of r.authorizations ?? []) config.policies.push(policyText(protoJson(p) as Obj));
  return { config, errors: r.errors };
}

/** One section of the config (`all`: the whole object). */
export function ztunnelSection(c: ZtunnelConfig, section: ZtunnelSection): Partial<ZtunnelConfig> {
  return section === 'all' ? c : { [section]: c[section] };
}
