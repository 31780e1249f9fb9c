// buildSnapshot: raw inputs → immutable, indexed MeshSnapshot (istiod's PushContext + service registry).
// Pure and deterministic: no I/O, clock, env or randomness; the same inputs give the same snapshot.
import type { IstioKind } from './istio';
import type { EndpointModel, IstioConfig, LoadError, MeshSnapshot, NamespaceModel, ProxyModel, ServiceModel } from './mesh';
import type { RawInput } from './inputs';
import { buildEndpointIndex } from './parse/endpoints';
import { buildIncremental, optionsKey } from './snapshotIncremental';
import type { BuildState } from './snapshotState';
import { type BuildSnapshotOptions, byCreation, byServiceCreation } from './snapshotOptions';
import { podInstance, workloadEntryHealthy, workloadEntryInstance } from './parse/workloads';
import { inputKey, locate, parseInputs } from './parse/objects';
import { buildPods } from './parse/pods';
import { proxyOf } from './proxyIdentity';
import { kubeServices, serviceEntryServices } from './parse/services';
import { byteCompare as cmp } from '../lib/compare';
import { convertIngresses, ingressMeshOf } from './ingress';
import { buildSecretIndex } from './secretIndex';
import { meshStateOf } from './parse/meshSource';
import { convertGatewayApi } from './gatewayapi';
import { parseGatewayApi } from './gatewayapi/parse';
import { buildAmbientIndex } from './ambient';
import { SnapshotMemo } from './snapshotMemo';

export { type BuildSnapshotOptions, byCreation, byServiceCreation } from './snapshotOptions';

/** Freezes `v` and everything reachable from it (Map values, array items, own enumerable values). */
export function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    Object.freeze(v);
    if (v instanceof Map) for (const x of v.values()) deepFreeze(x);
    // An array is walked in place (Object.values would copy a 10,000-pod list on every change).
    else if (Array.isArray(v)) for (const x of v) deepFreeze(x);
    else for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

