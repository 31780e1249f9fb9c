// Where things are in the two archive layouts meshscope opens (issue 21 §3). Pure.
//
// `istioctl bug-report` (istio tools/bug-report/pkg: archive/archive.go, bugreport/bugreport.go,
// content/content.go, common/common.go). Its tar.gz holds one root folder (`bug-report/`), then:
//   cluster/k8s-resources           `kubectl get --all-namespaces all,jobs,ingresses,endpointslices,configmaps,networkpolicies -o yaml`
//   cluster/k8s-cluster-resources   `kubectl get nodes,namespaces,customresourcedefinitions,… -o yaml`
//   cluster/crs                     `kubectl get --all-namespaces <every CRD> -o yaml` (Istio's and Gateway API's objects)
//   proxies/<ns>/<pod>/config_dump?include_eds   Envoy's admin /config_dump?include_eds (a literal `?` in the name)
//   istio/<ns>/<istiod-pod>/debug/syncz           istiod's /debug/syncz (and its other debug URLs)
// The cluster files are YAML `kind: List`s without an extension; other files (logs, events, secrets
// listings, analyze output) are not read.
//
// OSSM must-gather (`oc adm must-gather --image=…istio-must-gather`, the layout `kiali offline` reads):
//   namespaces/<ns>/pods/<pod>/config_dump_proxy.json    the pod's Envoy /config_dump
//   namespaces/<ns>/pods/<pod>/config_dump_istiod.json   istiod's /debug/config_dump?proxyID= for it (the third side)
//   namespaces/<ns>/<group>/<resource>.yaml              `oc adm inspect` Lists (core/, apps/, networking.istio.io/, …)
// Any number of leading folders (the archive's root, must-gather's `quay-io-…/` image folder) is allowed.

export type ArchiveKind = 'bug-report' | 'must-gather';

export type EntryRole =
  | { role: 'cluster'; kind: ArchiveKind }
  | { role: 'proxyDump'; kind: ArchiveKind; namespace: string; pod: string }
  | { role: 'istiodDump'; kind: 'must-gather'; namespace: string; pod: string }
  | { role: 'syncz'; kind: 'bug-report'; namespace: string; pod: string };

const BUG_REPORT_CLUSTER_FILES = new Set(['k8s-resources', 'k8s-cluster-resources', 'crs']);
/** `oc adm inspect` group folders holding objects meshscope reads. */
const MUST_GATHER_GROUPS = new Set([
  'core',
  'apps',
  'discovery.k8s.io',
  'networking.k8s.io',
  'networking.istio.io',
  'security.istio.io',
  'gateway.networking.k8s.io',
]);
const NAME = /^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/; // a DNS-1123 name (namespace, pod)

/** Path segments of an entry, or undefined for a path that could escape (absolute, `..`, empty or odd segments). */
export function safeSegments(path: string): string[] | undefined {
  if (path.startsWith('/') || path.includes('\\') || path.includes('\0') || /^[a-zA-Z]:/.test(path)) return undefined;
  const segs = path.split('/').filter((s) => s !== '' && s !== '.');
  if (segs.length === 0 || segs.some((s) => s === '..')) return undefined;
  return segs;
}

/** What an entry is, from its path inside the archive (or below the directory); undefined: not read. */
export function classifyEntry(path: string): EntryRole | undefined {
  const s = safeSegments(path);
  if (!s) return undefined;
  const n = s.length;
  const last = s[n - 1]!;
  // bug-report
  if (n >= 2 && s[n - 2] === 'cluster' && BUG_REPORT_CLUSTER_FILES.has(last)) return { role: 'cluster', kind: 'bug-report' };
  if (
    n >= 4 &&
    s[n - 4] === 'proxies' &&
    (last === 'config_dump?include_eds' || last === 'config_dump') &&
    NAME.test(s[n - 3]!) &&
    NAME.test(s[n - 2]!)
  )
    return { role: 'proxyDump', kind: 'bug-report', namespace: s[n - 3]!, pod: s[n - 2]! };
  if (n >= 5 && s[n - 5] === 'istio' && s[n - 2] === 'debug' && last === 'syncz' && NAME.test(s[n - 4]!) && NAME.test(s[n - 3]!))
    return { role: 'syncz', kind: 'bug-report', namespace: s[n - 4]!, pod: s[n - 3]! };
  // must-gather
  if (n >= 5 && s[n - 5] === 'namespaces' && s[n - 3] === 'pods' && NAME.test(s[n - 4]!) && NAME.test(s[n - 2]!)) {
    if (last === 'config_dump_proxy.json') return { role: 'proxyDump', kind: 'must-gather', namespace: s[n - 4]!, pod: s[n - 2]! };
    if (last === 'config_dump_istiod.json') return { role: 'istiodDump', kind: 'must-gather', namespace: s[n - 4]!, pod: s[n - 2]! };
  }
  if (n >= 4 && s[n - 4] === 'namespaces' && NAME.test(s[n - 3]!) && MUST_GATHER_GROUPS.has(s[n - 2]!) && /\.ya?ml$/.test(last))
    return { role: 'cluster', kind: 'must-gather' };
  return undefined;
}
