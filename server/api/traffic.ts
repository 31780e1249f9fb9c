// GET /api/traffic?service=HOST[&window=S][&source=WORKLOAD.NS] (issue #23, docs/prometheus.md): one
// service's observed traffic from Prometheus (Kiali's queries, server/prometheus/queries.ts) beside the
// split meshscope's own translation configures. 400: a bad window, host or source; 503 naming the URL:
// no Prometheus configured, or it does not answer. Nothing of the request reaches PromQL unvalidated.
import { buildMeshGraph, type MeshGraph } from '../meshGraph/graph';
import { resolveShortname } from '../model/host';
import type { MeshSnapshot, ServiceModel } from '../model/mesh';
import { PrometheusError } from '../prometheus/client';
import { MAX_WINDOW, MIN_WINDOW, serviceQueries } from '../prometheus/queries';
import type { PrometheusSource } from '../prometheus/source';
import { type ConfiguredDestination, type ObservedService, observedService, type SubsetSpec } from '../prometheus/traffic';
import { memoized } from './snapshotMemo';
import { fail, ok, type ApiContext, type ApiResult } from './types';

export const DEFAULT_TRAFFIC_WINDOW = 60;
export const NO_PROMETHEUS = 'Prometheus is not configured: meshscope serve --prometheus URL (or MESHSCOPE_PROMETHEUS_URL)';

export interface TrafficResponse {
  source: { kind: 'prometheus'; url: string; state: 'connected' | 'failing' };
  windowSeconds: number;
  queries: string[];
  services: ObservedService[];
}

