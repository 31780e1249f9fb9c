// Test support: an `istioctl bug-report` archive (and an OSSM must-gather directory) built from Istio's
// Bookinfo and meshscope's own translation, in the layouts tools/bug-report/pkg writes (layout.ts). The tar
// is written by hand (POSIX ustar headers + Node's gzip) so tests do not depend on the reader's library.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { parseAllDocuments } from 'yaml';
import { optionsOf } from '../model/mesh';
import { buildSnapshot } from '../model/snapshot';
import { configDumpFor } from '../pipeline/configDump';
import { parseText } from '../sources/file/loadPaths';
import { bookinfo } from '../testing/paths';

export const POD = 'productpage-v1-7d6cfb7dfd-x2x9k';
export const POD_ID = `${POD}.default`;

/** One ustar header + body, padded to 512-byte blocks. */
function ustarEntry(name: string, body: Buffer, type: '0' | '2' | '5' = '0', linkname = ''): Buffer {
  const h = Buffer.alloc(512, 0);
  let prefix = '';
  let base = name;
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 154);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
  }
  h.write(base, 0, 100, 'utf8');
  h.write('0000644\0', 100);
  h.write('0000000\0', 108);
  h.write('0000000\0', 116);
  h.write(`${body.length.toString(8).padStart(11, '0')}\0`, 124);
  h.write('00000000000\0', 136);
  h.write('        ', 148);
  h.write(type, 156);
  h.write(linkname, 157, 100, 'utf8');
  h.write('ustar\0', 257);
  h.write('00', 263);
  h.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  const pad = Buffer.alloc((512 - (body.length % 512)) % 512, 0);
  return Buffer.concat([h, body, pad]);
}

export interface TarEntry {
  name: string;
  body?: string;
  type?: '0' | '2' | '5';
  linkname?: string;
}

export function tarGz(entries: readonly TarEntry[]): Buffer {
  const parts = entries.map((e) => ustarEntry(e.name, Buffer.from(e.body ?? ''), e.type ?? '0', e.linkname));
  return gzipSync(Buffer.concat([...parts, Buffer.alloc(1024, 0)]));
}

const yamlDocs = (file: string): unknown[] =>
  parseAllDocuments(readFileSync(file, 'utf8'))
    .map((d) => d.toJS() as unknown)
    .filter((d) => d !== null);

const list = (items: unknown[]): string =>
  JSON.stringify({ apiVersion: 'v1', kind: 'List', items, metadata: { resourceVersion: '' } }, null, 2);

/** A running, injected productpage pod as `kubectl get pods -o yaml` lists it (owned by its ReplicaSet). */
export function productpagePod(): unknown {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: {
      name: POD,
      namespace: 'default',
      labels: { app: 'productpage', version: 'v1', 'pod-template-hash': '7d6cfb7dfd', 'security.istio.io/tlsMode': 'istio' },
      annotations: { 'sidecar.istio.io/status': '{"containers":["istio-proxy"]}' },
      ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'productpage-v1-7d6cfb7dfd', uid: 'u1', controller: true }],
    },
    spec: {
      serviceAccountName: 'bookinfo-productpage',
      containers: [
        { name: 'productpage', image: 'docker.io/istio/examples-bookinfo-productpage-v1:1.20.3', ports: [{ containerPort: 9080 }] },
        { name: 'istio-proxy', image: 'docker.io/istio/proxyv2:1.28.0', args: ['proxy', 'sidecar'] },
      ],
    },
    status: { phase: 'Running', podIP: '10.244.0.77', podIPs: [{ ip: '10.244.0.77' }] },
  };
}

/** The cluster files of the bug-report: Bookinfo's platform objects + the pod, and the Istio CRs. */
export function clusterFiles(): Record<string, string> {
  return {
    'k8s-resources': list([...yamlDocs(bookinfo('platform', 'bookinfo.yaml')), productpagePod()]),
    'k8s-cluster-resources': list([
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'default', labels: { 'istio-injection': 'enabled' } } },
    ]),
    crs: list([
      ...yamlDocs(bookinfo('networking', 'destination-rule-all.yaml')),
      ...yamlDocs(bookinfo('networking', 'virtual-service-reviews-80-20.yaml')),
    ]),
  };
}

/** meshscope's translation of the pod from those cluster files (what a faithful istiod would have sent). */
export function translatedDump(files = clusterFiles()): Record<string, unknown> {
  const inputs = Object.entries(files).flatMap(([name, text]) => parseText(text, name).inputs);
  const snapshot = buildSnapshot(inputs, { version: 1 });
  const res = configDumpFor(snapshot, POD_ID, { options: optionsOf(snapshot) });
  if (!res) throw new Error(`bugReport.testing: ${POD_ID} is not a proxy of the test inputs`);
  return res.dump as Record<string, unknown>;
}

/**
 * `dump` with the reviews route of productpage's outbound route configuration "9080" shifted to `v1`/`v2`
 * (the translation's 80/20 is Bookinfo's virtual-service-reviews-80-20.yaml): drift as a stale push shows it.
 */
