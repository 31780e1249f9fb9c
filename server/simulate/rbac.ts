// Envoy's RBAC filters (envoy.filters.http.rbac in an HCM, envoy.filters.network.rbac before tcp_proxy)
// evaluated for a simulated request: source/common/rbac/engine_impl.cc RoleBasedAccessControlEngineImpl
// (ALLOW: allowed iff some policy matches; DENY: denied iff some policy matches; LOG: never denies) and
// matchers.cc (Permission / Principal trees). Policies are tried in name order; shadow_rules never decide
// (dry-run), they are reported as notes. Policy names istiod writes (`ns[NS]-policy[NAME]-rule[i]`) give the
// AuthorizationPolicy and rule back.
import { matchHeader } from './headerMatch';
import { cidrContains } from './ip';
import { bool, isObj, num, obj, objs, str, type J } from './json';
import { stringMatch } from './stringMatch';
import type { Rejection, SimAuthorization, SimCtx } from './types';

/** authzmodel.RBACExtAuthzShadowRulesStatPrefix: the shadow rules of a CUSTOM policy with a provider. */
const EXT_AUTHZ_SHADOW_PREFIX = 'istio_ext_authz_';

interface Outcome {
  match: boolean;
  /** Why not (when match is false), or what matched (when true). */
  why: string;
}
const yes = (why: string): Outcome => ({ match: true, why });
const no = (why: string): Outcome => ({ match: false, why });

function cidr(v: J | undefined, ip: string | undefined, what: string): Outcome {
  const prefix = str(v, 'address_prefix') ?? '';
  const len = num(v, 'prefix_len') ?? 0;
  if (ip === undefined) return no(`${what} unknown (no --source-ip) for ${prefix}/${len}`);
  return cidrContains(prefix, len, ip) ? yes(`${what} ${ip} in ${prefix}/${len}`) : no(`${what} ${ip} not in ${prefix}/${len}`);
}

function all<T>(items: T[], f: (x: T) => Outcome): Outcome {
  for (const x of items) {
    const r = f(x);
    if (!r.match) return r;
  }
  return yes('all matched');
}
function some<T>(items: T[], f: (x: T) => Outcome): Outcome {
  const whys: string[] = [];
  for (const x of items) {
    const r = f(x);
    if (r.match) return r;
    whys.push(r.why);
  }
  return no(whys.length === 1 ? (whys[0] as string) : `none of: ${whys.join('; ')}`);
}
function headerMatcherFor(h: J, headers: ReadonlyMap<string, string>): Outcome {
  const r = matchHeader(h, headers);
  const name = str(h, 'name') ?? '';
  return r.match ? yes(`header ${name} matches`) : no(r.reason ?? `header ${name} does not match`);
}

const invert = (r: Outcome): Outcome => (r.match ? no(`not(${r.why})`) : yes(`not(${r.why})`));

function metadataUnknown(m: J | undefined): Outcome {
  const path = objs(m, 'path')
    .map((p) => str(p, 'key'))
    .join('.');
  const filter = str(m, 'filter') ?? '';
  return no(
    filter === 'istio_authn' ? `${path} unknown (the simulator sends no JWT)` : `metadata ${filter} ${path} unknown to the simulator`,
  );
}

export function matchPermission(p: J, ctx: SimCtx): Outcome {
  if (bool(p, 'any') === true) return yes('any');
  const and = obj(p, 'and_rules');
  if (and) return all(objs(and, 'rules'), (x) => matchPermission(x, ctx));
  const or = obj(p, 'or_rules');
  if (or) return some(objs(or, 'rules'), (x) => matchPermission(x, ctx));
  const not = obj(p, 'not_rule');
  if (not) return invert(matchPermission(not, ctx));
  const header = obj(p, 'header');
  if (header) return headerMatcherFor(header, ctx.headers);
  const urlPath = obj(obj(p, 'url_path'), 'path');
  if (urlPath) {
    const r = stringMatch(urlPath, ctx.path);
    return r.match ? yes(`path ${ctx.path} matches ${r.describe}`) : no(`path ${ctx.path} does not match ${r.describe}`);
  }
  const port = num(p, 'destination_port');
  if (port !== undefined) return port === ctx.port ? yes(`port ${ctx.port}`) : no(`port ${ctx.port} is not ${port}`);
  if (obj(p, 'destination_ip')) return cidr(obj(p, 'destination_ip'), ctx.address, 'destination IP');
  const sni = obj(p, 'requested_server_name');
  if (sni) {
    const r = stringMatch(sni, ctx.sni);
    return r.match ? yes(`SNI matches ${r.describe}`) : no(`SNI "${ctx.sni}" does not match ${r.describe}`);
  }
  if (obj(p, 'metadata')) return metadataUnknown(obj(p, 'metadata'));
  return no(`unsupported permission ${isObj(p) ? Object.keys(p).join(',') : ''}`);
}

