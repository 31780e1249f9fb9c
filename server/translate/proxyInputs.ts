// The per-proxy inputs of translateProxy: everything the translator reads from the proxy, and every
// proxy-specific lookup it makes in the snapshot, as one plain value. Two proxies of one snapshot with equal
// inputs get the same Envoy resources (the translation-sharing contract: pipeline/sharedResources.ts keys the
// shared translation cache by exactly this, with the snapshot version and the options).
//
// THE ONE PLACE TO EXTEND. A translator change that reads something new about the proxy (a label-selected
// policy: PeerAuthentication, AuthorizationPolicy, Sidecar ingress; new service targets: WorkloadEntry,
// ServiceEntry workloadSelector; node metadata; …) must add it to `ProxyInputs` below, or be covered by a
// field already here. What is covered today:
// - `labels` (all of them) and `namespace`: every selector (Sidecar, Gateway, DestinationRule and any policy
//   workloadSelector) and every namespace-scoped lookup (exportTo, Sidecar scope, VS/DR visibility);
//   PeerAuthentication selection (root / namespace / selector, security/peerAuthentication.ts) reads exactly these,
//   and its port-level modes key on the target ports below (service targets, or the chosen Sidecar's ingress);
// - `serviceTargets` (via view/serviceTargets.ts, whatever it learns to return) and the pod they come from;
// - the chosen Sidecar; `type`; `locality`; `serviceAccount`; `metadata`;
// - IPs only where output depends on them: the address families (wildcards, DNS lookup family), the first
//   IPv4/IPv6 when the Sidecar has an ingress listener bound to 0.0.0.0 or ::, and the first IP when a headless
//   service has an endpoint at that address (outbound listeners skip the proxy's own address).
// The proxy's id and name are read only to locate error messages (and name to find the pod, covered by
// `pod`): pipeline/sharedResources.ts never shares a translation whose errors name the proxy.
// property test: server/pipeline/sharing.property.test.ts (shared output == un-shared translation).
// Per-scope sharing (server/pipeline/scopeSharing.ts) shares a sidecar's OUTBOUND part on these inputs minus the
// inbound-only ones, with labels narrowed to the keys outbound selectors read (outboundLabelKeys): an outbound
// builder that starts reading a new label-selected config must be added there too.
import type { MeshSnapshot, ProxyModel, TranslateOptions } from '../model/mesh';
import { proxyKind } from '../model/proxyKinds';
import { findPod, serviceTargets } from './view/serviceTargets';
import { chooseSidecar } from './view/sidecarScope';
import { headlessAddresses } from './view/snapshotIndex';

export interface ProxyInputs {
  type: ProxyModel['type'];
  namespace: string;
  labels: Array<[string, string]>;
  metadata: Array<[string, string]>;
  locality: ProxyModel['locality'];
  serviceAccount: string | null;
  /** No IP / some IPv4 / some IPv6. */
  ipFamilies: [boolean, boolean, boolean];
  /** The first IPv4 / IPv6, when the chosen Sidecar binds an ingress default endpoint to 0.0.0.0 / `::`. */
  ingressBindIps: [string | null, string | null] | null;
  /** The first IP, when a headless service has an endpoint at that address. */
  selfIp: string | null;
  /** The chosen Sidecar, `namespace/name`. */
  sidecar: string | null;
  /** The pod the proxy runs in (labels and named container ports: service targets read them). */
  pod: { labels: Array<[string, string]>; namedPorts: Array<[string, number]>; proxyImage: string | null } | null;
  /** `namespace/hostname port/protocol→targetPort` of each service target. */
  serviceTargets: string[];
}

const sortedEntries = <V>(o: Readonly<Record<string, V>> | undefined): Array<[string, V]> =>
  Object.entries(o ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

const isV6 = (ip: string) => ip.includes(':');

/** Whether a headless service has an endpoint at `ip` (the set made once per snapshot: not a walk of every service per proxy). */
const headlessEndpointAt = (snapshot: MeshSnapshot, ip: string): boolean => headlessAddresses(snapshot).has(ip);

export function proxyInputs(snapshot: MeshSnapshot, proxy: ProxyModel, options: TranslateOptions): ProxyInputs {
  const sidecar = chooseSidecar(snapshot.sidecars, proxy, options.rootNamespace);
  const pod = findPod(snapshot, proxy);
  const ips = proxy.ips;
  const bindsWildcard = (sidecar?.spec.ingress ?? []).some((il) => {
    const de = il.defaultEndpoint ?? '';
    const host = de.slice(0, de.lastIndexOf(':')).replace(/^\[|\]$/g, '');
    return host === '0.0.0.0' || host === '::';
  });
  const first = ips[0];
  return {
    type: proxy.type,
    namespace: proxy.namespace,
    labels: sortedEntries(proxy.labels),
    metadata: sortedEntries(proxy.metadata),
    locality: proxy.locality,
    serviceAccount: proxy.serviceAccount ?? null,
    ipFamilies: [ips.length === 0, ips.some((ip) => !isV6(ip)), ips.some(isV6)],
    ingressBindIps: bindsWildcard ? [ips.find((ip) => !isV6(ip)) ?? null, ips.find(isV6) ?? null] : null,
    selfIp: first !== undefined && headlessEndpointAt(snapshot, first) ? first : null,
    sidecar: sidecar ? `${sidecar.meta.namespace}/${sidecar.meta.name}` : null,
    // proxyImage: the EnvoyFilter stage reads the proxy's Istio version from its tag (server/envoyfilter/select.ts).
    pod: pod
      ? { labels: sortedEntries(pod.labels), namedPorts: sortedEntries(pod.namedPorts ?? {}), proxyImage: pod.proxyImage ?? null }
      : null,
    serviceTargets: serviceTargets(snapshot, proxy).map(
      (t) => `${t.service.namespace}/${t.service.hostname} ${t.port.port}/${t.port.protocol}/${t.port.name ?? ''}→${t.targetPort}`,
    ),
  };
}

/**
 * `proxyInputs` as a string: equal strings ⇔ equal inputs. A kind whose translation reads nothing of the proxy
 * (proxyKinds `perProxy: false`: ztunnel) has its kind as its only input.
 */
export const proxyInputsKey = (snapshot: MeshSnapshot, proxy: ProxyModel, options: TranslateOptions): string =>
  proxyKind(proxy).perProxy ? JSON.stringify(proxyInputs(snapshot, proxy, options)) : JSON.stringify({ type: proxy.type });
