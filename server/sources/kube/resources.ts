// The Kubernetes resources meshscope watches, and the RBAC verbs it needs on them (plus the one-shot ambient probe).
import { AMBIENT_PROBE_VERBS, AMBIENT_PROBES } from './ambientProbe';
// deploy/clusterrole.yaml is checked against this list by deploy/deploy.test.ts.

export interface WatchedResource {
  /** API group; '' is the core group. */
  group: string;
  /** Versions to try, most preferred first. Built-in kinds have exactly one. */
  versions: readonly string[];
  kind: string;
  /** The REST resource name (plural), as in the URL and in RBAC rules. */
  plural: string;
  namespaced: boolean;
  /** Istio CRDs may be missing or serve only some versions: discover them first. */
  discover: boolean;
  /** List and watch metadata only (PartialObjectMetadata): the object's other fields are never transferred. */
  metadataOnly?: boolean;
  /** A field selector every list and watch of this resource carries. */
  fieldSelector?: string;
  /**
   * Watch one object only (field-selected `metadata.name`, in its namespace whatever namespaces are watched;
   * RBAC limited to it by resourceNames): the mesh config ConfigMap istio-system/istio, as istiod reads it.
   */
  only?: { namespace: string; name: string };
}

/** Informers only list and watch; `get` is granted too so `kubectl auth can-i` style checks pass. */
export const RBAC_VERBS = ['get', 'list', 'watch'] as const;

const ISTIO_VERSIONS = ['v1', 'v1beta1', 'v1alpha3'] as const;
const istio = (kind: string, plural: string): WatchedResource => ({
  group: 'networking.istio.io',
  versions: ISTIO_VERSIONS,
  kind,
  plural,
  namespaced: true,
  discover: true,
});

/** security.istio.io kinds (served at v1 since Istio 1.22, and v1beta1). */
const istioSecurity = (kind: string, plural: string): WatchedResource => ({
  group: 'security.istio.io',
  versions: ['v1', 'v1beta1'],
  kind,
  plural,
  namespaced: true,
  discover: true,
});

/** Gateway API kinds istiod's Gateway API controller reads (TCPRoute/TLSRoute at v1alpha2). */
const gatewayApi = (kind: string, plural: string, versions: readonly string[], namespaced = true): WatchedResource => ({
  group: 'gateway.networking.k8s.io',
  versions,
  kind,
  plural,
  namespaced,
  discover: true,
});

/** Everything the Kubernetes source watches with the base RBAC. Secrets are apart (SECRETS_RESOURCE, opt-in). */
export const WATCHED_RESOURCES: readonly WatchedResource[] = [
  { group: '', versions: ['v1'], kind: 'Namespace', plural: 'namespaces', namespaced: false, discover: false },
  { group: '', versions: ['v1'], kind: 'Service', plural: 'services', namespaced: true, discover: false },
  { group: '', versions: ['v1'], kind: 'Pod', plural: 'pods', namespaced: true, discover: false },
  {
    group: 'discovery.k8s.io',
    versions: ['v1'],
    kind: 'EndpointSlice',
    plural: 'endpointslices',
    namespaced: true,
    discover: false,
  },
  { group: 'networking.k8s.io', versions: ['v1'], kind: 'Ingress', plural: 'ingresses', namespaced: true, discover: false },
  { group: 'networking.k8s.io', versions: ['v1'], kind: 'IngressClass', plural: 'ingressclasses', namespaced: false, discover: false },
  istio('VirtualService', 'virtualservices'),
  istio('DestinationRule', 'destinationrules'),
  istio('Gateway', 'gateways'),
  istio('ServiceEntry', 'serviceentries'),
  istio('Sidecar', 'sidecars'),
  istio('WorkloadEntry', 'workloadentries'),
  {
    group: 'security.istio.io',
    versions: ['v1', 'v1beta1'],
    kind: 'AuthorizationPolicy',
    plural: 'authorizationpolicies',
    namespaced: true,
    discover: true,
  },
  // MeshConfig: only the `istio` ConfigMap of istiod's namespace (pilot/pkg/bootstrap/mesh.go); no other ConfigMap.
  {
    group: '',
    versions: ['v1'],
    kind: 'ConfigMap',
    plural: 'configmaps',
    namespaced: true,
    discover: false,
    only: { namespace: 'istio-system', name: 'istio' },
  },
  gatewayApi('GatewayClass', 'gatewayclasses', ['v1', 'v1beta1'], false),
  gatewayApi('Gateway', 'gateways', ['v1', 'v1beta1']),
  gatewayApi('HTTPRoute', 'httproutes', ['v1', 'v1beta1']),
  gatewayApi('GRPCRoute', 'grpcroutes', ['v1', 'v1alpha2']),
  gatewayApi('ReferenceGrant', 'referencegrants', ['v1', 'v1beta1', 'v1alpha2']),
  gatewayApi('TCPRoute', 'tcproutes', ['v1alpha2']),
  gatewayApi('TLSRoute', 'tlsroutes', ['v1', 'v1alpha3', 'v1alpha2']),
  istioSecurity('PeerAuthentication', 'peerauthentications'),
  // The EnvoyFilter CRD serves v1alpha3 only: discovery falls through to it.
  { group: 'networking.istio.io', versions: ['v1alpha3'], kind: 'EnvoyFilter', plural: 'envoyfilters', namespaced: true, discover: true },
];

