// Pods: explicit Pods as they are, plus synthetic pods expanded from Deployments/ReplicaSets/StatefulSets
// (Kubernetes naming: `<deploy>-<pod-template-hash>-<5>`, `<rs>-<5>`, `<sts>-<i>`), with deterministic IPs,
// locality, and Istio proxy detection (server/model/proxyIdentity: injection rules). A workload that owns
// an explicit Pod of the input, or whose owner is in the input, is never expanded (./owners).
import { pushAll } from '../schema/common';
import type { Locality, NamespaceModel, ObjectMeta, Origin, PodModel } from '../mesh';
import type { KubePodSpec } from '../schema/kube';
import { IpPool, canonicalJson, safeSuffix, stableHex } from './hash';
import type { KubeObject, ParsedInputs } from './objects';
import { proxyType } from '../proxyIdentity';
import { byteCompare } from '../../lib/compare';
import { workloadRef, workloadsNotExpanded } from './owners';

/**
 * A pod template annotation giving the first replica's pod IP (replica i gets the last octet + i): the
 * demo mesh's pods carry loopback addresses this way, so the demo data plane (server/demo) can bind a
 * real server on each pod's own address and the EDS endpoints are real. Invalid values are ignored.
 */
export const POD_IP_ANNOTATION = 'demo.meshscope.io/pod-ip';

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;

/** The IP of replica `i` from the template annotation, or undefined (absent, invalid, or past .254). */
export function annotatedPodIp(annotations: Readonly<Record<string, string>>, i: number): string | undefined {
  const m = IPV4.exec(annotations[POD_IP_ANNOTATION]?.trim() ?? '');
  if (!m) return undefined;
  const octets = m.slice(1, 5).map(Number);
  if (octets.some((o) => o > 255)) return undefined;
  const last = octets[3]! + i;
  if (last > 254) return undefined;
  return `${octets[0]}.${octets[1]}.${octets[2]}.${last}`;
}

interface PodDraft {
  meta: ObjectMeta;
  spec: KubePodSpec;
  ip?: string;
  ready: boolean;
  owner?: { kind: string; name: string };
  origin: Origin;
}

/** The PodModel of one explicit Pod that needs no allocated IP (../snapshotIncremental), reusing the memo's as buildPods does. */
export function explicitPodModel(
  p: KubeObject<import('../schema/kube').KubePod>,
  namespaces: ReadonlyMap<string, NamespaceModel>,
  anyNamespaceDeclared: boolean,
  nodes: ReadonlyMap<string, Readonly<Record<string, string>>>,
  memo?: PodsMemo,
): PodModel | undefined {
  const d = explicitPod(p);
  if (!d.ip) return undefined;
  const proxy = proxyType(d.meta, d.spec, namespaces, anyNamespaceDeclared);
  const nodeLabels = d.spec.nodeName ? nodes.get(d.spec.nodeName) : undefined;
  const hit = memo?.pods.get(d.meta);
  if (hit && sameDraft(hit.draft, d) && hit.pod.ip === d.ip && hit.pod.proxy === proxy && hit.nodeLabels === nodeLabels) return hit.pod;
  const pod = podModel(d, d.ip, proxy, nodeLabels);
  memo?.pods.set(d.meta, { draft: d, nodeLabels, pod });
  return pod;
}

function explicitPod(p: KubeObject<import('../schema/kube').KubePod>): PodDraft {
  const status = p.body.status;
  const readyCond = status?.conditions?.find((c) => c.type === 'Ready');
  const ready = readyCond ? readyCond.status === 'True' : status?.phase === undefined || status.phase === 'Running';
  const d: PodDraft = { meta: p.meta, spec: p.body.spec ?? {}, ready, origin: p.origin };
  if (status?.podIP) d.ip = status.podIP;
  return d;
}

/** Pods expanded per workload object in an earlier build; `clean`: no name had to be re-salted or skipped. */
export type ExpandMemo = WeakMap<object, { drafts: PodDraft[]; clean: boolean }>;

/** What buildPods keeps between builds (model/snapshotCache): expansions, and PodModels by their draft's meta. */
export interface PodsMemo {
  workloads: ExpandMemo;
  pods: WeakMap<ObjectMeta, { draft: PodDraft; nodeLabels: unknown; pod: PodModel }>;
}

/** expandWorkload, reusing an earlier expansion when it met no name clash and its names are still free. */
function expandMemo(w: ParsedInputs['workloads'][number], taken: Set<string>, memo: ExpandMemo | undefined): PodDraft[] {
  const hit = memo?.get(w);
  if (hit?.clean && hit.drafts.every((d) => !taken.has(`${d.meta.namespace}/${d.meta.name}`))) {
    for (const d of hit.drafts) taken.add(`${d.meta.namespace}/${d.meta.name}`);
    return hit.drafts;
  }
  const state = { clean: true };
  const drafts = expandWorkload(w, taken, state);
  memo?.set(w, { drafts, clean: state.clean });
  return drafts;
}

