// Which resources of a proxy's config an EnvoyFilter patch changed (issue #22 §2: "patched resources marked in
// the tables and the route graph with a link to the patch"), from the stage's per-patch report
// (GET /api/proxies/POD.NS envoyFilters). Each applied patch's `targets` name where it landed, starting with the
// resource: `listener NAME …`, `route NAME [/ vhost NAME] …`, `cluster NAME …`; an inbound listener's inline route
// configuration (`listener NAME / route_config RC / vhost VH`) marks the listener. Pure.
import type { EnvoyFilterPatchReport } from '@/server/api/contract';

/** One applied patch, as a mark: which one (the EnvoyFilters tab's `?patch=` key) and where exactly. */
export interface PatchRef {
  /** `namespace/name/index`: the EnvoyFilters tab entry. */
  key: string;
  /** `namespace/name configPatches[i]`. */
  label: string;
  applyTo: string;
  operation: string;
  /** The report's target strings that fall on this resource. */
  where: string[];
}

export interface PatchMarks {
  listeners: ReadonlyMap<string, PatchRef[]>;
  /** By route configuration name (any patch on it or one of its virtual hosts). */
  routes: ReadonlyMap<string, PatchRef[]>;
  /** By `routeConfig\u0000vhost` (patches on that virtual host or its routes). */
  vhosts: ReadonlyMap<string, PatchRef[]>;
  clusters: ReadonlyMap<string, PatchRef[]>;
  count: number;
}

export const patchKey = (r: Pick<EnvoyFilterPatchReport, 'namespace' | 'name' | 'patch'>) => `${r.namespace}/${r.name}/${r.patch}`;
export const vhostKey = (routeConfig: string, vhost: string) => `${routeConfig}\u0000${vhost}`;

const TARGET = /^(listener|route|cluster) (\S+)(.*)$/;
const VHOST = / \/ vhost (\S+)/;

function add(m: Map<string, PatchRef[]>, k: string, r: EnvoyFilterPatchReport, where: string): void {
  const list = m.get(k) ?? [];
  m.set(k, list);
  const key = patchKey(r);
  const hit = list.find((x) => x.key === key);
  if (hit) {
    if (!hit.where.includes(where)) hit.where.push(where);
    return;
  }
  list.push({
    key,
    label: `${r.namespace}/${r.name} configPatches[${r.patch}]`,
    applyTo: r.applyTo,
    operation: r.operation,
    where: [where],
  });
}

export function patchMarks(reports: readonly EnvoyFilterPatchReport[] | undefined): PatchMarks {
  const listeners = new Map<string, PatchRef[]>();
  const routes = new Map<string, PatchRef[]>();
  const vhosts = new Map<string, PatchRef[]>();
  const clusters = new Map<string, PatchRef[]>();
  let count = 0;
  for (const r of reports ?? []) {
    if (!r.applied) continue;
    count++;
    for (const t of r.targets) {
      const m = TARGET.exec(t);
      if (!m) continue;
      const [, kind, name = '', rest = ''] = m;
      // A resource the patch removed is not in the tables any more.
      if (/^ \((removed)\)$/.test(rest)) continue;
      if (kind === 'listener') add(listeners, name, r, t);
      else if (kind === 'cluster') add(clusters, name, r, t);
      else {
        add(routes, name, r, t);
        const vh = VHOST.exec(rest)?.[1];
        if (vh) add(vhosts, vhostKey(name, vh), r, t);
      }
    }
  }
  return { listeners, routes, vhosts, clusters, count };
}

/** The EnvoyFilters tab entry of a patch (a deep link within the proxy page). */
export const patchHref = (key: string) => `?${new URLSearchParams({ tab: 'envoyfilters', patch: key }).toString()}`;

/** The route graph's nodes an applied patch changed, by node id (components/routeGraph/model/types.ts). */
export interface GraphNodeLike {
  id: string;
  kind: string;
  label: string;
  json?: unknown;
  routeConfigId?: string;
  virtualHostId?: string;
  routeIndex?: number;
}

const nameOf = (json: unknown): string | undefined => {
  const n = (json as { name?: unknown } | undefined)?.name;
  return typeof n === 'string' ? n : undefined;
};

export function patchedNodes(nodes: readonly GraphNodeLike[], m: PatchMarks): Map<string, PatchRef[]> {
  const out = new Map<string, PatchRef[]>();
  if (m.count === 0) return out;
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const rcName = (n: GraphNodeLike) => nameOf(n.routeConfigId ? byId.get(n.routeConfigId)?.json : undefined);
  for (const n of nodes) {
    const name = nameOf(n.json);
    let refs: PatchRef[] | undefined;
    if (n.kind === 'listener' && name) refs = m.listeners.get(name);
    else if (n.kind === 'cluster' && name) refs = m.clusters.get(name);
    else if (n.kind === 'routeConfig' && name) refs = m.routes.get(name)?.filter((p) => p.where.some((w) => !w.includes(' / vhost ')));
    else if (n.kind === 'virtualHost' && name) {
      const rc = rcName(n);
      refs = rc ? m.vhosts.get(vhostKey(rc, name)) : undefined;
    } else if (n.kind === 'route' && n.virtualHostId) {
      const rc = rcName(n);
      const vh = nameOf(byId.get(n.virtualHostId)?.json);
      // HTTP_ROUTE targets: `route RC / vhost VH / routes[i] …` (a MERGE, REPLACE or REMOVE of that route).
      const at = ` / vhost ${vh} / routes[${n.routeIndex}]`;
      refs = rc && vh ? m.vhosts.get(vhostKey(rc, vh))?.filter((p) => p.where.some((w) => w.includes(at))) : undefined;
    }
    if (refs?.length) out.set(n.id, refs);
  }
  return out;
}
