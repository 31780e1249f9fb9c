// One AuthorizationPolicy rule → one Envoy RBAC Policy (pilot/pkg/security/authz/model: New, Generate,
// generatePermission/generatePrincipal, the per-attribute generators in generator.go). Each `from` becomes one
// principal and each `to` one permission (ORed by Envoy); inside one, every attribute is ANDed, its values ORed,
// its not-values a NOT of their OR. `when` conditions are appended to every principal or permission by kind.
import type { PermissionJson, PolicyJson, PrincipalJson } from '../../gen/envoy/config/rbac/v3/rbac_pb';
import type { AuthorizationAction, AuthzRule } from '../../model/authz';
import {
  cidrRange,
  headerMatcher,
  hostMatcher,
  regex,
  requestHeaderMatcher,
  stringMatcher,
  stringMatcherWithPrefix,
  toPort,
} from './matchers';

type Side = 'permission' | 'principal';
/** Builds one matcher for a value; throws for a bad value or an HTTP-only attribute on a TCP chain. */
type Gen = (value: string, forTCP: boolean) => PermissionJson | PrincipalJson;

interface Attr {
  key: string;
  side: Side;
  values: readonly string[];
  notValues: readonly string[];
  gen: Gen;
}

const httpOnly = (key: string, forTCP: boolean) => {
  if (forTCP) throw new Error(`"${key}" is HTTP only`);
};

const authn = (key: string, value: string): PrincipalJson => ({
  metadata: { filter: 'istio_authn', path: [{ key }], value: { stringMatch: stringMatcher(value) } },
});

