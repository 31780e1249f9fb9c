// Which kinds meshscope reads, ignores, or does not know; and how apiVersions map to store keys.
import type { IstioKind } from '../istio';
import { ISTIO_KINDS, ISTIO_SECURITY_KINDS } from '../istio';

export const ISTIO_GROUP = 'networking.istio.io';
export const ISTIO_VERSIONS = ['v1', 'v1beta1', 'v1alpha3'];
/** security.istio.io: PeerAuthentication (and AuthorizationPolicy, RequestAuthentication) at v1 and v1beta1. */
export const ISTIO_SECURITY_GROUP = 'security.istio.io';
export const ISTIO_SECURITY_VERSIONS = ['v1', 'v1beta1'];

/** The API group an Istio kind is served from. */
export const istioGroupOf = (kind: IstioKind): string => (ISTIO_SECURITY_KINDS.has(kind) ? ISTIO_SECURITY_GROUP : ISTIO_GROUP);
/** The versions that group serves. */
export const istioVersionsOf = (kind: IstioKind): readonly string[] =>
  ISTIO_SECURITY_KINDS.has(kind) ? ISTIO_SECURITY_VERSIONS : kind === 'EnvoyFilter' ? ENVOY_FILTER_VERSIONS : ISTIO_VERSIONS;
/** The EnvoyFilter CRD serves v1alpha3 only. */
export const ENVOY_FILTER_VERSIONS = ['v1alpha3'];

/** Kubernetes kinds meshscope reads, with the apiVersion group each lives in. */
export const KUBE_KINDS: Readonly<Record<string, string>> = {
  Namespace: '',
  Service: '',
  Pod: '',
  Node: '',
  EndpointSlice: 'discovery.k8s.io',
  Deployment: 'apps',
  ReplicaSet: 'apps',
  StatefulSet: 'apps',
  Ingress: 'networking.k8s.io',
  IngressClass: 'networking.k8s.io',
  /** Metadata and type only: data/stringData are discarded where objects enter (../secrets redactSecret). */
  Secret: '',
};

/** Kinds that are recognised and deliberately not read. (Secrets: only metadata and type are read, DESIGN.md §6.) */
export const IGNORED_KINDS = new Set([
  'ServiceAccount',
  'ConfigMap',
  'Role',
  'RoleBinding',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'Endpoints',
  'HorizontalPodAutoscaler',
  'PodDisruptionBudget',
  'NetworkPolicy',
  'Job',
  'CronJob',
  'DaemonSet',
  'PersistentVolumeClaim',
  'PersistentVolume',
  'LimitRange',
  'ResourceQuota',
  'MutatingWebhookConfiguration',
  'ValidatingWebhookConfiguration',
  'RequestAuthentication',
  'Telemetry',
  'WorkloadGroup',
  'ProxyConfig',
  'WasmPlugin',
  'IstioOperator',
  'PriorityClass',
  'StorageClass',
  'APIService',
  'Certificate',
  'Issuer',
  'ClusterIssuer',
  'ServiceMonitor',
  'PodMonitor',
  'Kustomization',
]);

/** Kinds without a namespace (they never get the default namespace). */
export const CLUSTER_SCOPED_KINDS = new Set([
  'Namespace',
  'Node',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'PersistentVolume',
  'MutatingWebhookConfiguration',
  'ValidatingWebhookConfiguration',
  'PriorityClass',
  'StorageClass',
  'APIService',
  'ClusterIssuer',
  'IngressClass',
  'GatewayClass',
]);

export const isIstioKind = (kind: string): kind is IstioKind => (ISTIO_KINDS as readonly string[]).includes(kind);

export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.lastIndexOf('/');
  return i < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

/**
 * Store identity `group/version/kind/namespace/name`. The core group is written `core`; the Istio versions
 * v1/v1beta1/v1alpha3 serve the same objects, so they share the key version `v1`.
 */
export function objectKey(apiVersion: string, kind: string, namespace: string | undefined, name: string): string {
  const { group, version } = splitApiVersion(apiVersion);
  // Gateway API objects are served at several versions too (v1 / v1beta1 / v1alpha2 of the same object).
  const v =
    (group === ISTIO_GROUP && ISTIO_VERSIONS.includes(version)) ||
    (group === ISTIO_SECURITY_GROUP && ISTIO_SECURITY_VERSIONS.includes(version)) ||
    group === 'gateway.networking.k8s.io'
      ? 'v1'
      : version;
  return `${group || 'core'}/${v}/${kind}/${namespace ?? ''}/${name}`;
}
