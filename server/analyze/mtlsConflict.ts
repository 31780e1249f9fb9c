// IST0113 MTLSPolicyConflict — a DestinationRule whose client TLS cannot talk to the workloads behind its host:
// `tls.mode: DISABLE` towards workloads whose PeerAuthentication is STRICT (plaintext meets mTLS-only chains: the
// connection is reset), or ISTIO_MUTUAL towards workloads in DISABLE mode (mTLS meets plaintext-only chains).
// Istio retired this code together with its auth analyzer (messages.yaml "IST0113 RETIRED", #48599); meshscope
// keeps Istio's message, since it now computes both sides the way istiod does (ComposePeerAuthentication /
// GetMutualTLSModeForPort per workload port, as listener_inbound.go builds the chains).
import type { ClientTLSSettings, TrafficPolicy } from '../model/istio';
import type { IstioConfig, MeshSnapshot, PodModel, ServiceModel } from '../model/mesh';
import type { Problem } from '../model/problem';
import { composePeerAuthentication, modeForPort, peerAuthenticationsFor } from '../translate/security/peerAuthentication';
import { toFqdn } from './hosts';
import { report } from './messages';
import type { Analyzer } from './types';

interface TlsAt {
  tls: ClientTLSSettings;
  path: string;
  /** Port-level settings apply to that service port only. */
  port?: number;
  /** Subset settings apply to the subset's pods only. */
  subsetLabels?: Readonly<Record<string, string>>;
  /** Ports whose portLevelSettings set their own tls (GetPortLevelTrafficPolicy: they override this one). */
  overridden?: ReadonlySet<number>;
}

function settingsOf(policy: TrafficPolicy | undefined, path: string, subsetLabels?: Readonly<Record<string, string>>): TlsAt[] {
  const out: TlsAt[] = [];
  const extra = subsetLabels ? { subsetLabels } : {};
  const overridden = new Set(
    (policy?.portLevelSettings ?? []).filter((p) => p.tls && p.port?.number !== undefined).map((p) => p.port!.number!),
  );
  if (policy?.tls) out.push({ tls: policy.tls, path: `${path}.tls.mode`, overridden, ...extra });
  (policy?.portLevelSettings ?? []).forEach((p, i) => {
    if (p.tls && p.port?.number !== undefined)
      out.push({ tls: p.tls, path: `${path}.portLevelSettings[${i}].tls.mode`, port: p.port.number, ...extra });
  });
  return out;
}

const matches = (sel: Readonly<Record<string, string>> | undefined, labels: Readonly<Record<string, string>>) =>
  Object.entries(sel ?? {}).every(([k, v]) => labels[k] === v);

function targetPortOf(svc: ServiceModel, port: number, pod: PodModel): number | undefined {
  const p = svc.ports.find((x) => x.port === port);
  const tp = p?.targetPort;
  if (!p) return undefined;
  if (tp === undefined || tp === '') return p.port;
  return typeof tp === 'number' ? tp : pod.namedPorts[tp];
}

/** The first workload policy in force that conflicts with the DestinationRule's mTLS choice. */
function conflict(s: MeshSnapshot, root: string, svc: ServiceModel, at: TlsAt, wantMtls: boolean) {
  const pods = s.pods.filter(
    (p) =>
      p.proxy === 'sidecar' &&
      p.namespace === svc.namespace &&
      svc.selector &&
      matches(svc.selector, p.labels) &&
      matches(at.subsetLabels, p.labels),
  );
  for (const pod of pods) {
    const merged = composePeerAuthentication(peerAuthenticationsFor(s, pod.namespace, pod.labels, root), root);
    for (const port of svc.ports) {
      if (at.port !== undefined && port.port !== at.port) continue;
      if (at.overridden?.has(port.port)) continue;
      const tp = targetPortOf(svc, port.port, pod);
      if (tp === undefined) continue;
      const m = modeForPort(merged, tp);
      if (m.source.kind !== 'PeerAuthentication') continue;
      if ((wantMtls && m.mode === 'DISABLE') || (!wantMtls && m.mode === 'STRICT'))
        return { policy: `${m.source.namespace}/${m.source.name}`, mode: m.mode };
    }
  }
  return undefined;
}

export const mtlsConflictAnalyzer: Analyzer = {
  meta: {
    name: 'auth.MTLSAnalyzer',
    description: 'Checks that DestinationRule client mTLS agrees with the PeerAuthentication of the workloads behind the host',
    inputs: ['DestinationRule', 'PeerAuthentication', 'Service', 'Pod'],
  },
  analyze(s, ctx) {
    const out: Problem[] = [];
    const root = ctx.options.rootNamespace;
    for (const dr of s.destinationRules as readonly IstioConfig<'DestinationRule'>[]) {
      const host = toFqdn(dr.meta.namespace, dr.spec.host, ctx.options.domainSuffix);
      const services = s.services.filter((x) => x.registry === 'Kubernetes' && x.hostname === host);
      if (services.length === 0) continue;
      const all = [
        ...settingsOf(dr.spec.trafficPolicy, 'spec.trafficPolicy'),
        ...(dr.spec.subsets ?? []).flatMap((sub, j) => settingsOf(sub.trafficPolicy, `spec.subsets[${j}].trafficPolicy`, sub.labels ?? {})),
      ];
      for (const at of all) {
        const mode = at.tls.mode;
        if (mode !== 'DISABLE' && mode !== 'ISTIO_MUTUAL') continue;
        const wantMtls = mode === 'ISTIO_MUTUAL';
        for (const svc of services) {
          const c = conflict(s, root, svc, at, wantMtls);
          if (!c) continue;
          out.push(
            report('MTLSPolicyConflict', dr, at.path, host, `${dr.meta.namespace}/${dr.meta.name}`, String(wantMtls), c.policy, c.mode),
          );
          break;
        }
      }
    }
    return out;
  },
};
