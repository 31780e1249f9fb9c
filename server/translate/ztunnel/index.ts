// ztunnel's WDS, as istiod builds it under the ambient profile (pilot/pkg/xds/workload.go WorkloadGenerator:
// every Workload and Service as an istio.workload.Address; WorkloadRBACGenerator: every converted policy as an
// istio.security.Authorization). The same for every ztunnel (proxyKinds: perProxy false). Without the ambient
// profile (no snapshot.ambient) istiod has no ambient index and sends nothing. Pure.
import { byteCompare } from '../../lib/compare';
import type { IstioConfig, LoadError, MeshSnapshot, ServiceModel, TranslateOptions } from '../../model/mesh';
import type { AddressJson, AuthorizationJson, ResourceTable } from '../types';
import { convertAuthorizationPolicy, policyMessage, staticStrictPolicy } from './authorization';
import {
  type EntryContext,
  kubeServiceInfo,
  type ServiceInfo,
  selectServices,
  serviceEntryServices,
  serviceEntryWorkloads,
  workloadEntryJson,
} from './serviceEntries';
import type { ZtunnelMemo } from './memo';
import { isZtunnelService, serviceJson, WaypointAddresses } from './services';
import { SelectorIndex } from './selectIndex';
import { type NamespaceSelectors, type SelectingService, selectingService, type WorkloadContext, workloadJson } from './workloads';

export { podUid } from './workloads';

export interface ZtunnelView {
  /** istio.workload.Workload proto3 JSON (bytes in base64), sorted by uid. */
  workloads: Array<Record<string, unknown> & { uid: string }>;
  /** istio.workload.Service proto3 JSON, sorted by `namespace/hostname`. */
  services: Array<Record<string, unknown> & { namespace: string; hostname: string }>;
  /** istio.security.Authorization proto3 JSON, sorted by `namespace/name`. */
  policies: AuthorizationJson[];
  errors: LoadError[];
}

