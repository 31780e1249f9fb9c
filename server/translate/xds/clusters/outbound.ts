// Outbound clusters of one service port: `outbound|PORT||FQDN` plus `outbound|PORT|SUBSET|FQDN` per subset of
// the applicable DestinationRule (cluster.go:buildOutboundClusters, cluster_builder.go:applyDestinationRule,
// buildSubsetCluster).
import type { EndpointModel, IstioConfig, LoadError, PodModel, ServiceModel, ServicePort } from '../../../model/mesh';
import { outboundCluster } from '../../names';
import { configPathOf } from '../../provenance';
import type { ClusterJson } from '../../types';
import type { EffectiveDestinationRule, ProxyView } from '../../view/types';
import { buildLocalityLbEndpoints, filterBySubset, type LocalityLbEndpointsJson } from '../endpoints/localityEndpoints';
import { applyEdsConfig, baseCluster, convertResolution, istioMetadata, passthroughTargetPort, type ClusterType } from './base';
import { applyTrafficPolicy } from './trafficPolicy/apply';
import type { PolicyContext } from './trafficPolicy/context';
import { mergeSubsetPolicy, portLevelPolicy, type SelectedPolicy } from './trafficPolicy/select';
import { applyClientTls, type ClientTlsInput, type ClusterTlsSink } from './clientTls';
import { serviceAccounts } from '../../security/serviceMtls';
import { dnsSrvSubsetKey } from '../../security/sni';

export interface OutboundInput {
  view: ProxyView;
  pods: ReadonlyMap<string, PodModel>;
  errors: LoadError[];
  /** Receives each cluster's client TLS decision (auto mTLS / DestinationRule / none). */
  tlsSink?: ClusterTlsSink;
  /** namespaceMtlsMode memoised for this CDS build. */
  namespaceMode?: ClientTlsInput['namespaceMode'];
}

function policyContext(rule: IstioConfig<'DestinationRule'> | undefined, errors: LoadError[]): PolicyContext {
  const ctx: PolicyContext = { errors };
  if (rule) {
    ctx.object = `DestinationRule ${rule.meta.namespace}/${rule.meta.name}`;
    if (rule.origin.file !== undefined) ctx.file = rule.origin.file;
    if (rule.origin.doc !== undefined) ctx.doc = rule.origin.doc;
  }
  return ctx;
}

/** Metadata istiod adds for a DestinationRule: its config path; `alpn_override: "false"` for user TLS. */
function addRuleMetadata(c: ClusterJson, dr: EffectiveDestinationRule, policy: SelectedPolicy) {
  const first = dr.from[0];
  if (!first) return;
  const m = istioMetadata(c);
  m['config'] = configPathOf(first);
  const mode = policy.tls?.value.mode;
  if (mode === 'SIMPLE' || mode === 'MUTUAL') m['alpn_override'] = 'false';
}

/** The rule (of the merged ones) defining a subset, and the subset's index in it, for error paths. */
function subsetOrigin(dr: EffectiveDestinationRule, name: string): { rule?: IstioConfig<'DestinationRule'>; index: number } {
  for (const rule of dr.from) {
    const index = (rule.spec.subsets ?? []).findIndex((s) => s.name === name);
    if (index >= 0) return { rule, index };
  }
  return { index: 0 };
}

/**
 * Envoy rejects LOGICAL_DNS clusters with more than one endpoint; Istio's validation forbids such
 * DNS_ROUND_ROBIN ServiceEntries. Keep the first endpoint and warn instead of emitting a NACKed cluster.
 */
function singleEndpoint(
  groups: LocalityLbEndpointsJson[],
  svc: ServiceModel,
  port: number,
  errors: LoadError[],
): LocalityLbEndpointsJson[] {
  const count = groups.reduce((n, g) => n + (g.lbEndpoints?.length ?? 0), 0);
  const first = groups[0];
  const ep = first?.lbEndpoints?.[0];
  if (count <= 1 || !first || !ep) return groups;
  errors.push({
    severity: 'warning',
    message: `DNS_ROUND_ROBIN resolution allows one endpoint; port ${port} has ${count}, only the first is used`,
    object: `${svc.ref.kind} ${svc.namespace}/${svc.name}`,
    path: 'spec.endpoints',
  });
  return [{ ...first, lbEndpoints: [ep], loadBalancingWeight: ep.loadBalancingWeight ?? 1 }];
}

/** What every cluster of one service port shares (built once per port, read by the module-level helpers below). */
interface PortContext {
  input: OutboundInput;
  svc: ServiceModel;
  port: ServicePort;
  type: ClusterType;
  tls: ClientTlsInput;
}

