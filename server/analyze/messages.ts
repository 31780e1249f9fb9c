// The code catalogue: the subset of Istio's pkg/config/analysis/msg/messages.yaml meshscope reports,
// with Istio's names, levels and templates (Go fmt verbs: %s %v %d %q).
import type { IstioConfig } from '../model/mesh';
import { severityOf, type Problem } from '../model/problem';
import type { Level } from './types';

export interface MessageType {
  code: string;
  name: string;
  level: Level;
  template: string;
}

const m = (code: string, name: string, level: Level, template: string): MessageType => ({ code, name, level, template });

export const MESSAGES = {
  ReferencedResourceNotFound: m('IST0101', 'ReferencedResourceNotFound', 'Error', 'Referenced %s not found: %q'),
  SchemaValidationError: m('IST0106', 'SchemaValidationError', 'Error', 'Schema validation error: %v'),
  ConflictingMeshGatewayVirtualServiceHosts: m(
    'IST0109',
    'ConflictingMeshGatewayVirtualServiceHosts',
    'Error',
    'The VirtualServices %s associated with mesh gateway define the same host %s which can lead to undefined behavior. This can be fixed by merging the conflicting VirtualServices into a single resource.',
  ),
  ConflictingSidecarWorkloadSelectors: m(
    'IST0110',
    'ConflictingSidecarWorkloadSelectors',
    'Error',
    'The Sidecars %v in namespace %q select the same workload pod %q, which can lead to undefined behavior.',
  ),
  MultipleSidecarsWithoutWorkloadSelectors: m(
    'IST0111',
    'MultipleSidecarsWithoutWorkloadSelectors',
    'Error',
    'The Sidecars %v in namespace %q have no workload selector, which can lead to undefined behavior.',
  ),
  VirtualServiceDestinationPortSelectorRequired: m(
    'IST0112',
    'VirtualServiceDestinationPortSelectorRequired',
    'Error',
    'This VirtualService routes to a service %q that exposes multiple ports %v. Specifying a port in the destination is required to disambiguate.',
  ),
  MTLSPolicyConflict: m(
    'IST0113',
    'MTLSPolicyConflict',
    'Error',
    'A DestinationRule and Policy are in conflict with regards to mTLS for host %s. The DestinationRule %q specifies that mTLS must be %s but the Policy object %q specifies %s.',
  ),
  NoServerCertificateVerificationDestinationLevel: m(
    'IST0128',
    'NoServerCertificateVerificationDestinationLevel',
    'Warning',
    'DestinationRule %s in namespace %s has TLS mode set to %s but no caCertificates are set to validate server identity for host: %s',
  ),
  NoServerCertificateVerificationPortLevel: m(
    'IST0129',
    'NoServerCertificateVerificationPortLevel',
    'Warning',
    'DestinationRule %s in namespace %s has TLS mode set to %s but no caCertificates are set to validate server identity for host: %s at port %s',
  ),
  NoMatchingWorkloadsFound: m(
    'IST0127',
    'NoMatchingWorkloadsFound',
    'Warning',
    'No matching workloads for this resource with the following labels: %s',
  ),
  VirtualServiceUnreachableRule: m('IST0130', 'VirtualServiceUnreachableRule', 'Warning', 'VirtualService rule %v not used (%s).'),
  VirtualServiceIneffectiveMatch: m(
    'IST0131',
    'VirtualServiceIneffectiveMatch',
    'Info',
    'VirtualService rule %v match %v is not used (duplicate/overlapping match in rule %v).',
  ),
  VirtualServiceHostNotFoundInGateway: m(
    'IST0132',
    'VirtualServiceHostNotFoundInGateway',
    'Warning',
    'one or more host %v defined in VirtualService %s not found in Gateway %s.',
  ),
  SchemaWarning: m('IST0133', 'SchemaWarning', 'Warning', 'Schema validation warning: %v'),
  IngressRouteRulesNotAffected: m(
    'IST0140',
    'IngressRouteRulesNotAffected',
    'Warning',
    'Subset in virtual service %s has no effect on ingress gateway %s requests',
  ),
  ConflictingGateways: m('IST0145', 'ConflictingGateways', 'Error', 'Conflict with gateways %s (workload selector %s, port %s, hosts %v).'),
  GatewayPortNotDefinedOnService: m(
    'IST0162',
    'GatewayPortNotDefinedOnService',
    'Warning',
    'The gateway is listening on a target port (port %d) that is not defined in the Service associated with its workload instances (Pod selector %s). If you need to access the gateway port through the gateway Service, it will not be available.',
  ),
  IneffectivePolicy: m('IST0167', 'IneffectivePolicy', 'Warning', 'The policy has no impact: %s.'),
  NegativeConditionStatus: m(
    'IST0171',
    'NegativeConditionStatus',
    'Warning',
    'A condition with a negative status is present: type=%s, reason=%s, message=%s.',
  ),
  DestinationRuleSubsetNotSelectPods: m(
    'IST0173',
    'DestinationRuleSubsetNotSelectPods',
    'Error',
    'The Subset %s defined in the DestinationRule does not select any pods. Which may lead to 503 UH (NoHealthyUpstream).',
  ),
  EnvoyFilterUsesRelativeOperation: m(
    'IST0151',
    'EnvoyFilterUsesRelativeOperation',
    'Warning',
    'This EnvoyFilter does not have a priority and has a relative patch operation set which can cause the EnvoyFilter not to be applied. Using the INSERT_FIRST of ADD option or setting the priority may help in ensuring the EnvoyFilter is applied correctly.',
  ),
  EnvoyFilterUsesReplaceOperationIncorrectly: m(
    'IST0152',
    'EnvoyFilterUsesReplaceOperationIncorrectly',
    'Error',
    'The REPLACE operation is only valid for HTTP_FILTER and NETWORK_FILTER.',
  ),
  EnvoyFilterUsesAddOperationIncorrectly: m(
    'IST0153',
    'EnvoyFilterUsesAddOperationIncorrectly',
    'Error',
    'The ADD operation will be ignored when applyTo is set to ROUTE_CONFIGURATION, or HTTP_ROUTE.',
  ),
  EnvoyFilterUsesRemoveOperationIncorrectly: m(
    'IST0154',
    'EnvoyFilterUsesRemoveOperationIncorrectly',
    'Error',
    'The REMOVE operation will be ignored when applyTo is set to ROUTE_CONFIGURATION, or HTTP_ROUTE.',
  ),
  EnvoyFilterUsesRelativeOperationWithProxyVersion: m(
    'IST0155',
    'EnvoyFilterUsesRelativeOperationWithProxyVersion',
    'Warning',
    'This EnvoyFilter does not have a priority and has a relative patch operation (NSTERT_BEFORE/AFTER, REPLACE, MERGE, DELETE) and proxyVersion set which can cause the EnvoyFilter not to be applied during an upgrade. Using the INSERT_FIRST or ADD option or setting the priority may help in ensuring the EnvoyFilter is applied correctly.',
  ),
  UnknownDestinationRuleHost: m(
    'IST0174',
    'UnknownDestinationRuleHost',
    'Warning',
    'The host %s defined in the DestinationRule does not match any services in the mesh.',
  ),
  // meshscope's own code (no Istio tool flags this): docs/security-and-limits.md. Envoy compiles every safe_regex
  // with RE2 and rejects (NACKs) the whole resource when the program size exceeds runtime
  // re2.max_program_size.error_level (source/common/common/regex.cc).
  RegexProgramSizeExceeded: m(
    'MSC0001',
    'RegexProgramSizeExceeded',
    'Error',
    'regex %q has an RE2 program size of %d > %d, the re2.max_program_size.error_level istio-proxy runs with (istio-agent bootstrap): Envoy rejects (NACKs) the configuration.',
  ),
  RegexProgramSizeOverEnvoyDefault: m(
    'MSC0002',
    'RegexProgramSizeOverEnvoyDefault',
    'Warning',
    "regex %q has an RE2 program size of %d > %d, Envoy's default re2.max_program_size.error_level: an Envoy not bootstrapped by istio-agent (which raises the level to %d) rejects (NACKs) the configuration.",
  ),
  // meshscope's own codes for ambient mode (docs/ambient.md "Analyzers"): no Istio analyzer flags these; the texts
  // quote istiod where istiod writes a status message for the same rule.
  AmbientNamespaceNotEnrolled: m(
    'MSC0201',
    'AmbientNamespaceNotEnrolled',
    'Warning',
    'namespace is labelled istio.io/dataplane-mode=ambient but %s: istiod reads only the ambient.istio.io/redirection: enabled annotation istio-cni writes on a pod once it redirects its traffic to ztunnel (is istio-cni running on the nodes?), so these pods are outside the mesh: %v',
  ),
  UseWaypointNotBound: m('MSC0202', 'UseWaypointNotBound', 'Warning', 'istio.io/use-waypoint does not bind %s: %s (%s)'),
  NoWaypointForL7Config: m(
    'MSC0203',
    'NoWaypointForL7Config',
    'Warning',
    '%s has no effect on requests from ambient clients to %s: the service has no waypoint (%s), and ztunnel applies only L4 policy; only sidecars and gateways apply it',
  ),
  ZtunnelIgnoresHttpAttributes: m('MSC0204', 'ZtunnelIgnoresHttpAttributes', 'Warning', 'enforced by ztunnel on %s: %s'),
  SidecarBypassesWaypointPolicy: m(
    'MSC0205',
    'SidecarBypassesWaypointPolicy',
    'Warning',
    'enforced only by waypoint %s; requests from sidecars bypass destination waypoints, so this policy is not applied to the %d sidecar pod(s) that can call %s (e.g. %s): a migration risk until those callers leave sidecar mode or the destination pods get an equivalent selector policy',
  ),
} as const satisfies Record<string, MessageType>;