/** The whole ztunnel view of a snapshot (empty without the ambient profile). */
export function buildZtunnelView(snapshot: MeshSnapshot, options: TranslateOptions, memo?: ZtunnelMemo): ZtunnelView {
  const view: ZtunnelView = { workloads: [], services: [], policies: [], errors: [] };
  if (!snapshot.ambient) return view;
  const root = options.rootNamespace;
  memo?.begin(JSON.stringify(options));

  const policies: AuthorizationJson[] = [];
  const selectorPolicies = new Map<string, Array<{ key: string; selector: Readonly<Record<string, string>> }>>();
  for (const p of snapshot.authorizationPolicies) {
    const c = convertAuthorizationPolicy(root, p);
    if (c.message) view.errors.push(policyMessage(p, c.message));
    if (!c.authorization) continue;
    policies.push(c.authorization as AuthorizationJson);
    const sel = p.spec.selector?.matchLabels;
    // buildWorkloadPolicies: only label-selector policies in the root or the workload's namespace are attached.
    if (p.spec.selector !== undefined) {
      let list = selectorPolicies.get(p.meta.namespace);
      if (!list) selectorPolicies.set(p.meta.namespace, (list = []));
      list.push({ key: `${p.meta.namespace}/${p.meta.name}`, selector: sel ?? {} });
    }
  }
  // policies.go DefaultPolicy: the static STRICT policy whenever any PeerAuthentication exists.
  if (snapshot.peerAuthentications.length > 0) policies.push(staticStrictPolicy(root) as AuthorizationJson);

  const waypoints = new WaypointAddresses(snapshot);
  // Kubernetes Services and ServiceEntry hosts, deduplicated per hostname as selectWorkloadServices does.
  const infos: ServiceInfo[] = [];
  const kube = new Map<ServiceInfo, ServiceModel>();
  const seen = new Set<string>();
  for (const s of snapshot.services) {
    if (!isZtunnelService(s)) continue;
    const key = `${s.namespace}/${s.hostname}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const json = memo
      ? memo.service(s, waypoints.textOf(key, 'services'), snapshot.ambient.services.get(key)?.ingressUseWaypoint === true, () =>
          serviceJson(snapshot, s, waypoints),
        )
      : serviceJson(snapshot, s, waypoints);
    const info = kubeServiceInfo(s, json);
    kube.set(info, s);
    infos.push(info);
  }
  for (const se of snapshot.serviceEntries) infos.push(...(serviceEntryServices(snapshot, se) ?? []));
  const selected = selectServices(infos);
  const servicesByNs = new Map<string, SelectingService[]>();
  const entryServicesByNs = new Map<string, ServiceInfo[]>();
  for (const info of selected) {
    view.services.push(info.json as ZtunnelView['services'][number]);
    const inNs = entryServicesByNs.get(info.namespace);
    if (inNs) inNs.push(info);
    else entryServicesByNs.set(info.namespace, [info]);
    const s = kube.get(info);
    if (s && info.selector) {
      let list = servicesByNs.get(s.namespace);
      if (!list) servicesByNs.set(s.namespace, (list = []));
      list.push(selectingService(s, info.selector));
    }
  }
  // Per namespace, what selects its pods, indexed by label once per view (not every selector against every pod).
  const selectors = new Map<string, NamespaceSelectors>();
  for (const [ns, infos] of entryServicesByNs)
    selectors.set(ns, {
      services: new SelectorIndex(servicesByNs.get(ns) ?? [], (e) => e.selector),
      entries: new SelectorIndex(infos, (i) => (i.kind === 'ServiceEntry' && i.selector ? Object.entries(i.selector) : undefined)),
    });

  // peerAuthenticationKeys reads only the root's and the pod's namespace's PeerAuthentications: filtered once per namespace.
  const peerAuths = new Map<string, IstioConfig<'PeerAuthentication'>[]>();
  const peerAuthentications = (ns: string) => {
    let list = peerAuths.get(ns);
    if (!list)
      peerAuths.set(ns, (list = snapshot.peerAuthentications.filter((pa) => pa.meta.namespace === root || pa.meta.namespace === ns)));
    return list;
  };
  const ctx: WorkloadContext = { snapshot, options, selectors, selectorPolicies, waypoints, peerAuthentications };
  const portLevel = new Set<string>();
  const tokens = new Map<string, object>();
  const tokenOf = (ns: string): object => {
    const known = tokens.get(ns);
    if (known) return known;
    const deps: unknown[] = [];
    for (const e of servicesByNs.get(ns) ?? []) deps.push(e.service);
    for (const i of entryServicesByNs.get(ns) ?? [])
      if (i.kind === 'ServiceEntry')
        deps.push(JSON.stringify([i.namespace, i.hostname, i.selector ?? null, [...i.portNames], i.json['ports'] ?? null]));
    for (const n of new Set([root, ns]))
      for (const p of selectorPolicies.get(n) ?? []) deps.push(`${p.key}\u0000${JSON.stringify(p.selector)}`);
    // By content: a config object is re-made when its place in the inputs moves (the origin is read only for
    // the port-level warning).
    for (const pa of snapshot.peerAuthentications)
      if (pa.meta.namespace === root || pa.meta.namespace === ns)
        deps.push(JSON.stringify([pa.meta, pa.spec, pa.spec.portLevelMtls ? pa.origin : null]));
    const t = memo!.token(ns, deps);
    tokens.set(ns, t);
    return t;
  };
  for (const pod of snapshot.pods) {
    const w = memo
      ? memo.pod(pod, tokenOf(pod.namespace), waypoints.textOf(`${pod.namespace}/${pod.name}`, 'workloads'), () => workloadJson(ctx, pod))
      : workloadJson(ctx, pod);
    if (!w) continue;
    view.workloads.push(w.json as ZtunnelView['workloads'][number]);
    if (w.portLevel) {
      const pa = w.portLevel;
      const k = `${pa.meta.namespace}/${pa.meta.name}`;
      if (!portLevel.has(k)) {
        portLevel.add(k);
        view.errors.push({
          severity: 'warning',
          message:
            'meshscope does not yet convert PeerAuthentication portLevelMtls for ztunnel (istiod convertPeerAuthentication): the port-level exceptions are missing from the ztunnel view',
          object: `PeerAuthentication ${k}`,
          path: 'spec.portLevelMtls',
          ...(pa.origin.file !== undefined ? { file: pa.origin.file } : {}),
          ...(pa.origin.doc !== undefined ? { doc: pa.origin.doc } : {}),
        });
      }
    }
  }
  // WorkloadEntries and ServiceEntry endpoints (workloadEntryWorkloadBuilder, serviceEntryWorkloadBuilder).
  const ectx: EntryContext = { snapshot, options, servicesByNs: entryServicesByNs, selectorPolicies };
  for (const we of snapshot.workloadEntries) view.workloads.push(workloadEntryJson(ectx, we) as ZtunnelView['workloads'][number]);
  for (const se of snapshot.serviceEntries) view.workloads.push(...(serviceEntryWorkloads(ectx, se) as ZtunnelView['workloads']));
  view.workloads.sort((a, b) => byteCompare(a.uid, b.uid));
  view.services.sort((a, b) => byteCompare(`${a.namespace}/${a.hostname}`, `${b.namespace}/${b.hostname}`));
  view.policies = policies.sort((a, b) => byteCompare(`${a.namespace}/${a.name}`, `${b.namespace}/${b.name}`));
  memo?.end();
  return view;
}

/** The ztunnel kind's translator: the view as WDS resources (Address = one Workload or Service). */
export function translateZtunnel(snapshot: MeshSnapshot, _proxy: unknown, options: TranslateOptions, memo?: ZtunnelMemo): ResourceTable {
  const v = buildZtunnelView(snapshot, options, memo);
  const addresses: AddressJson[] = memo
    ? [
        ...v.workloads.map((workload) => memo.wrap(workload, () => ({ workload }))),
        ...v.services.map((service) => memo.wrap(service, () => ({ service }))),
      ]
    : [...v.workloads.map((workload) => ({ workload })), ...v.services.map((service) => ({ service }))];
  return {
    listeners: [],
    routes: [],
    clusters: [],
    endpoints: [],
    addresses,
    authorizations: v.policies,
    errors: v.errors,
    provenance: [],
  };
}
