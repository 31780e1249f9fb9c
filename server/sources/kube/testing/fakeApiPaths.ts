// TEST-ONLY. URL parsing, discovery documents and selectors for the fake API server.

export interface FakeResource {
  group: string;
  /** Served versions, preferred first. */
  versions: string[];
  kind: string;
  plural: string;
  namespaced: boolean;
}

const ISTIO_VERSIONS = ['v1', 'v1beta1', 'v1alpha3'];
const istio = (kind: string, plural: string): FakeResource => ({
  group: 'networking.istio.io',
  versions: ISTIO_VERSIONS,
  kind,
  plural,
  namespaced: true,
});

/** What a cluster with Istio installed serves (Secrets included: meshscope may read their metadata only). */
export const DEFAULT_FAKE_RESOURCES: readonly FakeResource[] = [
  { group: '', versions: ['v1'], kind: 'Namespace', plural: 'namespaces', namespaced: false },
  { group: '', versions: ['v1'], kind: 'Service', plural: 'services', namespaced: true },
  { group: '', versions: ['v1'], kind: 'Pod', plural: 'pods', namespaced: true },
  { group: '', versions: ['v1'], kind: 'Secret', plural: 'secrets', namespaced: true },
  { group: '', versions: ['v1'], kind: 'ConfigMap', plural: 'configmaps', namespaced: true },
  { group: 'discovery.k8s.io', versions: ['v1'], kind: 'EndpointSlice', plural: 'endpointslices', namespaced: true },
  { group: 'networking.k8s.io', versions: ['v1'], kind: 'Ingress', plural: 'ingresses', namespaced: true },
  { group: 'networking.k8s.io', versions: ['v1'], kind: 'IngressClass', plural: 'ingressclasses', namespaced: false },
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
  },
  // The Gateway API CRDs (standard channel + TCPRoute/TLSRoute from the experimental one).
  { group: 'gateway.networking.k8s.io', versions: ['v1', 'v1beta1'], kind: 'GatewayClass', plural: 'gatewayclasses', namespaced: false },
  { group: 'gateway.networking.k8s.io', versions: ['v1', 'v1beta1'], kind: 'Gateway', plural: 'gateways', namespaced: true },
  { group: 'gateway.networking.k8s.io', versions: ['v1', 'v1beta1'], kind: 'HTTPRoute', plural: 'httproutes', namespaced: true },
  { group: 'gateway.networking.k8s.io', versions: ['v1'], kind: 'GRPCRoute', plural: 'grpcroutes', namespaced: true },
  { group: 'gateway.networking.k8s.io', versions: ['v1beta1'], kind: 'ReferenceGrant', plural: 'referencegrants', namespaced: true },
  { group: 'gateway.networking.k8s.io', versions: ['v1alpha2'], kind: 'TCPRoute', plural: 'tcproutes', namespaced: true },
  { group: 'gateway.networking.k8s.io', versions: ['v1alpha2'], kind: 'TLSRoute', plural: 'tlsroutes', namespaced: true },
  { group: 'security.istio.io', versions: ['v1', 'v1beta1'], kind: 'PeerAuthentication', plural: 'peerauthentications', namespaced: true },
  { group: 'networking.istio.io', versions: ['v1alpha3'], kind: 'EnvoyFilter', plural: 'envoyfilters', namespaced: true },
];

export type ParsedPath =
  | { type: 'json'; body: unknown }
  | { type: 'notFound' }
  | { type: 'resource'; resource: FakeResource; version: string; namespace?: string; name?: string };

export const resourceIndex = (group: string, plural: string): string => `${group}/${plural}`;

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

function resourceList(groupVersion: string, rs: FakeResource[]): unknown {
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion,
    // Like the real documents, each kind is followed by its status subresource.
    resources: rs.flatMap((r) => [
      { name: r.plural, singularName: r.kind.toLowerCase(), namespaced: r.namespaced, kind: r.kind, verbs: VERBS },
      { name: `${r.plural}/status`, singularName: '', namespaced: r.namespaced, kind: r.kind, verbs: ['get', 'patch', 'update'] },
    ]),
  };
}