function expandWorkload(w: ParsedInputs['workloads'][number], taken: Set<string>, state = { clean: true }): PodDraft[] {
  const tpl = w.body.spec.template;
  const replicas = w.body.spec.replicas ?? 1;
  const ns = w.meta.namespace;
  const labels: Record<string, string> = { ...(tpl.metadata?.labels ?? {}) };
  const annotations = { ...(tpl.metadata?.annotations ?? {}) };
  const templateHash = stableHex(canonicalJson(tpl), 10);
  if (w.kind === 'Deployment') labels['pod-template-hash'] = templateHash;
  const out: PodDraft[] = [];
  for (let i = 0; i < replicas; i++) {
    let name: string;
    if (w.kind === 'StatefulSet') name = `${w.meta.name}-${i}`;
    else {
      const base = w.kind === 'Deployment' ? `${w.meta.name}-${templateHash}` : w.meta.name;
      let salt = 0;
      do name = `${base}-${safeSuffix(`${ns}/${w.meta.name}/${i}/${salt++}`, 5)}`;
      while (taken.has(`${ns}/${name}`));
      if (salt > 1) state.clean = false;
    }
    if (taken.has(`${ns}/${name}`)) {
      state.clean = false;
      continue;
    }
    taken.add(`${ns}/${name}`);
    const podLabels = w.kind === 'StatefulSet' ? { ...labels, 'statefulset.kubernetes.io/pod-name': name } : labels;
    const ip = annotatedPodIp(annotations, i);
    out.push({
      ...(ip ? { ip } : {}),
      meta: { name, namespace: ns, labels: podLabels, annotations, creationTimestamp: w.meta.creationTimestamp },
      spec: tpl.spec ?? {},
      ready: true,
      owner: { kind: w.kind, name: w.meta.name },
      origin: w.origin,
    });
  }
  return out;
}

export function localityOf(labels: Readonly<Record<string, string>>, nodeLabels?: Readonly<Record<string, string>>): Locality {
  const pick = (k: string) => labels[k] ?? nodeLabels?.[k] ?? '';
  return {
    region: pick('topology.kubernetes.io/region'),
    zone: pick('topology.kubernetes.io/zone'),
    subzone: pick('topology.istio.io/subzone'),
  };
}

export function buildPods(
  parsed: ParsedInputs,
  namespaces: ReadonlyMap<string, NamespaceModel>,
  anyNamespaceDeclared: boolean,
  memo?: PodsMemo,
  stats?: { allocated: number },
): PodModel[] {
  const taken = new Set<string>();
  const drafts: PodDraft[] = [];
  for (const p of parsed.pods) {
    const key = `${p.meta.namespace}/${p.meta.name}`;
    if (taken.has(key)) continue;
    taken.add(key);
    drafts.push(explicitPod(p));
  }
  const owned = workloadsNotExpanded(parsed);
  for (const w of parsed.workloads)
    if (!owned.has(workloadRef(w.kind, w.meta.namespace, w.meta.name))) pushAll(drafts, expandMemo(w, taken, memo?.workloads));
  drafts.sort((a, b) => byteCompare(a.meta.namespace, b.meta.namespace) || byteCompare(a.meta.name, b.meta.name));

  const pool = new IpPool(
    '10.244',
    drafts.flatMap((d) => (d.ip ? [d.ip] : [])),
  );
  const nodes = new Map(parsed.nodes.map((n) => [n.meta.name, n.meta.labels]));
  return drafts.map((d) => {
    if (!d.ip && stats) stats.allocated++;
    const ip = d.ip ?? pool.allocate(`${d.meta.namespace}/${d.meta.name}`);
    const proxy = proxyType(d.meta, d.spec, namespaces, anyNamespaceDeclared);
    const nodeLabels = d.spec.nodeName ? nodes.get(d.spec.nodeName) : undefined;
    // The same draft (same source object) with the same IP, proxy type and node: the PodModel of the last build.
    const hit = memo?.pods.get(d.meta);
    if (hit && sameDraft(hit.draft, d) && hit.pod.ip === ip && hit.pod.proxy === proxy && hit.nodeLabels === nodeLabels) return hit.pod;
    const pod = podModel(d, ip, proxy, nodeLabels);
    memo?.pods.set(d.meta, { draft: d, nodeLabels, pod });
    return pod;
  });
}

const sameDraft = (a: PodDraft, b: PodDraft): boolean =>
  a === b ||
  (a.meta === b.meta &&
    a.spec === b.spec &&
    a.ip === b.ip &&
    a.ready === b.ready &&
    a.origin === b.origin &&
    a.owner?.kind === b.owner?.kind &&
    a.owner?.name === b.owner?.name);

function podModel(d: PodDraft, ip: string, proxy: PodModel['proxy'], nodeLabels: Readonly<Record<string, string>> | undefined): PodModel {
  const namedPorts: Record<string, number> = {};
  const containerPorts: number[] = [];
  for (const c of d.spec.containers ?? []) {
    if (c.name === 'istio-proxy') continue;
    for (const port of c.ports ?? []) {
      if (port.name && namedPorts[port.name] === undefined) namedPorts[port.name] = port.containerPort;
      if (!containerPorts.includes(port.containerPort)) containerPorts.push(port.containerPort);
    }
  }
  const pod: PodModel = {
    name: d.meta.name,
    namespace: d.meta.namespace,
    labels: d.meta.labels,
    annotations: d.meta.annotations,
    ip,
    ready: d.ready,
    serviceAccount: d.spec.serviceAccountName || d.spec.serviceAccount || 'default',
    namedPorts,
    containerPorts,
    proxy,
    locality: localityOf(d.meta.labels, nodeLabels),
    creationTimestamp: d.meta.creationTimestamp,
    origin: d.origin,
  };
  if (d.spec.nodeName) pod.nodeName = d.spec.nodeName;
  const image = d.spec.containers?.find((c) => c.name === 'istio-proxy')?.image;
  if (image) pod.proxyImage = image;
  if (d.owner) pod.owner = d.owner;
  return pod;
}
