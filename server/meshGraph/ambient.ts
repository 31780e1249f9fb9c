// The overview graph under istiod's ambient profile (issue #20 §5): what the ambient index (model/ambient) says,
// drawn on the config graph —
//   namespaces with enrolled pods and the enrolled pods themselves (istio-cni's redirection, no sidecar): `ambient`
//   waypoint proxies: `waypoint`, with `waypoint` edges to the Services and workloads each serves
//     (ambientindex.go ServicesForWaypoint / WorkloadsForWaypoint, by the proxy's WaypointKey)
//   Services whose L7 config has no waypoint to run it: `no-waypoint` (VirtualService, DestinationRule, GAMMA
//     route, AuthorizationPolicy targetRefs), with the binding's skip reason (waypoints.go fetchWaypointForService);
//   enrolled pods selected by an AuthorizationPolicy with HTTP attributes ztunnel cannot enforce: `no-waypoint`
//     (authorization.go convertAuthorizationPolicy's message).
// Pure: reads only the snapshot and the graph built from it; a snapshot without the ambient index adds nothing.
import { byteCompare } from '../lib/compare';
import { resolveShortname } from '../model/host';
import type { MeshSnapshot, PodModel, TranslateOptions } from '../model/mesh';
import { endpointKey } from '../model/mesh';
import { proxyIdOf } from '../model/proxyIdentity';
import { convertAuthorizationPolicy } from '../translate/ztunnel/authorization';
import type { AmbientOverview, AmbientWaypointSummary, SkippedL7 } from './ambientTypes';
import type { Badge, MeshEdge, MeshGraph, MeshNode } from './graph';
import { nodeId } from './ids';

export type { AmbientOverview, AmbientWaypointSummary, SkippedL7 } from './ambientTypes';

const DATAPLANE_MODE = 'istio.io/dataplane-mode';

const addBadge = (n: MeshNode | undefined, b: Badge) => {
  if (n && !n.badges.some((x) => x.kind === b.kind)) n.badges.push(b);
};

/** Which Services (`ns/hostname`) select an enrolled pod, from the snapshot's endpoints. */
function ambientServices(snap: MeshSnapshot, enrolled: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  for (const s of snap.services) {
    const byPort = snap.endpoints.get(endpointKey(s));
    if (!byPort) continue;
    for (const eps of byPort.values())
      if (eps.some((e) => e.podName !== undefined && enrolled.has(`${e.namespace}/${e.podName}`))) {
        out.add(endpointKey(s));
        break;
      }
  }
  return out;
}

/** The L7 objects that name each Service host (`ns/hostname` → [kind, `ns/name`]). */
function l7ObjectsByService(snap: MeshSnapshot, o: TranslateOptions): Map<string, Array<[string, string]>> {
  const out = new Map<string, Array<[string, string]>>();
  const byHost = (host: string, ns: string, kind: string, obj: string) => {
    const fqdn = resolveShortname(host, ns, o.domainSuffix);
    for (const s of snap.servicesByHost.get(fqdn) ?? []) {
      const k = endpointKey(s);
      const list = out.get(k) ?? [];
      if (!list.some(([a, b]) => a === kind && b === obj)) list.push([kind, obj]);
      out.set(k, list);
    }
  };
  for (const vs of snap.virtualServices) {
    const gws = vs.spec.gateways ?? [];
    if (gws.length > 0 && !gws.includes('mesh')) continue; // gateway-bound only: not mesh traffic
    for (const h of vs.spec.hosts ?? [])
      if (h !== '*') byHost(h, vs.meta.namespace, 'VirtualService', `${vs.meta.namespace}/${vs.meta.name}`);
  }
  for (const dr of snap.destinationRules)
    byHost(dr.spec.host ?? '', dr.meta.namespace, 'DestinationRule', `${dr.meta.namespace}/${dr.meta.name}`);
  for (const r of snap.gatewayApi?.routes ?? []) {
    if (r.kind !== 'HTTPRoute' && r.kind !== 'GRPCRoute') continue;
    for (const p of r.parents) {
      const ref = p.parentRef;
      if (ref.kind !== 'Service' || (ref.group !== '' && ref.group !== 'core')) continue;
      const ns = ref.namespace ?? r.namespace;
      byHost(`${ref.name}.${ns}.svc.${o.domainSuffix}`, ns, r.kind, `${r.namespace}/${r.name}`);
    }
  }
  for (const ap of snap.authorizationPolicies) {
    const refs = [...(ap.spec.targetRef ? [ap.spec.targetRef] : []), ...(ap.spec.targetRefs ?? [])];
    for (const ref of refs) {
      if (ref.kind !== 'Service' || (ref.group ?? '') !== '') continue;
      const ns = ref.namespace ?? ap.meta.namespace;
      byHost(`${ref.name}.${ns}.svc.${o.domainSuffix}`, ns, 'AuthorizationPolicy', `${ap.meta.namespace}/${ap.meta.name}`);
    }
  }
  return out;
}

