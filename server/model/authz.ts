// Typed spec of security.istio.io AuthorizationPolicy (v1 / v1beta1: the same API), in the field names users
// write in YAML. Only the shapes; validation lives in ./schema/authorizationPolicy.ts.
// Reference: istio/api security/v1beta1/authorization.proto.

export type AuthorizationAction = 'ALLOW' | 'DENY' | 'AUDIT' | 'CUSTOM';

export interface AuthzSource {
  principals?: string[];
  notPrincipals?: string[];
  requestPrincipals?: string[];
  notRequestPrincipals?: string[];
  namespaces?: string[];
  notNamespaces?: string[];
  ipBlocks?: string[];
  notIpBlocks?: string[];
  remoteIpBlocks?: string[];
  notRemoteIpBlocks?: string[];
  serviceAccounts?: string[];
  notServiceAccounts?: string[];
}

export interface AuthzOperation {
  hosts?: string[];
  notHosts?: string[];
  ports?: string[];
  notPorts?: string[];
  methods?: string[];
  notMethods?: string[];
  paths?: string[];
  notPaths?: string[];
}

export interface AuthzCondition {
  key: string;
  values?: string[];
  notValues?: string[];
}

export interface AuthzRule {
  from?: { source?: AuthzSource }[];
  to?: { operation?: AuthzOperation }[];
  when?: AuthzCondition[];
}

export interface PolicyTargetReference {
  group?: string;
  kind: string;
  name: string;
  namespace?: string;
}

export interface AuthorizationPolicySpec {
  selector?: { matchLabels?: Record<string, string> };
  targetRef?: PolicyTargetReference;
  targetRefs?: PolicyTargetReference[];
  /** Absent = ALLOW (the proto's default). */
  action?: AuthorizationAction;
  provider?: { name?: string };
  rules?: AuthzRule[];
}

/** The dry-run annotation (istio.io/api annotation IoIstioDryRun): policies evaluated as shadow rules only. */
export const DRY_RUN_ANNOTATION = 'istio.io/dry-run';
