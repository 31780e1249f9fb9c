// istiod-shaped debug endpoints (pilot/pkg/xds/debug.go): /debug/registryz (model.Service JSON),
// /debug/configz (Kubernetes-shaped configs, crd.ConvertConfig), /debug/syncz (SyncStatus[]).
import type { SourceStatus } from '../model/inputs';
import type { IstioConfig, LoadError, MeshSnapshot, Resolution, ServiceModel } from '../model/mesh';
import { ok, type ApiContext, type ApiResult, type SyncStatus, type XdsState } from './types';
import { addLines } from '../sources/file/lines';

/** pilot/pkg/model/service.go Resolution is an iota enum, serialized as a number. */
const RESOLUTION: Record<Resolution, number> = { ClientSideLB: 0, DNS: 1, Passthrough: 2, DNSRoundRobin: 3, Alias: 4 };

/** One model.Service as istiod's registryz prints it (exported Go fields, json tags where it has them). */
export function registryService(s: ServiceModel, clusterId: string) {
  const vips = s.addresses.length ? s.addresses : s.address && s.address !== '0.0.0.0' ? [s.address] : [];
  return {
    Attributes: {
      ServiceRegistry: s.registry,
      Name: s.name,
      Namespace: s.namespace,
      Labels: Object.keys(s.labels).length ? { ...s.labels } : null,
      // sets.Set[visibility.Instance] marshals as an object of keys.
      ExportTo: s.exportTo.length ? Object.fromEntries(s.exportTo.map((e) => [e, {}])) : null,
      LabelSelectors: s.selector ? { ...s.selector } : null,
      ...(s.externalName ? { ExternalName: s.externalName } : {}),
    },
    ports: s.ports.map((p) => ({ name: p.name, port: p.port, protocol: p.protocol })),
    creationTime: s.creationTimestamp,
    hostname: s.hostname,
    clusterVIPs: { Addresses: vips.length ? { [clusterId]: [...vips] } : {} },
    defaultAddress: s.address,
    Resolution: RESOLUTION[s.resolution],
    MeshExternal: s.meshExternal,
  };
}

export function registryz(ctx: ApiContext): ApiResult {
  return ok(ctx.snapshot.services.map((s) => registryService(s, ctx.options.clusterId)));
}

/** An Istio config back in its Kubernetes shape. */
export function kubernetesConfig(c: IstioConfig) {
  const m = c.meta;
  return {
    kind: c.kind,
    apiVersion: c.apiVersion,
    metadata: {
      name: m.name,
      namespace: m.namespace,
      ...(Object.keys(m.labels).length ? { labels: { ...m.labels } } : {}),
      ...(Object.keys(m.annotations).length ? { annotations: { ...m.annotations } } : {}),
      ...(m.resourceVersion ? { resourceVersion: m.resourceVersion } : {}),
      creationTimestamp: m.creationTimestamp,
    },
    spec: c.spec,
  };
}

/** Every Istio config, kind by kind (istiod walks its schemas), each kind in config order. */
export function allConfigs(s: MeshSnapshot): IstioConfig[] {
  return [
    ...s.destinationRules,
    ...s.gateways,
    ...s.serviceEntries,
    ...s.sidecars,
    ...s.virtualServices,
    ...s.workloadEntries,
    ...s.authorizationPolicies,
    ...s.peerAuthentications,
  ];
}

export function configz(ctx: ApiContext): ApiResult {
  return ok(allConfigs(ctx.snapshot).map(kubernetesConfig));
}

export function syncz(ctx: ApiContext): ApiResult<SyncStatus[]> {
  return ok([...(ctx.sync?.() ?? [])]);
}

/** `GET /api/errors`: located input errors, each source's health and the ADS server's state. */
export interface ErrorsResponse {
  version: number;
  errors: readonly LoadError[];
  sources: readonly SourceStatus[];
  xds: XdsState;
}

export function inputErrors(ctx: ApiContext): ApiResult<ErrorsResponse> {
  const errors = ctx.readText ? addLines(ctx.snapshot.errors, ctx.readText) : ctx.snapshot.errors;
  return ok({ version: ctx.snapshot.version, errors, sources: ctx.statuses ?? [], xds: ctx.xds ?? { state: 'off' } });
}

/**
 * Liveness + readiness: 503 while the ADS server is still binding or could not bind (another process
 * holds the port), so a second `meshscope serve` on a taken port never reports healthy; and while the Sidecar
 * scopes' warm-up runs while the server starts (impact/scopeWarmup.ts: at most STARTUP_MS after the sources loaded), as istiod reports
 * ready only once its first push context (every namespace's SidecarScope) is built.
 */
export function healthz(ctx: ApiContext): ApiResult {
  const xds = ctx.xds ?? { state: 'off' };
  const warming = xds.state === 'listening' && xds.warmup?.state === 'warming' && xds.warmup.startup;
  const ready = (xds.state === 'off' || xds.state === 'listening') && !warming;
  return {
    status: ready ? 200 : 503,
    body: {
      status: ready ? 'ok' : xds.state === 'failing' ? 'failing' : warming ? 'warming' : 'starting',
      version: ctx.snapshot.version,
      proxies: ctx.snapshot.proxies.length,
      services: ctx.snapshot.services.length,
      errors: ctx.snapshot.errors.length,
      sources: ctx.statuses ?? [],
      xds,
    },
  };
}