/** The generator for a `when` key (model.go New's switch), or undefined for an unknown attribute. */
function conditionAttr(key: string): { side: Side; gen: Gen } | undefined {
  switch (key) {
    case 'destination.ip':
      return { side: 'permission', gen: (v) => ({ destinationIp: cidrRange(v) }) };
    case 'destination.port':
      return { side: 'permission', gen: (v) => ({ destinationPort: toPort(v) }) };
    case 'connection.sni':
      return { side: 'permission', gen: (v) => ({ requestedServerName: stringMatcher(v) }) };
    case 'source.ip':
      return { side: 'principal', gen: (v) => ({ directRemoteIp: cidrRange(v) }) };
    case 'remote.ip':
      return { side: 'principal', gen: (v) => ({ remoteIp: cidrRange(v) }) };
    case 'source.namespace':
      return { side: 'principal', gen: namespaceGen };
    case 'source.principal':
      return { side: 'principal', gen: principalGen };
    case 'request.auth.principal':
    case 'request.auth.audiences':
    case 'request.auth.presenter':
      return {
        side: 'principal',
        gen: (v, tcp) => {
          httpOnly(key, tcp);
          return authn(key, v);
        },
      };
  }
  const bracket = /^(request\.headers|request\.auth\.claims)\[(.+)\]$/.exec(key);
  if (bracket?.[1] === 'request.headers') {
    const name = bracket[2] as string;
    return {
      side: 'principal',
      gen: (v, tcp) => {
        httpOnly(key, tcp);
        return { header: requestHeaderMatcher(name, v) };
      },
    };
  }
  if (bracket?.[1] === 'request.auth.claims') {
    const claims = (bracket[2] as string).split('][');
    return {
      side: 'principal',
      gen: (v, tcp) => {
        httpOnly(key, tcp);
        return {
          metadata: {
            filter: 'istio_authn',
            path: [{ key: 'request.auth.claims' }, ...claims.map((c) => ({ key: c }))],
            value: { listMatch: { oneOf: { stringMatch: stringMatcher(v) } } },
          },
        };
      },
    };
  }
  const envoy = /^experimental\.(envoy\.filters\.[^[]+)\[(.+)\]$/.exec(key);
  if (envoy) {
    const filter = envoy[1] as string;
    const field = envoy[2] as string;
    return {
      side: 'permission',
      gen: (v) => ({ metadata: { filter, path: [{ key: field }], value: { stringMatch: stringMatcher(v) } } }),
    };
  }
  return undefined;
}

const principalGen: Gen = (v) => ({ authenticated: { principalName: stringMatcherWithPrefix(v, 'spiffe://') } });
const namespaceGen: Gen = (v) => ({ authenticated: { principalName: regex(`.*/ns/${v.replace(/\*/g, '.*')}/.*`) } });

/** generator.go serviceAccountRegex: `name` (the policy's namespace) or `namespace/name`. */
const serviceAccountGen =
  (policyNs: string): Gen =>
  (v) => {
    const i = v.indexOf('/');
    const [ns, sa] = i < 0 ? [policyNs, v] : [v.slice(0, i), v.slice(i + 1)];
    return { authenticated: { principalName: regex(`spiffe://.+/ns/${ns}/(.+/|)sa/${sa}(/.+)?`) } };
  };

const attr = (key: string, side: Side, gen: Gen, values?: readonly string[], notValues?: readonly string[]): Attr[] =>
  (values?.length ?? 0) + (notValues?.length ?? 0) > 0 ? [{ key, side, gen, values: values ?? [], notValues: notValues ?? [] }] : [];

/** Error thrown for a rule istiod skips (unknown attribute, or an invalid value in an ALLOW rule). */
export class SkippedRule extends Error {}

function combine(list: Attr[], side: Side, forTCP: boolean, action: AuthorizationAction): (PermissionJson | PrincipalJson)[] {
  const and: (PermissionJson | PrincipalJson)[] = [];
  for (const a of list) {
    for (const [vals, negate] of [
      [a.values, false],
      [a.notValues, true],
    ] as const) {
      const or: (PermissionJson | PrincipalJson)[] = [];
      for (const v of vals) {
        try {
          or.push(a.gen(v, forTCP));
        } catch (e) {
          // model.go checkError: an ALLOW rule with an unusable value is dropped (narrower); DENY/AUDIT drop the value (wider).
          if (action === 'ALLOW') throw new SkippedRule((e as Error).message);
        }
      }
      if (or.length === 0) continue;
      const set = side === 'permission' ? { orRules: { rules: or } } : { orIds: { ids: or } };
      and.push(negate ? (side === 'permission' ? { notRule: set } : { notId: set }) : set);
    }
  }
  if (and.length === 0) and.push({ any: true });
  return and;
}

/**
 * model.New + Generate for one rule. `action` is the RBAC action the rule is built for (CUSTOM rules are built
 * as DENY, as istiod does). Throws SkippedRule when istiod would skip the rule.
 */
export function generatePolicy(rule: AuthzRule, policyNs: string, forTCP: boolean, action: AuthorizationAction): PolicyJson {
  const basePermission: Attr[] = [];
  const basePrincipal: Attr[] = [];
  for (const w of rule.when ?? []) {
    const c = conditionAttr(w.key);
    if (!c) throw new SkippedRule(`unknown attribute ${w.key}`);
    const list = c.side === 'permission' ? basePermission : basePrincipal;
    list.push(...attr(w.key, c.side, c.gen, w.values, w.notValues));
  }
  const principals: Attr[][] = (rule.from ?? []).map(({ source: s }) => [
    ...attr('source.principal', 'principal', principalGen, s?.principals, s?.notPrincipals),
    ...attr('source.serviceAccount', 'principal', serviceAccountGen(policyNs), s?.serviceAccounts, s?.notServiceAccounts),
    ...attr(
      'request.auth.principal',
      'principal',
      conditionAttr('request.auth.principal')!.gen,
      s?.requestPrincipals,
      s?.notRequestPrincipals,
    ),
    ...attr('source.namespace', 'principal', namespaceGen, s?.namespaces, s?.notNamespaces),
    ...attr('remote.ip', 'principal', conditionAttr('remote.ip')!.gen, s?.remoteIpBlocks, s?.notRemoteIpBlocks),
    ...attr('source.ip', 'principal', conditionAttr('source.ip')!.gen, s?.ipBlocks, s?.notIpBlocks),
    ...basePrincipal,
  ]);
  if (principals.length === 0) principals.push(basePrincipal);
  const hostGen: Gen = (v, tcp) => (httpOnly('hosts', tcp), { header: hostMatcher(':authority', v) });
  const methodGen: Gen = (v, tcp) => (httpOnly('methods', tcp), { header: headerMatcher(':method', v) });
  const pathGen: Gen = (v, tcp) => {
    httpOnly('paths', tcp);
    if (/\{\*{1,2}\}/.test(v)) throw new Error(`path template ${v} is not supported by meshscope`);
    return { urlPath: { path: v === '*' ? regex('.+') : stringMatcher(v) } };
  };
  const permissions: Attr[][] = (rule.to ?? []).map(({ operation: o }) => [
    ...attr('hosts', 'permission', hostGen, o?.hosts, o?.notHosts),
    ...attr('methods', 'permission', methodGen, o?.methods, o?.notMethods),
    ...attr('paths', 'permission', pathGen, o?.paths, o?.notPaths),
    ...attr('ports', 'permission', (v) => ({ destinationPort: toPort(v) }), o?.ports, o?.notPorts),
    ...basePermission,
  ]);
  if (permissions.length === 0) permissions.push(basePermission);
  return {
    permissions: permissions.map((l) => ({ andRules: { rules: combine(l, 'permission', forTCP, action) as PermissionJson[] } })),
    principals: principals.map((l) => ({ andIds: { ids: combine(l, 'principal', forTCP, action) as PrincipalJson[] } })),
  };
}

/** builder.go rbacPolicyMatchNever: the explicit policy of a policy without rules. */
export const MATCH_NEVER: PolicyJson = Object.freeze({
  permissions: [{ notRule: { any: true } }],
  principals: [{ notId: { any: true } }],
}) as PolicyJson;
