// Which PeerAuthentications apply to a workload and the mTLS mode they give each port
// (model/authentication.go GetPeerAuthenticationsForWorkload, GetNamespaceMutualTLSMode;
// security/authn/policy_applier.go ComposePeerAuthentication, GetMutualTLSModeForPort).
import type { IstioConfig, MeshSnapshot } from '../../model/mesh';
import type { MtlsMode as SpecMode } from '../../model/istio';
import { configPath } from '../provenance';
import { labelsMatch } from '../view/hosts';

/** model.MutualTLSMode without MTLSUnknown (resolved to the PERMISSIVE default before it reaches a caller). */
export type MtlsMode = 'STRICT' | 'PERMISSIVE' | 'DISABLE';

/** Where a mode comes from: a PeerAuthentication (with the YAML path of the mode) or the mesh default (PERMISSIVE). */
export type MtlsSource =
  | { kind: 'default' }
  | {
      kind: 'PeerAuthentication';
      namespace: string;
      name: string;
      /** mesh = root namespace, no selector; namespace = no selector; workload = selector. */
      scope: 'mesh' | 'namespace' | 'workload';
      /** `spec.mtls.mode` or `spec.portLevelMtls.9080.mode`. */
      path: string;
      /** `/apis/security.istio.io/v1/namespaces/NS/peer-authentication/NAME`. */
      config: string;
    };

export interface ModeWithSource {
  mode: MtlsMode;
  source: MtlsSource;
}

/** ComposePeerAuthentication: the workload-wide mode and the port-level overrides (keyed by workload port). */
export interface MergedPeerAuthentication extends ModeWithSource {
  perPort: ReadonlyMap<number, ModeWithSource>;
}

type Pa = IstioConfig<'PeerAuthentication'>;

const SECURITY_GROUP = 'security.istio.io';
const hasSelector = (p: Pa) => Object.keys(p.spec.selector?.matchLabels ?? {}).length > 0;
const isSet = (m: { mode?: SpecMode } | undefined): m is { mode: Exclude<SpecMode, 'UNSET'> } =>
  m?.mode !== undefined && m.mode !== 'UNSET';

/** Creation order, then name and namespace: what istiod's `CreationTimestamp.Before` keeps first (snapshot order). */
const older = (a: Pa, b: Pa) => a.meta.creationTimestamp < b.meta.creationTimestamp;

function source(p: Pa, scope: 'mesh' | 'namespace' | 'workload', path: string): MtlsSource {
  return {
    kind: 'PeerAuthentication',
    namespace: p.meta.namespace,
    name: p.meta.name,
    scope,
    path,
    config: configPath('PeerAuthentication', p.meta.namespace, p.meta.name, SECURITY_GROUP),
  };
}

/**
 * GetPeerAuthenticationsForWorkload: the root namespace's selector-less policies, then the workload namespace's
 * selector-less ones and those whose selector matches the workload's labels.
 */
export function peerAuthenticationsFor(
  snapshot: MeshSnapshot,
  namespace: string,
  labels: Readonly<Record<string, string>>,
  rootNamespace: string,
): Pa[] {
  return snapshot.peerAuthentications.filter((p) => {
    if (p.meta.namespace === rootNamespace && !hasSelector(p)) return true;
    if (p.meta.namespace !== namespace) return false;
    return !hasSelector(p) || labelsMatch(p.spec.selector?.matchLabels, labels);
  });
}

/** The oldest policy of each level (mesh, namespace, workload), as ComposePeerAuthentication picks them. */
function levels(policies: readonly Pa[], rootNamespace: string): { mesh?: Pa; namespace?: Pa; workload?: Pa } {
  const out: { mesh?: Pa; namespace?: Pa; workload?: Pa } = {};
  const keep = (k: 'mesh' | 'namespace' | 'workload', p: Pa) => {
    const cur = out[k];
    if (!cur || older(p, cur)) out[k] = p;
  };
  for (const p of policies) {
    if (!hasSelector(p)) keep(p.meta.namespace === rootNamespace ? 'mesh' : 'namespace', p);
    else if (p.meta.namespace !== rootNamespace) keep('workload', p);
  }
  return out;
}

/** ComposePeerAuthentication: mesh, then namespace, then workload override the mode when they set one. */
export function composePeerAuthentication(policies: readonly Pa[], rootNamespace: string): MergedPeerAuthentication {
  const { mesh, namespace, workload } = levels(policies, rootNamespace);
  let out: ModeWithSource = { mode: 'PERMISSIVE', source: { kind: 'default' } };
  if (mesh && isSet(mesh.spec.mtls)) out = { mode: mesh.spec.mtls.mode, source: source(mesh, 'mesh', 'spec.mtls.mode') };
  if (namespace && isSet(namespace.spec.mtls))
    out = { mode: namespace.spec.mtls.mode, source: source(namespace, 'namespace', 'spec.mtls.mode') };
  if (workload && isSet(workload.spec.mtls))
    out = { mode: workload.spec.mtls.mode, source: source(workload, 'workload', 'spec.mtls.mode') };
  const perPort = new Map<number, ModeWithSource>();
  for (const [port, m] of Object.entries(workload?.spec.portLevelMtls ?? {})) {
    if (!workload || !/^\d+$/.test(port)) continue;
    // an unset port-level mode inherits the workload-wide one (keeping its source)
    perPort.set(Number(port), isSet(m) ? { mode: m.mode, source: source(workload, 'workload', `spec.portLevelMtls.${port}.mode`) } : out);
  }
  return { ...out, perPort };
}

/** GetMutualTLSModeForPort. */
export function modeForPort(merged: MergedPeerAuthentication, port: number): ModeWithSource {
  return merged.perPort.get(port) ?? merged;
}

/**
 * GetNamespaceMutualTLSMode (what clients infer for a service, BestEffortInferServiceMTLSMode): the namespace's
 * selector-less policy if it sets a mode, else the mesh-wide one; undefined when neither does.
 */
export function namespaceMtlsMode(snapshot: MeshSnapshot, namespace: string, rootNamespace: string): ModeWithSource | undefined {
  const policies = snapshot.peerAuthentications.filter(
    (p) => !hasSelector(p) && (p.meta.namespace === namespace || p.meta.namespace === rootNamespace),
  );
  const { mesh, namespace: ns } = levels(policies, rootNamespace);
  if (namespace !== rootNamespace && ns && isSet(ns.spec.mtls))
    return { mode: ns.spec.mtls.mode, source: source(ns, 'namespace', 'spec.mtls.mode') };
  if (mesh && isSet(mesh.spec.mtls)) return { mode: mesh.spec.mtls.mode, source: source(mesh, 'mesh', 'spec.mtls.mode') };
  return undefined;
}