function lbEndpoints(pc: PortContext, eps: readonly EndpointModel[]): LocalityLbEndpointsJson[] {
  const { input, svc, port, type } = pc;
  const groups = buildLocalityLbEndpoints(eps, svc, input.pods, input.view.options.clusterId);
  return type === 'LOGICAL_DNS' ? singleEndpoint(groups, svc, port.port, input.errors) : groups;
}

/** Traffic policy, client TLS, EDS config and the istio metadata of one cluster (default or subset). */
function finish(
  pc: PortContext,
  c: ClusterJson,
  p: SelectedPolicy,
  ctx: PolicyContext,
  sni: string,
  inferPolicy: ClientTlsInput['inferPolicy'],
) {
  const { view } = pc.input;
  if (view.options.localityLbSetting) ctx.meshLocality = view.options.localityLbSetting;
  applyTrafficPolicy(c, p, 'outbound', view.options.connectTimeout, ctx);
  // one input object per service port, its per-cluster fields set here (applyClientTls does not keep it)
  pc.tls.sni = sni;
  pc.tls.inferPolicy = inferPolicy;
  applyClientTls(c, p, pc.tls, ctx);
  applyEdsConfig(c);
  const m = istioMetadata(c);
  m['default_original_port'] = pc.port.port;
  if (pc.svc.meshExternal) m['external'] = true;
}

export function buildServicePortClusters(input: OutboundInput, svc: ServiceModel, port: ServicePort): ClusterJson[] {
  const { view } = input;
  const proxy = view.proxy;
  const type = convertResolution(proxy.type, svc);
  const isDns = type === 'STRICT_DNS' || type === 'LOGICAL_DNS';
  const allEndpoints = view.endpoints(svc, port.port);
  const override = type === 'ORIGINAL_DST' ? passthroughTargetPort(svc, port) : undefined;
  const dr = view.destinationRule(svc.hostname);
  const tls: ClientTlsInput = {
    view,
    svc,
    port,
    pods: input.pods,
    endpoints: allEndpoints,
    serviceAccounts: serviceAccounts(view.snapshot, svc, (p) => view.endpoints(svc, p), view.options.trustDomain),
    drWithSelector: dr?.from.some((r) => r.spec.workloadSelector !== undefined) ?? false,
    ...(input.tlsSink ? { sink: input.tlsSink } : {}),
    ...(input.namespaceMode ? { namespaceMode: input.namespaceMode } : {}),
    sni: '',
    inferPolicy: undefined,
  };
  const pc: PortContext = { input, svc, port, type, tls };

  const name = outboundCluster(port.port, svc.hostname);
  const main = baseCluster({
    name,
    type,
    proxy,
    services: [svc],
    ...(isDns ? { localityLbEndpoints: lbEndpoints(pc, allEndpoints) } : {}),
    ...(override !== undefined ? { upstreamPortOverride: override } : {}),
  });
  if (!main) return [];

  const rule = dr?.from[0];
  const policy = portLevelPolicy(dr?.spec.trafficPolicy, 'spec.trafficPolicy', port.port);
  finish(pc, main, policy, policyContext(rule, input.errors), dnsSrvSubsetKey(port.port, svc.hostname), dr?.spec.trafficPolicy);
  if (dr) addRuleMetadata(main, dr, policy);
  const out = [main];

  for (const subset of dr?.spec.subsets ?? []) {
    const origin = subsetOrigin(dr!, subset.name);
    const subsetPolicy = portLevelPolicy(subset.trafficPolicy, `spec.subsets[${origin.index}].trafficPolicy`, port.port);
    const merged = mergeSubsetPolicy(policy, subsetPolicy);
    const passthrough = subset.trafficPolicy?.loadBalancer?.simple === 'PASSTHROUGH';
    // subsets start from the default cluster's type after its policy (a top-level PASSTHROUGH made it ORIGINAL_DST)
    const subsetType: ClusterType = passthrough ? 'ORIGINAL_DST' : (main.type ?? type);
    const inline = !(passthrough || subsetType === 'EDS') && subsetType !== 'ORIGINAL_DST';
    const subsetName = outboundCluster(port.port, svc.hostname, subset.name);
    const c = baseCluster({
      name: subsetName,
      type: subsetType,
      proxy,
      services: [svc],
      ...(inline ? { localityLbEndpoints: lbEndpoints(pc, filterBySubset(allEndpoints, subset.labels)) } : {}),
      ...(subsetType === 'ORIGINAL_DST' && override !== undefined ? { upstreamPortOverride: override } : {}),
    });
    if (!c) continue;
    finish(
      pc,
      c,
      merged,
      policyContext(origin.rule ?? rule, input.errors),
      dnsSrvSubsetKey(port.port, svc.hostname, subset.name),
      subset.trafficPolicy,
    );
    addRuleMetadata(c, dr!, merged);
    istioMetadata(c)['subset'] = subset.name;
    out.push(c);
  }
  return out;
}
