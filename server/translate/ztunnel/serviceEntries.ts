// What istiod's ambient index sends ztunnel for ServiceEntries and WorkloadEntries
// (pilot/pkg/serviceregistry/ambient):
// - services.go serviceEntriesInfo / constructServiceEntries: one istio.workload.Service per ServiceEntry host;
// - services.go selectWorkloadServices: per hostname one winner per namespace (a Kubernetes Service, else the oldest
//   ServiceEntry), and one of them canonical;
// - workloads.go workloadEntryWorkloadBuilder: a Workload per WorkloadEntry;
// - workloads.go serviceEntryWorkloadBuilder: a Workload per inline endpoint of a ServiceEntry (or per host of a DNS
//   ServiceEntry without endpoints or selector);
// - workloads.go constructServicesFromWorkloadEntry / constructServices: the port mapping per selecting service.
// Not modelled: auto-allocated addresses (the ServiceEntry's status, which file inputs do not carry), the
// mesh's serviceEntryVisibility, network gateways, weighted waypoints. Pure.
import { waypointForWorkload, type BindingContext } from '../../model/ambient/bindings';
import { GATEWAY_NAME_LABEL } from '../../model/ambient/waypoints';
import type { IstioConfig, MeshSnapshot, ServiceModel, TranslateOptions } from '../../model/mesh';
import type { WorkloadEntrySpec } from '../../model/istio';
import { parseProtocol } from '../../model/parse/protocol';
import { ipJson } from './ip';
import { appProtocol, gatewayAddressJson, waypointOf } from './services';
import { entryServicePorts, type ServiceInfo } from './serviceInfo';
import { canonicalService, peerAuthenticationKeys } from './workloads';

export type { ServiceInfo } from './serviceInfo';

type Json = Record<string, unknown>;
type Labels = Readonly<Record<string, string>>;

/** helpers.go generateWorkloadEntryUID. */
export const workloadEntryUid = (clusterId: string, ns: string, name: string) =>
  `${clusterId}/networking.istio.io/WorkloadEntry/${ns}/${name}`;
/** helpers.go generateServiceEntryUID. */
export const serviceEntryUid = (clusterId: string, ns: string, name: string, addr: string) =>
  `${clusterId}/networking.istio.io/ServiceEntry/${ns}/${name}/${addr}`;

/** toNetworkAddressFromCidr: the address of an IP or CIDR; undefined when it is neither. */
function cidrAddress(s: string): string | undefined {
  const ip = s.includes('/') ? s.slice(0, s.indexOf('/')) : s;
  return ipJson(ip);
}

/** constructServiceEntries: one Service per host; undefined when an address does not parse (istiod drops the whole entry). */
export function serviceEntryServices(snapshot: MeshSnapshot, se: IstioConfig<'ServiceEntry'>): ServiceInfo[] | undefined {
  const spec = se.spec;
  const addresses: Json[] = [];
  for (const a of spec.addresses ?? []) {
    const b = cidrAddress(a);
    if (b === undefined) return undefined;
    addresses.push({ address: b });
  }
  const ports = (spec.ports ?? []).map((p) => {
    const out: Json = { servicePort: p.number, targetPort: p.targetPort || p.number };
    const ap = appProtocol(parseProtocol(p.protocol));
    if (ap) out['appProtocol'] = ap;
    return out;
  });
  const portNames = new Map((spec.ports ?? []).map((p) => [p.number, { portName: p.name }]));
  const sel = spec.workloadSelector?.labels;
  return spec.hosts.map((h) => {
    const svc: Json = { name: se.meta.name, namespace: se.meta.namespace, hostname: h };
    if (addresses.length) svc['addresses'] = addresses;
    if (ports.length) svc['ports'] = ports;
    if (spec.subjectAltNames?.length) svc['subjectAltNames'] = [...spec.subjectAltNames];
    const wp = waypointOf(snapshot, `${se.meta.namespace}/${h}`, 'services');
    if (wp) svc['waypoint'] = wp;
    // Resolution NONE passes through to the address called.
    if (spec.resolution === 'NONE') svc['loadBalancing'] = { mode: 'PASSTHROUGH', healthPolicy: 'ALLOW_ALL' };
    if (snapshot.ambient?.services.get(`${se.meta.namespace}/${h}`)?.ingressUseWaypoint) svc['ingressUseWaypoint'] = true;
    return {
      json: svc,
      kind: 'ServiceEntry' as const,
      namespace: se.meta.namespace,
      hostname: h,
      creation: se.meta.creationTimestamp ?? '',
      ...(sel && Object.keys(sel).length ? { selector: sel } : {}),
      portNames,
      source: `${se.meta.namespace}/${se.meta.name}`,
    };
  });
}

/** The ServiceInfo of a Kubernetes Service (its JSON built by services.ts serviceJson). */
export function kubeServiceInfo(s: ServiceModel, json: Json): ServiceInfo {
  const portNames = new Map(
    s.ports.map((p) => [p.port, { portName: p.name, ...(typeof p.targetPort === 'string' ? { targetPortName: p.targetPort } : {}) }]),
  );
  return {
    json,
    kind: 'Service',
    namespace: s.namespace,
    hostname: s.hostname,
    creation: s.creationTimestamp,
    ...(s.selector && Object.keys(s.selector).length ? { selector: s.selector } : {}),
    portNames,
  };
}