export type MessageName = keyof typeof MESSAGES;

export type Arg = string | number | readonly (string | number)[];

/** Go's fmt for the verbs the templates use: %q quotes, %v of a slice prints `[a b]`. */
export function formatTemplate(template: string, args: readonly Arg[]): string {
  let i = 0;
  return template.replace(/%([sdvq%])/g, (_whole, verb: string) => {
    if (verb === '%') return '%';
    const a = args[i++];
    if (a === undefined) return `%!${verb}(MISSING)`;
    if (Array.isArray(a)) return `[${a.join(' ')}]`;
    return verb === 'q' ? JSON.stringify(String(a)) : String(a);
  });
}

/** `Kind namespace/name`, the object designation findings and load errors share. */
export const objectName = (c: Pick<IstioConfig, 'kind' | 'meta'>): string => `${c.kind} ${c.meta.namespace}/${c.meta.name}`;

/** A finding about an Istio config object. */
export function report(
  name: MessageName,
  cfg: Pick<IstioConfig, 'kind' | 'meta' | 'origin'>,
  path: string | undefined,
  ...args: Arg[]
): Problem {
  const t: MessageType = MESSAGES[name];
  const f: Problem = { severity: severityOf(t.level), code: t.code, message: formatTemplate(t.template, args), object: objectName(cfg) };
  if (path !== undefined) f.path = path;
  if (cfg.origin.file !== undefined || cfg.origin.doc !== undefined) {
    f.source = cfg.origin.source;
    if (cfg.origin.file !== undefined) f.file = cfg.origin.file;
    if (cfg.origin.doc !== undefined) f.doc = cfg.origin.doc;
  }
  return f;
}