export function matchPrincipal(p: J, ctx: SimCtx): Outcome {
  if (bool(p, 'any') === true) return yes('any');
  const and = obj(p, 'and_ids');
  if (and) return all(objs(and, 'ids'), (x) => matchPrincipal(x, ctx));
  const or = obj(p, 'or_ids');
  if (or) return some(objs(or, 'ids'), (x) => matchPrincipal(x, ctx));
  const not = obj(p, 'not_id');
  if (not) return invert(matchPrincipal(not, ctx));
  const authn = obj(p, 'authenticated');
  if (authn) {
    const principal = ctx.source.principal;
    if (principal === undefined) return no('no peer identity (no --source-principal / --source-namespace)');
    const m = obj(authn, 'principal_name');
    if (!m) return yes('authenticated');
    const r = stringMatch(m, principal);
    return r.match ? yes(`principal ${principal} matches ${r.describe}`) : no(`principal ${principal} does not match ${r.describe}`);
  }
  if (obj(p, 'direct_remote_ip')) return cidr(obj(p, 'direct_remote_ip'), ctx.source.ip, 'source IP');
  if (obj(p, 'source_ip')) return cidr(obj(p, 'source_ip'), ctx.source.ip, 'source IP');
  if (obj(p, 'remote_ip')) return cidr(obj(p, 'remote_ip'), ctx.source.ip, 'remote IP');
  const header = obj(p, 'header');
  if (header) return headerMatcherFor(header, ctx.headers);
  if (obj(p, 'metadata')) return metadataUnknown(obj(p, 'metadata'));
  return no(`unsupported principal ${isObj(p) ? Object.keys(p).join(',') : ''}`);
}

/** One RBAC policy: some permission and some principal must match. */
function matchPolicy(policy: J, ctx: SimCtx): Outcome {
  const perm = some(objs(policy, 'permissions'), (x) => matchPermission(x, ctx));
  if (!perm.match) return perm;
  return some(objs(policy, 'principals'), (x) => matchPrincipal(x, ctx));
}

/** `ns[NS]-policy[NAME]-rule[i]` → `NS/NAME` and i (istiod's policy names; other names are kept as they are). */
export function policyOf(name: string): { policy: string; rule?: number } {
  const m = /ns\[([^\]]*)\]-policy\[([^\]]*)\]-rule\[(\d+)\]/.exec(name);
  return m ? { policy: `${m[1]}/${m[2]}`, rule: Number(m[3]) } : { policy: name };
}

interface Engine {
  action: 'ALLOW' | 'DENY' | 'LOG';
  policies: [string, J][];
}

function engine(rules: J | undefined): Engine | undefined {
  if (!rules) return undefined;
  const a = str(rules, 'action') ?? 'ALLOW';
  const action = a === 'DENY' ? 'DENY' : a === 'LOG' ? 'LOG' : 'ALLOW';
  const p = obj(rules, 'policies') ?? {};
  const policies = Object.keys(p)
    .sort()
    .map((k) => [k, obj(p, k) ?? {}] as [string, J]);
  return { action, policies };
}

export interface RbacWalk {
  authorization?: SimAuthorization;
  rejected: Rejection[];
  notes: string[];
  denied: boolean;
}

const RBAC_TYPES = ['envoy.extensions.filters.http.rbac.v3.RBAC', 'envoy.extensions.filters.network.rbac.v3.RBAC'];