/**
 * Secrets, metadata only, with istiod's field selector (pilot/pkg/credentials/kube/secrets.go SecretsFieldSelector:
 * every type but Helm releases and service-account tokens; istiod accepts kubernetes.io/tls and Opaque secrets
 * holding a key pair alike). A PartialObjectMetadata carries no `type`, so the selector does the filtering and
 * the model sees the Secret's existence only. Watched only when the opt-in RBAC grants it
 * (deploy/overlays/secrets); key material is never requested.
 */
export const SECRETS_RESOURCE: WatchedResource = {
  group: '',
  versions: ['v1'],
  kind: 'Secret',
  plural: 'secrets',
  namespaced: true,
  discover: false,
  metadataOnly: true,
  fieldSelector: 'type!=helm.sh/release.v1,type!=kubernetes.io/service-account-token',
};

/** Accept headers of a metadata-only list and watch (the API server's PartialObjectMetadata views). */
export const METADATA_LIST_ACCEPT = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
export const METADATA_WATCH_ACCEPT = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';

/** `plural` or `plural.group` (as kubectl names it): the key of a resource in the source status. */
export const resourceKey = (r: Pick<WatchedResource, 'group' | 'plural'>): string => (r.group ? `${r.plural}.${r.group}` : r.plural);

export const apiVersionOf = (group: string, version: string): string => (group ? `${group}/${version}` : version);

/** The collection path: `/api/v1/services`, `/apis/G/V/namespaces/NS/P`, ... */
export function collectionPath(group: string, version: string, plural: string, namespace?: string): string {
  const base = group ? `/apis/${group}/${version}` : `/api/${version}`;
  return namespace ? `${base}/namespaces/${encodeURIComponent(namespace)}/${plural}` : `${base}/${plural}`;
}

/**
 * The RBAC rules the watched resources need: one rule per API group, resources sorted; then one rule per
 * single-object watch, limited by resourceNames (list/watch authorized through the metadata.name field selector).
 */
export function requiredRbacRules(): { apiGroups: string[]; resources: string[]; resourceNames?: string[]; verbs: string[] }[] {
  const byGroup = new Map<string, string[]>();
  const named = WATCHED_RESOURCES.filter((r) => r.only).map((r) => ({
    apiGroups: [r.group],
    resources: [r.plural],
    resourceNames: [r.only!.name],
    verbs: [...RBAC_VERBS],
  }));
  for (const r of WATCHED_RESOURCES) {
    if (r.only) continue;
    const list = byGroup.get(r.group) ?? [];
    list.push(r.plural);
    byGroup.set(r.group, list);
  }
  return [...byGroup.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([group, resources]) =>
        ({ apiGroups: [group], resources: [...resources].sort(), verbs: [...RBAC_VERBS] }) as ReturnType<typeof requiredRbacRules>[number],
    )
    .concat(named)
    .concat([{ apiGroups: ['apps'], resources: AMBIENT_PROBES.map((r) => r.plural), verbs: [...AMBIENT_PROBE_VERBS] }]);
}
