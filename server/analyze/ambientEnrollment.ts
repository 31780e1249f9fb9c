// Ambient enrollment and waypoint labels (meshscope codes; only with istiod's ambient profile, i.e. when the
// snapshot carries the ambient index):
// - MSC0201 AmbientNamespaceNotEnrolled: a namespace labelled `istio.io/dataplane-mode=ambient` (and not for
//   sidecar injection: util.NamespaceInAmbientMode in pkg/config/analysis/analyzers/util/in_mesh.go) whose pods
//   have no `ambient.istio.io/redirection: enabled`. Only istio-cni reads the namespace label; istiod reads the
//   annotation istio-cni writes once it has redirected a pod (workloads.go setTunnelProtocol). Pods with a proxy of
//   their own (sidecars, gateways, waypoints) and pods labelled `istio.io/dataplane-mode=none` are not counted:
//   istio-cni skips them.
// - MSC0202 UseWaypointNotBound: `istio.io/use-waypoint` on a namespace or on a pod template naming a waypoint that
//   does not exist, has no address yet, does not admit the namespace or does not accept the traffic — the cases
//   where istiod reports an error (waypoints.go fetchWaypointForTarget / fetchWaypointForWorkload, status.go). Its
//   Services get istiod's own condition instead (IST0171, ./ambientConditions).
import { USE_WAYPOINT } from '../model/ambient/bindings';
import type { NamespaceModel } from '../model/mesh';
import type { Problem } from '../model/problem';
import { istiodBindingStatus, labelPath, podObject, problem } from './ambientSupport';
import type { Analyzer } from './types';

const DATAPLANE_MODE = 'istio.io/dataplane-mode';
const SHOWN = 5;

/** util.NamespaceInAmbientMode: the ambient label, unless a sidecar injection label is there too. */
export function namespaceInAmbientMode(ns: NamespaceModel): boolean {
  const l = ns.labels;
  if (l['istio-injection'] === 'enabled' || l['istio.io/rev'] !== undefined) return false;
  return l[DATAPLANE_MODE] === 'ambient';
}

const listed = (names: readonly string[]): string[] =>
  names.length > SHOWN ? [...names.slice(0, SHOWN), `(and ${names.length - SHOWN} more)`] : [...names];

export const ambientEnrollmentAnalyzer: Analyzer = {
  meta: {
    name: 'ambient.EnrollmentAnalyzer',
    description: 'Checks that namespaces labelled for ambient have enrolled pods and that use-waypoint labels bind',
    inputs: ['Namespace', 'Pod', 'Gateway.gateway.networking.k8s.io'],
    ambientOnly: true,
  },
  analyze(s) {
    const a = s.ambient;
    if (!a) return [];
    const out: Problem[] = [];
    for (const ns of s.namespaces.values()) {
      if (!namespaceInAmbientMode(ns)) continue;
      const candidates = s.pods.filter((p) => p.namespace === ns.name && p.proxy === 'none' && p.labels[DATAPLANE_MODE] !== 'none');
      const missing = candidates.filter((p) => !a.workloads.get(`${p.namespace}/${p.name}`)?.ambient);
      if (missing.length === 0) continue;
      const what =
        missing.length === candidates.length
          ? `none of its ${candidates.length} pod(s) is enrolled`
          : `${missing.length} of its ${candidates.length} pods are not enrolled`;
      out.push(
        problem(
          'AmbientNamespaceNotEnrolled',
          `Namespace ${ns.name}`,
          labelPath(DATAPLANE_MODE),
          undefined,
          what,
          listed(missing.map((p) => p.name)),
        ),
      );
    }

    // The namespace's label: one finding per namespace whose label makes istiod report an error on what it binds.
    const nsReported = new Set<string>();
    const bindings = [
      ...[...a.services.values()].map((b) => ({ b, traffic: 'service' as const })),
      ...[...a.workloads.values()].map((b) => ({ b, traffic: 'workload' as const })),
    ];
    for (const { b, traffic } of bindings) {
      if (b.source !== 'namespace' || nsReported.has(b.namespace)) continue;
      const st = istiodBindingStatus(b, traffic);
      if (!st || !b.skip) continue;
      nsReported.add(b.namespace);
      out.push(
        problem(
          'UseWaypointNotBound',
          `Namespace ${b.namespace}`,
          labelPath(USE_WAYPOINT),
          undefined,
          `the ${traffic === 'service' ? 'Services' : 'workloads'} of namespace ${b.namespace}`,
          st.message,
          b.skip.message,
        ),
      );
    }

    // A pod's own label (its workload template's): once per template.
    const podReported = new Set<string>();
    for (const p of s.pods) {
      const b = a.workloads.get(`${p.namespace}/${p.name}`);
      if (b?.source !== 'workload' || !b.skip) continue;
      const st = istiodBindingStatus(b, 'workload');
      if (!st) continue;
      const { object, metaPath } = podObject(p);
      if (podReported.has(object)) continue;
      podReported.add(object);
      out.push(problem('UseWaypointNotBound', object, labelPath(USE_WAYPOINT, metaPath), p.origin, 'its pods', st.message, b.skip.message));
    }
    return out;
  },
};