export function withReviewsWeights(dump: Record<string, unknown>, v1: number, v2: number): Record<string, unknown> {
  const copy = structuredClone(dump) as { configs: Array<Record<string, unknown>> };
  type Route = { route?: { weighted_clusters?: { clusters?: Array<{ name: string; weight: number }> } } };
  type Rc = { name: string; virtual_hosts: Array<{ name: string; routes: Route[] }> };
  const rds = copy.configs.find((c) => String(c['@type']).endsWith('RoutesConfigDump')) as {
    dynamic_route_configs: Array<{ route_config: Rc }>;
  };
  const rc = rds.dynamic_route_configs.find((r) => r.route_config.name === '9080')?.route_config;
  const vh = rc?.virtual_hosts.find((v) => v.name === 'reviews.default.svc.cluster.local:9080');
  const clusters = vh?.routes[0]?.route?.weighted_clusters?.clusters;
  if (clusters?.length !== 2) throw new Error('bugReport.testing: the reviews route has no two weighted clusters');
  clusters[0]!.weight = v1;
  clusters[1]!.weight = v2;
  return copy;
}

export const ISTIOD = 'istiod-5d8f7c9b6-abcde';

type SynczState = 'SYNCED' | 'STALE' | 'NOT SENT' | 'ERROR';
const SYNCZ_TYPES = [
  ['cluster', 'type.googleapis.com/envoy.config.cluster.v3.Cluster'],
  ['listener', 'type.googleapis.com/envoy.config.listener.v3.Listener'],
  ['route', 'type.googleapis.com/envoy.config.route.v3.RouteConfiguration'],
  ['endpoint', 'type.googleapis.com/envoy.config.endpoint.v3.ClusterLoadAssignment'],
] as const;

/**
 * One entry of istiod's /debug/syncz for `proxy` as pilot/pkg/xds/debug.go Syncz writes it (SyncStatus: json
 * names, omitempty), with each type's nonces set so that istiod's debugSyncStatus (statusgen.go) gives `states`:
 * SYNCED = acked == sent, STALE = an older nonce acked, NOT SENT = no nonce, ERROR = a lastError.
 */
export function syncStatusEntry(proxy: string, states: Partial<Record<(typeof SYNCZ_TYPES)[number][0], SynczState>> = {}): unknown {
  const e: Record<string, unknown> = { cluster_id: 'Kubernetes', proxy, proxy_type: 'sidecar', istio_version: '1.28.0' };
  const resources: Record<string, unknown> = {};
  SYNCZ_TYPES.forEach(([short, url], i) => {
    const state = states[short] ?? 'SYNCED';
    if (state === 'NOT SENT') return;
    const sent = `5c0e7d2a-0b6f-4c3e-9d1a-00000000000${i}`;
    const acked = state === 'STALE' ? `5c0e7d2a-0b6f-4c3e-9d1a-10000000000${i}` : sent;
    e[`${short}_sent`] = sent;
    e[`${short}_acked`] = acked;
    resources[url] = {
      sent,
      acked,
      sentTime: '2026-11-27T14:58:03.120Z',
      ...(state === 'ERROR' ? { lastError: 'Error adding/updating listener(s) 0.0.0.0_9080: duplicate filter chain match' } : {}),
    };
  });
  e['resources'] = resources;
  return e;
}

/** The entries of a bug-report tar (root folder `bug-report/`), with the pod's dump `dump` and istiod's syncz `syncz`. */
export function bugReportEntries(dump: unknown = translatedDump(), syncz: unknown[] = []): TarEntry[] {
  const files = clusterFiles();
  return [
    { name: 'bug-report/', type: '5' },
    ...Object.entries(files).map(([n, body]) => ({ name: `bug-report/cluster/${n}`, body })),
    { name: 'bug-report/cluster/secrets', body: 'NAME TYPE DATA AGE\n' },
    { name: 'bug-report/versions', body: 'client version: 1.28.0\n' },
    { name: `bug-report/proxies/default/${POD}/config_dump?include_eds`, body: JSON.stringify(dump) },
    { name: `bug-report/proxies/default/${POD}/istio-proxy.log`, body: 'log line\n' },
    { name: `bug-report/istio/istio-system/${ISTIOD}/debug/syncz`, body: JSON.stringify(syncz) },
  ];
}

export function writeBugReport(file: string, entries: readonly TarEntry[] = bugReportEntries()): string {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, tarGz(entries));
  return file;
}

/** An OSSM must-gather directory: oc adm inspect Lists per group, and the pod's proxy + istiod dumps. */
export function writeMustGather(dir: string, dump: unknown = translatedDump(), istiodDump: unknown = dump): string {
  const root = join(dir, 'quay-io-maistra-istio-must-gather-sha256-0123');
  const put = (rel: string, body: string) => {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), body);
  };
  const platform = yamlDocs(bookinfo('platform', 'bookinfo.yaml')) as { kind: string }[];
  put('namespaces/default/core/services.yaml', list(platform.filter((o) => o.kind === 'Service')));
  put('namespaces/default/core/serviceaccounts.yaml', list(platform.filter((o) => o.kind === 'ServiceAccount')));
  put('namespaces/default/apps/deployments.yaml', list(platform.filter((o) => o.kind === 'Deployment')));
  put('namespaces/default/core/pods.yaml', list([productpagePod()]));
  put('namespaces/default/networking.istio.io/destinationrules.yaml', list(yamlDocs(bookinfo('networking', 'destination-rule-all.yaml'))));
  put(
    'namespaces/default/networking.istio.io/virtualservices.yaml',
    list(yamlDocs(bookinfo('networking', 'virtual-service-reviews-80-20.yaml'))),
  );
  put(`namespaces/default/pods/${POD}/config_dump_proxy.json`, JSON.stringify(dump));
  put(`namespaces/default/pods/${POD}/config_dump_istiod.json`, JSON.stringify(istiodDump));
  put(`namespaces/default/pods/${POD}/${POD}.yaml`, 'kind: Pod\n');
  return root;
}
