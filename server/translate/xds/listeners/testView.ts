// Test helper: hand-built ProxyViews (the real buildProxyView lives in server/translate/view and is
// built by another module; these tests code against the ProxyView interface only).
import { defaultMeshState } from '../../../model/meshOptions';
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import type { DestinationRuleSpec, SidecarSpec, VirtualServiceSpec } from '../../../model/istio';
import {
  DEFAULT_OPTIONS,
  type EndpointModel,
  type IstioConfig,
  type MeshSnapshot,
  type Protocol,
  type ProxyModel,
  type Resolution,
  type ServiceModel,
} from '../../../model/mesh';
import { completeView } from '../../view/complete';
import type { ProxyView, ProxyViewBase, ServiceTarget } from '../../view/types';
import { endpoint as meshEndpoint, istio } from '../../testing/meshBuilder';
import { bookinfo } from '../../../testing/paths';

export interface SvcOpts {
  address?: string;
  resolution?: Resolution;
  registry?: ServiceModel['registry'];
  selector?: Record<string, string>;
  hostname?: string;
  externalName?: string;
}

export function svc(name: string, ns: string, ports: [number, Protocol, string?][], o: SvcOpts = {}): ServiceModel {
  const address = o.address ?? '0.0.0.0';
  const registry = o.registry ?? 'Kubernetes';
  const s: ServiceModel = {
    hostname: o.hostname ?? `${name}.${ns}.svc.cluster.local`,
    namespace: ns,
    name,
    registry,
    address,
    addresses: [address],
    ports: ports.map(([port, protocol, pname]) => ({ port, protocol, name: pname ?? protocol.toLowerCase() })),
    resolution: o.resolution ?? 'ClientSideLB',
    meshExternal: registry === 'External',
    exportTo: [],
    labels: {},
    creationTimestamp: '2024-01-01T00:00:00Z',
    ref: { kind: registry === 'Kubernetes' ? 'Service' : 'ServiceEntry', group: '', version: 'v1', namespace: ns, name },
  };
  if (o.selector) s.selector = o.selector;
  if (o.externalName) s.externalName = o.externalName;
  return s;
}

export function vs(name: string, ns: string, spec: VirtualServiceSpec, file = `${name}.yaml`): IstioConfig<'VirtualService'> {
  return { ...istio('VirtualService', name, ns, spec, { created: '2024-01-01T00:00:00Z' }), origin: { source: 'file', file, doc: 0 } };
}

/** A healthy endpoint in `default` with no labels or locality (`servicePort` defaults to `port`). */
export function endpoint(address: string, port: number, servicePort = port): EndpointModel {
  return meshEndpoint(address, port, servicePort);
}

export interface ViewOpts {
  proxy?: Partial<ProxyModel>;
  services?: ServiceModel[];
  virtualServices?: IstioConfig<'VirtualService'>[];
  serviceTargets?: ServiceTarget[];
  /** hostname → endpoints (all ports). */
  endpoints?: Record<string, EndpointModel[]>;
  destinationRules?: Record<string, DestinationRuleSpec>;
  outboundTrafficPolicy?: ProxyView['outboundTrafficPolicy'];
  sidecar?: SidecarSpec;
}

const EMPTY_SNAPSHOT: MeshSnapshot = {
  version: 1,
  namespaces: new Map(),
  services: [],
  servicesByHost: new Map(),
  endpoints: new Map(),
  pods: [],
  proxies: [],
  proxiesById: new Map(),
  virtualServices: [],
  destinationRules: [],
  gateways: [],
  serviceEntries: [],
  sidecars: [],
  workloadEntries: [],
  authorizationPolicies: [],
  peerAuthentications: [],
  errors: [],
  mesh: defaultMeshState(DEFAULT_OPTIONS),
};

export function makeView(o: ViewOpts = {}): ProxyView {
  const proxy: ProxyModel = {
    id: 'app-1.default',
    type: 'sidecar',
    name: 'app-1',
    namespace: 'default',
    labels: { app: 'app' },
    ips: ['10.244.0.10'],
    locality: { region: '', zone: '', subzone: '' },
    ...o.proxy,
  };
  const services = o.services ?? [];
  const view: ProxyViewBase = {
    snapshot: { ...EMPTY_SNAPSHOT, services },
    proxy,
    options: DEFAULT_OPTIONS,
    outboundTrafficPolicy: o.outboundTrafficPolicy ?? 'ALLOW_ANY',
    services,
    virtualServices: o.virtualServices ?? [],
    serviceTargets: o.serviceTargets ?? [],
    destinationRule: (h) => {
      const spec = o.destinationRules?.[h];
      return spec ? { spec, from: [] } : undefined;
    },
    service: (h) => services.find((s) => s.hostname === h),
    endpoints: (s, port) => (o.endpoints?.[s.hostname] ?? []).filter((e) => e.servicePort === port),
  };
  if (o.sidecar) {
    view.sidecar = {
      kind: 'Sidecar',
      apiVersion: 'networking.istio.io/v1',
      meta: { name: 'default', namespace: proxy.namespace, labels: {}, annotations: {}, creationTimestamp: '2024-01-01T00:00:00Z' },
      spec: o.sidecar,
      origin: { source: 'file' },
    };
  }
  return completeView(view);
}

/** Protocol from a port name as Kubernetes services declare it (conversion.go ConvertProtocol, name prefix). */
function protocolFromName(name: string | undefined, port: number): Protocol {
  const prefix = (name ?? '').split('-')[0]?.toLowerCase() ?? '';
  const known: Record<string, Protocol> = {
    http: 'HTTP',
    http2: 'HTTP2',
    https: 'HTTPS',
    grpc: 'GRPC',
    tcp: 'TCP',
    tls: 'TLS',
    mongo: 'Mongo',
    mysql: 'MySQL',
    redis: 'Redis',
  };
  return known[prefix] ?? ([25, 53, 3306, 27017].includes(port) ? 'TCP' : 'Unsupported');
}

interface K8sService {
  kind?: string;
  metadata?: { name?: string };
  spec?: { ports?: { port: number; name?: string; targetPort?: number }[]; selector?: Record<string, string> };
}

/** The Services of Istio's Bookinfo sample, read from the fixture as it is (namespace `default`). */
export function bookinfoServices(): ServiceModel[] {
  const docs = parseAllDocuments(readFileSync(bookinfo('platform', 'bookinfo.yaml'), 'utf8')).map((d) => d.toJS() as K8sService | null);
  return docs
    .filter((d): d is K8sService => d?.kind === 'Service')
    .map((d, i) => {
      const name = d.metadata?.name ?? `svc${i}`;
      const ports = (d.spec?.ports ?? []).map((p): [number, Protocol, string?] => [p.port, protocolFromName(p.name, p.port), p.name]);
      return svc(name, 'default', ports, { address: `10.96.0.${10 + i}`, selector: d.spec?.selector ?? {} });
    });
}
