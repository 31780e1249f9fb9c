// zod schema and webhook checks of security.istio.io AuthorizationPolicy (istio/api security/v1beta1/
// authorization.proto; pkg/config/validation ValidateAuthorizationPolicy, validateAuthorizationPolicyRules,
// validateConditionKey, ValidateAuthorizationPolicy's selector/targetRef/provider/action checks).
import { z } from 'zod';
import type { AuthorizationPolicySpec, AuthzOperation, AuthzSource } from '../authz';
import type { PathIssue } from './common';
import { pushAll, stringMap } from './common';
import { isCIDR, isIP, labelsIssues } from './rules';

const strings = z.array(z.string()).optional();

const source = z.strictObject({
  principals: strings,
  notPrincipals: strings,
  requestPrincipals: strings,
  notRequestPrincipals: strings,
  namespaces: strings,
  notNamespaces: strings,
  ipBlocks: strings,
  notIpBlocks: strings,
  remoteIpBlocks: strings,
  notRemoteIpBlocks: strings,
  serviceAccounts: strings,
  notServiceAccounts: strings,
});

const operation = z.strictObject({
  hosts: strings,
  notHosts: strings,
  ports: strings,
  notPorts: strings,
  methods: strings,
  notMethods: strings,
  paths: strings,
  notPaths: strings,
});

const targetRef = z.strictObject({
  group: z.string().optional(),
  kind: z.string(),
  name: z.string(),
  namespace: z.string().optional(),
});

export const authorizationPolicySpec: z.ZodType<AuthorizationPolicySpec> = z.strictObject({
  selector: z.strictObject({ matchLabels: stringMap.optional() }).optional(),
  targetRef: targetRef.optional(),
  targetRefs: z.array(targetRef).optional(),
  action: z.enum(['ALLOW', 'DENY', 'AUDIT', 'CUSTOM']).optional(),
  provider: z.strictObject({ name: z.string().optional() }).optional(),
  rules: z
    .array(
      z.strictObject({
        from: z.array(z.strictObject({ source: source.optional() })).optional(),
        to: z.array(z.strictObject({ operation: operation.optional() })).optional(),
        when: z.array(z.strictObject({ key: z.string(), values: strings, notValues: strings })).optional(),
      }),
    )
    .optional(),
});

/** The condition keys Istio accepts (security.ValidateAttribute / authz model attributes). */
const EXACT_KEYS = new Set([
  'source.ip',
  'remote.ip',
  'source.namespace',
  'source.principal',
  'request.auth.principal',
  'request.auth.audiences',
  'request.auth.presenter',
  'destination.ip',
  'destination.port',
  'connection.sni',
]);
const BRACKET_KEYS = ['request.headers[', 'request.auth.claims[', 'experimental.envoy.filters.'];

export function conditionKeyError(key: string): string | undefined {
  if (EXACT_KEYS.has(key)) return undefined;
  if (BRACKET_KEYS.some((p) => key.startsWith(p)) && key.endsWith(']') && key.indexOf('[') < key.length - 2) return undefined;
  return `unknown attribute: ${key}`;
}

const nonEmpty = (o: object | undefined): boolean => !!o && Object.values(o).some((v) => Array.isArray(v) && v.length > 0);

function ipIssues(values: readonly string[] | undefined, p: string, out: PathIssue[]): void {
  (values ?? []).forEach((v, i) => {
    if (!isIP(v) && !isCIDR(v)) out.push({ path: `${p}[${i}]`, message: `invalid IP address or CIDR range: ${v}` });
  });
}

function portIssues(values: readonly string[] | undefined, p: string, out: PathIssue[]): void {
  (values ?? []).forEach((v, i) => {
    const n = /^\d+$/.test(v) ? Number(v) : Number.NaN;
    if (!(n >= 0 && n <= 65535)) out.push({ path: `${p}[${i}]`, message: `invalid port: ${v}` });
  });
}

function emptyValues(values: readonly string[] | undefined, p: string, out: PathIssue[]): void {
  (values ?? []).forEach((v, i) => {
    if (v === '') out.push({ path: `${p}[${i}]`, message: 'empty value is not allowed' });
  });
}