export function buildSnapshot(inputs: readonly RawInput[], opts: BuildSnapshotOptions): MeshSnapshot {
  if (opts.cache) {
    const next = buildIncremental(inputs, opts, opts.cache, deepFreeze);
    if (next) return next;
    opts.cache.last = undefined;
    opts.cache.stats.full++;
  }
  const domainSuffix = opts.domainSuffix ?? 'cluster.local';
  const dedup = dedupe(inputs, opts.cache?.keyOf);
  const parsed = parseInputs(dedup.inputs, opts.cache?.parse);
  const errors: LoadError[] = [...dedup.errors, ...parsed.errors];
  const mesh = opts.meshState
    ? { state: opts.meshState, problems: [] }
    : meshStateOf(dedup.inputs, opts.meshConfig, { domainSuffix, clusterId: 'Kubernetes' });
  errors.push(...mesh.problems);

  // Namespaces: declared ones, then every namespace implied by an object in it.
  const namespaces = new Map<string, NamespaceModel>();
  for (const ns of parsed.namespaces)
    if (!namespaces.has(ns.meta.name)) namespaces.set(ns.meta.name, { name: ns.meta.name, labels: ns.meta.labels, declared: true });
  const anyDeclared = namespaces.size > 0;
  const imply = (name: string) => {
    if (name && !namespaces.has(name)) namespaces.set(name, { name, labels: {}, declared: false });
  };
  for (const list of [parsed.services, parsed.pods, parsed.endpointSlices, parsed.workloads]) for (const o of list) imply(o.meta.namespace);
  for (const kind of Object.keys(parsed.istio) as IstioKind[]) for (const c of parsed.istio[kind]) imply(c.meta.namespace);
  for (const c of parsed.rejected) imply(c.meta.namespace);

  const podStats = { allocated: 0 };
  const pods = buildPods(parsed, namespaces, anyDeclared, opts.cache?.pods, podStats);

  const istio = parsed.istio;
  const rawIstio = Object.fromEntries(Object.entries(istio).map(([k, list]) => [k, list.slice()])) as BuildState['rawIstio'];
  // Kubernetes Ingress → generated Gateways and VirtualServices (istiod's ingress controller), merged with the rest.
  const ingress = convertIngresses({ ...parsed, domainSuffix, mesh: opts.ingressMesh ?? ingressMeshOf(mesh.state.config) });
  istio.Gateway.push(...ingress.gateways);
  istio.VirtualService.push(...ingress.virtualServices);
  errors.push(...ingress.errors);
  const gwApi = parseGatewayApi(parsed.gatewayApi);
  errors.push(...gwApi.errors);
  for (const o of parsed.gatewayApi) imply(o.meta.namespace);
  for (const kind of Object.keys(istio) as IstioKind[]) (istio[kind] as IstioConfig[]).sort(byCreation);

  const k8s = kubeServices(parsed.services, domainSuffix, opts.cache?.services);
  const sePairs = serviceEntryServices(istio.ServiceEntry, new Set(), errors);
  const services = [...k8s, ...sePairs.map((p) => p.service)].sort(byServiceCreation);
  const servicesByHost = new Map<string, ServiceModel[]>();
  for (const s of services) {
    const list = servicesByHost.get(s.hostname);
    if (list) list.push(s);
    else servicesByHost.set(s.hostname, [s]);
  }

  const nodeLabels = new Map(parsed.nodes.map((n) => [n.meta.name, n.meta.labels]));
  // Workload instances (istiod's serviceentry controller): ready pods (kube/controller/pod.go only hands ready
  // pods with an IP to it), then WorkloadEntries.
  const weInstances = istio.WorkloadEntry.filter(workloadEntryHealthy).map((we) =>
    workloadEntryInstance(we.spec, we.meta.name, we.meta.namespace),
  );
  const instances = [...pods.filter((p) => p.ready && p.ip).map(podInstance), ...weInstances];
  const { index: endpoints, rank } = buildEndpointIndex({
    services: k8s,
    serviceAt: k8s.map((_, i) => i),
    pairs: sePairs,
    pairAt: sePairs.map((_, i) => i),
    slices: parsed.endpointSlices,
    pods,
    nodeLabels,
    instances,
    ...(opts.cache ? { memo: opts.cache.podEndpoints } : {}),
  });

  // Gateway API → internal Gateways/VirtualServices (istiod's Gateway API controller), ordered with the rest.
  const converted = convertGatewayApi(gwApi.objects, {
    domainSuffix,
    namespaces,
    services: new Set(k8s.map((s) => `${s.namespace}/${s.name}`)),
    hosts: new Set(services.map((s) => s.hostname)),
    pods,
    ...(opts.ambient ? { ambient: true } : {}),
    hasEndpoints: (ns, host, port) => (endpoints.get(`${ns}/${host}`)?.get(port)?.length ?? 0) > 0,
  });
  const ownErrors = errors.slice();
  errors.push(...converted.errors);
  if (converted.gateways.length) istio.Gateway = [...istio.Gateway, ...converted.gateways].sort(byCreation);
  if (converted.virtualServices.length) istio.VirtualService = [...istio.VirtualService, ...converted.virtualServices].sort(byCreation);

  const proxies: ProxyModel[] = pods.filter((p) => p.proxy !== 'none').map(opts.cache?.proxyOf ?? proxyOf);
  proxies.sort((a, b) => cmp(a.id, b.id));

  const snapshot: MeshSnapshot = {
    version: opts.version,
    namespaces: new Map([...namespaces].sort(([a], [b]) => cmp(a, b))),
    services,
    servicesByHost,
    endpoints: endpoints as Map<string, Map<number, readonly EndpointModel[]>>,
    pods,
    proxies,
    proxiesById: new Map(proxies.map((p) => [p.id, p])),
    virtualServices: istio.VirtualService,
    destinationRules: istio.DestinationRule,
    gateways: istio.Gateway,
    serviceEntries: istio.ServiceEntry,
    sidecars: istio.Sidecar,
    secrets: buildSecretIndex(parsed.secrets, opts.secretsWatched ?? false),
    workloadEntries: istio.WorkloadEntry,
    authorizationPolicies: istio.AuthorizationPolicy,
    peerAuthentications: istio.PeerAuthentication,
    envoyFilters: istio.EnvoyFilter,
    rejectedConfigs: parsed.rejected.sort(byCreation),
    ...(parsed.gatewayApi.length ? { gatewayApi: converted.model } : {}),
    ...(opts.ambient ? { ambient: buildAmbientIndex({ namespaces, pods, services, gatewayApi: gwApi.objects }) } : {}),
    errors: [...(opts.extraErrors ?? []).map((e) => ({ ...e })), ...errors],
    mesh: mesh.state,
    memo: new SnapshotMemo(),
  };
  deepFreeze(snapshot);
  if (opts.cache && dedup.errors.length === 0)
    opts.cache.last = {
      inputs,
      options: optionsKey(opts),
      snapshot,
      rawIstio,
      ingress,
      converted: { gateways: converted.gateways, virtualServices: converted.virtualServices },
      gwApi: gwApi.objects,
      hasGatewayApi: parsed.gatewayApi.length > 0,
      namespaces,
      anyDeclared,
      nodeLabels,
      hasWorkloads: parsed.workloads.length > 0,
      allocated: podStats.allocated,
      k8s,
      sePairs,
      slices: parsed.endpointSlices,
      weInstances,
      rank,
      ownErrors,
      convertedErrors: converted.errors,
    };
  return snapshot;
}

/**
 * The same object (store key) given twice in one input list (the CLI's ordered --config files): a located
 * warning naming both origins; the later definition wins, like a second `kubectl apply`. (A watched source
 * reports it as an error: see sources/store.ts.)
 */
function dedupe(
  inputs: readonly RawInput[],
  keyOf: (input: RawInput) => string | undefined = inputKey,
): { inputs: RawInput[]; errors: LoadError[] } {
  const last = new Map<string, number>();
  const keys = inputs.map((input, i) => {
    const key = keyOf(input);
    if (key !== undefined) last.set(key, i);
    return key;
  });
  const errors: LoadError[] = [];
  const kept = inputs.filter((input, i) => {
    const key = keys[i];
    if (key === undefined || last.get(key) === i) return true;
    const later = inputs[last.get(key)!]!;
    const md = input.object.metadata as Record<string, unknown>;
    const at = (i: RawInput) =>
      i.origin.file !== undefined ? `${i.origin.file}${i.origin.doc !== undefined ? `#${i.origin.doc}` : ''}` : i.origin.source;
    errors.push(
      locate(
        {
          severity: 'warning',
          message: `duplicate object: defined in ${at(input)} and in ${at(later)}; the later one (${at(later)}) is used`,
          object: `${String(input.object.kind)} ${String(md.namespace ?? '')}/${String(md.name)}`,
        },
        input.origin,
      ),
    );
    return false;
  });
  return { inputs: kept, errors };
}
