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
// The per-pod INBOUND build (translate/inboundOnly.ts) is reused between pods on `inboundInputsKey` below: these
// inputs with the labels narrowed to the keys an inbound build can read (inboundLabelKeys: every selector of a
// config an inbound builder selects by, plus the labels read by name). A builder of inbound resources that starts
// reading a new label (or a new label-selected config) must be added to inboundLabelKeys too.
import type { MeshSnapshot, ProxyModel, TranslateOptions } from '../model/mesh';
import { proxyKind } from '../model/proxyKinds';
import { GATEWAY_NAME_LABEL } from './authz/select';
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

/** Labels a translator reads by name, not through a config's selector (authz/select.ts, grpc/inbound.ts). */
const LABELS_READ_BY_NAME = [GATEWAY_NAME_LABEL, 'security.istio.io/tlsMode'];

const addKeys = (out: Set<string>, m: Readonly<Record<string, string>> | undefined): void => {
  for (const k of Object.keys(m ?? {})) out.add(k);
};

/**
 * The keys of a proxy's (and its pod's) labels that its inbound build can read, in one snapshot: the selectors of
 * the Services (and ServiceEntry workloadSelectors) that could target it (view/serviceTargets.ts), of the Sidecars
 * (sidecarScope.ts chooseSidecar), PeerAuthentications (security/peerAuthentication.ts), AuthorizationPolicies
 * (authz/select.ts), Gateways (gateway/merge.ts), DestinationRules with a workloadSelector (destinationRules.ts)
 * and EnvoyFilters (envoyfilter/select.ts), and the labels read by name. A label outside this set is read by no
 * selector (labelsMatch reads only the selector's keys), so two pods that differ only there build the same inbound
 * resources. VirtualService `sourceLabels` are outbound only (the inbound view has no VirtualServices).
 */
export function inboundLabelKeys(snapshot: MeshSnapshot): Set<string> {
  const out = new Set<string>(LABELS_READ_BY_NAME);
  for (const s of snapshot.services) addKeys(out, s.selector);
  for (const c of snapshot.sidecars) addKeys(out, c.spec.workloadSelector?.labels);
  for (const c of snapshot.peerAuthentications) addKeys(out, c.spec.selector?.matchLabels);
  for (const c of snapshot.authorizationPolicies) addKeys(out, c.spec.selector?.matchLabels);
  for (const c of snapshot.gateways) addKeys(out, c.spec.selector);
  for (const c of snapshot.destinationRules) addKeys(out, c.spec.workloadSelector?.matchLabels);
  for (const c of snapshot.envoyFilters ?? []) addKeys(out, c.spec.workloadSelector?.labels);
  return out;
}

/**
 * What a sidecar's inbound build reads, as a string (equal strings ⇒ equal inbound resources in one snapshot): the
 * proxy's inputs with its and its pod's labels narrowed to `keys` (inboundLabelKeys, named in the key: each key
 * present or absent). Pods of one Service that differ in `version` / `pod-template-hash` / canonical-revision
 * labels read by no selector get equal keys; everything else of ProxyInputs stays (a superset of what inbound reads).
 */
export function inboundInputsKey(i: ProxyInputs, keys: readonly string[]): string {
  const narrow = (labels: Array<[string, string]>): Array<string | null> => {
    const m = new Map(labels);
    return keys.map((k) => m.get(k) ?? null);
  };
  return JSON.stringify({
    keys,
    type: i.type,
    namespace: i.namespace,
    labels: narrow(i.labels),
    metadata: i.metadata,
    locality: i.locality,
    serviceAccount: i.serviceAccount,
    ipFamilies: i.ipFamilies,
    ingressBindIps: i.ingressBindIps,
    selfIp: i.selfIp,
    sidecar: i.sidecar,
    pod: i.pod && { labels: narrow(i.pod.labels), namedPorts: i.pod.namedPorts, proxyImage: i.pod.proxyImage },
    serviceTargets: i.serviceTargets,
  });
}