const selects = (sel: Readonly<Record<string, string>> | undefined, pod: PodModel): boolean =>
  sel !== undefined && Object.entries(sel).every(([k, v]) => pod.labels[k] === v);

/**
 * Adds the ambient view to `graph` (badges, `waypoint` edges, `graph.ambient`) and returns it. Node and edge order
 * follow the snapshot; the graph's own nodes and edges are kept as they are.
 */
export function withAmbient(graph: MeshGraph, snap: MeshSnapshot, o: TranslateOptions): MeshGraph {
  const idx = snap.ambient;
  if (!idx) return graph;
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const podNode = (key: string): string | undefined => {
    const [ns, name] = [key.slice(0, key.indexOf('/')), key.slice(key.indexOf('/') + 1)];
    const proxy = nodeId.proxy(proxyIdOf(name, ns));
    return byId.has(proxy) ? proxy : byId.has(nodeId.pod(ns, name)) ? nodeId.pod(ns, name) : undefined;
  };

  // Enrolled pods and their namespaces.
  const enrolled = new Set<string>();
  const namespaces = new Set<string>();
  for (const b of idx.workloads.values()) {
    if (!b.ambient || b.instanceOf) continue;
    enrolled.add(b.key);
    namespaces.add(b.namespace);
    const wp = b.waypoint ? ` · waypoint ${b.waypoint}` : '';
    addBadge(byId.get(podNode(b.key) ?? ''), {
      kind: 'ambient',
      text: 'ambient',
      title: `enrolled in ambient by istio-cni (ztunnel)${wp}`,
    });
  }
  for (const [ns, model] of snap.namespaces) if (model.labels[DATAPLANE_MODE] === 'ambient') namespaces.add(ns);
  for (const ns of namespaces)
    addBadge(byId.get(nodeId.namespace(ns)), {
      kind: 'ambient',
      text: 'ambient',
      title: snap.namespaces.get(ns)?.labels[DATAPLANE_MODE] === 'ambient' ? `${DATAPLANE_MODE}=ambient` : 'has pods enrolled in ambient',
    });

  // Waypoints: their proxies, and an edge to each Service and workload they serve.
  const edges: MeshEdge[] = [];
  const waypoints: AmbientWaypointSummary[] = [];
  for (const w of idx.waypoints.values()) {
    const services = new Set<string>();
    const workloads = new Set<string>();
    for (const proxy of w.proxies) {
      const from = nodeId.proxy(proxy);
      addBadge(byId.get(from), {
        kind: 'waypoint',
        text: 'waypoint',
        title: `waypoint ${w.key} (istio.io/waypoint-for: ${w.trafficType})`,
      });
      for (const key of idx.servicesForProxy.get(proxy) ?? []) {
        services.add(key);
        const target = nodeId.service({ namespace: key.slice(0, key.indexOf('/')), hostname: key.slice(key.indexOf('/') + 1) });
        if (byId.has(from) && byId.has(target))
          edges.push({ id: `waypoint:${from}->${target}`, kind: 'waypoint', source: from, target, label: `waypoint ${w.name}` });
      }
      for (const key of idx.workloadsForProxy.get(proxy) ?? []) {
        workloads.add(key);
        const target = podNode(key);
        if (byId.has(from) && target)
          edges.push({ id: `waypoint:${from}->${target}`, kind: 'waypoint', source: from, target, label: `waypoint ${w.name}` });
      }
    }
    for (const key of services) {
      const n = byId.get(`svc:${key}`);
      addBadge(n, { kind: 'waypoint', text: `waypoint ${w.name}`, title: `served by waypoint ${w.key}` });
    }
    waypoints.push({
      key: w.key,
      address:
        'hostname' in w.address
          ? `${w.address.hostname.namespace}/${w.address.hostname.hostname}`
          : `${w.address.address.network}/${w.address.address.ip}`,
      trafficType: w.trafficType,
      proxies: [...w.proxies],
      services: [...services],
      workloads: [...workloads],
    });
  }

  // L7 config on an ambient Service without a waypoint: ztunnel (L4 only) never applies it.
  const skipped: SkippedL7[] = [];
  const inAmbient = ambientServices(snap, enrolled);
  for (const [key, objs] of l7ObjectsByService(snap, o)) {
    const b = idx.services.get(key);
    if (!b || b.waypoint || !inAmbient.has(key)) continue;
    const target = `svc:${key}`;
    if (!byId.has(target)) continue;
    const why = b.skip?.message ?? 'no waypoint';
    for (const [kind, object] of objs)
      skipped.push({
        kind,
        object,
        target,
        reason: b.skip?.reason ?? 'NoUseWaypoint',
        message: `${kind} ${object} has no effect for ambient clients: ${why}`,
      });
  }
  for (const ap of snap.authorizationPolicies) {
    if (ap.spec.selector === undefined) continue;
    const msg = convertAuthorizationPolicy(o.rootNamespace, ap).message;
    if (!msg?.includes('HTTP attributes')) continue;
    const scoped = ap.meta.namespace === o.rootNamespace ? undefined : ap.meta.namespace;
    for (const pod of snap.pods) {
      const key = `${pod.namespace}/${pod.name}`;
      if (!enrolled.has(key) || (scoped && pod.namespace !== scoped) || !selects(ap.spec.selector.matchLabels ?? {}, pod)) continue;
      const target = podNode(key);
      if (target)
        skipped.push({
          kind: 'AuthorizationPolicy',
          object: `${ap.meta.namespace}/${ap.meta.name}`,
          target,
          reason: 'HTTPAttributes',
          message: msg,
        });
    }
  }
  const byTarget = new Map<string, SkippedL7[]>();
  for (const s of skipped) byTarget.set(s.target, [...(byTarget.get(s.target) ?? []), s]);
  for (const [target, list] of byTarget)
    addBadge(byId.get(target), { kind: 'no-waypoint', text: 'L7 without waypoint', title: list.map((s) => s.message).join('\n') });

  const ambient: AmbientOverview = {
    namespaces: [...namespaces].sort(byteCompare),
    pods: [...enrolled],
    waypoints,
    pending: idx.pending.map((p) => ({ key: p.key, reason: p.reason })),
    skipped,
  };
  // A waypoint applies routes only for the Services bound to it (listener_waypoint.go: one chain per ServicesForWaypoint
  // entry): route edges the config graph drew from a waypoint to any other Service are not its routes.
  const served = new Map<string, Set<string>>();
  for (const [proxy, keys] of idx.servicesForProxy) served.set(nodeId.proxy(proxy), new Set(keys.map((k) => k.slice(k.indexOf('/') + 1))));
  const vsHosts = new Map(
    snap.virtualServices.map((vs) => [
      `${vs.meta.namespace}/${vs.meta.name}`,
      (vs.spec.hosts ?? []).map((h) => resolveShortname(h, vs.meta.namespace, o.domainSuffix)),
    ]),
  );
  const kept = graph.edges.filter((e) => {
    const hosts = served.get(e.source);
    if (!hosts || e.kind === 'endpoint') return true;
    return (vsHosts.get(e.virtualService ?? '') ?? []).some((h) => hosts.has(h));
  });
  const all = [...kept, ...edges];
  return { ...graph, edges: all, counts: { ...graph.counts, routeEdges: all.filter((e) => e.kind === 'route').length }, ambient };
}

const nsOf = (key: string) => key.slice(0, key.indexOf('/'));

/** The ambient view a viewer limited to some namespaces may see (api/visibility scopeGraph). */
export function scopeAmbient(a: AmbientOverview, sees: (ns: string) => boolean): AmbientOverview {
  return {
    namespaces: a.namespaces.filter(sees),
    pods: a.pods.filter((k) => sees(nsOf(k))),
    waypoints: a.waypoints
      .filter((w) => sees(nsOf(w.key)))
      .map((w) => ({ ...w, services: w.services.filter((k) => sees(nsOf(k))), workloads: w.workloads.filter((k) => sees(nsOf(k))) })),
    pending: a.pending.filter((p) => sees(nsOf(p.key))),
    skipped: a.skipped.filter((s) => sees(nsOf(s.object))),
  };
}
