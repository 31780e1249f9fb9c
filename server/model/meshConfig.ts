// MeshConfig (istio.io/api mesh/v1alpha1 MeshConfig), the fields meshscope reads, in the proto3 JSON shape
// istiod's /debug/mesh prints. Defaults are istiod's (pkg/config/mesh/mesh.go:DefaultMeshConfig); the user's
// YAML (ConfigMap `istio` in `istio-system`, key `mesh`, or `--mesh-config FILE`) is merged over them by
// ./parse/meshConfig. The effective TranslateOptions are derived by ./meshOptions.
import type { HTTPRetry, LoadBalancerSettings } from './istio';

/** MeshConfig.localityLbSetting (networking v1alpha3 LocalityLoadBalancerSetting). */
export type LocalityLoadBalancerSetting = NonNullable<LoadBalancerSettings['localityLbSetting']>;

/** The fields meshscope types; every other field istiod knows is kept as written (shown by /debug/mesh). */
export interface MeshConfig {
  enableTracing: boolean;
  accessLogFile: string;
  accessLogEncoding: 'TEXT' | 'JSON';
  accessLogFormat: string;
  enableEnvoyAccessLogService: boolean;
  /** Duration; 0s disables the sniffing timeout (listener_filters_timeout 0s). */
  protocolDetectionTimeout: string;
  ingressService: string;
  ingressControllerMode: 'UNSPECIFIED' | 'OFF' | 'DEFAULT' | 'STRICT';
  ingressClass: string;
  trustDomain: string;
  trustDomainAliases: string[];
  enableAutoMtls: boolean;
  outboundTrafficPolicy: { mode: 'ALLOW_ANY' | 'REGISTRY_ONLY' };
  inboundTrafficPolicy: { mode: 'PASSTHROUGH' | 'LOCALHOST' };
  localityLbSetting: LocalityLoadBalancerSetting;
  defaultConfig: Record<string, unknown>;
  rootNamespace: string;
  proxyListenPort: number;
  connectTimeout: string;
  defaultServiceExportTo: string[];
  defaultVirtualServiceExportTo: string[];
  defaultDestinationRuleExportTo: string[];
  dnsRefreshRate: string;
  defaultHttpRetryPolicy?: HTTPRetry;
  /** Any other MeshConfig field, as written. */
  [field: string]: unknown;
}

/** Where the effective mesh config came from (istiod: the mesh file, or the ConfigMap, or its defaults). */
export type MeshConfigSource = 'defaults' | 'configmap' | 'file';

export interface MeshConfigOrigin {
  source: MeshConfigSource;
  /** `--mesh-config` path, the file holding the ConfigMap, or the ConfigMap's API path. */
  file?: string;
  /** Document index inside `file` (ConfigMap in a multi-document file). */
  doc?: number;
  /** `istio-system/istio` for the ConfigMap. */
  object?: string;
}

/** istiod's namespace and the ConfigMap it reads the mesh config from (pilot/pkg/bootstrap/mesh.go). */
export const MESH_CONFIGMAP_NAMESPACE = 'istio-system';
export const MESH_CONFIGMAP_NAME = 'istio';
export const MESH_CONFIGMAP_KEY = 'mesh';

/** DefaultProxyConfig (the parts that matter to a control plane; merged, not replaced, by the user's defaultConfig). */
export function defaultProxyConfig(): Record<string, unknown> {
  return {
    configPath: './etc/istio/proxy',
    serviceCluster: 'istio-proxy',
    drainDuration: '45s',
    parentShutdownDuration: '60s',
    terminationDrainDuration: '5s',
    proxyAdminPort: 15000,
    concurrency: 2,
    controlPlaneAuthPolicy: 'MUTUAL_TLS',
    discoveryAddress: 'istiod.istio-system.svc:15012',
    tracing: { zipkin: { address: 'zipkin.istio-system:9411' } },
    binaryPath: '/usr/local/bin/envoy',
    statNameLength: 189,
    statusPort: 15020,
  };
}

/** DefaultMeshConfig, as fresh mutable data. */
export function defaultMeshConfig(): MeshConfig {
  return {
    enableTracing: true,
    accessLogFile: '',
    accessLogEncoding: 'TEXT',
    accessLogFormat: '',
    enableEnvoyAccessLogService: false,
    protocolDetectionTimeout: '0s',
    ingressService: 'istio-ingressgateway',
    ingressControllerMode: 'STRICT',
    ingressClass: 'istio',
    trustDomain: 'cluster.local',
    trustDomainAliases: [],
    enableAutoMtls: true,
    outboundTrafficPolicy: { mode: 'ALLOW_ANY' },
    inboundTrafficPolicy: { mode: 'PASSTHROUGH' },
    localityLbSetting: { enabled: true },
    defaultConfig: defaultProxyConfig(),
    rootNamespace: 'istio-system',
    proxyListenPort: 15001,
    connectTimeout: '10s',
    defaultServiceExportTo: ['*'],
    defaultVirtualServiceExportTo: ['*'],
    defaultDestinationRuleExportTo: ['*'],
    dnsRefreshRate: '60s',
  };
}
