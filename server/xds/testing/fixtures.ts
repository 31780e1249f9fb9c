// Small hand-built xDS resources and a switchable generator for the ADS tests and demos.
// Shapes follow what grpc-js-xds accepts (see ../shared/reference/grpc-xds-client-notes.md).
import { encodeResource, type EncodedResource } from '../../envoy/encode';
import { EXT, TYPE, type TypeUrl } from '../../envoy/typeUrls';
import type { AdsGenerator, ClientInfo, ResourceSet } from '../types';

export const edsCluster = (name: string, extra: Record<string, unknown> = {}): EncodedResource =>
  encodeResource(TYPE.cluster, name, {
    name,
    type: 'EDS',
    lbPolicy: 'ROUND_ROBIN',
    edsClusterConfig: { edsConfig: { ads: {}, resourceApiVersion: 'V3' }, serviceName: name },
    ...extra,
  });

export const loadAssignment = (cluster: string, endpoints: Array<[string, number]>, weight = 1): EncodedResource =>
  encodeResource(TYPE.endpoint, cluster, {
    clusterName: cluster,
    endpoints: [
      {
        locality: { region: 'local', zone: 'a' },
        loadBalancingWeight: weight,
        lbEndpoints: endpoints.map(([address, portValue]) => ({ endpoint: { address: { socketAddress: { address, portValue } } } })),
      },
    ],
  });

/** An API listener (proxyless gRPC) whose HCM takes routes from RDS `routeName`. */
export const apiListener = (name: string, routeName: string, statPrefix = 'meshscope'): EncodedResource =>
  encodeResource(TYPE.listener, name, {
    name,
    apiListener: {
      apiListener: {
        '@type': EXT.hcm,
        statPrefix,
        rds: { configSource: { ads: {}, resourceApiVersion: 'V3' }, routeConfigName: routeName },
        httpFilters: [{ name: 'envoy.filters.http.router', typedConfig: { '@type': EXT.router } }],
      },
    },
  });

/** A route configuration with one catch-all route splitting by weight across clusters. */
export const weightedRoute = (name: string, domains: string[], weights: Array<[string, number]>): EncodedResource =>
  encodeResource(TYPE.route, name, {
    name,
    virtualHosts: [
      {
        name: `${name}-vh`,
        domains,
        routes: [
          {
            match: { prefix: '' },
            route: { weightedClusters: { clusters: weights.map(([n, w]) => ({ name: n, weight: w })) } },
          },
        ],
      },
    ],
  });

export function resourceSet(version: string, resources: readonly EncodedResource[]): ResourceSet {
  const byType = new Map<TypeUrl, Map<string, EncodedResource>>();
  for (const r of resources) {
    let m = byType.get(r.typeUrl);
    if (!m) byType.set(r.typeUrl, (m = new Map()));
    m.set(r.name, r);
  }
  return { version, byType };
}

/** A generator whose current set a test replaces; optionally per proxy id. Records who asked. */
export class SwitchableGenerator implements AdsGenerator {
  current: ResourceSet | undefined;
  perProxy = new Map<string, ResourceSet>();
  calls = 0;
  lastClient: ClientInfo | undefined;

  constructor(initial?: ResourceSet) {
    this.current = initial;
  }

  set(version: string, resources: readonly EncodedResource[]): void {
    this.current = resourceSet(version, resources);
  }

  generate(client: ClientInfo): ResourceSet | undefined {
    this.calls++;
    this.lastClient = client;
    return this.perProxy.get(client.proxyId) ?? this.current;
  }
}