/**
 * selectWorkloadServices, per hostname: a Kubernetes Service wins its namespace, else the oldest ServiceEntry;
 * the canonical one is the Kubernetes Service, else the oldest winner. Losers are not sent.
 */
export function selectServices(all: readonly ServiceInfo[]): ServiceInfo[] {
  const byHost = new Map<string, ServiceInfo[]>();
  for (const s of all) byHost.set(s.hostname, [...(byHost.get(s.hostname) ?? []), s]);
  const isBetter = (a: ServiceInfo, b: ServiceInfo) => a.creation < b.creation && b.kind !== 'Service';
  const out: ServiceInfo[] = [];
  for (const list of byHost.values()) {
    const best = new Map<string, ServiceInfo>();
    for (const s of list) {
      if (s.kind === 'Service') {
        best.set(s.namespace, s);
        continue;
      }
      const cur = best.get(s.namespace);
      if (!cur || isBetter(s, cur)) best.set(s.namespace, s);
    }
    let canonical: ServiceInfo | undefined;
    for (const s of best.values()) {
      if (s.kind === 'Service') canonical = s;
      else if (!canonical || (canonical.kind !== 'Service' && isBetter(s, canonical))) canonical = s;
    }
    for (const s of best.values()) {
      // setCanonical: a Kubernetes Service's JSON already says canonical (constructService `Canonical: true`).
      if (s === canonical && s.kind === 'ServiceEntry') s.json = withCanonical(s.json);
      out.push(s);
    }
  }
  return out;
}

/** `canonical: true` in the proto's field order (before ingressUseWaypoint). */
function withCanonical(json: Json): Json {
  const { ingressUseWaypoint, ...rest } = json;
  return { ...rest, canonical: true, ...(ingressUseWaypoint !== undefined ? { ingressUseWaypoint } : {}) };
}

const selects = (sel: Labels | undefined, labels: Labels): boolean =>
  sel !== undefined && Object.keys(sel).length > 0 && Object.entries(sel).every(([k, v]) => labels[k] === v);

export interface EntryContext {
  snapshot: MeshSnapshot;
  options: TranslateOptions;
  /** The services sent, by namespace. */
  servicesByNs: ReadonlyMap<string, readonly ServiceInfo[]>;
  /** `ns/name` of the converted selector policies by namespace. */
  selectorPolicies: ReadonlyMap<string, ReadonlyArray<{ key: string; selector: Labels }>>;
}

function bindingContext(snapshot: MeshSnapshot): BindingContext | undefined {
  const idx = snapshot.ambient;
  if (!idx) return undefined;
  return { waypoints: idx.waypoints, namespaces: snapshot.namespaces, pending: new Map(idx.pending.map((p) => [p.key, p.reason])) };
}

/** computeWaypoint: an instance of a waypoint has none; otherwise fetchWaypointForWorkload. */
function entryWaypoint(ctx: EntryContext, ns: string, name: string, labels: Labels): Json | undefined {
  const bc = bindingContext(ctx.snapshot);
  if (!bc) return undefined;
  const gw = labels[GATEWAY_NAME_LABEL];
  if (gw !== undefined && bc.waypoints.has(`${ns}/${gw}`)) return undefined;
  const b = waypointForWorkload({ namespace: ns, labels, describe: `WorkloadEntry ${ns}/${name}` }, bc);
  const w = b.waypoint ? bc.waypoints.get(b.waypoint) : undefined;
  return w ? gatewayAddressJson(w.address) : undefined;
}

/** buildWorkloadPolicies for an entry's namespace and labels. */
function entryPolicies(ctx: EntryContext, ns: string, labels: Labels): string[] {
  const root = ctx.options.rootNamespace;
  const selected: string[] = [];
  for (const n of new Set([root, ns]))
    for (const p of ctx.selectorPolicies.get(n) ?? []) if (selects(p.selector, labels)) selected.push(p.key);
  selected.sort();
  return [...selected, ...peerAuthenticationKeys(ctx.snapshot, root, { namespace: ns, labels }).keys];
}

/** labelutil.SplitLocalityLabel → workloadapi.Locality, or undefined when empty. */
function locality(l: string | undefined): Json | undefined {
  const [region = '', zone = '', subzone = ''] = (l ?? '').split('/');
  if (!region && !zone && !subzone) return undefined;
  const out: Json = {};
  if (region) out['region'] = region;
  if (zone) out['zone'] = zone;
  if (subzone) out['subzone'] = subzone;
  return out;
}

/** setTunnelProtocol on an entry's labels and annotations. */
function tunnel(labels: Labels, annotations: Labels): Json {
  if ((labels['networking.istio.io/tunnel'] ?? '').split(',').some((t) => t.trim() === 'http'))
    return { tunnelProtocol: 'HBONE', nativeTunnel: true };
  if (annotations['ambient.istio.io/redirection'] === 'enabled') return { tunnelProtocol: 'HBONE' };
  return {};
}

