// Test helpers for the RDS builders: hand-built services, VirtualServices, DestinationRules and
// ProxyViews (the real view is built by server/translate/view), fixture loading, and an encode check.
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { encodeResource } from '../../../envoy/encode';
import { TYPE } from '../../../envoy/typeUrls';
import { envoyRegistry } from '../../../gen/registry';
import type { RouteConfigurationJson } from '../../../gen/envoy/config/route/v3/route_pb';
import type { DestinationRuleSpec, VirtualServiceSpec } from '../../../model/istio';
import {
  DEFAULT_OPTIONS,
  type IstioConfig,
  type MeshSnapshot,
  type Protocol,
  type ProxyModel,
  type ServiceModel,
} from '../../../model/mesh';
import type { ProxyView } from '../../view/types';
import { PREVIOUS_HOSTS_TYPE, PREVIOUS_PRIORITIES_TYPE } from './retry';

export const FIXTURES = '/work/shared/fixtures';

export function service(
  name: string,
  namespace: string,
  ports: ReadonlyArray<[number, Protocol?]>,
  extra: Partial<ServiceModel> = {},
): ServiceModel {
  const hostname = `${name}.${namespace}.svc.cluster.local`;
  const address = extra.address ?? '10.96.0.10';
  return {
    hostname,
    namespace,
    name,
    registry: 'Kubernetes',
    address,
    addresses: [address],
    ports: ports.map(([port, protocol = 'HTTP']) => ({ name: `${protocol.toLowerCase()}-${port}`, port, protocol })),
    resolution: 'ClientSideLB',
    meshExternal: false,
    exportTo: [],
    labels: {},
    creationTimestamp: '2024-01-01T00:00:00Z',
    ref: { kind: 'Service', group: '', version: 'v1', namespace, name },
    ...extra,
  };
}

let counter = 0;
const meta = (name: string, namespace: string, created?: string) => ({
  name,
  namespace,
  labels: {},
  annotations: {},
  creationTimestamp: created ?? `2024-01-01T00:00:${String(counter++ % 60).padStart(2, '0')}Z`,
});

/** A VirtualService; hosts/destinations must already be FQDNs (the view resolves short names). */
export function virtualService(name: string, namespace: string, spec: VirtualServiceSpec, created?: string): IstioConfig<'VirtualService'> {
  return { kind: 'VirtualService', apiVersion: 'networking.istio.io/v1', meta: meta(name, namespace, created), spec, origin: { source: 'file', file: `${name}.yaml`, doc: 0 } };
}

export function destinationRule(name: string, namespace: string, spec: DestinationRuleSpec): IstioConfig<'DestinationRule'> {
  return { kind: 'DestinationRule', apiVersion: 'networking.istio.io/v1', meta: meta(name, namespace), spec, origin: { source: 'file' } };
}

export function proxy(name: string, namespace: string, labels: Record<string, string> = {}): ProxyModel {
  return { id: `${name}.${namespace}`, type: 'sidecar', name, namespace, labels, ips: ['10.0.0.9'], locality: { region: '', zone: '', subzone: '' } };
}

export interface ViewInput {
  proxy?: ProxyModel;
  services?: ServiceModel[];
  virtualServices?: IstioConfig<'VirtualService'>[];
  destinationRules?: IstioConfig<'DestinationRule'>[];
  outboundTrafficPolicy?: 'ALLOW_ANY' | 'REGISTRY_ONLY';
  sidecar?: IstioConfig<'Sidecar'>;
}

export function view(input: ViewInput = {}): ProxyView {
  const services = input.services ?? [];
  const drs = input.destinationRules ?? [];
  const snapshot: MeshSnapshot = {
    version: 1,
    namespaces: new Map(),
    services,
    servicesByHost: new Map(services.map((s) => [s.hostname, [s]])),
    endpoints: new Map(),
    pods: [],
    proxies: [],
    proxiesById: new Map(),
    virtualServices: input.virtualServices ?? [],
    destinationRules: drs,
    gateways: [],
    serviceEntries: [],
    sidecars: [],
    errors: [],
  };
  const v: ProxyView = {
    snapshot,
    proxy: input.proxy ?? proxy('productpage-v1-abc', 'default', { app: 'productpage', version: 'v1' }),
    options: DEFAULT_OPTIONS,
    outboundTrafficPolicy: input.outboundTrafficPolicy ?? 'ALLOW_ANY',
    services,
    virtualServices: input.virtualServices ?? [],
    serviceTargets: [],
    destinationRule: (h) => {
      const d = drs.find((x) => x.spec.host === h);
      return d ? { spec: d.spec, from: [d] } : undefined;
    },
    service: (h) => services.find((s) => s.hostname === h),
    endpoints: () => [],
  };
  if (input.sidecar) v.sidecar = input.sidecar;
  return v;
}

/** model/config.go ResolveShortnameToFQDN for fixture VirtualServices (what the view does). */
export function fqdn(host: string, namespace: string): string {
  return host.includes('.') || host.startsWith('*') ? host : `${host}.${namespace}.svc.cluster.local`;
}

/** Loads a Bookinfo VirtualService fixture as it is, resolving short names relative to `namespace`. */
export function bookinfoVirtualService(file: string, namespace = 'default'): IstioConfig<'VirtualService'> {
  const text = readFileSync(`${FIXTURES}/istio-bookinfo/networking/${file}`, 'utf8');
  const doc = parseAllDocuments(text).map((d) => d.toJS() as { kind: string; metadata: { name: string }; spec: VirtualServiceSpec })
    .find((d) => d?.kind === 'VirtualService');
  if (!doc) throw new Error(`no VirtualService in ${file}`);
  const spec: VirtualServiceSpec = JSON.parse(JSON.stringify(doc.spec));
  spec.hosts = (spec.hosts ?? []).map((h) => fqdn(h, namespace));
  for (const h of spec.http ?? []) for (const r of h.route ?? []) r.destination.host = fqdn(r.destination.host, namespace);
  const vs = virtualService(doc.metadata.name, namespace, spec);
  return { ...vs, origin: { source: 'file', file, doc: 0 } };
}

/** Removes Any payloads whose type the generated registry does not hold yet (see the RDS report). */
function stripUnregistered(json: unknown): unknown {
  const missing = [PREVIOUS_HOSTS_TYPE, PREVIOUS_PRIORITIES_TYPE].filter((t) => !envoyRegistry.getMessage(t.slice(t.lastIndexOf('/') + 1)));
  if (missing.length === 0) return json;
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    const out: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(v)) {
      if (k === 'typedConfig' && val && typeof val === 'object' && missing.includes((val as { '@type'?: string })['@type'] ?? '')) continue;
      out[k] = walk(val);
    }
    return out;
  };
  return walk(json);
}

/** Encodes a route configuration with the project's encoder (throws on schema mismatch) and returns its Envoy JSON. */
export function encodeRoute(rc: RouteConfigurationJson) {
  return encodeResource(TYPE.route, rc.name ?? '', stripUnregistered(rc)).json;
}

/** camelCase JSON keys → Envoy's snake_case (values untouched). */
export function snakeKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(snakeKeys);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).map(([k, val]) => [k.startsWith('@') ? k : k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snakeKeys(val)]));
}

/** The typed JSON is already canonical proto3 JSON: encoding then printing it changes nothing but key case. */
export function canonicalDiff(rc: RouteConfigurationJson): { encoded: unknown; typed: unknown } {
  return { encoded: encodeRoute(rc), typed: snakeKeys(stripUnregistered(rc)) };
}
