// The Envoy matchers istiod builds from AuthorizationPolicy values (pilot/pkg/security/authz/matcher:
// StringMatcherWithPrefix, HeaderMatcher, HostMatcher, PathMatcher, StringMatcherRegex; util.AddrStrToCidrRange).
// A value is exact, `prefix*`, `*suffix` or `*` (presence / any).
import type { CidrRangeJson } from '../../gen/envoy/config/core/v3/address_pb';
import type { HeaderMatcherJson } from '../../gen/envoy/config/route/v3/route_components_pb';
import type { StringMatcherJson } from '../../gen/envoy/type/matcher/v3/string_pb';
import { isIP } from '../../model/schema/rules';

export const regex = (r: string): StringMatcherJson => ({ safeRegex: { googleRe2: {}, regex: r } }) as StringMatcherJson;
export const MATCH_ANY_REGEX = '.+';

/** matcher.StringMatcherWithPrefix: `*` → any, `*x` → regex `prefix.*x` (suffix when no prefix), `x*` → prefix, else exact. */
export function stringMatcherWithPrefix(v: string, prefix: string): StringMatcherJson {
  if (v === '*') return regex(MATCH_ANY_REGEX);
  if (v.startsWith('*')) return prefix === '' ? { suffix: v.slice(1) } : regex(`${prefix}.*${v.slice(1)}`);
  if (v.endsWith('*')) return { prefix: prefix + v.slice(0, -1) };
  return { exact: prefix + v };
}

/** matcher.StringMatcher: a plain value with `*` wildcards at either end. */
export function stringMatcher(v: string): StringMatcherJson {
  if (v === '*') return regex(MATCH_ANY_REGEX);
  if (v.startsWith('*')) return { suffix: v.slice(1) };
  if (v.endsWith('*')) return { prefix: v.slice(0, -1) };
  return { exact: v };
}

/** matcher.HeaderMatcher (methods): the deprecated exact/prefix/suffix fields istiod still writes; `*` → present. */
export function headerMatcher(name: string, v: string): HeaderMatcherJson {
  if (v === '*') return { name, presentMatch: true };
  if (v.startsWith('*')) return { name, suffixMatch: v.slice(1) };
  if (v.endsWith('*')) return { name, prefixMatch: v.slice(0, -1) };
  return { name, exactMatch: v };
}

/** matcher.HostMatcher: `:authority` compared ignoring case. */
export function hostMatcher(name: string, v: string): HeaderMatcherJson {
  if (v === '*') return { name, presentMatch: true };
  if (v.startsWith('*')) return { name, stringMatch: { ignoreCase: true, suffix: v.slice(1) } };
  if (v.endsWith('*')) return { name, stringMatch: { ignoreCase: true, prefix: v.slice(0, -1) } };
  return { name, stringMatch: { exact: v, ignoreCase: true } };
}

const quoteMeta = (s: string): string => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&');

/** matcher.HeaderMatcher for `request.headers[...]` conditions: the value anywhere in a comma-separated list. */
export function requestHeaderMatcher(name: string, v: string): HeaderMatcherJson {
  if (v === '*') return { name, presentMatch: true };
  const p = quoteMeta(v).replace(/\*/g, '.*');
  return { name, safeRegexMatch: { googleRe2: {}, regex: `^${p}$|^${p},.*|.*,${p},.*|.*,${p}$` } } as HeaderMatcherJson;
}

/** util.AddrStrToCidrRange: `1.2.3.4` → /32 (/128 for IPv6), `5.6.0.0/16` as written. */
export function cidrRange(v: string): CidrRangeJson {
  const [ip = '', bits] = v.split('/');
  if (!isIP(ip)) throw new Error(`invalid IP address ${v}`);
  const max = ip.includes(':') ? 128 : 32;
  const len = bits === undefined ? max : Number(bits);
  if (!/^\d+$/.test(bits ?? String(max)) || len > max) throw new Error(`invalid CIDR range ${v}`);
  return { addressPrefix: ip, prefixLen: len };
}

/** convertToPort: a decimal port 0..65535. */
export function toPort(v: string): number {
  const n = /^\d+$/.test(v) ? Number(v) : Number.NaN;
  if (!(n >= 0 && n <= 65535)) throw new Error(`invalid port ${v}`);
  return n;
}