interface EntryFields {
  uid: string;
  name: string;
  namespace: string;
  spec: WorkloadEntrySpec;
  /** Labels for policies and canonical names; labels for the waypoint lookup. */
  labels: Labels;
  waypointLabels?: Labels;
  annotations: Labels;
  workloadName: string;
  services: readonly ServiceInfo[];
}

/** The Workload JSON of a WorkloadEntry or a ServiceEntry endpoint, in the field order workloads.ts uses for pods. */
function entryWorkload(ctx: EntryContext, f: EntryFields): Json {
  const { options } = ctx;
  const w: Json = { uid: f.uid, name: f.name, namespace: f.namespace };
  const addr = f.spec.address ?? '';
  const ip = ipJson(addr);
  if (ip) w['addresses'] = [ip];
  else w['hostname'] = addr;
  if (f.spec.network) w['network'] = f.spec.network;
  const t = tunnel(f.labels, f.annotations);
  if (t['tunnelProtocol']) w['tunnelProtocol'] = t['tunnelProtocol'];
  if (options.trustDomain !== 'cluster.local') w['trustDomain'] = options.trustDomain;
  if (f.spec.serviceAccount) w['serviceAccount'] = f.spec.serviceAccount;
  const wp = f.waypointLabels ? entryWaypoint(ctx, f.namespace, f.name, f.waypointLabels) : undefined;
  if (wp) w['waypoint'] = wp;
  const [cname, crev] = canonicalService(f.labels, f.workloadName);
  w['canonicalName'] = cname;
  w['canonicalRevision'] = crev;
  w['workloadType'] = 'POD';
  w['workloadName'] = f.workloadName;
  if (t['nativeTunnel']) w['nativeTunnel'] = true;
  const services: Json = {};
  for (const s of f.services) services[`${s.namespace}/${s.hostname}`] = entryServicePorts(f.spec.ports, s);
  if (Object.keys(services).length) w['services'] = services;
  const policies = entryPolicies(ctx, f.namespace, f.labels);
  if (policies.length) w['authorizationPolicies'] = policies;
  w['clusterId'] = options.clusterId;
  const loc = locality(f.spec.locality);
  if (loc) w['locality'] = loc;
  if (f.spec.weight && f.spec.weight > 0) w['capacity'] = f.spec.weight;
  return w;
}

/** workloadEntryWorkloadBuilder. */
export function workloadEntryJson(ctx: EntryContext, we: IstioConfig<'WorkloadEntry'>): Json {
  // ConvertClientWorkloadEntry: the spec's labels merged with the metadata's (metadata wins).
  const labels = we.spec.labels ? { ...we.spec.labels, ...we.meta.labels } : we.meta.labels;
  const services = (ctx.servicesByNs.get(we.meta.namespace) ?? []).filter((s) => selects(s.selector, labels));
  return entryWorkload(ctx, {
    uid: workloadEntryUid(ctx.options.clusterId, we.meta.namespace, we.meta.name),
    name: we.meta.name,
    namespace: we.meta.namespace,
    spec: we.spec,
    labels,
    waypointLabels: labels,
    annotations: we.meta.annotations,
    // kubelabels.WorkloadNameFromWorkloadEntry.
    workloadName: we.meta.annotations['istio.io/autoRegistrationGroup'] ?? labels['service.istio.io/workload-name'] ?? we.meta.name,
    services,
  });
}

/** serviceEntryWorkloadBuilder: inline endpoints, or one hostname workload per host of a DNS entry without them. */
export function serviceEntryWorkloads(ctx: EntryContext, se: IstioConfig<'ServiceEntry'>): Json[] {
  const spec = se.spec;
  const r = spec.resolution;
  const implicit = (spec.endpoints ?? []).length === 0 && (r === 'DNS' || r === 'DNS_ROUND_ROBIN') && spec.workloadSelector === undefined;
  if ((spec.endpoints ?? []).length === 0 && !implicit) return [];
  const key = `${se.meta.namespace}/${se.meta.name}`;
  const all = (ctx.servicesByNs.get(se.meta.namespace) ?? []).filter((s) => s.source === key);
  // Pruned entirely by deduplication: its endpoints are not sent.
  if (all.length === 0) return [];
  const eps: WorkloadEntrySpec[] = implicit ? all.map((s) => ({ address: s.hostname })) : (spec.endpoints ?? []);
  return eps.map((ep, i) =>
    entryWorkload(ctx, {
      uid: serviceEntryUid(ctx.options.clusterId, se.meta.namespace, se.meta.name, ep.address ?? ''),
      name: se.meta.name,
      namespace: se.meta.namespace,
      spec: ep,
      labels: se.meta.labels,
      ...(implicit ? {} : { waypointLabels: ep.labels ?? {} }),
      annotations: se.meta.annotations,
      workloadName: se.meta.name,
      services: implicit ? [all[i]!] : all,
    }),
  );
}
