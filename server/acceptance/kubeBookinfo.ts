// TEST-ONLY. Istio's Bookinfo manifests as a real cluster would hold them once applied to `default`
// with sidecar injection on: the Services and DestinationRules as written, each Deployment's replicas
// as running Pods (what the ReplicaSet controller, the injector and the kubelet produce: template labels
// plus `pod-template-hash`, an `istio-proxy` container, the `sidecar.istio.io/status` annotation, a pod
// IP and a Ready condition) and one EndpointSlice per Service (what the EndpointSlice controller
// produces: label `kubernetes.io/service-name`, the Service's port name with the resolved target port,
// one ready endpoint per selected pod). ServiceAccounts are not watched by meshscope and are left out.
import { writeFileSync } from 'node:fs';
import { stringify } from 'yaml';
import { readManifest } from '../sources/kube/testing/harness';
import { asObject, asStringRecord } from '../lib/json';

type Obj = Record<string, unknown>;
type Labels = Record<string, string>;

export const BOOKINFO_NS = 'default';

interface PodInfo {
  name: string;
  ip: string;
  labels: Labels;
}

const asObj: (v: unknown) => Obj = asObject;
const asLabels: (v: unknown) => Labels = asStringRecord;
const selects = (selector: Labels, labels: Labels): boolean => Object.entries(selector).every(([k, v]) => labels[k] === v);

/** A stable, name-derived stand-in for the ReplicaSet's pod-template-hash (10 lowercase alphanumerics). */
function templateHash(name: string): string {
  let h = 2166136261;
  for (const c of name) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h.toString(36).padStart(7, 'b').slice(0, 7) + 'd9c';
}

function podsOf(deploy: Obj, firstIp: number): { objects: Obj[]; pods: PodInfo[] } {
  const md = asObj(deploy.metadata);
  const spec = asObj(deploy.spec);
  const template = asObj(spec.template);
  const tSpec = asObj(template.spec);
  const name = String(md.name);
  const hash = templateHash(name);
  const replicas = typeof spec.replicas === 'number' ? spec.replicas : 1;
  const objects: Obj[] = [];
  const pods: PodInfo[] = [];
  for (let i = 0; i < replicas; i++) {
    const podName = `${name}-${hash}-xkq7${i}`;
    const ip = `10.244.0.${firstIp + i}`;
    const labels = { ...asLabels(asObj(template.metadata).labels), 'pod-template-hash': hash };
    const containers = Array.isArray(tSpec.containers) ? (tSpec.containers as Obj[]) : [];
    objects.push({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: podName,
        namespace: BOOKINFO_NS,
        labels,
        annotations: { 'sidecar.istio.io/status': JSON.stringify({ initContainers: ['istio-init'], containers: ['istio-proxy'] }) },
        ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: `${name}-${hash}`, uid: `rs-${name}`, controller: true }],
      },
      spec: {
        ...tSpec,
        nodeName: 'node-1',
        containers: [
          ...containers,
          {
            name: 'istio-proxy',
            image: 'docker.io/istio/proxyv2:1.24.0',
            args: ['proxy', 'sidecar', '--domain', `${BOOKINFO_NS}.svc.cluster.local`],
          },
        ],
      },
      status: { phase: 'Running', podIP: ip, podIPs: [{ ip }], conditions: [{ type: 'Ready', status: 'True' }] },
    });
    pods.push({ name: podName, ip, labels });
  }
  return { objects, pods };
}

function endpointSliceOf(svc: Obj, pods: readonly PodInfo[]): Obj | undefined {
  const md = asObj(svc.metadata);
  const spec = asObj(svc.spec);
  const selector = asLabels(spec.selector);
  if (Object.keys(selector).length === 0) return undefined;
  const chosen = pods.filter((p) => selects(selector, p.labels));
  const ports = (Array.isArray(spec.ports) ? (spec.ports as Obj[]) : []).map((p) => ({
    ...(typeof p.name === 'string' ? { name: p.name } : {}),
    port: typeof p.targetPort === 'number' ? p.targetPort : Number(p.port),
    protocol: typeof p.protocol === 'string' ? p.protocol : 'TCP',
  }));
  return {
    apiVersion: 'discovery.k8s.io/v1',
    kind: 'EndpointSlice',
    metadata: {
      name: `${String(md.name)}-abc12`,
      namespace: BOOKINFO_NS,
      labels: {
        'kubernetes.io/service-name': String(md.name),
        'endpointslice.kubernetes.io/managed-by': 'endpointslice-controller.k8s.io',
      },
    },
    addressType: 'IPv4',
    ports,
    endpoints: chosen.map((p) => ({
      addresses: [p.ip],
      conditions: { ready: true, serving: true, terminating: false },
      nodeName: 'node-1',
      targetRef: { kind: 'Pod', namespace: BOOKINFO_NS, name: p.name },
    })),
  };
}

export interface BookinfoCluster {
  /** Every object to create, in creation order (Namespace first). */
  objects: Obj[];
  /** The running pods, by Deployment name order. */
  pods: PodInfo[];
}

/** The API objects of Bookinfo's manifest files, applied to `default` (see the header). */
export function bookinfoCluster(files: readonly string[]): BookinfoCluster {
  const docs = files.flatMap((f) => readManifest(f));
  const objects: Obj[] = [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: BOOKINFO_NS, labels: { 'istio-injection': 'enabled' } } },
  ];
  const pods: PodInfo[] = [];
  const services: Obj[] = [];
  for (const d of docs) {
    const inNs = { ...d, metadata: { ...asObj(d.metadata), namespace: BOOKINFO_NS } };
    if (d.kind === 'Deployment') {
      const r = podsOf(inNs, 10 + pods.length);
      objects.push(...r.objects);
      pods.push(...r.pods);
    } else if (d.kind === 'Service') {
      services.push(inNs);
      objects.push(inNs);
    } else if (d.kind !== 'ServiceAccount') {
      objects.push(inNs);
    }
  }
  for (const s of services) {
    const slice = endpointSliceOf(s, pods);
    if (slice) objects.push(slice);
  }
  return { objects, pods };
}

/**
 * Writes a kubeconfig with two contexts: the current one points at a closed port (so only an honoured
 * `--context` reaches the fake API server), `context` at `url`.
 */
export function writeKubeconfig(file: string, url: string, context: string): void {
  const doc = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      { name: 'fake', cluster: { server: url } },
      { name: 'nowhere', cluster: { server: 'http://127.0.0.1:9' } },
    ],
    users: [{ name: 'viewer', user: { token: 'not-a-secret' } }],
    contexts: [
      { name: context, context: { cluster: 'fake', user: 'viewer', namespace: BOOKINFO_NS } },
      { name: 'nowhere', context: { cluster: 'nowhere', user: 'viewer' } },
    ],
    'current-context': 'nowhere',
  };
  writeFileSync(file, stringify(doc));
}
