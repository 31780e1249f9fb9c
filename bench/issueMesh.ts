// issue 24's mesh, shaped the way users hand it over: N Services in 20 namespaces, 2 Pods per Service as a
// cluster export lists them (injected sidecars, ownerReferences to their ReplicaSet, IPs in status), an
// 80/20 + header-match VirtualService and a two-subset DestinationRule per Service, a Sidecar per namespace
// (`./*`, `istio-system/*`), an ingress gateway (pod, Service, Gateway) and 100 gateway-bound
// VirtualServices. Deterministic. Written as 7 multi-document files (one per kind) or 7 `kind: List` files
// (what `kubectl get <kind> -A -o yaml` gives), or fed to the kube source through the fake API server.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { RawObject } from '../server/sources/types';

export type Shape = 'multidoc' | 'list' | 'kube';
export const KINDS = ['Namespace', 'Service', 'Pod', 'VirtualService', 'DestinationRule', 'Sidecar', 'Gateway'] as const;
export type MeshKind = (typeof KINDS)[number];

export interface IssueMesh {
  services: number;
  namespaces: number;
  byKind: Record<MeshKind, RawObject[]>;
}

/** The pod of service `i`, version `v` (`svc-I-V-HASH-SUFFIX`, owned by ReplicaSet `svc-I-V-HASH`). */
export function podName(i: number, v: 'v1' | 'v2'): { rs: string; pod: string; hash: string } {
  const hash = (((i * 2654435761) >>> 0) % 0xfffffff).toString(36).padStart(6, 'x').slice(0, 9);
  const rs = `svc-${i}-${v}-${hash}`;
  return { rs, hash, pod: `${rs}-${v === 'v1' ? 'a1b2c' : 'd3e4f'}` };
}

export const podIp = (i: number, v: 'v1' | 'v2', gen = 0): string => {
  const n = i * 2 + (v === 'v1' ? 0 : 1);
  return `10.${16 + gen}.${(n >> 8) & 255}.${n & 255}`;
};

function pod(i: number, ns: string, v: 'v1' | 'v2', ip: string): RawObject {
  const name = `svc-${i}`;
  const { rs, pod: podN, hash } = podName(i, v);
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: podN,
      namespace: ns,
      labels: {
        app: name,
        version: v,
        'pod-template-hash': hash,
        'security.istio.io/tlsMode': 'istio',
        'service.istio.io/canonical-name': name,
        'service.istio.io/canonical-revision': v,
      },
      annotations: { 'sidecar.istio.io/status': '{"initContainers":["istio-init"],"containers":["istio-proxy"],"volumes":[]}' },
      ownerReferences: [
        { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: rs, uid: `uid-${rs}`, controller: true, blockOwnerDeletion: true },
      ],
      uid: `uid-${podN}`,
      resourceVersion: String(1000 + i * 2),
      creationTimestamp: '2026-11-01T00:00:00Z',
    },
    spec: {
      serviceAccountName: name,
      nodeName: `node-${i % 8}`,
      containers: [
        { name: 'app', image: 'example/app:1', ports: [{ containerPort: 8080, protocol: 'TCP' }] },
        {
          name: 'istio-proxy',
          image: 'docker.io/istio/proxyv2:1.24.0',
          args: ['proxy', 'sidecar', '--domain', `${ns}.svc.cluster.local`],
          ports: [{ containerPort: 15090, name: 'http-envoy-prom', protocol: 'TCP' }],
        },
      ],
    },
    status: {
      phase: 'Running',
      podIP: ip,
      podIPs: [{ ip }],
      hostIP: `192.168.0.${i % 8}`,
      conditions: [{ type: 'Ready', status: 'True' }],
    },
  };
}