function sourceIssues(s: AuthzSource, p: string, out: PathIssue[]): void {
  if (!nonEmpty(s)) out.push({ path: p, message: '`from.source` must not be empty' });
  for (const [k, v] of Object.entries(s)) emptyValues(v as string[], `${p}.${k}`, out);
  for (const k of ['ipBlocks', 'notIpBlocks', 'remoteIpBlocks', 'notRemoteIpBlocks'] as const) ipIssues(s[k], `${p}.${k}`, out);
  const sa = (s.serviceAccounts?.length ?? 0) + (s.notServiceAccounts?.length ?? 0);
  const pr = (s.principals?.length ?? 0) + (s.notPrincipals?.length ?? 0);
  if (sa > 0 && pr > 0) out.push({ path: p, message: 'cannot set serviceAccounts and principals at the same time' });
}

function operationIssues(o: AuthzOperation, p: string, out: PathIssue[]): void {
  if (!nonEmpty(o)) out.push({ path: p, message: '`to.operation` must not be empty' });
  for (const [k, v] of Object.entries(o)) emptyValues(v as string[], `${p}.${k}`, out);
  portIssues(o.ports, `${p}.ports`, out);
  portIssues(o.notPorts, `${p}.notPorts`, out);
  for (const k of ['paths', 'notPaths'] as const)
    (o[k] ?? []).forEach((v, i) => {
      if (v !== '*' && !v.startsWith('/') && !v.startsWith('*'))
        out.push({ path: `${p}.${k}[${i}]`, message: `invalid path "${v}": must start with "/" or "*"` });
    });
}

export function checkAuthorizationPolicy(spec: AuthorizationPolicySpec): PathIssue[] {
  const out: PathIssue[] = [];
  const refs = [...(spec.targetRef ? [spec.targetRef] : []), ...(spec.targetRefs ?? [])];
  if (spec.selector && refs.length > 0) out.push({ path: 'spec', message: 'only one of targetRefs or workloadSelector can be set' });
  if (spec.targetRef && spec.targetRefs?.length) out.push({ path: 'spec', message: 'only one of targetRef or targetRefs can be set' });
  pushAll(out, labelsIssues(spec.selector?.matchLabels, 'spec.selector.matchLabels'));
  const action = spec.action ?? 'ALLOW';
  if (action === 'CUSTOM') {
    if (!spec.provider?.name) out.push({ path: 'spec.provider', message: 'must specify a provider for the CUSTOM action' });
    if (!spec.rules || spec.rules.length === 0)
      out.push({
        path: 'spec.rules',
        message:
          'CUSTOM action without `rules` is meaningless as it will never be triggered, add an empty rule `{}` to trigger it for every request',
      });
  } else if (spec.provider) out.push({ path: 'spec.provider', message: 'provider can only be used with the CUSTOM action' });
  (spec.rules ?? []).forEach((r, i) => {
    const p = `spec.rules[${i}]`;
    (r.from ?? []).forEach((f, j) => {
      if (!f.source) out.push({ path: `${p}.from[${j}].source`, message: '`from.source` must not be nil' });
      else sourceIssues(f.source, `${p}.from[${j}].source`, out);
    });
    (r.to ?? []).forEach((t, j) => {
      if (!t.operation) out.push({ path: `${p}.to[${j}].operation`, message: '`to.operation` must not be nil' });
      else operationIssues(t.operation, `${p}.to[${j}].operation`, out);
    });
    (r.when ?? []).forEach((c, j) => {
      const cp = `${p}.when[${j}]`;
      const err = conditionKeyError(c.key);
      if (err) out.push({ path: `${cp}.key`, message: err });
      if (!c.values?.length && !c.notValues?.length)
        out.push({ path: cp, message: `at least one of values or notValues must be set for key: ${c.key}` });
      if (c.key === 'source.ip' || c.key === 'remote.ip' || c.key === 'destination.ip') {
        ipIssues(c.values, `${cp}.values`, out);
        ipIssues(c.notValues, `${cp}.notValues`, out);
      }
      if (c.key === 'destination.port') {
        portIssues(c.values, `${cp}.values`, out);
        portIssues(c.notValues, `${cp}.notValues`, out);
      }
    });
  });
  return out;
}