const DNS = /^(?=.{1,253}$)[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?(\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*$/;
const LABEL = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/;

export function parseWindow(raw: string | null): number | string {
  if (raw === null) return DEFAULT_TRAFFIC_WINDOW;
  if (!/^\d{1,4}$/.test(raw) || Number(raw) < MIN_WINDOW || Number(raw) > MAX_WINDOW)
    return `window must be ${MIN_WINDOW} to ${MAX_WINDOW} whole seconds, got "${raw.slice(0, 40)}"`;
  return Number(raw);
}

/** The service `raw` names: its FQDN, or `NAME.NS` (resolved with the mesh's domain suffix). */
export function findService(snap: MeshSnapshot, raw: string, domainSuffix: string): ServiceModel | string {
  const host = raw.trim().toLowerCase();
  if (!DNS.test(host)) return `service must be a host name (products.catalog.svc.cluster.local), got "${raw.slice(0, 80)}"`;
  const candidates = [host, host.split('.').length === 2 ? `${host}.svc.${domainSuffix}` : ''];
  const svc = snap.services.find((s) => candidates.includes(s.hostname));
  return svc ?? `service "${host}" is not a service of the mesh`;
}

/** `WORKLOAD.NS` (the workload may contain dots: the namespace is after the last one). */
export function parseSource(raw: string | null): { workload: string; namespace: string } | undefined | string {
  if (raw === null) return undefined;
  const at = raw.lastIndexOf('.');
  const workload = raw.slice(0, at);
  const namespace = raw.slice(at + 1);
  if (at <= 0 || !LABEL.test(workload) || !/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/.test(namespace))
    return `source must be WORKLOAD.NAMESPACE (storefront-v1.shop), got "${raw.slice(0, 80)}"`;
  return { workload, namespace };
}

/** The configured split of `svc` from meshscope's translation: the overview graph's route edges of one caller's catch-all rule. */
export function configuredSplit(
  graph: MeshGraph,
  snap: MeshSnapshot,
  svc: ServiceModel,
  source?: { workload: string; namespace: string },
): ConfiguredDestination[] {
  const target = graph.nodes.find((n) => n.kind === 'service' && n.hostname === svc.hostname && n.namespace === svc.namespace)?.id;
  if (!target) return [];
  const port = svc.ports[0]?.port ?? 0;
  const workloadOfProxy = (proxyNode: string): { workload: string; namespace: string } | undefined => {
    const id = proxyNode.replace(/^proxy:/, '');
    const pod = snap.pods.find((p) => `${p.name}.${p.namespace}` === id);
    return pod ? { workload: pod.owner?.name ?? pod.name, namespace: pod.namespace } : undefined;
  };
  const edges = graph.edges.filter(
    (e) => (e.kind === 'route' || e.kind === 'default') && e.target === target && e.source.startsWith('proxy:'),
  );
  const bySource = new Map<string, typeof edges>();
  for (const e of edges) bySource.set(e.source, [...(bySource.get(e.source) ?? []), e]);
  const callers = [...bySource.keys()].sort();
  const caller = source
    ? callers.find((c) => {
        const w = workloadOfProxy(c);
        return w?.workload === source.workload && w.namespace === source.namespace;
      })
    : (callers.find((c) => graph.nodes.find((n) => n.id === c)?.proxyType === 'sidecar') ?? callers[0]);
  if (!caller) return [];
  const own = bySource.get(caller) ?? [];
  // Plain requests take the first catch-all rule (`any`), else the first rule.
  const rule = (own.find((e) => e.match === 'any') ?? own[0])?.rule;
  return own
    .filter((e) => e.rule === rule)
    .map((e) => ({ subset: e.subset ?? '', cluster: `outbound|${port}|${e.subset ?? ''}|${svc.hostname}`, percent: e.percent ?? 100 }));
}

function subsetsOf(snap: MeshSnapshot, host: string, domainSuffix: string): SubsetSpec[] {
  const dr = snap.destinationRules.find((d) => resolveShortname(d.spec.host, d.meta.namespace, domainSuffix) === host);
  return (dr?.spec.subsets ?? []).map((s) => ({ name: s.name, labels: { ...(s.labels ?? {}) } }));
}

export async function traffic(
  ctx: ApiContext,
  prom: PrometheusSource | undefined,
  params: URLSearchParams,
): Promise<ApiResult<TrafficResponse | { error: string }>> {
  const window = parseWindow(params.get('window'));
  if (typeof window === 'string') return fail(400, window);
  const raw = params.get('service');
  if (!raw) return fail(400, 'service is required: /api/traffic?service=HOST');
  const domainSuffix = ctx.options.domainSuffix;
  const svc = findService(ctx.snapshot, raw, domainSuffix);
  if (typeof svc === 'string' || (ctx.viewer && !ctx.viewer.sees(svc.namespace)))
    return fail(400, typeof svc === 'string' ? svc : `service "${raw}" is not a service of the mesh`);
  const source = parseSource(params.get('source'));
  if (typeof source === 'string') return fail(400, source);
  if (!prom) return fail(503, NO_PROMETHEUS);
  const suffix = `.svc.${domainSuffix}`;
  const parts = svc.hostname.endsWith(suffix) ? svc.hostname.slice(0, -suffix.length).split('.') : [];
  const cluster = parts.length === 2 ? { name: parts[0]!, namespace: parts[1]! } : undefined;
  const ambient = ctx.snapshot.namespaces.get(svc.namespace)?.labels['istio.io/dataplane-mode'] === 'ambient';
  const q = serviceQueries({
    host: svc.hostname,
    windowSeconds: window,
    ambient,
    ...(cluster ? { cluster } : {}),
    ...(source ? { source } : {}),
  });
  let unserved: Awaited<ReturnType<PrometheusSource['query']>>;
  let served: typeof unserved;
  try {
    [unserved, served] = await Promise.all([prom.query(q.unserved), prom.query(q.served)]);
  } catch (e) {
    const err = e as PrometheusError;
    if (err instanceof PrometheusError && err.kind !== 'unreachable')
      return fail(502, `Prometheus at ${prom.url} refused the query: ${err.message}`);
    return fail(503, `Prometheus at ${prom.url} is unreachable: ${err.message}`);
  }
  const graph = memoized(ctx, 'graph', () => buildMeshGraph(ctx.snapshot, ctx.options));
  const observed = observedService({
    host: svc.hostname,
    port: svc.ports[0]?.port ?? 0,
    reporter: q.reporter,
    unserved,
    served,
    subsets: subsetsOf(ctx.snapshot, svc.hostname, domainSuffix),
    configured: configuredSplit(graph, ctx.snapshot, svc, source),
    snapshot: ctx.snapshot,
  });
  const v = ctx.viewer;
  if (v) observed.sources = observed.sources.filter((s) => v.sees(s.namespace));
  return ok({
    source: { kind: 'prometheus', url: prom.url, state: prom.connected ? 'connected' : 'failing' },
    windowSeconds: window,
    queries: [q.unserved, q.served],
    services: [observed],
  });
}
