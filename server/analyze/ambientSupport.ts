// What the ambient analyzers share: which pods are in the ambient mesh (the ambient index, built as istiod's
// ambient registry builds it: server/model/ambient), the pods behind a Service, the objects findings name (a
// Service, a Namespace, a pod's workload template) and istiod's own status messages for a binding that does not
// hold (pilot/pkg/serviceregistry/ambient/status.go). Pure.
import type { AmbientIndex, WaypointBinding } from '../model/ambient/types';
import type { IstioConfig, MeshSnapshot, Origin, PodModel, ServiceModel } from '../model/mesh';
import { severityOf, type Problem } from '../model/problem';
import { formatTemplate, MESSAGES, type Arg, type MessageName } from './messages';
import { selects } from './hosts';

/** The pod is redirected to ztunnel (istio-cni's annotation or a native tunnel; ambient/index isAmbientPod). */
export const isAmbientWorkload = (a: AmbientIndex, p: Pick<PodModel, 'namespace' | 'name'>): boolean =>
  a.workloads.get(`${p.namespace}/${p.name}`)?.ambient === true;

/** The pods a Service selects (Kubernetes selector / ServiceEntry workloadSelector) in its namespace. */
export function podsOf(s: MeshSnapshot, svc: ServiceModel): PodModel[] {
  const sel = svc.selector;
  if (!sel || Object.keys(sel).length === 0) return [];
  return s.pods.filter((p) => p.namespace === svc.namespace && selects(sel, p.labels));
}

/** The Service has workloads in the ambient mesh (its traffic is carried by ztunnel). */
export const servesAmbient = (s: MeshSnapshot, a: AmbientIndex, svc: ServiceModel): boolean =>
  podsOf(s, svc).some((p) => isAmbientWorkload(a, p));

/** `Service ns/name` / `ServiceEntry ns/name`, as the index's binding messages name it. */
export const serviceObject = (svc: ServiceModel): string =>
  `${svc.ref.kind === 'ServiceEntry' ? 'ServiceEntry' : 'Service'} ${svc.namespace}/${svc.name}`;

/** A Problem with a message of the catalogue about any object (Kubernetes objects carry no IstioConfig). */
export function problem(name: MessageName, object: string, path: string | undefined, origin: Origin | undefined, ...args: Arg[]): Problem {
  const t = MESSAGES[name];
  const p: Problem = { severity: severityOf(t.level), code: t.code, message: formatTemplate(t.template, args), object };
  if (path !== undefined) p.path = path;
  if (origin && (origin.file !== undefined || origin.doc !== undefined)) {
    p.source = origin.source;
    if (origin.file !== undefined) p.file = origin.file;
    if (origin.doc !== undefined) p.doc = origin.doc;
  }
  return p;
}

/** A label of `metadata.labels` as a field path (schema/common formatPath quoting). */
export const labelPath = (key: string, prefix = 'metadata'): string => `${prefix}.labels[${JSON.stringify(key)}]`;

/**
 * The object a finding about a pod names: the workload template it came from (`Deployment ns/name`,
 * `spec.template.metadata…`) when the pod was expanded from one, else the Pod.
 */
export function podObject(p: PodModel): { object: string; metaPath: string } {
  return p.owner
    ? { object: `${p.owner.kind} ${p.namespace}/${p.owner.name}`, metaPath: 'spec.template.metadata' }
    : { object: `Pod ${p.namespace}/${p.name}`, metaPath: 'metadata' };
}

/**
 * istiod's StatusMessage for a binding error (status.go ReportWaypointIsNotReady, ReportWaypointAttachmentDenied,
 * ReportWaypointUnsupportedTrafficType) — what it writes as the reason and message of the object's
 * `istio.io/WaypointBound` condition. undefined when istiod reports no error (no label, opted out, …).
 */
export function istiodBindingStatus(b: WaypointBinding, traffic: 'service' | 'workload'): { reason: string; message: string } | undefined {
  const skip = b.skip;
  if (!skip?.istiodError || skip.waypoint === undefined) return undefined;
  const w = skip.waypoint;
  switch (skip.reason) {
    case 'WaypointIsNotReady':
      return { reason: skip.reason, message: `waypoint ${JSON.stringify(w)} is not ready` };
    case 'AttachmentDenied':
      return { reason: skip.reason, message: `we are not permitted to attach to waypoint ${JSON.stringify(w)} (missing allowedRoutes?)` };
    case 'UnsupportedTrafficType':
      return {
        reason: skip.reason,
        message: `attempting to bind to traffic type ${JSON.stringify(traffic)} which the waypoint ${JSON.stringify(w)} does not support`,
      };
    default:
      return undefined;
  }
}

/**
 * The ambient pods a selector AuthorizationPolicy applies to at ztunnel (workloads.go buildWorkloadPolicies: the
 * root namespace's policies everywhere, a namespace's in it; `selector.matchLabels` narrows).
 */
export function policyAmbientPods(s: MeshSnapshot, ap: IstioConfig<'AuthorizationPolicy'>, root: string): PodModel[] {
  const a = s.ambient;
  if (!a) return [];
  const sel = ap.spec.selector?.matchLabels ?? {};
  return s.pods.filter(
    (p) => (ap.meta.namespace === root || p.namespace === ap.meta.namespace) && selects(sel, p.labels) && isAmbientWorkload(a, p),
  );
}

/** Up to `n` names, then how many more. */
export const someOf = (names: readonly string[], n = 3): string =>
  names.length > n ? `${names.slice(0, n).join(', ')} and ${names.length - n} more` : names.join(', ');
