// Simulates a request against one mesh proxy's generated config: the config_dump the proxy would get,
// walked by server/simulate, plus what only translation can tell — the VirtualService rule behind the
// matched route (translation's provenance, looked up by route config / virtual host / index), and, for gateways, the Service port → pod port mapping (traffic sent to a gateway
// Service's port 80 reaches the pod on its targetPort, where Istio's listener is; model/gateway.go resolvePorts).
import { readConfigDump } from '../envoy/dumpReader';
import { optionsOf, type MeshSnapshot, type TranslateOptions } from '../model/mesh';
import { simulate } from '../simulate/index';
import type { SimRequest, SimResult } from '../simulate/types';
import { routeSourceIndex, ruleLabel } from '../translate/routeSources';
import { buildProxyView } from '../translate/view';
import { configDumpFor, type ConfigDumpOptions } from '../pipeline/configDump';
import { sidecarBypass, simulateAmbient } from './ambient';

export interface SimulateProxyOptions {
  options?: TranslateOptions;
  cache?: ConfigDumpOptions['cache'];
}

/** undefined when the proxy is not in the snapshot. */
export function simulateProxy(
  snapshot: MeshSnapshot,
  proxyId: string,
  request: SimRequest,
  opts: SimulateProxyOptions = {},
): SimResult | undefined {
  const options = opts.options ?? optionsOf(snapshot);
  // An ambient pod is no proxy: its request is walked through ztunnel and, when bound, its destination's waypoint.
  if (snapshot.ambient && !snapshot.proxiesById.has(proxyId)) {
    const pod = snapshot.pods.find((p) => `${p.name}.${p.namespace}` === proxyId);
    if (!pod || !snapshot.ambient.workloads.get(`${pod.namespace}/${pod.name}`)?.ambient) return undefined;
    return simulateAmbient(snapshot, pod, request, options, (id, r) => simulateProxy(snapshot, id, r, opts));
  }
  const res = configDumpFor(snapshot, proxyId, { options, ...(opts.cache ? { cache: opts.cache } : {}) });
  const proxy = snapshot.proxiesById.get(proxyId);
  if (!res || !proxy) return undefined;
  const { config } = readConfigDump(res.dump);
  let result = simulate(config, request);
  if (request.mode === 'gateway' && result.error === 'no listener matched') {
    const target = buildProxyView(snapshot, proxy, options).serviceTargets.find(
      (t) => t.port.port === request.port && t.targetPort !== request.port,
    );
    if (target) {
      const retried = simulate(config, { ...request, port: target.targetPort });
      const note = `port ${request.port} is Service ${target.service.namespace}/${target.service.name}'s port; it reaches the gateway pod on targetPort ${target.targetPort}`;
      result = { ...retried, notes: [note, ...(retried.notes ?? [])] };
    }
  }
  const { routeConfig, virtualHost, routeIndex } = result;
  if (routeConfig !== undefined && virtualHost !== undefined && routeIndex !== undefined) {
    const src = routeSourceIndex(res.provenance)(routeConfig, virtualHost, routeIndex);
    if (src) {
      const base = result.source ?? { kind: src.kind, namespace: src.namespace, name: src.name };
      result = { ...result, source: { ...base, rule: ruleLabel(src) } };
    }
  }
  if (proxy.type === 'sidecar' && snapshot.ambient) {
    const pod = snapshot.pods.find((p) => p.name === proxy.name && p.namespace === proxy.namespace);
    const bypass = pod ? sidecarBypass(snapshot, pod, request, options) : undefined;
    if (bypass) result = { ...result, ambient: bypass };
  }
  return result;
}
