// TEST-ONLY. Envoy-like config dumps built from meshscope's own dump of a pod: `envoyLike` adds only the noise a
// real Envoy's /config_dump?include_eds has (envoy admin v3 config_dump.proto: version_info / last_updated per
// entry, bootstrap and static sections, a draining copy beside an active listener; `10.000s`, protojson's
// other spelling of `10s`; resource and virtual-host order, which istioctl sorts before comparing,
// istioctl/pkg/util/configdump/route.go), so it is in sync; `drifted` adds the five differences.

type J = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

export const REVIEWS = 'reviews.default.svc.cluster.local';
export const REVIEWS_V3 = `outbound|9080|v3|${REVIEWS}`;
export const DETAILS = 'outbound|9080||details.default.svc.cluster.local';
export const EXTRA = 'outbound|9999||extra.default.svc.cluster.local';

export const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;
export const section = (d: J, t: string): J => d.configs.find((c: J) => String(c['@type']).endsWith(`.${t}`));

/** Every `Ns` Duration spelled `N.000s`. */
function longDurations(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(longDurations);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, longDurations(x)]));
  return typeof v === 'string' && /^\d+s$/.test(v) ? `${v.slice(0, -1)}.000s` : v;
}

/** Rotates a list by one (a different order, the same members). */
const rotate = <T>(xs: T[]): T[] => (xs.length > 1 ? [...xs.slice(1), xs[0] as T] : xs);

/** What a real Envoy's /config_dump?include_eds of the same config looks like: no semantic change. */
export function envoyLike(expected: J, nodeId = 'sidecar~10.244.0.10~productpage.default~default.svc.cluster.local'): J {
  const d = longDurations(clone(expected)) as J;
  const stamp = { version_info: '2026-11-27T10:00:00Z/7', last_updated: '2026-11-27T10:00:01.5Z' };
  const cl = section(d, 'ClustersConfigDump');
  cl.version_info = '2026-11-27T10:00:00Z/7';
  cl.dynamic_active_clusters = rotate(cl.dynamic_active_clusters.map((e: J) => ({ ...e, ...stamp })));
  cl.static_clusters = [
    { cluster: { '@type': 'type.googleapis.com/envoy.config.cluster.v3.Cluster', name: 'prometheus_stats' }, ...stamp },
  ];
  const ls = section(d, 'ListenersConfigDump');
  ls.dynamic_listeners = rotate(ls.dynamic_listeners.map((e: J) => ({ ...e, active_state: { ...e.active_state, ...stamp } })));
  ls.dynamic_listeners[0].draining_state = clone(ls.dynamic_listeners[0].active_state);
  ls.static_listeners = [
    { listener: { '@type': 'type.googleapis.com/envoy.config.listener.v3.Listener', name: '0.0.0.0_15090' }, ...stamp },
  ];
  const rs = section(d, 'RoutesConfigDump');
  rs.dynamic_route_configs = rotate(
    rs.dynamic_route_configs.map((e: J) => {
      e.route_config.virtual_hosts = rotate(e.route_config.virtual_hosts);
      return { ...e, ...stamp };
    }),
  );
  const ep = section(d, 'EndpointsConfigDump');
  ep.dynamic_endpoint_configs = rotate(ep.dynamic_endpoint_configs.map((e: J) => ({ ...e, ...stamp })));
  d.configs.unshift({
    '@type': 'type.googleapis.com/envoy.admin.v3.BootstrapConfigDump',
    bootstrap: { node: { id: nodeId } },
    last_updated: stamp.last_updated,
  });
  return d;
}

/** The five injected differences of the acceptance, on an Envoy-like dump. */
export function drifted(expected: J): J {
  const d = envoyLike(expected);
  const rc = section(d, 'RoutesConfigDump').dynamic_route_configs.find((e: J) => e.route_config.name === '9080').route_config;
  const wc = rc.virtual_hosts.find((v: J) => v.name === `${REVIEWS}:9080`).routes[0].route.weighted_clusters.clusters;
  wc[0].weight = 70;
  wc[1].weight = 30;
  const cl = section(d, 'ClustersConfigDump');
  cl.dynamic_active_clusters = cl.dynamic_active_clusters.filter((e: J) => e.cluster.name !== REVIEWS_V3);
  const ep = section(d, 'EndpointsConfigDump');
  ep.dynamic_endpoint_configs = ep.dynamic_endpoint_configs.filter((e: J) => e.endpoint_config.cluster_name !== REVIEWS_V3);
  cl.dynamic_active_clusters.push({
    cluster: {
      '@type': 'type.googleapis.com/envoy.config.cluster.v3.Cluster',
      name: EXTRA,
      type: 'EDS',
      eds_cluster_config: { eds_config: { ads: {} } },
    },
  });
  cl.dynamic_active_clusters.find((e: J) => e.cluster.name === DETAILS).cluster.connect_timeout = '5s';
  const lst = section(d, 'ListenersConfigDump').dynamic_listeners.find((e: J) => !e.draining_state);
  lst.error_state = {
    failed_configuration: { '@type': 'type.googleapis.com/envoy.config.listener.v3.Listener', name: lst.name },
    last_update_attempt: '2026-11-27T10:00:02Z',
    details: 'Error adding/updating listener(s) x: duplicate filter chain match',
  };
  return d;
}