export function issueMesh(services: number, namespaces = 20): IssueMesh {
  const by: Record<MeshKind, RawObject[]> = {
    Namespace: [],
    Service: [],
    Pod: [],
    VirtualService: [],
    DestinationRule: [],
    Sidecar: [],
    Gateway: [],
  };
  for (let n = 0; n < namespaces; n++) {
    const name = `ns-${n}`;
    by.Namespace.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { 'istio-injection': 'enabled' } } });
    by.Sidecar.push({
      apiVersion: 'networking.istio.io/v1',
      kind: 'Sidecar',
      metadata: { name: 'default', namespace: name },
      spec: { egress: [{ hosts: ['./*', 'istio-system/*'] }] },
    });
  }
  by.Namespace.push({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'istio-system' } });
  for (let i = 0; i < services; i++) {
    const ns = `ns-${i % namespaces}`;
    const name = `svc-${i}`;
    by.Service.push({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace: ns, labels: { app: name } },
      spec: {
        selector: { app: name },
        ports: [{ name: 'http', port: 8080, targetPort: 8080, protocol: 'TCP' }],
        clusterIP: `10.96.${i >> 8}.${i & 255}`,
      },
    });
    for (const v of ['v1', 'v2'] as const) by.Pod.push(pod(i, ns, v, podIp(i, v)));
    by.DestinationRule.push({
      apiVersion: 'networking.istio.io/v1',
      kind: 'DestinationRule',
      metadata: { name, namespace: ns },
      spec: { host: name, subsets: ['v1', 'v2'].map((v) => ({ name: v, labels: { version: v } })) },
    });
    by.VirtualService.push(meshVs(i, ns, 80));
  }
  const labels = { app: 'istio-ingressgateway', istio: 'ingressgateway' };
  by.Service.push({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name: 'istio-ingressgateway', namespace: 'istio-system' },
    spec: { selector: labels, ports: [{ name: 'http2', port: 80, targetPort: 8080 }] },
  });
  by.Pod.push({
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name: 'istio-ingressgateway-7d9f8c6b5-gw001', namespace: 'istio-system', labels },
    spec: {
      containers: [
        { name: 'istio-proxy', image: 'docker.io/istio/proxyv2:1.24.0', args: ['proxy', 'router'], ports: [{ containerPort: 8080 }] },
      ],
    },
    status: { podIP: '10.250.0.1', podIPs: [{ ip: '10.250.0.1' }], phase: 'Running', conditions: [{ type: 'Ready', status: 'True' }] },
  });
  by.Gateway.push({
    apiVersion: 'networking.istio.io/v1',
    kind: 'Gateway',
    metadata: { name: 'ingress', namespace: 'istio-system' },
    spec: { selector: { istio: 'ingressgateway' }, servers: [{ port: { number: 80, name: 'http', protocol: 'HTTP' }, hosts: ['*'] }] },
  });
  for (let g = 0; g < Math.min(100, services); g++) {
    const ns = `ns-${g % namespaces}`;
    by.VirtualService.push({
      apiVersion: 'networking.istio.io/v1',
      kind: 'VirtualService',
      metadata: { name: `gw-svc-${g}`, namespace: 'istio-system' },
      spec: {
        hosts: [`svc-${g}.example.com`],
        gateways: ['ingress'],
        http: [
          {
            match: [{ uri: { prefix: '/' } }],
            route: [{ destination: { host: `svc-${g}.${ns}.svc.cluster.local`, port: { number: 8080 } } }],
          },
        ],
      },
    });
  }
  return { services, namespaces, byKind: by };
}

/** Service i's VirtualService: header `end-user: jason` → v2, else v1 `w` / v2 `100 - w`. */
export function meshVs(i: number, ns: string, w: number): RawObject {
  const name = `svc-${i}`;
  return {
    apiVersion: 'networking.istio.io/v1',
    kind: 'VirtualService',
    metadata: { name, namespace: ns },
    spec: {
      hosts: [name],
      http: [
        { match: [{ headers: { 'end-user': { exact: 'jason' } } }], route: [{ destination: { host: name, subset: 'v2' } }] },
        {
          route: [
            { destination: { host: name, subset: 'v1' }, weight: w },
            { destination: { host: name, subset: 'v2' }, weight: 100 - w },
          ],
        },
      ],
    },
  };
}

/** The text of one kind's file: documents separated by `---`, or one List (kubectl's layout: items at column 0). */
export function kindText(objects: readonly RawObject[], shape: 'multidoc' | 'list'): string {
  if (shape === 'list')
    return stringify({ apiVersion: 'v1', kind: 'List', items: objects, metadata: { resourceVersion: '' } }, { indentSeq: false });
  return objects.map((o) => stringify(o, { indentSeq: false })).join('---\n');
}

export interface MeshDir {
  dir: string;
  fileOf: (kind: MeshKind) => string;
  /** Rewrites one kind's file with `objects` (what an edit of one document in it looks like on disk). */
  write: (kind: MeshKind, objects: readonly RawObject[]) => void;
  /** The file's text made now; the returned call writes it (what an editor's or kubectl's write is, timed alone). */
  prepare: (kind: MeshKind, objects: readonly RawObject[]) => () => void;
}

export function writeIssueMesh(mesh: IssueMesh, shape: 'multidoc' | 'list', dir = mkdtempSync(join(tmpdir(), 'meshscope-i24-'))): MeshDir {
  const fileOf = (kind: MeshKind) => join(dir, `${kind.toLowerCase()}s.yaml`);
  const prepare = (kind: MeshKind, objects: readonly RawObject[]) => {
    // Encoded now, so that writing it later makes no garbage of the bench's own (docEditBench.ts times what follows).
    const bytes = Buffer.from(kindText(objects, shape));
    return () => writeFileSync(fileOf(kind), bytes);
  };
  const write = (kind: MeshKind, objects: readonly RawObject[]) => prepare(kind, objects)();
  for (const k of KINDS) write(k, mesh.byKind[k]);
  return { dir, fileOf, write, prepare };
}

/** The mesh with VirtualService svc-0 at weight `w` (a copy of the VS list; the other objects are the same). */
export function withVsWeight(mesh: IssueMesh, w: number): RawObject[] {
  return mesh.byKind.VirtualService.map((o, i) => (i === 0 ? meshVs(0, 'ns-0', w) : o));
}

/** The Pod list with svc-0's v1 pod at IP generation `gen`. */
export function withPodIp(mesh: IssueMesh, gen: number): RawObject[] {
  return mesh.byKind.Pod.map((o, i) => (i === 0 ? pod(0, 'ns-0', 'v1', podIp(0, 'v1', gen)) : o));
}
