// API discovery for CRD-backed kinds: which versions of a group the API server serves, and which
// resources each version has. Istio serves networking.istio.io at v1 (1.22+), v1beta1 and v1alpha3;
// older control planes only some of them, and a cluster without Istio serves none.
import type { KubeConfig } from '@kubernetes/client-node';
import { asObjectOrUndefined } from '../../lib/json';
import { getJson, KubeHttpError, statusMessage } from './http';
import type { WatchedResource } from './resources';

/** version → names of resources in it that support list and watch. */
export type ServedResources = ReadonlyMap<string, ReadonlySet<string>>;

const record = asObjectOrUndefined;

/**
 * Reads `/apis/GROUP` and `/apis/GROUP/VERSION` for each served version. A 404 on the group means
 * nothing of it is served (an empty map). Transport errors and other statuses reject with a
 * KubeHttpError / the fetch error, so the caller can retry.
 */
export async function discoverGroup(kc: KubeConfig, group: string, signal?: AbortSignal): Promise<ServedResources> {
  const served = new Map<string, Set<string>>();
  const g = await getJson(kc, `/apis/${group}`, signal);
  if (g.status === 404) return served;
  if (g.status !== 200) {
    throw new KubeHttpError(`discovery /apis/${group}: HTTP ${g.status} ${statusMessage(g.body) ?? ''}`.trim(), g.status);
  }
  const versions = record(g.body)?.versions;
  for (const v of Array.isArray(versions) ? versions : []) {
    const version = record(v)?.version;
    if (typeof version !== 'string') continue;
    const path = `/apis/${group}/${version}`;
    const rl = await getJson(kc, path, signal);
    if (rl.status === 404) continue;
    if (rl.status !== 200) {
      throw new KubeHttpError(`discovery ${path}: HTTP ${rl.status} ${statusMessage(rl.body) ?? ''}`.trim(), rl.status);
    }
    const names = new Set<string>();
    const resources = record(rl.body)?.resources;
    for (const r of Array.isArray(resources) ? resources : []) {
      const res = record(r);
      const name = res?.name;
      const verbs = res?.verbs;
      if (typeof name !== 'string' || name.includes('/')) continue; // skip subresources like x/status
      const vs = Array.isArray(verbs) ? verbs : ['list', 'watch'];
      if (vs.includes('list') && vs.includes('watch')) names.add(name);
    }
    served.set(version, names);
  }
  return served;
}

/** The most preferred of `r.versions` that serves `r.plural`, or undefined when none does. */
export function pickVersion(r: WatchedResource, served: ServedResources): string | undefined {
  return r.versions.find((v) => served.get(v)?.has(r.plural));
}