function groupDoc(group: string, rs: FakeResource[]): unknown {
  const versions = [...new Set(rs.flatMap((r) => r.versions))];
  const gv = (v: string) => ({ groupVersion: `${group}/${v}`, version: v });
  return { kind: 'APIGroup', apiVersion: 'v1', name: group, versions: versions.map(gv), preferredVersion: gv(versions[0] ?? 'v1') };
}

/** Maps a request path onto a discovery document or a (collection | object) of a served kind. */
export function parseApiPath(pathname: string, served: ReadonlyMap<string, FakeResource>): ParsedPath {
  const segs = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  const all = [...served.values()];
  const inGroup = (g: string) => all.filter((r) => r.group === g);
  let group: string;
  let version: string | undefined;
  let rest: string[];
  if (segs[0] === 'api') {
    if (segs.length === 1) return { type: 'json', body: { kind: 'APIVersions', versions: ['v1'] } };
    group = '';
    version = segs[1];
    rest = segs.slice(2);
  } else if (segs[0] === 'apis') {
    if (segs.length === 1) {
      const groups = [...new Set(all.map((r) => r.group).filter(Boolean))];
      return { type: 'json', body: { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.map((g) => groupDoc(g, inGroup(g))) } };
    }
    group = segs[1] ?? '';
    if (inGroup(group).length === 0) return { type: 'notFound' };
    if (segs.length === 2) return { type: 'json', body: groupDoc(group, inGroup(group)) };
    version = segs[2];
    rest = segs.slice(3);
  } else {
    return { type: 'notFound' };
  }
  const atVersion = inGroup(group).filter((r) => version !== undefined && r.versions.includes(version));
  if (!version || atVersion.length === 0) return { type: 'notFound' };
  if (rest.length === 0) return { type: 'json', body: resourceList(group ? `${group}/${version}` : version, atVersion) };
  let namespace: string | undefined;
  if (rest[0] === 'namespaces' && rest.length >= 3) {
    namespace = rest[1];
    rest = rest.slice(2);
  }
  const resource = atVersion.find((r) => r.plural === rest[0]);
  if (!resource || rest.length > 2 || (namespace && !resource.namespaced)) return { type: 'notFound' };
  return { type: 'resource', resource, version, namespace, name: rest[1] };
}

/**
 * Field selectors `metadata.name=X,metadata.namespace=Y,type!=Z` (Secrets select on `type`; an absent type is
 * Opaque, as the API server defaults it) and label selectors `k=v,k2==v2`.
 */
export function matchesSelectors(
  o: { metadata: { name: string; namespace?: string; labels?: unknown }; type?: unknown },
  fieldSelector: string | undefined,
  labelSelector: string | undefined,
): boolean {
  for (const [k, v, negated] of terms(fieldSelector)) {
    const actual =
      k === 'metadata.name'
        ? o.metadata.name
        : k === 'metadata.namespace'
          ? (o.metadata.namespace ?? '')
          : k === 'type'
            ? typeof o.type === 'string'
              ? o.type
              : 'Opaque'
            : undefined;
    if ((actual === v) === negated) return false;
  }
  const labels = (o.metadata.labels ?? {}) as Record<string, unknown>;
  for (const [k, v] of terms(labelSelector)) if (labels[k] !== v) return false;
  return true;
}

function terms(sel: string | undefined): [string, string, boolean][] {
  if (!sel) return [];
  return sel.split(',').flatMap((t) => {
    const m = /^([^=!]+)(==?|!=)(.*)$/.exec(t.trim());
    return m && m[1] !== undefined && m[3] !== undefined ? [[m[1].trim(), m[3].trim(), m[2] === '!='] as [string, string, boolean]] : [];
  });
}
