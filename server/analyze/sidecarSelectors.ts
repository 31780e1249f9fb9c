// Istio's sidecar.SelectorAnalyzer (pkg/config/analysis/analyzers/sidecar/selector.go), per namespace:
// - IST0101 ReferencedResourceNotFound "selector": a Sidecar's workloadSelector matches no pod of its namespace;
// - IST0110 ConflictingSidecarWorkloadSelectors: a pod selected by more than one Sidecar (each one is reported,
//   naming them all, sorted — sidecar/util.go getNames — and the pod);
// - IST0111 MultipleSidecarsWithoutWorkloadSelectors: more than one Sidecar without a selector in a namespace;
// - IST0167 IneffectivePolicy instead, once per Sidecar, when the pod or namespace is in ambient mode (no sidecar
//   there to configure: util/in_mesh.go PodInAmbientMode / NamespaceInAmbientMode).
// An empty selector (`labels: {}`) is a namespace-wide Sidecar, as in Istio.
import type { IstioConfig, MeshSnapshot, PodModel } from '../model/mesh';
import type { Problem } from '../model/problem';
import { selectorString, selects } from './hosts';
import { report } from './messages';
import type { Analyzer } from './types';
import { byteCompare } from '../lib/compare';

/** annotation.AmbientRedirection = `ambient.istio.io/redirection: enabled`. */
const podInAmbient = (p: PodModel): boolean => p.annotations['ambient.istio.io/redirection'] === 'enabled';

/** A namespace labelled `istio.io/dataplane-mode: ambient`, unless sidecar injection is on (`istio-injection: enabled` or `istio.io/rev`). */
function namespaceInAmbient(s: MeshSnapshot, ns: string): boolean {
  const labels = s.namespaces.get(ns)?.labels ?? {};
  if (labels['istio-injection'] === 'enabled') return false;
  if (labels['istio.io/rev']) return false;
  return labels['istio.io/dataplane-mode'] === 'ambient';
}

const names = (list: readonly IstioConfig<'Sidecar'>[]): string[] => list.map((c) => c.meta.name).sort(byteCompare);

export const sidecarSelectorAnalyzer: Analyzer = {
  meta: {
    name: 'sidecar.SelectorAnalyzer',
    description:
      'Validates that sidecars that define a workload selector match at least one pod, and that there are no multiple sidecar resources that select overlapping pods',
    inputs: ['Sidecar', 'Pod', 'Namespace'],
  },
  analyze(s) {
    const out: Problem[] = [];
    const byPod = new Map<PodModel, IstioConfig<'Sidecar'>[]>();
    const namespaceWide = new Map<string, IstioConfig<'Sidecar'>[]>();
    for (const sc of s.sidecars) {
      const labels = sc.spec.workloadSelector?.labels ?? {};
      const ns = sc.meta.namespace;
      if (Object.keys(labels).length === 0) {
        namespaceWide.set(ns, [...(namespaceWide.get(ns) ?? []), sc]);
        continue;
      }
      const pods = s.pods.filter((p) => p.namespace === ns && selects(labels, p.labels));
      if (pods.length === 0)
        out.push(report('ReferencedResourceNotFound', sc, 'spec.workloadSelector.labels', 'selector', selectorString(labels)));
      for (const p of pods) byPod.set(p, [...(byPod.get(p) ?? []), sc]);
    }
    const ineffective = new Set<IstioConfig<'Sidecar'>>();
    const ineffectiveOnce = (sc: IstioConfig<'Sidecar'>, reason: string) => {
      if (ineffective.has(sc)) return;
      ineffective.add(sc);
      out.push(report('IneffectivePolicy', sc, undefined, reason));
    };
    for (const [pod, list] of byPod) {
      if (podInAmbient(pod)) {
        for (const sc of list) ineffectiveOnce(sc, 'selected workload is in ambient mode, the policy has no impact');
        continue;
      }
      if (list.length < 2) continue;
      for (const sc of list)
        out.push(report('ConflictingSidecarWorkloadSelectors', sc, 'metadata.name', names(list), pod.namespace, pod.name));
    }
    for (const [ns, list] of namespaceWide) {
      if (namespaceInAmbient(s, ns)) {
        for (const sc of list) ineffectiveOnce(sc, 'namespace is in ambient mode, the policy has no impact');
        continue;
      }
      if (list.length < 2) continue;
      for (const sc of list) out.push(report('MultipleSidecarsWithoutWorkloadSelectors', sc, undefined, names(list), ns));
    }
    return out;
  },
};
