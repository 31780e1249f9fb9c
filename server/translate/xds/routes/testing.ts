// Test helpers for the RDS builders: hand-built services, VirtualServices, DestinationRules and
// ProxyViews (the real view is built by server/translate/view), fixture loading, and an encode check.
import { defaultMeshState } from '../../../model/meshOptions';
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { encodeResource } from '../../../envoy/encode';
import { TYPE } from '../../../envoy/typeUrls';
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
import { completeView } from '../../view/complete';
import type { ProxyView, ProxyViewBase } from '../../view/types';
import { istio, service as meshService } from '../../testing/meshBuilder';
import { DEFAULT_RETRY_ON, PREVIOUS_HOSTS_TYPE } from './retry';
import { fixturesDir } from '../../../testing/paths';

/** A Kubernetes Service with these ports (name `<protocol>-<port>`), VIP 10.96.0.10 and no selector or labels. */
export function service(
  name: string,
  namespace: string,
  ports: ReadonlyArray<[number, Protocol?]>,
  extra: Partial<ServiceModel> = {},
): ServiceModel {
  const base = meshService(name, namespace, {
    ports: ports.map(([port, protocol = 'HTTP']) => ({ name: `${protocol.toLowerCase()}-${port}`, port, protocol })),
    address: extra.address ?? '10.96.0.10',
    selector: null,
    labels: {},
    created: '2024-01-01T00:00:00Z',
  });
  return { ...base, ...extra };
}

/** The expected default retry policy (route/retry/retry.go DefaultPolicy): 2 retries, 503 retriable, previous-hosts predicate. */
export const DEFAULT_RETRY = {
  retryOn: DEFAULT_RETRY_ON,
  numRetries: 2,
  retryHostPredicate: [{ name: 'envoy.retry_host_predicates.previous_hosts', typedConfig: { '@type': PREVIOUS_HOSTS_TYPE } }],
  hostSelectionRetryMaxAttempts: '5',
  retriableStatusCodes: [503],
};

// No module state: the RDS builders take the view's VirtualService order as given (the view sorts by
// creation time), so a hand-built object's default creation time is a fixed one.
const DEFAULT_CREATED = '2024-01-01T00:00:00Z';

/** A VirtualService; hosts/destinations must already be FQDNs (the view resolves short names). */
export function virtualService(name: string, namespace: string, spec: VirtualServiceSpec, created?: string): IstioConfig<'VirtualService'> {
  return {
    ...istio('VirtualService', name, namespace, spec, { created: created ?? DEFAULT_CREATED }),
    origin: { source: 'file', file: `${name}.yaml`, doc: 0 },
  };
}

export function destinationRule(name: string, namespace: string, spec: DestinationRuleSpec): IstioConfig<'DestinationRule'> {
  return { ...istio('DestinationRule', name, namespace, spec, { created: DEFAULT_CREATED }), origin: { source: 'file' } };
}

export function proxy(name: string, namespace: string, labels: Record<string, string> = {}): ProxyModel {
  return {
    id: `${name}.${namespace}`,
    type: 'sidecar',
    name,
    namespace,
    labels,
    ips: ['10.0.0.9'],
    locality: { region: '', zone: '', subzone: '' },
  };
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
    workloadEntries: [],
    authorizationPolicies: [],
    peerAuthentications: [],
    errors: [],
    mesh: defaultMeshState(DEFAULT_OPTIONS),
  };
  const v: ProxyViewBase = {
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
  return completeView(v);
}

/** model/config.go ResolveShortnameToFQDN for fixture VirtualServices (what the view does). */
export function fqdn(host: string, namespace: string): string {
  return host.includes('.') || host.startsWith('*') ? host : `${host}.${namespace}.svc.cluster.local`;
}

/** Loads a Bookinfo VirtualService fixture as it is, resolving short names relative to `namespace`. */
export function bookinfoVirtualService(file: string, namespace = 'default'): IstioConfig<'VirtualService'> {
  const text = readFileSync(`${fixturesDir()}/istio-bookinfo/networking/${file}`, 'utf8');
  const doc = parseAllDocuments(text)
    .map((d) => d.toJS() as { kind: string; metadata: { name: string }; spec: VirtualServiceSpec })
    .find((d) => d?.kind === 'VirtualService');
  if (!doc) throw new Error(`no VirtualService in ${file}`);
  const spec: VirtualServiceSpec = JSON.parse(JSON.stringify(doc.spec));
  spec.hosts = (spec.hosts ?? []).map((h) => fqdn(h, namespace));
  for (const h of spec.http ?? []) for (const r of h.route ?? []) r.destination.host = fqdn(r.destination.host, namespace);
  const vs = virtualService(doc.metadata.name, namespace, spec);
  return { ...vs, origin: { source: 'file', file, doc: 0 } };
}

/** Encodes a route configuration with the project's encoder (throws on schema mismatch) and returns its Envoy JSON. */
export function encodeRoute(rc: RouteConfigurationJson) {
  return encodeResource(TYPE.route, rc.name ?? '', rc).json;
}

/** camelCase JSON keys → Envoy's snake_case (values untouched). */
export function snakeKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(snakeKeys);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v).map(([k, val]) => [k.startsWith('@') ? k : k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snakeKeys(val)]),
  );
}

/** The typed JSON is already canonical proto3 JSON: encoding then printing it changes nothing but key case. */
export function canonicalDiff(rc: RouteConfigurationJson): { encoded: unknown; typed: unknown } {
  return { encoded: encodeRoute(rc), typed: snakeKeys(rc) };
}
