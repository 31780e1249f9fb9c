// Which workload objects of an input are NOT expanded into synthetic pods, because the input already holds
// what they would make (a cluster export, `kubectl get all -o yaml`, a bug report): Kubernetes' ownership
// chain Pod → ReplicaSet → Deployment and Pod → StatefulSet, read from `metadata.ownerReferences`
// (the controller reference when one is marked, as the garbage collector and kubectl read it).
// - A workload that owns an explicit Pod of the input: its pods are those Pods, it makes no more.
// - A Deployment owning such a Pod's ReplicaSet: the ReplicaSet object's owner reference, or, with no
//   ReplicaSet object in the input, the Deployment controller's naming (`<deployment>-<pod-template-hash>`,
//   the hash being the Pod's `pod-template-hash` label).
// - A ReplicaSet whose owning Deployment is in the input: the Deployment is expanded, not both.
import type { KubeObject, ParsedInputs } from './objects';

export const workloadRef = (kind: string, namespace: string, name: string): string => `${kind}/${namespace}/${name}`;

interface OwnerRef {
  kind: string;
  name: string;
}

/** The controller owner references of an object body (all of them when none is marked controller). */
export function ownersOf(body: unknown): OwnerRef[] {
  const md = (body as { metadata?: { ownerReferences?: unknown } } | undefined)?.metadata;
  const refs = Array.isArray(md?.ownerReferences) ? (md.ownerReferences as unknown[]) : [];
  const valid = refs.filter(
    (r): r is OwnerRef & { controller?: unknown } =>
      typeof r === 'object' && r !== null && typeof (r as OwnerRef).kind === 'string' && typeof (r as OwnerRef).name === 'string',
  );
  const controllers = valid.filter((r) => r.controller === true);
  return (controllers.length > 0 ? controllers : valid).map((r) => ({ kind: r.kind, name: r.name }));
}

/** Refs (`kind/namespace/name`) of the workloads of `parsed` that must not be expanded into pods. */
export function workloadsNotExpanded(parsed: Pick<ParsedInputs, 'pods' | 'workloads'>): Set<string> {
  const out = new Set<string>();
  if (parsed.workloads.length === 0) return out;
  const present = new Set(parsed.workloads.map((w) => workloadRef(w.kind, w.meta.namespace, w.meta.name)));
  /** ns/ReplicaSet name → its owning Deployment's name (from ReplicaSet objects). */
  const rsOwner = new Map<string, string>();
  for (const w of parsed.workloads as readonly KubeObject<unknown>[]) {
    if (w.kind !== 'ReplicaSet') continue;
    for (const o of ownersOf(w.body)) {
      if (o.kind !== 'Deployment') continue;
      rsOwner.set(`${w.meta.namespace}/${w.meta.name}`, o.name);
      if (present.has(workloadRef('Deployment', w.meta.namespace, o.name)))
        out.add(workloadRef('ReplicaSet', w.meta.namespace, w.meta.name));
    }
  }
  for (const p of parsed.pods) {
    const ns = p.meta.namespace;
    for (const o of ownersOf(p.body)) {
      out.add(workloadRef(o.kind, ns, o.name));
      if (o.kind !== 'ReplicaSet') continue;
      const hash = p.meta.labels['pod-template-hash'];
      const byName = hash && o.name.endsWith(`-${hash}`) ? o.name.slice(0, -hash.length - 1) : undefined;
      const deployment = rsOwner.get(`${ns}/${o.name}`) ?? byName;
      if (deployment) out.add(workloadRef('Deployment', ns, deployment));
    }
  }
  return out;
}