/** The RBAC configs among filters (HCM http_filters or a chain's network filters), in order. */
export function rbacConfigsOf(filters: J[]): J[] {
  return filters
    .filter((f) => {
      const t = str(obj(f, 'typed_config'), '@type') ?? '';
      const n = str(f, 'name') ?? '';
      return RBAC_TYPES.some((x) => t.endsWith(x)) || n === 'envoy.filters.http.rbac' || n === 'envoy.filters.network.rbac';
    })
    .map((f) => obj(f, 'typed_config') ?? {});
}

/** Runs every RBAC filter in order; the first denial ends the walk. undefined when there are no RBAC filters. */
export function walkRbac(configs: J[], ctx: SimCtx): RbacWalk | undefined {
  if (configs.length === 0) return undefined;
  const w: RbacWalk = { rejected: [], notes: [], denied: false };
  let allowedBy: { policy: string; rule?: number } | undefined;
  let custom: { policy: string; rule?: number; provider: string } | undefined;
  for (const cfg of configs) {
    const shadow = engine(obj(cfg, 'shadow_rules'));
    // CUSTOM with an extension provider: the shadow DENY rules only choose which requests the ext_authz filter
    // after this one checks (its filter_enabled_metadata); the external server's answer decides.
    if (str(cfg, 'shadow_rules_stat_prefix') === EXT_AUTHZ_SHADOW_PREFIX) {
      for (const [name, pol] of shadow?.policies ?? []) {
        const r = matchPolicy(pol, ctx);
        if (!r.match) {
          w.rejected.push({ hop: 'authorization', name, reason: `CUSTOM policy ${policyOf(name).policy} does not match: ${r.why}` });
          continue;
        }
        const provider = /^istio-ext-authz-(.*)-ns\[/.exec(name)?.[1] ?? '';
        custom = { ...policyOf(name), provider };
        w.notes.push(
          `CUSTOM policy ${custom.policy} (${name}) matches: the request is sent to the ext_authz provider ${provider}; the outcome is decided by the external server (the simulator assumes it allows)`,
        );
        break;
      }
      continue;
    }
    for (const [name, pol] of shadow?.policies ?? []) {
      const r = matchPolicy(pol, ctx);
      if (r.match && shadow?.action !== 'LOG')
        w.notes.push(
          `dry-run ${shadow?.action} policy ${policyOf(name).policy} (${name}) would match: the request would be ${shadow?.action === 'DENY' ? 'denied' : 'allowed by it'} if enforced`,
        );
    }
    const e = engine(obj(cfg, 'rules'));
    if (!e) continue;
    let matched: string | undefined;
    for (const [name, pol] of e.policies) {
      const r = matchPolicy(pol, ctx);
      if (r.match) {
        matched = name;
        break;
      }
      w.rejected.push({ hop: 'authorization', name, reason: `${e.action} policy ${policyOf(name).policy} does not match: ${r.why}` });
    }
    if (e.action === 'LOG') {
      if (matched) w.notes.push(`AUDIT policy ${policyOf(matched).policy} (${matched}) matches: the request is logged`);
      continue;
    }
    if (e.action === 'DENY' && matched) {
      const p = policyOf(matched);
      w.authorization = {
        decision: 'deny',
        policy: p.policy,
        ...(p.rule !== undefined ? { rule: p.rule } : {}),
        reason: `DENY policy ${matched} matches`,
      };
      w.denied = true;
      return w;
    }
    if (e.action === 'ALLOW') {
      if (!matched) {
        const first = e.policies[0]?.[0];
        const p = first ? policyOf(first) : undefined;
        w.authorization = {
          decision: 'deny',
          ...(p ? { policy: p.policy } : {}),
          reason:
            e.policies.length === 0
              ? 'ALLOW policies apply but none has a rule usable here: nothing is allowed'
              : 'no ALLOW policy matches',
        };
        w.denied = true;
        return w;
      }
      allowedBy = policyOf(matched);
    }
  }
  const by = allowedBy ?? custom;
  const extNote = custom
    ? `the request is sent to the ext_authz provider ${custom.provider} (CUSTOM policy ${custom.policy}); the outcome is decided by the external server`
    : undefined;
  w.authorization = by
    ? {
        decision: 'allow',
        policy: by.policy,
        ...(by.rule !== undefined ? { rule: by.rule } : {}),
        ...(extNote ? { reason: extNote } : {}),
      }
    : { decision: 'allow', reason: 'no DENY policy matches and no ALLOW policy applies' };
  return w;
}
