// Whether the cluster runs istiod with the ambient profile (issue #20 §1): istiod's Deployment has
// PILOT_ENABLE_AMBIENT=true (pilot/pkg/features/ambient.go EnableAmbient), or a `ztunnel` DaemonSet exists (the
// ambient profile installs one). Two one-shot reads (get/list on apps deployments and daemonsets: deploy/clusterrole.yaml);
// a refused or failed read is "not detected", never an error of the source.
import type { KubeConfig } from '@kubernetes/client-node';
import { getJson } from './http';

/** What the probe reads (deploy/deploy.test.ts checks the ClusterRole grants exactly get/list on these). */
export const AMBIENT_PROBES = [
  { group: 'apps', plural: 'daemonsets' },
  { group: 'apps', plural: 'deployments' },
] as const;
export const AMBIENT_PROBE_VERBS = ['get', 'list'] as const;

interface Item {
  metadata?: { name?: string; namespace?: string };
  spec?: { template?: { spec?: { containers?: Array<{ name?: string; env?: Array<{ name?: string; value?: string }> }> } } };
}

const itemsOf = (body: unknown): Item[] => (Array.isArray((body as { items?: unknown })?.items) ? (body as { items: Item[] }).items : []);
const nameOf = (i: Item) => `${i.metadata?.namespace ?? ''}/${i.metadata?.name ?? ''}`;

/** The paths read: cluster-wide, or in each watched namespace when the source is limited to some. */
function paths(plural: string, query: string, namespaces: readonly string[] | undefined): string[] {
  if (!namespaces) return [`/apis/apps/v1/${plural}?${query}`];
  return namespaces.map((ns) => `/apis/apps/v1/namespaces/${encodeURIComponent(ns)}/${plural}?${query}`);
}

/** Why the ambient profile is on in this cluster, or undefined. */
export async function detectAmbient(
  kc: KubeConfig,
  namespaces: readonly string[] | undefined,
  signal?: AbortSignal,
): Promise<string | undefined> {
  const read = async (path: string): Promise<Item[]> => {
    try {
      const r = await getJson(kc, path, signal);
      return r.status === 200 ? itemsOf(r.body) : [];
    } catch {
      return [];
    }
  };
  // istiod's Deployments carry app=istiod (manifests/charts/istio-control/istio-discovery).
  for (const p of paths('deployments', 'labelSelector=app%3Distiod', namespaces))
    for (const d of await read(p))
      for (const c of d.spec?.template?.spec?.containers ?? [])
        if ((c.env ?? []).some((e) => e.name === 'PILOT_ENABLE_AMBIENT' && e.value?.toLowerCase() === 'true'))
          return `istiod Deployment ${nameOf(d)} has PILOT_ENABLE_AMBIENT=true`;
  for (const p of paths('daemonsets', 'fieldSelector=metadata.name%3Dztunnel', namespaces)) {
    const ds = await read(p);
    if (ds[0]) return `ztunnel DaemonSet ${nameOf(ds[0])} exists`;
  }
  return undefined;
}
